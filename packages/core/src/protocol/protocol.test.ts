/**
 * Unit tests of the protocol codec: strict base64url, the `nen` header, the replay window against
 * a reference model, handshake parsing, nonces and records, under every backend.
 */
import { describe, expect, it } from 'vitest';
import { loadBackend } from '../backend/index.js';
import { KEM_ID, KEM_SIZES } from '../backend/types.js';
import { concatBytes, fromBase64Url, toBase64Url, u16, u32 } from './bytes.js';
import { NenProtocolError } from './codes.js';
import { HS_FLAG, REQ_FLAG } from './constants.js';
import { openRequest, openRequestStream, parseRequest, sealRequest } from './envelope.js';
import { openResponse, parseResponse, sealResponse, sealResponseChunks, sealTextResponseChunks } from './envelope-response.js';
import { SMALL_MESSAGE } from '../backend/node.js';
import {
  clientHandshakeStart,
  decodeClientHello,
  decodeServerHello,
  encodeClientHello,
  encodeServerHelloBody,
  parseServerKeyPin,
  serverHandshake,
} from './handshake.js';
import { SessionKeys, computeNonce, computeNonceWide } from './keys.js';
import { RecordOpener, RecordSealer, formatRequestHeader, parseRequestHeader, requestAad, responseAad } from './message.js';
import { REPLAY_WINDOW_WIDTH, ReplayWindow } from './replay.js';

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof NenProtocolError ? e.code : `other:${String(e)}`;
  }
  return undefined;
}

describe('computeNonce', () => {
  it('is base IV XOR (u32be index || u64be seq), byte for byte, on both sides of 2^32 and 2^53 and at 2^64 - 1', () => {
    const iv = Uint8Array.from({ length: 12 }, (_, i) => (i * 37 + 11) & 0xff);
    const seqs = [1n, 2n, 255n, 256n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n];
    const indices = [0, 1, 255, 256, 65_535, 65_536, 2 ** 24, 2 ** 32 - 1];
    for (const seq of seqs) {
      for (const index of indices) {
        const want = new Uint8Array(12);
        const dv = new DataView(want.buffer);
        dv.setUint32(0, index);
        dv.setBigUint64(4, seq);
        for (let i = 0; i < 12; i++) want[i] = (want[i] as number) ^ (iv[i] as number);
        expect(computeNonce(iv, seq, index)).toEqual(want);
        expect(computeNonceWide(iv, seq, index)).toEqual(want);
      }
    }
    expect(computeNonce(iv, 7n)).toEqual(computeNonce(iv, 7n, 0));
  });
});

describe('base64url', () => {
  it('round-trips and rejects non-canonical input', () => {
    for (let n = 0; n < 40; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 91 + n) & 0xff);
      const s = toBase64Url(b);
      expect(s).toBe(Buffer.from(b).toString('base64url'));
      expect(fromBase64Url(s)).toEqual(b);
    }
    for (const bad of ['A', 'AB=', 'A+B/', 'AB C', 'AR', 'AAB', 'é']) expect(fromBase64Url(bad), bad).toBeNull();
  });
});

