/**
 * The server's answers that PROTOCOL.md states for an independent implementer (issue 10, item 3),
 * checked with a minimal client built only from the wire codec (handshake, AAD, AEAD, records),
 * as an implementation in another language would be, against real `createNen()` route handlers:
 *  - every 400 (and the other pre-handler errors) with its `nen-error` code, and the error format;
 *  - the lifetime the server grants for a requested 0 / smaller / larger lifetime;
 *  - `status` and `keys`: field names, JSON types and units;
 *  - HEAD and null-body responses: content type, `nen-body`, empty body;
 *  - rotate sent under the previous epoch during the grace period;
 *  - the confidential query reaches the handler raw; streamed uploads: which routes take them,
 *    how the handler reads them, and what a missing final record gives.
 * The minimal client and the expected answers are in ./protocol-answers-client.ts; the answers
 * are the `answers` section of packages/core/src/protocol/worked-example.vectors.json
 * (the machine-readable form of PROTOCOL.md), so that file and the server cannot disagree.
 */
import { describe, expect, it } from 'vitest';
import { KEM_ID, KEM_SIZES, SessionKeys, clientHandshakeStart, encodeClientHello, fromBase64Url, nextEpochSecret, parseServerKeyPin } from '@nen/core';
import {
  ANSWERS,
  HANDSHAKE_REFUSALS,
  ORIGIN,
  REFUSALS,
  type Session,
  checkAll,
  enc,
  handshake,
  open,
  openJson,
  seal,
  server,
  wireError,
} from './protocol-answers-client.js';
describe('PROTOCOL.md answers for an independent implementer', () => {
  it('every pre-handler 400 has its code (and 401/409/413/415 around it)', async () => {
    const s = await server();
    const ses = await handshake(s);
    const first = seal(s, ses, 'POST', '/api/x');
    const again = first.request.clone();
    const cases: [string, () => Request][] = [
      ['no nen header', () => new Request(`${ORIGIN}/api/x`, { method: 'POST', body: 'x' })],
      [
        'nen header with 5 fields',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.0.1.1`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      [
        'nen header version 2',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `2.${ses.sid}.0.1.${s.clock.now}.0`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      [
        'leading zero in a number',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.00.1.${s.clock.now}.0`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      [
        'unknown flag bit',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.0.1.${s.clock.now}.32`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      [
        'timestamp 31 s off',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.0.1.${s.clock.now - 31_000}.0`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      ['CONFIDENTIAL_QUERY with a query in the URL', () => seal(s, ses, 'GET', '/api/x?a=1', { flags: 2, query: 'a=1' }).request],
      ['nen-type longer than 256 bytes', () => seal(s, ses, 'POST', '/api/x', { type: `text/${'a'.repeat(252)}` }).request],
      ['GET without nen-body', () => new Request(`${ORIGIN}/api/x`, { headers: { nen: `1.${ses.sid}.0.90.${s.clock.now}.0` } })],
      ['nen-body not base64url', () => new Request(`${ORIGIN}/api/x`, { headers: { nen: `1.${ses.sid}.0.91.${s.clock.now}.0`, 'nen-body': 'ab+/' } })],
      [
        'STREAM flag on GET',
        () => new Request(`${ORIGIN}/api/x`, { headers: { nen: `1.${ses.sid}.0.92.${s.clock.now}.4`, 'nen-body': 'AAAAAAAAAAAAAAAAAAAAAA' } }),
      ],
      ['wrong content type', () => seal(s, ses, 'POST', '/api/x', { headers: { 'content-type': 'application/json' } }).request],
      ['STREAM flag with application/nen', () => seal(s, ses, 'POST', '/api/x', { flags: 4 }).request],
      ['STREAM with COMPRESSED', () => seal(s, ses, 'POST', '/api/x', { flags: 5, stream: [enc.encode('a')] }).request],
      ['STREAM with CONFIDENTIAL_QUERY', () => seal(s, ses, 'POST', '/api/x', { flags: 6, stream: [enc.encode('a')] }).request],
      ['RETRY flag without nen-retry', () => seal(s, ses, 'POST', '/api/x', { flags: 16 }).request],
      [
        'invalid content-length',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.0.93.${s.clock.now}.0`, 'content-type': 'application/nen', 'content-length': '-1' },
            body: new Uint8Array(16),
          }),
      ],
      [
        'sealed body shorter than the tag',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.0.94.${s.clock.now}.0`, 'content-type': 'application/nen' },
            body: new Uint8Array(15),
          }),
      ],
      [
        'unknown session',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${'A'.repeat(22)}.0.1.${s.clock.now}.0`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      [
        'epoch that was never current',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.1.95.${s.clock.now}.0`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      [
        'tag does not verify',
        () =>
          new Request(`${ORIGIN}/api/x`, {
            method: 'POST',
            headers: { nen: `1.${ses.sid}.0.96.${s.clock.now}.0`, 'content-type': 'application/nen' },
            body: new Uint8Array(16),
          }),
      ],
      ['confidential-query envelope shorter than its u16 length', () => seal(s, ses, 'POST', '/api/x', { flags: 2, body: new Uint8Array([0]) }).request],
      ['confidential query that is not UTF-8', () => seal(s, ses, 'POST', '/api/x', { flags: 2, body: new Uint8Array([0, 1, 0xff]) }).request],
      ['COMPRESSED body that is not raw deflate', () => seal(s, ses, 'POST', '/api/x', { flags: 1, body: new Uint8Array([0xff, 0xff, 0xff]) }).request],
      ['application/json plaintext that is not JSON', () => seal(s, ses, 'POST', '/api/x', { type: 'application/json', body: enc.encode('{nope') }).request],
      ['body over the limit', () => seal(s, ses, 'POST', '/api/x', { body: new Uint8Array(4 * 1024 * 1024 + 1) }).request],
    ];
    const got = new Map(cases.map(([name, req]) => [name, () => s.route(req())]));
    got.set('replayed sequence number', async () => {
      expect((await s.route(first.request)).status).toBe(200);
      return s.route(again);
    });
    await checkAll(REFUSALS, got);
    expect(s.runs.n).toBe(1); // the replay's original only
    await s.nen.close();
  });

  it('handshake errors: 400 with NEN_MALFORMED / NEN_UNSUPPORTED_VERSION / NEN_UNSUPPORTED_KEM / NEN_UNKNOWN_KEY_ID, 415, 413', async () => {
    const s = await server();
    const good = clientHandshakeStart(s.be, { pin: parseServerKeyPin(s.pin) }).hello;
    const pk = good.subarray(8, 8 + KEM_SIZES[KEM_ID.XWING].publicKey);
    const mlkemPk = clientHandshakeStart(s.be, { kem: KEM_ID.MLKEM768 }).hello.subarray(8);
    const post = (body: Uint8Array, type = 'application/nen-handshake') =>
      s.nen.routes.POST(
        new Request(`${ORIGIN}/api/nen/handshake`, { method: 'POST', headers: { 'content-type': type }, body: body as Uint8Array<ArrayBuffer> }),
      );
    const withByte = (i: number, v: number) => {
      const b = good.slice();
      b[i] = v;
      return b;
    };
    const cases: [string, Uint8Array, string?][] = [
      ['too short', good.subarray(0, 7)],
      ['one trailing byte', new Uint8Array([...good, 0])],
      ['version 2', withByte(0, 2)],
      ['KEM 0x6400', withByte(2, 0x00)],
      ['reserved flag bit', withByte(3, 3)],
      ['kid with a "."', encodeClientHello({ version: 1, kem: KEM_ID.XWING, flags: 1, lifetime: 0, pkEph: pk, kid: 'k.1', encStatic: new Uint8Array(1120) })],
      ['unknown kid', encodeClientHello({ version: 1, kem: KEM_ID.XWING, flags: 1, lifetime: 0, pkEph: pk, kid: 'k2', encStatic: new Uint8Array(1120) })],
      [
        'kid of another KEM',
        encodeClientHello({ version: 1, kem: KEM_ID.MLKEM768, flags: 1, lifetime: 0, pkEph: mlkemPk, kid: 'k1', encStatic: new Uint8Array(1088) }),
      ],
      ['wrong content type', good, 'application/octet-stream'],
      ['over 4096 bytes', new Uint8Array(4097)],
    ];
    const got = new Map(cases.map(([name, body, type]) => [name, () => post(body, type)]));
    got.set('GET', () => s.nen.routes.GET(new Request(`${ORIGIN}/api/nen/handshake`)));
    got.set('unknown action', () => s.nen.routes.POST(new Request(`${ORIGIN}/api/nen/nope`, { method: 'POST' })));
    await checkAll(HANDSHAKE_REFUSALS, got);
    await s.nen.close();
  });

  it('lifetime: 0 asks for the server maximum; a smaller value is granted as is; a larger one is capped', async () => {
    const s = await server({ sessionTtlSeconds: ANSWERS.lifetime.serverMaximum });
    for (const g of ANSWERS.lifetime.grants) expect((await handshake(s, { lifetime: g.requested })).lifetime).toBe(g.granted);
    const ses = await handshake(s, { lifetime: 60 });
    const sent = seal(s, ses, 'POST', '/api/nen/status');
    const st = await openJson(ses, sent, await s.nen.routes.POST(sent.request));
    expect(st.expiresAt).toBe(ses.serverTime + 60_000);
    await s.nen.close();
  });

  it('status and keys: field names, JSON types and units', async () => {
    const s = await server({ idleTimeoutSeconds: 120 });
    const ses = await handshake(s);
    s.clock.now += 5000;
    const sent = seal(s, ses, 'GET', '/api/nen/status');
    const res = await s.nen.routes.GET(sent.request);
    expect(res.headers.get('content-type')).toBe('application/nen');
    const st = await openJson(ses, sent, res);
    expect(Object.keys(st).sort()).toEqual(Object.keys(ANSWERS.status.fields).sort());
    expect(st).toEqual({
      id: ses.sid, // 22 base64url characters
      epoch: 0,
      expiresAt: ses.serverTime + 600_000, // ms since the Unix epoch: handshake time + lifetime
      idleTimeoutSeconds: 120, // seconds
      lastSeenAt: s.clock.now, // ms: this request's commit
      kem: 'xwing',
      keyId: 'k1',
      serverTime: s.clock.now, // ms
    });
    expect(st.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const unpinned = await handshake(s, { pinned: false });
    const sent2 = seal(s, unpinned, 'POST', '/api/nen/status');
    expect(await openJson(unpinned, sent2, await s.nen.routes.POST(sent2.request))).toMatchObject({ kem: 'xwing', keyId: null });

    const keys = await s.nen.routes.GET(new Request(`${ORIGIN}/api/nen/keys`));
    expect(keys.status).toBe(200);
    expect(keys.headers.get('content-type')).toMatch(/^application\/json/);
    expect(keys.headers.get('nen')).toBeNull();
    const body = (await keys.json()) as { keys: { kid: string; kem: string; publicKey: string; pin: string }[] };
    expect(body.keys).toHaveLength(1);
    const k = body.keys[0]!;
    expect(Object.keys(k).sort()).toEqual(Object.keys(ANSWERS.keys.item).sort());
    expect(k.kid).toBe('k1');
    expect(k.kem).toBe('xwing');
    expect(fromBase64Url(k.publicKey)?.length).toBe(1216);
    expect(k.pin).toBe(`${k.kid}:${k.publicKey}`);
    await s.nen.close();
  });

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
});
