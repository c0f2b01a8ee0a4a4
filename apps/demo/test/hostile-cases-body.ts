/**
 * The hostile-input rows about bodies (empty, truncated, flipped, over the limits, slow, abandoned,
 * GET bodies, streamed uploads) and about what the AEAD binds (path, query, type, epoch).
 *
 * Pitfall: a row's expectation relies on the server's check order (see hostile-cases.ts); ids are
 * stable, HOSTILE_CASES.md is rendered from them.
 */
import { SID0, hdr, sealedPost, replaceHeader, fromCaptured, nenField, captureJson, getEcho, streamPost, type HostileCase } from './hostile-build';

export const BODY_CASES: readonly HostileCase[] = [
  {
    id: 'B01',
    group: 'body',
    title: 'empty body on a live session',
    input: 'valid header of the live session, 0-byte body',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: async (ctx) => ({
      req: fromCaptured(await captureJson(ctx, '{}'), { body: new Uint8Array(0) }),
    }),
  },
  {
    id: 'B02',
    group: 'body',
    title: 'truncated ciphertext',
    input: 'valid request minus its last byte',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => {
      const c = await captureJson(ctx, '{"t":"truncate me"}');
      return { req: fromCaptured(c, { body: c.body.subarray(0, c.body.length - 1) }) };
    },
  },
  {
    id: 'B03',
    group: 'body',
    title: 'flipped ciphertext byte',
    input: 'valid request, body byte 0 XOR 1',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => {
      const c = await captureJson(ctx, '{"t":"flip me"}');
      const b = c.body.slice();
      b[0] = b[0]! ^ 1;
      return { req: fromCaptured(c, { body: b }) };
    },
  },
  {
    id: 'B04',
    group: 'body',
    title: 'Content-Length over the limit',
    input: '`content-length: 10 000 000` (limit NEN_MAX_BODY=65536), no body sent',
    expect: { status: 413, code: 'NEN_TOO_LARGE' },
    build: () => ({ req: { ...sealedPost(hdr(SID0), [['content-length', '10000000']]), body: undefined } }),
  },
  {
    id: 'B05',
    group: 'body',
    title: 'chunked body over the limit',
    input: '200 KiB chunked, no Content-Length',
    expect: { status: 413, code: 'NEN_TOO_LARGE' },
    build: () => ({ req: { ...sealedPost(hdr(SID0), [], new Uint8Array(200 * 1024)), chunked: true } }),
  },
  {
    id: 'B06',
    group: 'body',
    title: 'sealed plaintext over the route limit',
    input: 'valid request with a 70 KB JSON plaintext (limit 65 536)',
    expect: { status: 413, code: 'NEN_TOO_LARGE' },
    build: async (ctx) => ({
      req: fromCaptured(await captureJson(ctx, JSON.stringify({ pad: 'x'.repeat(70_000) }))),
    }),
  },
  {
    id: 'B07',
    group: 'body',
    title: 'invalid Content-Length',
    input: '`content-length: abc`',
    expect: { status: 400, code: null },
    build: () => ({ req: { ...sealedPost(hdr(SID0), [['content-length', 'abc']]), body: undefined } }),
  },
  {
    id: 'B08',
    group: 'body',
    title: 'slow body (trickled over ~3 s)',
    input: 'valid sealed request, 8 bytes every 100 ms, while another client keeps working',
    expect: { status: 200, code: null },
    runner: 'trickle',
  },
  {
    id: 'B09',
    group: 'body',
    title: 'abandoned upload',
    input: 'Content-Length 4096, 100 bytes sent, socket closed',
    expect: { status: 0, code: null },
    runner: 'abandon',
  },
  {
    id: 'B10',
    group: 'body',
    title: 'GET without nen-body',
    input: 'GET /api/echo with a valid `nen` header, no `nen-body`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: getEcho([['nen', hdr(SID0)]]) }),
  },
  {
    id: 'B11',
    group: 'body',
    title: 'GET with a nen-body that is not base64url',
    input: '`nen-body: !!!`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({
      req: getEcho([
        ['nen', hdr(SID0)],
        ['nen-body', '!!!'],
      ]),
    }),
  },

  {
    id: 'B12',
    group: 'body',
    title: 'stream flag on a GET',
    input: 'GET /api/echo, flags 4 (stream), `nen-body` present',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({
      req: getEcho([
        ['nen', hdr(SID0, 1, { flags: 4 })],
        ['nen-body', 'AAAAAAAAAAAAAAAAAAAAAA'],
      ]),
    }),
  },
  {
    id: 'B13',
    group: 'body',
    title: 'streamed upload cut before its first record',
    input: 'POST /api/stream, live session, stream flag, `application/nen-stream`, 3-byte body',
    expect: { status: 400, code: 'NEN_STREAM_TRUNCATED' },
    build: (ctx) => ({ req: streamPost(ctx, 900_001, new Uint8Array([0, 0, 0])) }),
  },
  {
    id: 'B14',
    group: 'body',
    title: 'streamed upload with a forged record',
    input: 'POST /api/stream, live session, stream flag, record `u32 16 ‖ 16 zero bytes`',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: (ctx) => ({ req: streamPost(ctx, 900_002, new Uint8Array([0, 0, 0, 16, ...new Uint8Array(16)])) }),
  },
  {
    id: 'B15',
    group: 'body',
    title: 'streamed upload with an oversized record length',
    input: 'POST /api/stream, live session, record length 0x7fffffff',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({ req: streamPost(ctx, 900_003, new Uint8Array([0x7f, 0xff, 0xff, 0xff, 1, 2, 3])) }),
  },
];

export const BINDING_CASES: readonly HostileCase[] = [
  {
    id: 'A01',
    group: 'binding',
    title: 'query string added',
    input: 'valid POST sent to `/api/echo?admin=1`',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => ({
      req: fromCaptured(await captureJson(ctx, '{}'), { path: '/api/echo?admin=1' }),
    }),
  },
  {
    id: 'A02',
    group: 'binding',
    title: 'plaintext content type swapped',
    input: 'valid request, `nen-type: text/plain`',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => {
      const c = await captureJson(ctx, '{}');
      return { req: fromCaptured(c, { headers: replaceHeader(c, 'nen-type', 'text/plain') }) };
    },
  },
  {
    id: 'A03',
    group: 'binding',
    title: 'GET sent to another path',
    input: 'valid GET /api/echo?x=1 replayed as GET /api/notes',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => ({ req: fromCaptured(await ctx.capture('GET', '/api/echo?x=1'), { path: '/api/notes' }) }),
  },
  {
    id: 'A04',
    group: 'binding',
    title: 'epoch that was never live',
    input: 'valid request, epoch field 7',
    expect: { status: 401, code: 'NEN_SESSION_UNKNOWN' },
    build: async (ctx) => {
      const c = await captureJson(ctx, '{}');
      return { req: fromCaptured(c, { headers: replaceHeader(c, 'nen', nenField(c, 2, '7')) }) };
    },
  },
  {
    id: 'A05',
    group: 'binding',
    title: 'confidential-query flag with a URL query',
    input: 'flags 2 and `?q=1` in the URL',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: { ...sealedPost(hdr(SID0, 1, { flags: 2 })), path: '/api/echo?q=1' } }),
  },
];
