/**
 * The server's answers that PROTOCOL.md states for an independent implementer, part 2 (part 1,
 * the refusals and the session routes' fields: ./protocol-answers.test.ts), with the same minimal
 * client (./protocol-answers-client.ts) against real `createNen()` route handlers:
 *  - HEAD and null-body responses: content type, `nen-body`, empty body;
 *  - rotate sent under the previous epoch during the grace period;
 *  - the confidential query reaches the handler raw; streamed uploads: which routes take them,
 *    how the handler reads them, and what a missing final record gives;
 *  - step 8 deferred (lazyJson): bad JSON reaches the handler, request.json() fails sealed.
 * Pitfall: the expected answers come from the vectors' `answers` section (ANSWERS), not literals,
 * wherever PROTOCOL.md states them.
 */
import { describe, expect, it } from 'vitest';
import { SessionKeys, nextEpochSecret } from '@nen/core';
import { ANSWERS, ORIGIN, type Session, enc, handshake, open, openJson, seal, server, wireError } from './protocol-answers-client.js';

describe('PROTOCOL.md answers for an independent implementer', () => {
  headRotateAndQuery();

  uploadsAndLazyJson();
});

/** HEAD and null bodies, rotate under the previous epoch, the confidential query. */
function headRotateAndQuery(): void {
  it('HEAD and null-body responses: content-type application/nen, the record in nen-body, an empty body', async () => {
    const s = await server();
    const ses = await handshake(s);
    const head = seal(s, ses, 'HEAD', '/api/x');
    const r1 = await s.route(head.request);
    expect(r1.status).toBe(200);
    expect(r1.headers.get('content-type')).toBe(ANSWERS.bodilessResponses.contentType);
    expect(r1.headers.get('nen-body')).not.toBeNull();
    expect(r1.body).toBeNull();
    expect((await open(ses, head, r1)).type).toBe('application/json'); // the GET body's type, bound; body not sent
    const del = seal(s, ses, 'DELETE', '/api/x');
    const r2 = await s.route(del.request);
    expect(r2.status).toBe(204);
    expect(r2.headers.get('content-type')).toBe('application/nen');
    expect(r2.headers.get('nen-type')).toBeNull();
    expect(r2.body).toBeNull();
    const o = await open(ses, del, r2);
    expect(o.plain.length).toBe(0);
    await s.nen.close();
  });

  it('rotate sent under the previous epoch during the grace period: 401 NEN_SESSION_UNKNOWN, its sequence number consumed', async () => {
    const s = await server({ rotateGraceMs: 30_000 });
    const ses = await handshake(s);
    const rot = seal(s, ses, 'POST', '/api/nen/rotate');
    expect(await openJson(ses, rot, await s.nen.routes.POST(rot.request))).toEqual({ epoch: 1 });
    // Still epoch 0 on this side (as a client whose rotate answer was lost): ordinary requests pass in the grace period...
    const ok = seal(s, ses, 'POST', '/api/x');
    expect((await s.route(ok.request)).status).toBe(200);
    const st = seal(s, ses, 'POST', '/api/nen/status');
    expect(await openJson(ses, st, await s.nen.routes.POST(st.request))).toMatchObject({ epoch: 1 });
    // ...but not rotate.
    const again = seal(s, ses, 'POST', '/api/nen/rotate');
    const replay = again.request.clone();
    const want = ANSWERS.rotateUnderPreviousEpochInGrace;
    expect(await wireError(await s.nen.routes.POST(again.request))).toEqual({ status: want.status, code: want.code });
    expect(want.sequenceNumberConsumed).toBe(true);
    expect(await wireError(await s.nen.routes.POST(replay))).toEqual({ status: 409, code: 'NEN_REPLAY' });
    // Under epoch 1 (S_1 = HKDF-Expand(S_0, "nen/1 rekey", 32)) the session goes on, sequence numbers continuing.
    const s1 = nextEpochSecret(s.be, ses.secret);
    const next: Session = { ...ses, epoch: 1, keys: new SessionKeys(s.be, s1, 1), secret: s1 };
    const r2 = seal(s, next, 'POST', '/api/nen/rotate');
    expect(await openJson(next, r2, await s.nen.routes.POST(r2.request))).toEqual({ epoch: 2 });
    // After the grace period, epoch 0 is gone for everything.
    s.clock.now += 30_001;
    const late = seal(s, ses, 'POST', '/api/x', { seq: 100n });
    expect(await wireError(await s.route(late.request))).toEqual({ status: 401, code: 'NEN_SESSION_UNKNOWN' });
    await s.nen.close();
  });

  it('the confidential query reaches the handler raw (not canonicalised); the AAD binds the path alone', async () => {
    const s = await server();
    const ses = await handshake(s);
    const sent = seal(s, ses, 'GET', '/api/search', { flags: 2, query: 'q=a%20b&tag=~x' });
    expect(await openJson(ses, sent, await s.route(sent.request))).toEqual({ url: `${ORIGIN}/api/search?q=a%20b&tag=~x` });
    // An empty q restores a URL without "?".
    const empty = seal(s, ses, 'GET', '/api/search', { flags: 2, query: '' });
    expect(await openJson(ses, empty, await s.route(empty.request))).toEqual({ url: `${ORIGIN}/api/search` });
    await s.nen.close();
  });
}

