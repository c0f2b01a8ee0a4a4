/**
 * Property tests (fast-check) of the envelope (./envelope.ts) against a small reference model of
 * PROTOCOL.md "Requests and responses": for random methods, paths, queries, content types, bodies,
 * statuses and options, the model says which flags are set and where the sealed record travels;
 * the envelope must agree, round-trip the plaintext exactly (seal on one side, open on the other),
 * and reject every single-bit change of the record or of a bound field with a catalogued code.
 *
 * Pitfall: compression here is node:zlib (synchronous, as both ends use it on Node) and, in some
 * cases, the Compression Streams of ./compression.ts (asynchronous, as browsers and Edge use it).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBackend } from '../backend/index.js';
import type { Backend } from '../backend/types.js';
import { NenProtocolError } from './codes.js';
import { CLIENT_INFLATE_ERRORS, inflateResponseBody, streamCompression } from './compression.js';
import { HEADER, MEDIA_TYPE, REQ_FLAG, RES_FLAG } from './constants.js';
import { COMPRESS_MIN_BYTES, decodeRequestPlaintext, openRequest, parseRequest, sealRequest, type SealedRequest } from './envelope.js';
import { openResponse, parseResponse, responseRecord, sealResponse } from './envelope-response.js';
import { SessionKeys } from './keys.js';

const RUNS = { numRuns: 150 };
let backend: Backend;
let keys: SessionKeys;
const sessionId = Uint8Array.from({ length: 16 }, (_, i) => i * 7);
const NOW = 1_700_000_000_000;

beforeAll(async () => {
  backend = await loadBackend('noble');
  keys = new SessionKeys(backend, new Uint8Array(32).fill(9), 0);
});

/** The reference model: flags and placement, straight from PROTOCOL.md. */
const model = {
  requestFlags(o: { query: string; confidential: boolean; compress: boolean; bodyLength: number }): number {
    let f = 0;
    if (o.confidential && o.query !== '') f |= REQ_FLAG.CONFIDENTIAL_QUERY;
    if (o.compress) f |= REQ_FLAG.ACCEPT_COMPRESSED;
    if (o.compress && o.bodyLength >= 64) f |= REQ_FLAG.COMPRESSED;
    return f;
  },
  recordInHeader: (method: string) => method === 'GET' || method === 'HEAD',
  responseFlags: (acceptCompressed: boolean, deflate: boolean, bodyLength: number) =>
    acceptCompressed && deflate && bodyLength >= 64 ? RES_FLAG.COMPRESSED : 0,
  responseNullBody: (status: number, method: string) => [101, 103, 204, 205, 304].includes(status) || method === 'HEAD',
};

const zlibInflate = (b: Uint8Array, limit: number) => inflateRawSync(b, { maxOutputLength: Math.max(1, limit) });
/** The browser / Edge path, forced here (on Node the client uses node:zlib). */
const webDeflate = (b: Uint8Array) => streamCompression!.deflate(b, 6);
const webInflate = (b: Uint8Array, max: number) => streamCompression!.inflate(b, max, CLIENT_INFLATE_ERRORS);
const seg = fc.stringMatching(/^[a-z0-9~._-]{1,8}$/);
const arbRequest = fc.record({
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'),
  path: fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  query: fc.oneof(
    fc.constant(''),
    fc.dictionary(seg, fc.string({ maxLength: 8 }), { maxKeys: 3 }).map((d) => new URLSearchParams(d).toString()),
  ),
  contentType: fc.constantFrom('', 'application/json', 'text/plain;charset=UTF-8', 'application/octet-stream'),
  body: fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ minLength: 64, maxLength: 600 }), fc.constant(new Uint8Array(300).fill(65))),
  confidential: fc.boolean(),
  compress: fc.boolean(),
  seq: fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
});
type Req = typeof arbRequest extends fc.Arbitrary<infer T> ? T : never;

function seal(r: Req): SealedRequest {
  const url = new URL(`https://app.example${r.path}${r.query ? `?${r.query}` : ''}`);
  const bodyless = model.recordInHeader(r.method);
  const out = sealRequest({
    keys,
    sessionId,
    epoch: 0,
    seq: r.seq,
    timestamp: NOW,
    method: r.method,
    url,
    contentType: r.contentType,
    body: bodyless ? null : r.body,
    confidentialQuery: r.confidential,
    compress: r.compress,
    deflate: (b) => deflateRawSync(b),
  });
  if (out instanceof Promise) throw new Error('a synchronous deflate must give a synchronous seal');
  return out;
}

/** What the server receives: the sealed request as method, URL and headers (and body bytes). */
function receive(_r: Req, s: SealedRequest): { headers: Headers; url: string; body: Uint8Array | null } {
  return { headers: new Headers(s.headers), url: s.url.href, body: s.body instanceof Uint8Array ? s.body : null };
}

