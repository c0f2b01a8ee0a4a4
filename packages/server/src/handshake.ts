/**
 * The handshake route (`POST <sessionPath>/handshake`; PROTOCOL.md "Handshake"; THREAT_MODEL.md
 * properties 1-3, 12): the per-instance ceiling, the rate limit per client address (only when a
 * trusted proxy or `clientAddress` names one), the ClientHello read within 4096 bytes,
 * `serverHandshake` (the KEM work, in @nen/core), one store write, the ServerHello.
 *
 * Pitfalls:
 *  - The session secret is wiped once the store and the key cache hold their own copies.
 *  - The new session's keys go straight into the key cache: the first request needs no store.get.
 *  - A 429 carries Retry-After; the limiter's memory is bounded (./ratelimit.ts).
 *  - The session is unconfirmed until a request commits on it: it dies after `unconfirmedMs`
 *    (`confirmBy`), so handshakes that are never used leave no state behind for long.
 *  - `parts` (the node:http adapter, session-routes.ts SEALED_PARTS): the ServerHello goes back as
 *    its parts (sealed-parts.ts), with its content-length, for the adapter to write itself; an
 *    undici Response would make its body a web stream the adapter then reads back (issue 21).
 *    Refusals stay Responses. The same status, headers and body either way.
 */
import { MEDIA_TYPE, SESSION_ID_LENGTH, SessionKeys, kemName, serverHandshake, toBase64Url, wireError } from '@nen/core';
import { errorResponse, readBody } from './http.js';
import type { ServerContext } from './pipeline.js';
import type { HandshakeRateLimiter } from './ratelimit.js';
import type { SealedParts } from './sealed-parts.js';
import type { SessionRecord } from './stores/types.js';

/** A list, not a record: cheaper for undici's Response constructor (fewer WebIDL conversions). */
const HANDSHAKE_HEADERS: [string, string][] = [
  ['content-type', MEDIA_TYPE.handshake],
  ['cache-control', 'no-store'],
];
/** The same headers as one flat name, value list (sealed-parts.ts), for the parts answer. */
const HANDSHAKE_HEADER_LIST = HANDSHAKE_HEADERS.flat();

export async function handshakeRoute(ctx: ServerContext, limiter: HandshakeRateLimiter, request: Request, parts = false): Promise<Response | SealedParts> {
  const { s } = ctx;
  const now = s.clock();
  if (!limiter.ceiling.take(now)) {
    s.log({
      level: 'warn',
      event: 'request.rejected',
      code: 'NEN_RATE_LIMITED',
      reason: `per-instance handshake ceiling (${limiter.ceiling.perSecond}/s)`,
      status: 429,
    });
    return errorResponse('NEN_RATE_LIMITED', { 'retry-after': '1' });
  }
  const addr = s.clientAddress(request);
  if (addr && !limiter.take(addr, now)) {
    s.log({ level: 'warn', event: 'request.rejected', code: 'NEN_RATE_LIMITED', reason: `handshake rate limit for ${addr}`, status: 429 });
    return errorResponse('NEN_RATE_LIMITED', { 'retry-after': String(limiter.retryAfter(addr, now)) });
  }
  const ct = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (ct !== MEDIA_TYPE.handshake) throw wireError('NEN_CONTENT_TYPE', `handshake content-type ${JSON.stringify(ct.slice(0, 60))}`);
  const hello = await readBody(request, 4096);
  const st = ctx.keyring.current ?? (await ctx.keyring.load());
  const sessionId = st.backend.randomBytes(SESSION_ID_LENGTH);
  const r = serverHandshake(st.backend, hello, { keys: st.keyMap, sessionId, maxLifetime: s.ttlS, idleTimeout: s.idleS, now });
  const id = toBase64Url(sessionId);
  const rec: SessionRecord = {
    id,
    secret: r.secret,
    meta: { kem: r.hello.kem, kid: r.hello.kid ?? null, lifetime: r.lifetime },
    epoch: 0,
    createdAt: now,
    expiresAt: now + r.lifetime * 1000,
    idleTimeoutMs: s.idleS * 1000,
    lastSeenAt: now,
    confirmBy: now + s.unconfirmedMs,
  };
  await ctx.store.create(rec);
  ctx.cache.release(ctx.cache.put(id, 0, new SessionKeys(st.backend, r.secret, 0)));
  r.secret.fill(0);
  s.log({
    level: 'info',
    event: 'handshake',
    session: id.slice(0, 8),
    reason: `kem ${kemName(r.hello.kem)}${r.hello.kid ? ` pinned ${r.hello.kid}` : ' unpinned'}`,
  });
  if (!parts) return new Response(r.response as Uint8Array<ArrayBuffer>, { status: 200, headers: HANDSHAKE_HEADERS });
  return {
    status: 200,
    statusText: '',
    headers: [...HANDSHAKE_HEADER_LIST, 'content-length', String(r.response.byteLength)],
    body: [r.response],
  };
}
