/**
 * The server's answers that PROTOCOL.md states for an independent implementer (issue 10, item 3),
 * checked with a minimal client built only from the wire codec (handshake, AAD, AEAD, records),
 * as an implementation in another language would be, against real `createNen()` route handlers:
 *  - every 400 (and the other pre-handler errors) with its `nen-error` code, and the error format;
 *  - the lifetime the server grants for a requested 0 / smaller / larger lifetime;
 *  - `status` and `keys`: field names, JSON types and units;
 * (HEAD and null-body responses, rotate in the grace period, the confidential query, streamed
 * uploads and deferred JSON: ./protocol-answers-exchange.test.ts.)
 * The minimal client and the expected answers are in ./protocol-answers-client.ts; the answers
 * are the `answers` section of packages/core/src/protocol/worked-example.vectors.json
 * (the machine-readable form of PROTOCOL.md), so that file and the server cannot disagree.
 */
import { describe, expect, it } from 'vitest';
import { KEM_ID, KEM_SIZES, clientHandshakeStart, encodeClientHello, fromBase64Url, parseServerKeyPin } from '@nen/core';
import { ANSWERS, HANDSHAKE_REFUSALS, ORIGIN, REFUSALS, checkAll, enc, handshake, openJson, seal, server } from './protocol-answers-client.js';

/** A POST to /api/x with this `nen` header and an unsealed body (16 zero bytes unless given). */
const rawPost = (nen: string, body = new Uint8Array(16), headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/api/x`, { method: 'POST', headers: { nen, 'content-type': 'application/nen', ...headers }, body });

describe('PROTOCOL.md answers for an independent implementer', () => {
  refusals();

  sessionFields();
});

/** The pre-handler refusals and the handshake errors, each with its code. */
function refusals(): void {
  it('every pre-handler 400 has its code (and 401/409/413/415 around it)', async () => {
    const s = await server();
    const ses = await handshake(s);
    const first = seal(s, ses, 'POST', '/api/x');
    const again = first.request.clone();
    const cases: [string, () => Request][] = [
      ['no nen header', () => new Request(`${ORIGIN}/api/x`, { method: 'POST', body: 'x' })],
      ['nen header with 5 fields', () => rawPost(`1.${ses.sid}.0.1.1`)],
      ['nen header version 2', () => rawPost(`2.${ses.sid}.0.1.${s.clock.now}.0`)],
      ['leading zero in a number', () => rawPost(`1.${ses.sid}.00.1.${s.clock.now}.0`)],
      ['unknown flag bit', () => rawPost(`1.${ses.sid}.0.1.${s.clock.now}.32`)],
      ['timestamp 31 s off', () => rawPost(`1.${ses.sid}.0.1.${s.clock.now - 31_000}.0`)],
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
      ['invalid content-length', () => rawPost(`1.${ses.sid}.0.93.${s.clock.now}.0`, new Uint8Array(16), { 'content-length': '-1' })],
      ['sealed body shorter than the tag', () => rawPost(`1.${ses.sid}.0.94.${s.clock.now}.0`, new Uint8Array(15))],
      ['unknown session', () => rawPost(`1.${'A'.repeat(22)}.0.1.${s.clock.now}.0`)],
      ['epoch that was never current', () => rawPost(`1.${ses.sid}.1.95.${s.clock.now}.0`)],
      ['tag does not verify', () => rawPost(`1.${ses.sid}.0.96.${s.clock.now}.0`)],
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
}

/** Granted lifetimes and the status / keys fields. */
function sessionFields(): void {
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
}