describe('nen request header', () => {
  const sid = new Uint8Array(16).fill(3);
  it('round-trips', () => {
    const m = { sessionId: sid, epoch: 7, seq: (1n << 64n) - 1n, timestamp: 1_767_225_600_000, flags: 15 };
    expect(parseRequestHeader(formatRequestHeader(m))).toEqual(m);
  });
  it('rejects every malformed variant with a code', () => {
    const s = toBase64Url(sid);
    const cases: [string | null, string][] = [
      [null, 'NEN_NOT_ENCRYPTED'],
      ['', 'NEN_MALFORMED'],
      [`1.${s}.0.1.5`, 'NEN_MALFORMED'],
      [`2.${s}.0.1.5.0`, 'NEN_UNSUPPORTED_VERSION'],
      [`1.${s}A.0.1.5.0`, 'NEN_MALFORMED'],
      [`1.${s}.-1.1.5.0`, 'NEN_MALFORMED'],
      [`1.${s}.4294967296.1.5.0`, 'NEN_MALFORMED'],
      [`1.${s}.0.0.5.0`, 'NEN_MALFORMED'],
      [`1.${s}.0.18446744073709551616.5.0`, 'NEN_MALFORMED'],
      [`1.${s}.0.1.5.32`, 'NEN_MALFORMED'],
      [`1.${s}.0.1.99999999999999999.0`, 'NEN_MALFORMED'],
      [`1.${s}.0.1.5.0${'0'.repeat(200)}`, 'NEN_MALFORMED'],
      [`1.${s}.0.1e3.5.0`, 'NEN_MALFORMED'],
    ];
    for (const [v, c] of cases)
      expect(
        code(() => parseRequestHeader(v)),
        String(v),
      ).toBe(c);
  });
  it('the AAD separates every field (no ambiguity between method, target and type)', () => {
    const m = { sessionId: sid, epoch: 0, seq: 1n, timestamp: 1, flags: 0 };
    const a = requestAad(m, 'POST', '/a', 'b');
    expect(requestAad(m, 'POST', '/ab', '')).not.toEqual(a);
    expect(requestAad(m, 'POST', '/a?x', 'b')).not.toEqual(a);
    expect(requestAad({ ...m, flags: 2 }, 'POST', '/a', 'b')).not.toEqual(a);
  });
});

describe('replay window (RFC 4303 §3.4.3 style)', () => {
  it('has the required width', () => {
    expect(REPLAY_WINDOW_WIDTH).toBeGreaterThanOrEqual(1024);
  });
  it('agrees with a reference model on random sequences', () => {
    let x = 12345;
    const rnd = () => {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      return x;
    };
    for (let round = 0; round < 20; round++) {
      const w = new ReplayWindow();
      const seen = new Set<bigint>();
      let hi = 0n;
      for (let i = 0; i < 3000; i++) {
        const r = rnd() % 100;
        const seq = BigInt(
          r < 60 ? Math.max(1, Number(hi) - (rnd() % 1100) + 40) : r < 80 ? Number(hi) + 1 + (rnd() % 3000) : Math.max(1, Number(hi) - (rnd() % 50)),
        );
        const want = hi - seq >= 1024n ? 'too-old' : seen.has(seq) ? 'replay' : 'ok';
        expect(w.checkAndAccept(seq)).toBe(want);
        if (want === 'ok') {
          seen.add(seq);
          if (seq > hi) hi = seq;
        }
      }
    }
  });
  it('check does not modify the window (only accept does)', () => {
    const w = new ReplayWindow();
    expect(w.check(5n)).toBe('ok');
    expect(w.check(5n)).toBe('ok');
    w.accept(5n);
    expect(w.check(5n)).toBe('replay');
    expect(w.check(0n)).toBe('too-old');
  });
});

