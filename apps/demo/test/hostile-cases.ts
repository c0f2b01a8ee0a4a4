/**
 * The hostile-input table (THREAT_MODEL.md properties 5, 7, 11, 12): every row is one request (or a short
 * sequence) an attacker or a broken client can send to the live demo, with the HTTP status and the
 * `nen-error` code the server must answer. hostile.test.ts runs it against `next start`;
 * HOSTILE_CASES.md is rendered from it by `renderMarkdown()` (hostile.test.ts fails when the
 * committed file is stale; NEN_UPDATE_TABLES=1 rewrites it).
 *
 * Check order the expectations rely on (packages/server/src/nen.ts): `nen` header syntax (400) →
 * timestamp (401) → content type (415) → body size (413) → session keys (401) → AEAD (401) →
 * replay commit (409) → decompress / JSON (400) → handler.
 *
 * Pitfalls:
 *  - A `code: null` row is answered by Node's HTTP parser or Next itself before Nen runs (e.g. 431
 *    for oversized header blocks): there is no Nen code to check, only that nothing crashes.
 *  - Rows that need a valid session use `ctx.capture()`: a real @nen/client seals the request and
 *    a transport captures it instead of sending it, so the row can then damage exactly one field.
 *  - Handshake rows each carry their own `x-forwarded-for` so that the handshake rate limit only
 *    fires in the flood row.
 */
import type { RawRequest } from './live';

export interface Captured {
  readonly method: string;
  readonly path: string;
  readonly headers: Array<[string, string]>;
  readonly body: Uint8Array;
}

export interface CaseContext {
  /** Seal a request with a live session (fresh sequence number) without sending it. */
  capture(method: string, path: string, init?: { body?: string; contentType?: string }): Promise<Captured>;
  /** The live session id (base64url) of the capturing client. */
  readonly sessionId: string;
  /** The server's pinned X-Wing public key (a valid X-Wing encapsulation key). */
  readonly serverPublicKey: Uint8Array;
  /** The server's key id. */
  readonly kid: string;
  /** A unique fake client address for handshake rows. */
  addr(): string;
}

export interface Expectation {
  readonly status: number;
  /** The `nen-error` header (and JSON error.code); null when Nen is not the one answering. */
  readonly code: string | null;
}

export interface Built {
  /** Requests sent first, in order, each with the status it must get. */
  readonly pre?: ReadonlyArray<{ req: RawRequest; status: number }>;
  readonly req: RawRequest;
}

export interface HostileCase {
  readonly id: string;
  readonly group: 'header' | 'sequence' | 'content-type' | 'body' | 'binding' | 'handshake' | 'session' | 'abuse';
  readonly title: string;
  /** What goes on the wire, for the table. */
  readonly input: string;
  readonly expect: Expectation;
  /** 'raw': build → rawRequest; 'flood' / 'trickle' / 'abandon': dedicated runners in hostile.test.ts. */
  readonly runner?: 'raw' | 'flood' | 'trickle' | 'abandon';
  build?(ctx: CaseContext): Promise<Built> | Built;
}

const SID0 = 'AAAAAAAAAAAAAAAAAAAAAA'; // 16 zero bytes, base64url: a well-formed but unknown session
const now = () => Date.now();
const hdr = (
  sid: string,
  seq: string | number | bigint = 1,
  opts: { v?: string; epoch?: string | number; ts?: string | number; flags?: string | number } = {},
) => `${opts.v ?? '1'}.${sid}.${opts.epoch ?? 0}.${seq}.${opts.ts ?? now()}.${opts.flags ?? 0}`;
const sealedPost = (nen: string, extra: Array<[string, string]> = [], body: Uint8Array | string = new Uint8Array(32)): RawRequest => ({
  method: 'POST',
  path: '/api/echo',
  headers: [['content-type', 'application/nen'], ['nen', nen], ['nen-type', 'application/json'], ...extra],
  body,
});

function replaceHeader(c: Captured, name: string, value: string | null): Array<[string, string]> {
  const out = c.headers.filter(([k]) => k !== name);
  if (value !== null) out.push([name, value]);
  return out;
}

function fromCaptured(c: Captured, patch: { headers?: Array<[string, string]>; body?: Uint8Array; path?: string; method?: string } = {}): RawRequest {
  return { method: patch.method ?? c.method, path: patch.path ?? c.path, headers: patch.headers ?? c.headers, body: patch.body ?? c.body };
}

function nenField(c: Captured, index: number, value: string): string {
  const v = c.headers.find(([k]) => k === 'nen')?.[1] ?? '';
  const f = v.split('.');
  f[index] = value;
  return f.join('.');
}

