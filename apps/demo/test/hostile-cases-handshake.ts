/**
 * The hostile-input rows about the handshake (ClientHello bytes, KEMs, key shares, pinned key ids),
 * the session actions (terminate / rotate / unknown sessions) and abuse (the handshake flood).
 *
 * Pitfall: a row's expectation relies on the server's check order (see hostile-cases.ts); ids are
 * stable, HOSTILE_CASES.md is rendered from them.
 */
import { SID0, hdr, sealedPost, clientHello, XWING, MLKEM768, handshakeReq, sessionAction, type HostileCase } from './hostile-build';

export const HANDSHAKE_CASES: readonly HostileCase[] = [
  {
    id: 'K01',
    group: 'handshake',
    title: 'empty ClientHello',
    input: '0-byte body',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: handshakeReq(ctx, new Uint8Array(0)) }),
  },
  {
    id: 'K02',
    group: 'handshake',
    title: 'unknown version byte',
    input: 'version 2',
    expect: { status: 400, code: 'NEN_UNSUPPORTED_VERSION' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey, 0, undefined, 2)) }),
  },
  {
    id: 'K03',
    group: 'handshake',
    title: 'unknown KEM (suite)',
    input: 'KEM id 0x0020 (DHKEM X25519)',
    expect: { status: 400, code: 'NEN_UNSUPPORTED_KEM' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(0x0020, new Uint8Array(32))) }),
  },
  {
    id: 'K04',
    group: 'handshake',
    title: 'X-Wing key share one byte short',
    input: '1 215-byte X-Wing key share',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey.subarray(0, 1215))) }),
  },
  {
    id: 'K05',
    group: 'handshake',
    title: 'X-Wing key share one byte long',
    input: '1 217-byte X-Wing key share',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey, 0, new Uint8Array(1))) }),
  },
  {
    id: 'K06',
    group: 'handshake',
    title: 'all-zero X25519 share inside an X-Wing key',
    input: 'valid ML-KEM part, X25519 part = 32 zero bytes',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => {
      const pk = ctx.serverPublicKey.slice();
      pk.fill(0, 1184);
      return { req: handshakeReq(ctx, clientHello(XWING, pk)) };
    },
  },
  {
    id: 'K07',
    group: 'handshake',
    title: 'invalid ML-KEM encapsulation key inside X-Wing',
    input: 'ML-KEM part all 0xFF (coefficients ≥ q, FIPS 203 §7.2 modulus check)',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => {
      const pk = ctx.serverPublicKey.slice();
      pk.fill(0xff, 0, 1184);
      return { req: handshakeReq(ctx, clientHello(XWING, pk)) };
    },
  },
  {
    id: 'K08',
    group: 'handshake',
    title: 'invalid ML-KEM-768 encapsulation key',
    input: 'KEM 0x0041, 1 184 × 0xFF',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(MLKEM768, new Uint8Array(1184).fill(0xff))) }),
  },
  {
    id: 'K09',
    group: 'handshake',
    title: 'ML-KEM-768 key share of X-Wing length',
    input: 'KEM 0x0041 with 1 216 bytes',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(MLKEM768, ctx.serverPublicKey)) }),
  },
  {
    id: 'K10',
    group: 'handshake',
    title: 'reserved handshake flag bits',
    input: 'flags 0x80',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey, 0x80)) }),
  },
  {
    id: 'K11',
    group: 'handshake',
    title: 'pinned to an unknown key id',
    input: 'STATIC flag, kid `nosuchkey`, 1 120-byte enc',
    expect: { status: 400, code: 'NEN_UNKNOWN_KEY_ID' },
    build: (ctx) => {
      const kid = new TextEncoder().encode('nosuchkey');
      return { req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey, 1, new Uint8Array([kid.length, ...kid, ...new Uint8Array(1120)]))) };
    },
  },
  {
    id: 'K12',
    group: 'handshake',
    title: 'key id with invalid characters',
    input: 'STATIC flag, kid `a/b`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey, 1, new Uint8Array([3, 0x61, 0x2f, 0x62, ...new Uint8Array(1120)]))) }),
  },
  {
    id: 'K13',
    group: 'handshake',
    title: 'pinned enc of the wrong length',
    input: 'STATIC flag, live kid, 1 119-byte enc',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => {
      const kid = new TextEncoder().encode(ctx.kid);
      return { req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey, 1, new Uint8Array([kid.length, ...kid, ...new Uint8Array(1119)]))) };
    },
  },
  {
    id: 'K14',
    group: 'handshake',
    title: 'oversized ClientHello',
    input: '64 KiB body',
    expect: { status: 413, code: 'NEN_TOO_LARGE' },
    build: (ctx) => ({ req: handshakeReq(ctx, new Uint8Array(65536)) }),
  },
  {
    id: 'K15',
    group: 'handshake',
    title: 'GET on the handshake endpoint',
    input: 'GET /api/nen/handshake',
    expect: { status: 405, code: 'NEN_METHOD_NOT_ALLOWED' },
    build: () => ({ req: { method: 'GET', path: '/api/nen/handshake' } }),
  },
  {
    id: 'K16',
    group: 'handshake',
    title: 'unknown session action',
    input: 'POST /api/nen/bogus',
    expect: { status: 404, code: 'NEN_NOT_FOUND' },
    build: () => ({ req: { method: 'POST', path: '/api/nen/bogus', body: '' } }),
  },
];

export const SESSION_CASES: readonly HostileCase[] = [
  {
    id: 'L01',
    group: 'session',
    title: 'terminate by session id alone',
    input: 'POST /api/nen/terminate, `nen` header of the live session, no valid body',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: (ctx) => ({ req: sessionAction('terminate', hdr(ctx.sessionId, 999_999)) }),
  },
  {
    id: 'L02',
    group: 'session',
    title: 'rotate on an unknown session',
    input: 'POST /api/nen/rotate, unknown session id',
    expect: { status: 401, code: 'NEN_SESSION_UNKNOWN' },
    build: () => ({ req: sessionAction('rotate', hdr(SID0)) }),
  },
  {
    id: 'L03',
    group: 'session',
    title: 'unknown session id',
    input: 'well-formed header, random session id',
    expect: { status: 401, code: 'NEN_SESSION_UNKNOWN' },
    build: () => ({ req: sealedPost(hdr('q83vEjRWeJCrze8SNFZ4kA')) }),
  },
];

export const ABUSE_CASES: readonly HostileCase[] = [
  {
    id: 'X01',
    group: 'abuse',
    title: 'handshake flood from one address',
    input: '70 handshakes from one `x-forwarded-for` (limit NEN_HANDSHAKE_RATE=40/min); another client handshakes meanwhile',
    expect: { status: 429, code: 'NEN_RATE_LIMITED' },
    runner: 'flood',
  },
];