describe.each(['noble', 'wasm', 'node'] as const)('handshake and records (%s)', (kind) => {
  it('client and server agree; every malformed ClientHello is rejected with a code', async () => {
    const b = await loadBackend(kind);
    const kp = b.generateKeyPair(KEM_ID.XWING);
    const sk = b.createRecipientKey(KEM_ID.XWING, kp.privateKey);
    const pin = parseServerKeyPin(`k1:${toBase64Url(sk.publicKey)}`);
    const c = clientHandshakeStart(b, { pin });
    const keys = new Map([['k1', sk]]);
    const s = serverHandshake(b, c.hello, { keys, sessionId: new Uint8Array(16), maxLifetime: 60, idleTimeout: 30, now: Date.now() });
    const r = c.finish(s.response);
    expect(r.secret).toEqual(s.secret);
    expect(r.kid).toBe('k1');
    const h = decodeClientHello(c.hello);
    expect(encodeClientHello(h)).toEqual(c.hello);
    const params = { keys, sessionId: new Uint8Array(16), maxLifetime: 60, idleTimeout: 30, now: 0 };
    expect(code(() => serverHandshake(b, c.hello.subarray(0, c.hello.length - 1), params))).toBe('NEN_MALFORMED');
    expect(code(() => serverHandshake(b, new Uint8Array([...c.hello, 0]), params))).toBe('NEN_MALFORMED');
    const badFlags = c.hello.slice();
    badFlags[3] = 0x80 | HS_FLAG.STATIC;
    expect(code(() => serverHandshake(b, badFlags, params))).toBe('NEN_MALFORMED');
    const badKid = c.hello.slice();
    badKid[8 + KEM_SIZES[KEM_ID.XWING].publicKey + 1] = 0x2e; // '.'
    expect(code(() => serverHandshake(b, badKid, params))).toBe('NEN_MALFORMED');
    const otherKid = c.hello.slice();
    otherKid[8 + KEM_SIZES[KEM_ID.XWING].publicKey + 1] = 0x6a; // 'j'
    expect(code(() => serverHandshake(b, otherKid, params))).toBe('NEN_UNKNOWN_KEY_ID');
    // pk_eph = the server's own static key (finding F1 of docs/formal.md), pinned or not
    const reflected = encodeClientHello({ ...h, pkEph: sk.publicKey });
    expect(code(() => serverHandshake(b, reflected, params))).toBe('NEN_MALFORMED');
    const reflectedUnpinned = encodeClientHello({ version: h.version, kem: h.kem, flags: 0, lifetime: h.lifetime, pkEph: sk.publicKey });
    expect(code(() => serverHandshake(b, reflectedUnpinned, params))).toBe('NEN_MALFORMED');
    const noStatic = clientHandshakeStart(b, { kem: KEM_ID.MLKEM768 });
    const s2 = serverHandshake(b, noStatic.hello, params);
    expect(noStatic.finish(s2.response).secret).toEqual(s2.secret);
    sk.dispose();
  });

  it('sealResponseChunks: the chunks joined are sealResponse (bodies across SMALL_MESSAGE, HEAD, 204)', async () => {
    const b = await loadBackend(kind);
    const keys = new SessionKeys(b, new Uint8Array(32).fill(3), 0);
    const meta = { sessionId: new Uint8Array(16).fill(4), epoch: 0, seq: 7n, timestamp: 0, flags: 0 };
    for (const [n, method, status] of [
      [0, 'POST', 200],
      [1000, 'POST', 201],
      [SMALL_MESSAGE - 1, 'POST', 200],
      [SMALL_MESSAGE, 'POST', 200],
      [100_000, 'PUT', 200],
      [100_000, 'HEAD', 200],
      [20_000, 'POST', 204],
    ] as const) {
      const body = Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
      const one = sealResponse({ keys, meta, method }, status, 'a/b', body);
      const chunks = sealResponseChunks({ keys, meta, method }, status, 'a/b', body);
      expect(chunks.headers, `${n} ${method} ${status}`).toEqual(one.headers);
      expect(chunks.body && concatBytes(...chunks.body)).toEqual(one.body);
      // node:crypto's large bodies come unjoined: ciphertext, then the tag
      if (kind === 'node' && one.body && n >= SMALL_MESSAGE) expect(chunks.body?.map((c) => c.length)).toEqual([n, 16]);
    }
    keys.dispose();
  });

  it('sealTextResponseChunks: the chunks joined are sealResponse of the UTF-8 bytes (sizes, HEAD, 204, compression)', async () => {
    const b = await loadBackend(kind);
    const keys = new SessionKeys(b, new Uint8Array(32).fill(3), 0);
    const deflate = (x: Uint8Array) => x.slice().reverse(); // stand-in: only its use is compared
    for (const [n, method, status, flags] of [
      [0, 'POST', 200, 0],
      [1000, 'POST', 200, 0],
      [SMALL_MESSAGE, 'POST', 200, 0],
      [100_000, 'POST', 200, 0],
      [100_000, 'HEAD', 200, 0],
      [20_000, 'POST', 204, 0],
      [20_000, 'POST', 200, REQ_FLAG.ACCEPT_COMPRESSED],
    ] as const) {
      const meta = { sessionId: new Uint8Array(16).fill(4), epoch: 0, seq: 9n, timestamp: 0, flags };
      const text = '{"é":"✓😀"}'.repeat(Math.ceil(n / 10)).slice(0, n);
      const one = sealResponse({ keys, meta, method }, status, 'application/json', new TextEncoder().encode(text), deflate);
      const chunks = sealTextResponseChunks({ keys, meta, method }, status, 'application/json', text, deflate);
      expect(chunks.headers, `${n} ${method} ${status}`).toEqual(one.headers);
      expect(chunks.body && concatBytes(...chunks.body)).toEqual(one.body);
    }
    keys.dispose();
  });

  it('records: nonce per (seq, index), final flag, bounded buffering', async () => {
    const b = await loadBackend(kind);
    const k = new SessionKeys(b, new Uint8Array(32).fill(1), 0);
    expect(computeNonce(k.s2cIv, 1n, 0)).not.toEqual(computeNonce(k.s2cIv, 1n, 1));
    expect(computeNonce(k.s2cIv, 1n, 0)).not.toEqual(computeNonce(k.s2cIv, 2n, 0));
    const aad = new Uint8Array([1, 2, 3]);
    const sealer = new RecordSealer(k.s2c, k.s2cIv, 9n, aad);
    const big = new Uint8Array(200_000).map((_, i) => i & 0xff);
    const wire = new Uint8Array([...sealer.seal(big, false), ...sealer.seal(new Uint8Array([7]), true)]);
    const err = (kind2: string, d: string) => new NenProtocolError(`X_${kind2}`, d);
    const opener = new RecordOpener(k.s2c, k.s2cIv, 9n, aad, err);
    const out: number[] = [];
    for (let o = 0; o < wire.length; o += 1000) for (const c of opener.push(wire.subarray(o, o + 1000))) out.push(c.length);
    opener.end();
    expect(out.reduce((a, x) => a + x, 0)).toBe(200_001);
    const bad = new RecordOpener(k.s2c, k.s2cIv, 9n, aad, err);
    expect(code(() => bad.push(new Uint8Array([...u32(0xffffff), ...u16(0)])))).toBe('X_malformed');
    const trunc = new RecordOpener(k.s2c, k.s2cIv, 9n, aad, err);
    trunc.push(wire.subarray(0, wire.length - 25));
    expect(code(() => trunc.end())).toBe('X_truncated');
    k.dispose();
  });
});