/** Streamed uploads, a missing final record, and the deferred JSON step. */
function uploadsAndLazyJson(): void {
  it('streamed uploads: withNen, withNenStream and the session actions take them; the handler reads plaintext chunks', async () => {
    const s = await server();
    const ses = await handshake(s);
    const up = seal(s, ses, 'POST', '/api/upload', { flags: 4, type: 'text/plain', stream: [enc.encode('hello '), enc.encode('world')] });
    expect(await openJson(ses, up, await s.route(up.request))).toEqual({ got: 'hello world' });
    const toStream = seal(s, ses, 'POST', '/api/stream', { flags: 4, stream: [enc.encode('x')] });
    const sr = await s.streamRoute(toStream.request);
    expect(sr.status).toBe(200);
    expect(sr.headers.get('content-type')).toBe('application/nen-stream');
    await sr.arrayBuffer();
    const st = seal(s, ses, 'POST', '/api/nen/status', { flags: 4, stream: [enc.encode('ignored')] });
    expect(await openJson(ses, st, await s.nen.routes.POST(st.request))).toMatchObject({ id: ses.sid });
    await s.nen.close();
  });

  it('an upload without its final record: before the first record 400 NEN_STREAM_TRUNCATED (handler not run); after it the handler body stream errors with NEN_STREAM_TRUNCATED and a handler that lets it propagate gives a sealed 400 with that code', async () => {
    const s = await server();
    const ses = await handshake(s);
    const none = seal(s, ses, 'POST', '/api/upload', { flags: 4, stream: 'partial-first' });
    const want = ANSWERS.streams.uploadWithoutFinalRecord;
    expect(await wireError(await s.route(none.request))).toEqual({ status: want.beforeFirstRecord.status, code: want.beforeFirstRecord.code });
    expect(s.runs.n).toBe(0);
    const cut = seal(s, ses, 'POST', '/api/upload', { flags: 4, stream: 'no-final' });
    const res = await s.route(cut.request);
    expect(s.runs.n).toBe(1);
    expect(s.seen.at(-1)).toMatchObject({ body: 'part one ', error: want.afterFirstRecord.handlerBodyError });
    expect(res.status).toBe(want.afterFirstRecord.status);
    expect(await openJson(ses, cut, res)).toEqual(want.afterFirstRecord.body);
    await s.nen.close();
  });

  it('step 8 deferred (lazyJson route): the handler runs on bad JSON it never parses; request.json() of bad JSON or bad UTF-8 gives a sealed 400 NEN_BAD_JSON; the eager route still refuses before the handler', async () => {
    const s = await server();
    const ses = await handshake(s);
    const read: string[] = [];
    const bytes = s.nen.withNen(async (req: Request) => ({ n: (await req.bytes()).length }), { lazyJson: true });
    const parsed = s.nen.withNen(async (req: Request, _c: unknown, body: unknown) => ({ got: await req.json(), body: body ?? null }), { lazyJson: true });
    const caught = s.nen.withNen(
      async (req: Request) => {
        try {
          return await req.json();
        } catch (e) {
          read.push((e as { code?: string }).code ?? String(e));
          return new Response('bad', { status: 422 });
        }
      },
      { lazyJson: true },
    );
    const bad = enc.encode('{not json');
    const type = 'application/json';
    const a = seal(s, ses, 'POST', '/api/bytes', { type, body: bad });
    expect(await openJson(ses, a, await bytes(a.request, {}))).toEqual({ n: bad.length });
    const b = seal(s, ses, 'POST', '/api/json', { type, body: enc.encode('{"a":[1]}') });
    expect(await openJson(ses, b, await parsed(b.request, {}))).toEqual({ got: { a: [1] }, body: null }); // no parsed body argument
    for (const body of [bad, new Uint8Array([0x22, 0xff, 0x22])]) {
      const c = seal(s, ses, 'POST', '/api/json', { type: 'application/vnd.x+json; charset=utf-8', body });
      const res = await parsed(c.request, {});
      expect(res.status).toBe(400);
      expect(await openJson(ses, c, res)).toMatchObject({ error: { code: 'NEN_BAD_JSON' } });
    }
    const d = seal(s, ses, 'POST', '/api/caught', { type, body: bad });
    expect((await open(ses, d, await caught(d.request, {}))).status).toBe(422); // the handler's own answer
    expect(read).toEqual(['NEN_BAD_JSON']);
    // the default (eager) route: unauthenticated 400 NEN_BAD_JSON, handler not run
    const before = s.runs.n;
    const e = seal(s, ses, 'POST', '/api/echo', { type, body: bad });
    expect(await wireError(await s.route(e.request))).toEqual({ status: 400, code: 'NEN_BAD_JSON' });
    expect(s.runs.n).toBe(before);
    await s.nen.close();
  });
}