function open(r: Req, w: { headers: Headers; url: string; body: Uint8Array | null }) {
  const head = parseRequest(w.headers, r.method, w.url, NOW + 5, 30_000);
  const sealed = head.headerRecord ?? w.body!;
  return { head, ...decodeRequestPlaintext(head, openRequest(head, keys, sealed), 1 << 20, zlibInflate) };
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof NenProtocolError) return e.code;
    throw e;
  }
  return 'none';
}

describe('envelope: requests', () => {
  it('flags and placement follow the model; open(seal(x)) = x', () => {
    fc.assert(
      fc.property(arbRequest, (r) => {
        const bodyless = model.recordInHeader(r.method);
        const s = seal(r);
        const h = new Headers(s.headers);
        const body = bodyless ? new Uint8Array(0) : r.body;
        const flags = model.requestFlags({
          query: r.query,
          confidential: r.confidential,
          compress: r.compress,
          bodyLength: body.length,
        });
        expect(s.flags).toBe(flags);
        expect(h.get(HEADER.nen)!.split('.')[5]).toBe(String(flags));
        expect(h.get(HEADER.type)).toBe(r.contentType || null);
        expect(h.has(HEADER.body)).toBe(bodyless);
        expect(s.body === undefined).toBe(bodyless);
        expect(h.get('content-type')).toBe(bodyless ? null : MEDIA_TYPE.sealed);
        expect(s.url.search).toBe(flags & REQ_FLAG.CONFIDENTIAL_QUERY || !r.query ? '' : `?${r.query}`);
        const o = open(r, receive(r, s));
        expect(o.head.contentType).toBe(r.contentType);
        expect(o.query).toBe(flags & REQ_FLAG.CONFIDENTIAL_QUERY ? r.query : null);
        expect(Array.from(o.body)).toEqual(Array.from(body));
      }),
      RUNS,
    );
  });

  it('any flipped bit of the sealed record, or a changed method, path or content type, fails with NEN_AUTH_FAILED', () => {
    fc.assert(
      fc.property(arbRequest, fc.nat(), fc.constantFrom('record', 'method', 'path', 'type'), (r, at, what) => {
        const w = receive(r, seal(r));
        let method = r.method;
        if (what === 'record') {
          const hb = w.headers.get(HEADER.body);
          const rec = hb ? Uint8Array.from(Buffer.from(hb, 'base64url')) : w.body!.slice();
          rec[at % rec.length]! ^= 1 << (at % 8);
          if (hb) w.headers.set(HEADER.body, Buffer.from(rec).toString('base64url'));
          else w.body = rec;
        } else if (what === 'method') {
          method = r.method === 'PUT' ? 'PATCH' : r.method === 'GET' ? 'HEAD' : r.method === 'HEAD' ? 'GET' : 'PUT';
        } else if (what === 'path') {
          const u = new URL(w.url);
          u.pathname += 'x';
          w.url = u.href;
        } else {
          w.headers.set(HEADER.type, `${r.contentType}x`);
        }
        expect(codeOf(() => open({ ...r, method }, w))).toBe('NEN_AUTH_FAILED');
      }),
      RUNS,
    );
  });

  it('a compressed body is inflated within the limit, else NEN_TOO_LARGE', () => {
    const r: Req = {
      method: 'POST',
      path: '/x',
      query: '',
      contentType: 'application/octet-stream',
      body: new Uint8Array(5000).fill(1),
      confidential: false,
      compress: true,
      seq: 5n,
    };
    const w = receive(r, seal(r));
    const head = parseRequest(w.headers, 'POST', w.url, NOW, 30_000);
    const opened = openRequest(head, keys, w.body!);
    expect(
      codeOf(() =>
        decodeRequestPlaintext(head, opened, 4999, (b, l) => {
          try {
            return zlibInflate(b, l);
          } catch {
            throw new NenProtocolError('NEN_TOO_LARGE', 'too large');
          }
        }),
      ),
    ).toBe('NEN_TOO_LARGE');
    expect(decodeRequestPlaintext(head, opened, 5000, zlibInflate).body.length).toBe(5000);
  });

  it('async deflate (Compression Streams) seals the same envelope', async () => {
    const url = new URL('https://app.example/a?b=1');
    const body = new Uint8Array(1000).fill(7);
    const s = await sealRequest({
      keys,
      sessionId,
      epoch: 0,
      seq: 9n,
      timestamp: NOW,
      method: 'POST',
      url,
      contentType: '',
      body,
      compress: true,
      deflate: webDeflate,
    });
    expect(s.flags).toBe(REQ_FLAG.ACCEPT_COMPRESSED | REQ_FLAG.COMPRESSED);
    const head = parseRequest(new Headers(s.headers), 'POST', s.url.href, NOW, 30_000);
    expect(Array.from(decodeRequestPlaintext(head, openRequest(head, keys, s.body as Uint8Array), 1000, zlibInflate).body)).toEqual(Array.from(body));
  });
});