describe.each(['noble', 'wasm', 'node'] as const)('the ServerHello serverHandshake writes (%s)', (kind) => {
  it("is encodeServerHelloBody's bytes and the confirm (written inside TH's input array)", async () => {
    const b = await loadBackend(kind);
    const sk = b.createRecipientKey(KEM_ID.XWING, b.generateKeyPair(KEM_ID.XWING).privateKey);
    const c = clientHandshakeStart(b, { pin: parseServerKeyPin(`k1:${toBase64Url(sk.publicKey)}`), lifetime: 70_000 });
    const sid = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
    const s = serverHandshake(b, c.hello, { keys: new Map([['k1', sk]]), sessionId: sid, maxLifetime: 66_000, idleTimeout: 300, now: 2 ** 41 + 5 });
    const sh = decodeServerHello(s.response, KEM_ID.XWING);
    expect(sh).toMatchObject({ flags: HS_FLAG.STATIC, sessionId: sid, lifetime: 66_000, idleTimeout: 300, serverTime: 2 ** 41 + 5 });
    expect(s.response.length).toBe(36 + KEM_SIZES[KEM_ID.XWING].enc + 32);
    expect(encodeServerHelloBody(sh)).toEqual(s.response.slice(0, -32));
    expect(c.finish(s.response).secret).toEqual(s.secret);
    sk.dispose();
  });
});

