/**
 * Stage 1: the regression suite. Every security property (THREAT_MODEL.md properties 1-12, wire
 * format in PROTOCOL.md) that can be
 * observed from outside (handshake confirmation, server pinning, request and response
 * authentication, replay, lifecycle, streams, limits, errors) is asserted against the live target, each printed with what was expected
 * and what actually happened. A man in the middle is played by the bench transport (the client's
 * `fetch` option): it rewrites one outgoing request (body byte, tag byte, each field of the `nen`
 * header, `nen-type`, the path, the query, the method, the content type) or replaces the incoming
 * response (tampered body, status, substituted response, plaintext response, truncated /
 * reordered / duplicated stream records). Replays, terminated and expired sessions, oversize and
 * malformed requests are sent raw, from requests captured on the wire without being delivered.
 *
 * Wire format facts used (packages/core/src/protocol/constants.ts, PROTOCOL.md): request header
 * `nen: 1.<sid b64url>.<epoch>.<seq>.<ts ms>.<flags>`, `nen-type` (plaintext content type, in
 * the AAD), body `application/nen` (ciphertext || 16-byte tag), GET's sealed record in
 * `nen-body`; responses carry `nen: 1.<flags>`; protocol errors a `nen-error` code; streams are
 * `application/nen-stream` records framed as u32 big-endian length || sealed record.
 *
 * Pitfalls: the client may legitimately re-handshake and retry once after a 401, so the tamper
 * hooks touch only the first application request and the asserted status is the one the tampered
 * request got on the wire; every check has a timeout, so a hang is a failure, not a stuck run.
 * The harness and the check groups live in stages/regression/ (harness, requests, sessions,
 * responses, util); this module runs the groups in report order.
 */
import { makeHarness } from './regression/harness.js';
import { happyPathChecks, tamperedRequestChecks } from './regression/requests.js';
import { handshakeChecks, sessionActionChecks, replayLifecycleChecks } from './regression/sessions.js';
import { responseChecks, streamChecks, limitChecks } from './regression/responses.js';

export { splitRecords } from './regression/util.js';

export async function run(ctx) {
  const h = makeHarness(ctx);
  // in report order: each group awaits its checks one after another
  for (const group of [
    happyPathChecks,
    tamperedRequestChecks,
    handshakeChecks,
    sessionActionChecks,
    replayLifecycleChecks,
    responseChecks,
    streamChecks,
    limitChecks,
  ]) {
    await group(h);
  }
  const { checks } = h;

  const passed = checks.filter((c) => c.pass).length;
  const failed = checks.filter((c) => !c.pass);
  return {
    ok: failed.length === 0,
    failure: failed.length ? `regression: ${failed.length} of ${checks.length} checks failed: ${failed.map((c) => c.name).join('; ')}` : null,
    data: { passed, total: checks.length, checks },
  };
}