describe('envelope: request URL', () => {
  it('origin, path and query read from the URL string agree with new URL() on serialized URLs', () => {
    const part = fc.stringMatching(/^[a-zA-Z0-9~%._\-+=&?/:@é ]{0,12}$/);
    const arbUrl = fc
      .tuple(
        fc.constantFrom('http://127.0.0.1:3000', 'https://app.example', 'http://user:pw@host:8080', 'https://xn--nxasmq6b.example'),
        part,
        fc.option(part),
        fc.option(part),
      )
      .map(([o, p, q, h]) => new URL(`${o}/${p}${q === null ? '' : `?${q}`}${h === null ? '' : `#${h}`}`).href);
    fc.assert(
      fc.property(arbUrl, (raw) => {
        const headers = new Headers({ nen: `1.${Buffer.from(sessionId).toString('base64url')}.0.1.${NOW}.0`, 'content-type': MEDIA_TYPE.sealed });
        const head = parseRequest(headers, 'POST', raw, NOW, 30_000);
        const u = new URL(raw);
        expect({ origin: head.origin, path: head.path, search: head.search }).toEqual({ origin: u.origin, path: u.pathname, search: u.search });
      }),
      { numRuns: 300 },
    );
  });
});

describe('envelope: responses', () => {
  const arbResponse = fc.record({
    method: fc.constantFrom('GET', 'HEAD', 'POST'),
    status: fc.constantFrom(200, 201, 204, 304, 400, 404, 500),
    contentType: fc.constantFrom('', 'application/json', 'text/html'),
    body: fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constant(new Uint8Array(500).fill(66))),
    accept: fc.boolean(),
    deflate: fc.boolean(),
    seq: fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
  });

  it('flags and placement follow the model; openResponse(sealResponse(x)) = x; a changed status fails', async () => {
    await fc.assert(
      fc.asyncProperty(arbResponse, async (x) => {
        const meta = {
          sessionId,
          epoch: 0,
          seq: x.seq,
          timestamp: NOW,
          flags: x.accept ? REQ_FLAG.ACCEPT_COMPRESSED : 0,
        };
        const s = sealResponse({ keys, meta, method: x.method }, x.status, x.contentType, x.body, x.deflate ? (b) => deflateRawSync(b) : undefined);
        const flags = model.responseFlags(x.accept, x.deflate, x.body.length);
        const nullBody = model.responseNullBody(x.status, x.method);
        const h = new Headers(s.headers);
        expect(h.get(HEADER.nen)).toBe(`1.${flags}`);
        expect(h.has(HEADER.body)).toBe(nullBody);
        expect(s.body === null).toBe(nullBody);
        const head = parseResponse(h, x.status, x.method)!;
        expect(head).toEqual({ flags, stream: false, contentType: x.contentType, nullBody });
        const expectation = {
          keys,
          sessionId,
          epoch: 0,
          seq: x.seq,
          compress: x.accept,
          inflate: webInflate,
          maxBytes: 1 << 20,
        };
        const plain = await openResponse(expectation, head, x.status, responseRecord(head, h, s.body));
        expect(Array.from(plain)).toEqual(Array.from(x.body));
        const other = x.status === 200 ? 201 : 200;
        expect(codeOf(() => openResponse(expectation, head, other, responseRecord(head, h, s.body)))).toBe('NEN_RESPONSE_UNAUTHENTICATED');
        expect(codeOf(() => openResponse({ ...expectation, seq: x.seq === 1n ? 2n : x.seq - 1n }, head, x.status, responseRecord(head, h, s.body)))).toBe(
          'NEN_RESPONSE_UNAUTHENTICATED',
        );
      }),
      RUNS,
    );
  });

  it('a compressed response that was not asked for, or one that decompresses past maxBytes, is refused', async () => {
    const meta = { sessionId, epoch: 0, seq: 3n, timestamp: NOW, flags: REQ_FLAG.ACCEPT_COMPRESSED };
    const s = sealResponse({ keys, meta, method: 'POST' }, 200, 'text/plain', new Uint8Array(10_000), (b) => deflateRawSync(b));
    const h = new Headers(s.headers);
    const head = parseResponse(h, 200, 'POST')!;
    const x = { keys, sessionId, epoch: 0, seq: 3n, compress: false, inflate: webInflate, maxBytes: 1 << 20 };
    expect(codeOf(() => openResponse(x, head, 200, s.body!))).toBe('NEN_RESPONSE_UNAUTHENTICATED');
    await expect(openResponse({ ...x, compress: true, maxBytes: 9999 }, head, 200, s.body!)).rejects.toMatchObject({
      code: 'NEN_RESPONSE_UNAUTHENTICATED',
    });
    expect((await openResponse({ ...x, compress: true }, head, 200, s.body!)).length).toBe(10_000);
    // The client's own choice on Node (node:zlib, synchronous): same refusal, same code.
    const nodeX = { ...x, compress: true, inflate: inflateResponseBody };
    expect(codeOf(() => openResponse({ ...nodeX, maxBytes: 9999 }, head, 200, s.body!))).toBe('NEN_RESPONSE_UNAUTHENTICATED');
    expect((openResponse(nodeX, head, 200, s.body!) as Uint8Array).length).toBe(10_000);
    expect(COMPRESS_MIN_BYTES).toBe(64);
  });
});