describe('scratch AAD (single messages) is never kept nor shared', () => {
  const sid = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
  const NOW = 1_767_225_600_000;
  const headersOf = (list: [string, string][]) => new Headers(list);

  it('the exported AAD builders return fresh arrays that later messages do not overwrite', () => {
    const m = { sessionId: sid, epoch: 1, seq: 5n, timestamp: NOW, flags: 0 };
    const a = requestAad(m, 'POST', '/a', 'application/json');
    const a0 = a.slice();
    const b = responseAad(sid, 1, 5n, 200, 0, 'text/plain');
    const b0 = b.slice();
    expect(a.buffer).not.toBe(b.buffer);
    // scratch AADs (as openRequest / sealResponse build them) in between
    for (let i = 0; i < 4; i++) requestAad({ ...m, seq: BigInt(i + 9) }, 'PUT', `/other/${i}`, 'x/y', '', true);
    responseAad(sid, 2, 9n, 404, 1, 'z', true);
    expect(a).toEqual(a0);
    expect(b).toEqual(b0);
  });

  it('a streamed request opens after many single messages were sealed and opened in between, interleaved and out of order', async () => {
    const backend = await loadBackend('noble');
    const keys = new SessionKeys(backend, new Uint8Array(32).fill(5), 0);
    const streamBody = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('first '));
        c.enqueue(new TextEncoder().encode('second'));
        c.close();
      },
    });
    const url = new URL('https://app.example/upload');
    const s = sealRequest({ keys, sessionId: sid, epoch: 0, seq: 1n, timestamp: NOW, method: 'POST', url, contentType: 'text/plain', body: streamBody });
    if (s instanceof Promise) throw new Error('unexpected async seal');
    const sHead = parseRequest(headersOf(s.headers), 'POST', url.href, NOW, 60_000);
    const opener = openRequestStream(sHead, keys);
    // Single messages in between: paths of every length (past the 1,024-byte scratch too) and
    // non-ASCII, sealed in one order, opened in reverse, each answered with a response.
    const sealedAll = [];
    for (let i = 0; i < 40; i++) {
      const path = i % 7 === 0 ? `/p/${'é'.repeat(400 + i)}` : `/p/${'x'.repeat(i * 3)}`;
      const u = new URL(`https://app.example${path}`);
      const body = Uint8Array.from({ length: i + 1 }, (_, k) => (k * 13 + i) & 0xff);
      const r = sealRequest({ keys, sessionId: sid, epoch: 0, seq: BigInt(i + 2), timestamp: NOW, method: 'POST', url: u, contentType: `a/${i}`, body });
      if (r instanceof Promise) throw new Error('unexpected async seal');
      sealedAll.push({ r, u, body });
    }
    const responses = [];
    for (const { r, u, body } of sealedAll.reverse()) {
      const head = parseRequest(headersOf(r.headers), 'POST', u.href, NOW, 60_000);
      expect(openRequest(head, keys, r.body as Uint8Array)).toEqual(body);
      responses.push({ head, body, out: sealResponse({ keys, meta: head.meta, method: 'POST' }, 201, 'b/x', body) });
    }
    // every response still opens after all the others were sealed (none aliases the scratch)
    for (const { head, body, out } of responses) {
      const x = { keys, sessionId: sid, epoch: 0, seq: head.meta.seq, compress: false, maxBytes: 1 << 20 };
      const rh = parseResponse(headersOf(out.headers), 201, 'POST');
      if (!rh) throw new Error('no response head');
      expect(openResponse(x, rh, 201, out.body as Uint8Array)).toEqual(body);
    }
    // the stream's sealer and opener kept their own AADs
    const wire = new Uint8Array(await new Response(s.body as ReadableStream<Uint8Array>).arrayBuffer());
    const plain = opener.push(wire);
    opener.end();
    expect(new TextDecoder().decode(concatBytes(...plain))).toBe('first second');
  });
});