function clientHello(kem: number, pk: Uint8Array, flags = 0, extra: Uint8Array = new Uint8Array(0), version = 1): Uint8Array {
  const b = new Uint8Array(8 + pk.length + extra.length);
  b[0] = version;
  b[1] = kem >> 8;
  b[2] = kem & 0xff;
  b[3] = flags;
  b.set(pk, 8);
  b.set(extra, 8 + pk.length);
  return b;
}

const XWING = 0x647a;
const MLKEM768 = 0x0041;

function handshakeReq(ctx: CaseContext, body: Uint8Array | string, contentType = 'application/nen-handshake'): RawRequest {
  return {
    method: 'POST',
    path: '/api/nen/handshake',
    headers: [
      ['content-type', contentType],
      ['x-forwarded-for', ctx.addr()],
    ],
    body,
  };
}

export const HOSTILE_CASES: readonly HostileCase[] = [
  // ---------------------------------------------------------------- the nen header
  {
    id: 'H01',
    group: 'header',
    title: 'missing nen header',
    input: 'POST /api/echo, application/nen body, no `nen` header',
    expect: { status: 400, code: 'NEN_NOT_ENCRYPTED' },
    build: () => ({ req: { method: 'POST', path: '/api/echo', headers: [['content-type', 'application/nen']], body: new Uint8Array(40) } }),
  },
  {
    id: 'H02',
    group: 'header',
    title: 'plaintext JSON to an encrypted route',
    input: 'POST /api/echo, application/json `{"a":1}`',
    expect: { status: 400, code: 'NEN_NOT_ENCRYPTED' },
    build: () => ({ req: { method: 'POST', path: '/api/echo', headers: [['content-type', 'application/json']], body: '{"a":1}' } }),
  },
  {
    id: 'H03',
    group: 'header',
    title: 'nen header with 5 fields',
    input: '`nen: 1.<sid>.0.1.<ts>`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(`1.${SID0}.0.1.${now()}`) }),
  },
  {
    id: 'H04',
    group: 'header',
    title: 'nen header with 7 fields',
    input: '`nen: 1.<sid>.0.1.<ts>.0.0`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(`${hdr(SID0)}.0`) }),
  },
  {
    id: 'H05',
    group: 'header',
    title: 'unknown protocol version',
    input: '`nen: 2.<sid>.0.1.<ts>.0`',
    expect: { status: 400, code: 'NEN_UNSUPPORTED_VERSION' },
    build: () => ({ req: sealedPost(hdr(SID0, 1, { v: '2' })) }),
  },
  {
    id: 'H06',
    group: 'header',
    title: 'empty nen header',
    input: '`nen:` (empty value)',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost('') }),
  },
  {
    id: 'H07',
    group: 'header',
    title: 'oversized nen header (5 000 chars)',
    input: '`nen: 1.` + 5 000 × `A`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(`1.${'A'.repeat(5000)}`) }),
  },
  {
    id: 'H08',
    group: 'header',
    title: "header block over Node's limit",
    input: '`x-pad:` 20 000 bytes (header block > 16 KiB)',
    expect: { status: 431, code: null },
    build: () => ({ req: sealedPost(hdr(SID0), [['x-pad', 'p'.repeat(20_000)]]) }),
  },
  {
    id: 'H09',
    group: 'header',
    title: 'duplicated nen header',
    input: 'two `nen:` lines (Node joins them with ", ")',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 1), [['nen', hdr(SID0, 2)]]) }),
  },
  {
    id: 'H10',
    group: 'header',
    title: 'non-ASCII bytes in the nen header',
    input: '`nen: 1.<sid with é>.0.1.<ts>.0` as latin1 bytes',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(`${SID0.slice(0, 21)}\u00e9`)) }),
  },
  {
    id: 'H11',
    group: 'header',
    title: 'session id of 15 bytes',
    input: '`nen: 1.<20 base64url chars>.0.1.<ts>.0`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr('AAAAAAAAAAAAAAAAAAAA')) }),
  },
  {
    id: 'H12',
    group: 'header',
    title: 'non-canonical base64url session id',
    input: 'session id `…AB` (non-zero trailing bits)',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr('AAAAAAAAAAAAAAAAAAAAAB')) }),
  },
  {
    id: 'H13',
    group: 'header',
    title: 'unknown flag bits',
    input: '`nen: 1.<sid>.0.1.<ts>.16` (flags = 16)',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 1, { flags: 16 })) }),
  },
  {
    id: 'H14',
    group: 'header',
    title: 'epoch ≥ 2^32',
    input: 'epoch `4294967296`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 1, { epoch: '4294967296' })) }),
  },
  {
    id: 'H15',
    group: 'header',
    title: 'timestamp beyond 2^53',
    input: 'timestamp `9007199254740993`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 1, { ts: '9007199254740993' })) }),
  },
  {
    id: 'H16',
    group: 'header',
    title: 'timestamp 10 minutes old',
    input: 'well-formed header, timestamp now − 600 s',
    expect: { status: 401, code: 'NEN_TIMESTAMP' },
    build: () => ({ req: sealedPost(hdr(SID0, 1, { ts: now() - 600_000 })) }),
  },
  {
    id: 'H17',
    group: 'header',
    title: 'nen-type longer than 256',
    input: '`nen-type:` 300 chars',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({
      req: {
        ...sealedPost(hdr(SID0)),
        headers: [
          ['content-type', 'application/nen'],
          ['nen', hdr(SID0)],
          ['nen-type', `application/${'x'.repeat(300)}`],
        ],
      },
    }),
  },

  // ---------------------------------------------------------------- sequence numbers
  {
    id: 'S01',
    group: 'sequence',
    title: 'non-numeric sequence number',
    input: 'seq `abc`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 'abc')) }),
  },
  {
    id: 'S02',
    group: 'sequence',
    title: 'negative sequence number',
    input: 'seq `-1`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, '-1')) }),
  },
  {
    id: 'S03',
    group: 'sequence',
    title: 'sequence number 0',
    input: 'seq `0`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 0)) }),
  },
  {
    id: 'S04',
    group: 'sequence',
    title: 'sequence number 2^64',
    input: 'seq `18446744073709551616`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 1n << 64n)) }),
  },
  {
    id: 'S05',
    group: 'sequence',
    title: 'sequence number of 30 digits',
    input: 'seq `10^29`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, 10n ** 29n)) }),
  },
  {
    id: 'S06',
    group: 'sequence',
    title: 'leading zeros',
    input: 'seq `007`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, '007')) }),
  },
  {
    id: 'S07',
    group: 'sequence',
    title: 'exponent notation',
    input: 'seq `1e3`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({ req: sealedPost(hdr(SID0, '1e3')) }),
  },
  {
    id: 'S08',
    group: 'sequence',
    title: 'sequence 2^64 − 1 on an unknown session',
    input: 'seq `18446744073709551615`, unknown session',
    expect: { status: 401, code: 'NEN_SESSION_UNKNOWN' },
    build: () => ({ req: sealedPost(hdr(SID0, (1n << 64n) - 1n)) }),
  },
  {
    id: 'S09',
    group: 'sequence',
    title: 'replayed request',
    input: 'a valid sealed request sent twice (first → 200)',
    expect: { status: 409, code: 'NEN_REPLAY' },
    build: async (ctx) => {
      const c = await ctx.capture('POST', '/api/echo', { body: '{"replay":true}', contentType: 'application/json' });
      return { pre: [{ req: fromCaptured(c), status: 200 }], req: fromCaptured(c) };
    },
  },
  {
    id: 'S10',
    group: 'sequence',
    title: 'valid body under another sequence number',
    input: 'valid request, `seq` field changed',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => {
      const c = await ctx.capture('POST', '/api/echo', { body: '{"x":1}', contentType: 'application/json' });
      const seq = BigInt(c.headers.find(([k]) => k === 'nen')![1].split('.')[3]!);
      return { req: fromCaptured(c, { headers: replaceHeader(c, 'nen', nenField(c, 3, String(seq + 1000n))) }) };
    },
  },

  // ---------------------------------------------------------------- content types
  {
    id: 'C01',
    group: 'content-type',
    title: 'text/plain instead of application/nen',
    input: 'valid header, `content-type: text/plain`',
    expect: { status: 415, code: 'NEN_CONTENT_TYPE' },
    build: () => ({
      req: {
        ...sealedPost(hdr(SID0)),
        headers: [
          ['content-type', 'text/plain'],
          ['nen', hdr(SID0)],
        ],
      },
    }),
  },
  {
    id: 'C02',
    group: 'content-type',
    title: 'no content type',
    input: 'valid header, no `content-type`',
    expect: { status: 415, code: 'NEN_CONTENT_TYPE' },
    build: () => ({ req: { ...sealedPost(hdr(SID0)), headers: [['nen', hdr(SID0)]] } }),
  },
  {
    id: 'C03',
    group: 'content-type',
    title: 'stream type without the stream flag',
    input: '`content-type: application/nen-stream`, flags 0',
    expect: { status: 415, code: 'NEN_CONTENT_TYPE' },
    build: () => ({
      req: {
        ...sealedPost(hdr(SID0)),
        headers: [
          ['content-type', 'application/nen-stream'],
          ['nen', hdr(SID0)],
        ],
      },
    }),
  },
  {
    id: 'C04',
    group: 'content-type',
    title: 'handshake with the wrong content type',
    input: 'POST /api/nen/handshake, `application/octet-stream`',
    expect: { status: 415, code: 'NEN_CONTENT_TYPE' },
    build: (ctx) => ({ req: handshakeReq(ctx, clientHello(XWING, ctx.serverPublicKey), 'application/octet-stream') }),
  },
  {
    id: 'C05',
    group: 'content-type',
    title: 'valid envelope, JSON type, body not JSON',
    input: 'sealed `not json{` with `nen-type: application/json`',
    expect: { status: 400, code: 'NEN_BAD_JSON' },
    build: async (ctx) => ({ req: fromCaptured(await ctx.capture('POST', '/api/echo', { body: 'not json{', contentType: 'application/json' })) }),
  },

  // ---------------------------------------------------------------- bodies
  {
    id: 'B01',
    group: 'body',
    title: 'empty body on a live session',
    input: 'valid header of the live session, 0-byte body',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: async (ctx) => ({
      req: fromCaptured(await ctx.capture('POST', '/api/echo', { body: '{}', contentType: 'application/json' }), { body: new Uint8Array(0) }),
    }),
  },
  {
    id: 'B02',
    group: 'body',
    title: 'truncated ciphertext',
    input: 'valid request minus its last byte',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => {
      const c = await ctx.capture('POST', '/api/echo', { body: '{"t":"truncate me"}', contentType: 'application/json' });
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
      const c = await ctx.capture('POST', '/api/echo', { body: '{"t":"flip me"}', contentType: 'application/json' });
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
      req: fromCaptured(await ctx.capture('POST', '/api/echo', { body: JSON.stringify({ pad: 'x'.repeat(70_000) }), contentType: 'application/json' })),
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
    build: () => ({ req: { method: 'GET', path: '/api/echo', headers: [['nen', hdr(SID0)]] } }),
  },
  {
    id: 'B11',
    group: 'body',
    title: 'GET with a nen-body that is not base64url',
    input: '`nen-body: !!!`',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({
      req: {
        method: 'GET',
        path: '/api/echo',
        headers: [
          ['nen', hdr(SID0)],
          ['nen-body', '!!!'],
        ],
      },
    }),
  },

  {
    id: 'B12',
    group: 'body',
    title: 'stream flag on a GET',
    input: 'GET /api/echo, flags 4 (stream), `nen-body` present',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: () => ({
      req: {
        method: 'GET',
        path: '/api/echo',
        headers: [
          ['nen', hdr(SID0, 1, { flags: 4 })],
          ['nen-body', 'AAAAAAAAAAAAAAAAAAAAAA'],
        ],
      },
    }),
  },
  {
    id: 'B13',
    group: 'body',
    title: 'streamed upload cut before its first record',
    input: 'POST /api/stream, live session, stream flag, `application/nen-stream`, 3-byte body',
    expect: { status: 400, code: 'NEN_STREAM_TRUNCATED' },
    build: (ctx) => ({
      req: {
        method: 'POST',
        path: '/api/stream',
        headers: [
          ['content-type', 'application/nen-stream'],
          ['nen', hdr(ctx.sessionId, 900_001, { flags: 4 })],
          ['nen-type', 'application/octet-stream'],
        ],
        body: new Uint8Array([0, 0, 0]),
      },
    }),
  },
  {
    id: 'B14',
    group: 'body',
    title: 'streamed upload with a forged record',
    input: 'POST /api/stream, live session, stream flag, record `u32 16 ‖ 16 zero bytes`',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: (ctx) => ({
      req: {
        method: 'POST',
        path: '/api/stream',
        headers: [
          ['content-type', 'application/nen-stream'],
          ['nen', hdr(ctx.sessionId, 900_002, { flags: 4 })],
          ['nen-type', 'application/octet-stream'],
        ],
        body: new Uint8Array([0, 0, 0, 16, ...new Uint8Array(16)]),
      },
    }),
  },
  {
    id: 'B15',
    group: 'body',
    title: 'streamed upload with an oversized record length',
    input: 'POST /api/stream, live session, record length 0x7fffffff',
    expect: { status: 400, code: 'NEN_MALFORMED' },
    build: (ctx) => ({
      req: {
        method: 'POST',
        path: '/api/stream',
        headers: [
          ['content-type', 'application/nen-stream'],
          ['nen', hdr(ctx.sessionId, 900_003, { flags: 4 })],
          ['nen-type', 'application/octet-stream'],
        ],
        body: new Uint8Array([0x7f, 0xff, 0xff, 0xff, 1, 2, 3]),
      },
    }),
  },

  // ---------------------------------------------------------------- binding (AAD)
  {
    id: 'A01',
    group: 'binding',
    title: 'query string added',
    input: 'valid POST sent to `/api/echo?admin=1`',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => ({
      req: fromCaptured(await ctx.capture('POST', '/api/echo', { body: '{}', contentType: 'application/json' }), { path: '/api/echo?admin=1' }),
    }),
  },
  {
    id: 'A02',
    group: 'binding',
    title: 'plaintext content type swapped',
    input: 'valid request, `nen-type: text/plain`',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: async (ctx) => {
      const c = await ctx.capture('POST', '/api/echo', { body: '{}', contentType: 'application/json' });
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
      const c = await ctx.capture('POST', '/api/echo', { body: '{}', contentType: 'application/json' });
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

  // ---------------------------------------------------------------- handshake
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

  // ---------------------------------------------------------------- session actions
  {
    id: 'L01',
    group: 'session',
    title: 'terminate by session id alone',
    input: 'POST /api/nen/terminate, `nen` header of the live session, no valid body',
    expect: { status: 401, code: 'NEN_AUTH_FAILED' },
    build: (ctx) => ({
      req: {
        method: 'POST',
        path: '/api/nen/terminate',
        headers: [
          ['content-type', 'application/nen'],
          ['nen', hdr(ctx.sessionId, 999_999)],
        ],
        body: new Uint8Array(16),
      },
    }),
  },
  {
    id: 'L02',
    group: 'session',
    title: 'rotate on an unknown session',
    input: 'POST /api/nen/rotate, unknown session id',
    expect: { status: 401, code: 'NEN_SESSION_UNKNOWN' },
    build: () => ({
      req: {
        method: 'POST',
        path: '/api/nen/rotate',
        headers: [
          ['content-type', 'application/nen'],
          ['nen', hdr(SID0)],
        ],
        body: new Uint8Array(16),
      },
    }),
  },
  {
    id: 'L03',
    group: 'session',
    title: 'unknown session id',
    input: 'well-formed header, random session id',
    expect: { status: 401, code: 'NEN_SESSION_UNKNOWN' },
    build: () => ({ req: sealedPost(hdr('q83vEjRWeJCrze8SNFZ4kA')) }),
  },

  // ---------------------------------------------------------------- abuse
  {
    id: 'X01',
    group: 'abuse',
    title: 'handshake flood from one address',
    input: '70 handshakes from one `x-forwarded-for` (limit NEN_HANDSHAKE_RATE=40/min); another client handshakes meanwhile',
    expect: { status: 429, code: 'NEN_RATE_LIMITED' },
    runner: 'flood',
  },
];

/** The markdown rendering committed as HOSTILE_CASES.md. */
export function renderMarkdown(cases: readonly HostileCase[] = HOSTILE_CASES): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    '# Hostile-input battery',
    '',
    'Generated from `hostile-cases.ts` by `hostile.test.ts` (the test fails when this file is stale).',
    'Every row runs against a live `next start` of the demo (`NEN_MAX_BODY=65536`, `NEN_HANDSHAKE_RATE=40`, `NEN_TRUST_PROXY=1`);',
    'after every row a normal client makes an encrypted round trip, so the server is still serving.',
    '`code` is the `nen-error` header (and `error.code` in the JSON body); `—` means Node or Next answers',
    'before Nen runs. Status 0 means the client gave up on purpose (no response expected).',
    '',
    '| id | group | case | input | status | code |',
    '|---|---|---|---|---|---|',
    ...cases.map((c) => `| ${c.id} | ${c.group} | ${esc(c.title)} | ${esc(c.input)} | ${c.expect.status} | ${c.expect.code ? `\`${c.expect.code}\`` : '—'} |`),
    '',
    'Slow and abandoned bodies (B08, B09): Node parses the body on the event loop without holding a',
    'worker; a trickled body is answered when it completes (other clients are served meanwhile), an',
    "abandoned one is dropped when the socket closes. Node's `server.requestTimeout` (300 s by",
    'default under `next start`) bounds how long any single request may stay open.',
    '',
  ];
  return lines.join('\n');
}
