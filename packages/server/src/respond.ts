/**
 * Response sealing (PROTOCOL.md "Requests and responses"; THREAT_MODEL.md properties 5, 9, 11):
 * whatever a handler returns (a Response, a plain value, or an exception) becomes one sealed
 * response bound to the request (session, epoch, seq), through the core envelope's `sealResponseChunks`.
 *
 * Pitfalls:
 *  - A plain value is sealed as JSON (200) or 204 when undefined, without an intermediate Response,
 *    and from its JSON text (core sealTextResponseChunks): node:crypto encodes the text while it
 *    seals, so no body-sized encoded copy is made (100 KB value, stringify + seal, Node 20 356 ->
 *    319 µs, Node 24 311 -> 220; a plain route's `Response.json` still pays that encoding).
 *  - A handler exception becomes a *sealed* 500 (the session is valid); the reason is logged only.
 *    A deferred step 8 (`lazyJson`: the handler's `json()` threw NEN_BAD_JSON) is a sealed 400.
 *  - The handler's headers that describe the plaintext body, or are Nen's, are replaced; the
 *    others pass through in one pass (no intermediate Headers copy). `cache-control: no-store`
 *    unless the handler set its own.
 *  - The sealed body goes to a Web Response as a stream of its chunks (ciphertext and tag unjoined;
 *    no copy in undici's constructor) with its content-length; @hono/node-server's lightweight
 *    Response (ResponseBytes) gets one byte array, its fast path.
 */
import { HEADER, NenProtocolError, WIRE_ERRORS, joinedOrOnly, sealResponseChunks, sealTextResponseChunks } from '@nen/core';
import type { Opened, ServerContext } from './pipeline.js';
import { deflateRaw } from './zlib.js';

/** A handler result reduced to what gets sealed. */
export interface PlainResult {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers | null;
  readonly contentType: string;
  readonly body: Uint8Array;
}

/**
 * A handler result an adapter has already reduced to its bytes (e.g. Hono's lightweight Response,
 * whose bytes are known without building a Web Response): sealed as is. Internal, not exported
 * by the package, so handler code cannot produce one.
 */
export class ResponseBytes implements PlainResult {
  constructor(
    readonly status: number,
    readonly headers: Headers | null,
    readonly contentType: string,
    readonly body: Uint8Array,
    readonly statusText = '',
  ) {}
}

/** Handler response headers that describe the plaintext body or are Nen's; replaced on the sealed response. */
export const REPLACED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  HEADER.nen,
  HEADER.type,
  HEADER.body,
  HEADER.error,
]);
const EMPTY = new Uint8Array(0);
const JSON_500 = new TextEncoder().encode(JSON.stringify({ error: { code: 'NEN_INTERNAL', message: 'nen: internal error' } }));
const textEncoder = new TextEncoder();

/**
 * A handler's value as its JSON text (200): sealed from the text (core sealTextResponseChunks), so
 * node:crypto encodes it while sealing; `body`, the UTF-8 bytes, is only made for a reader that
 * asks (the OHTTP gateway, a Web Response).
 */
class JsonText implements PlainResult {
  readonly status = 200;
  readonly statusText = '';
  readonly headers = null;
  readonly contentType = 'application/json';
  #bytes: Uint8Array | undefined;
  constructor(readonly text: string) {}
  get body(): Uint8Array {
    this.#bytes ??= textEncoder.encode(this.text);
    return this.#bytes;
  }
}

/** A plain value as JSON (200), or 204 when undefined; no intermediate Response. */
export function valueToPlain(value: unknown): PlainResult {
  const json = value === undefined ? undefined : JSON.stringify(value);
  if (json === undefined) return { status: 204, statusText: '', headers: null, contentType: '', body: EMPTY };
  return new JsonText(json);
}

/** A handler's Response must still have its body (read below with http.ts readAll, cheaper than arrayBuffer() on Node 20). */
export function checkUnread(value: Response): Response {
  if (value.bodyUsed) throw new TypeError('nen: the handler returned a Response whose body was already read');
  return value;
}

/** A handler's Response and its body bytes as what gets sealed. */
export function responsePlain(value: Response, body: Uint8Array): PlainResult {
  return { status: value.status, statusText: value.statusText, headers: value.headers, contentType: value.headers.get('content-type') ?? '', body };
}

const JSON_TRUNCATED = new TextEncoder().encode(
  JSON.stringify({ error: { code: 'NEN_STREAM_TRUNCATED', message: `nen: ${WIRE_ERRORS.NEN_STREAM_TRUNCATED.message}` } }),
);

const JSON_BAD_JSON = new TextEncoder().encode(JSON.stringify({ error: { code: 'NEN_BAD_JSON', message: `nen: ${WIRE_ERRORS.NEN_BAD_JSON.message}` } }));

/** A Nen protocol error of this code (the upload's own NEN_STREAM_TRUNCATED, a deferred NEN_BAD_JSON), possibly wrapped as a cause. */
function isNenError(e: unknown, code: 'NEN_STREAM_TRUNCATED' | 'NEN_BAD_JSON'): boolean {
  for (let x = e, depth = 0; x && depth < 4; x = (x as { cause?: unknown }).cause, depth++) {
    if (x instanceof NenProtocolError && x.code === code) return true;
  }
  return false;
}

/**
 * Logs a handler exception and returns the sealed answer: 400 NEN_STREAM_TRUNCATED for a
 * truncated upload, 400 NEN_BAD_JSON for step 8 deferred to the handler's `json()`, else 500.
 */
export function handlerFailed(ctx: ServerContext, o: Opened, e: unknown): PlainResult {
  if (isNenError(e, 'NEN_BAD_JSON')) {
    ctx.s.log({
      level: 'warn',
      event: 'request.rejected',
      code: 'NEN_BAD_JSON',
      reason: 'decrypted body is not valid UTF-8 JSON (read by the handler)',
      status: 400,
      session: o.head.sid.slice(0, 8),
      path: o.head.path.slice(0, 200),
    });
    return { status: 400, statusText: '', headers: null, contentType: 'application/json', body: JSON_BAD_JSON };
  }
  if (o.head.stream && isNenError(e, 'NEN_STREAM_TRUNCATED')) {
    ctx.s.log({
      level: 'warn',
      event: 'request.rejected',
      code: 'NEN_STREAM_TRUNCATED',
      reason: 'streamed upload ended before its final record',
      status: 400,
      session: o.head.sid.slice(0, 8),
      path: o.head.path.slice(0, 200),
    });
    return { status: 400, statusText: '', headers: null, contentType: 'application/json', body: JSON_TRUNCATED };
  }
  ctx.s.log({
    level: 'error',
    event: 'handler.error',
    code: 'NEN_INTERNAL',
    reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
    session: o.head.sid.slice(0, 8),
    path: o.head.path.slice(0, 200),
  });
  return { status: 500, statusText: '', headers: null, contentType: 'application/json', body: JSON_500 };
}

export function timingHeader(o: { cryptoMs: number; storeMs: number }, extraCrypto: number): string {
  return `nen;dur=${(o.cryptoMs + extraCrypto).toFixed(3)}, nen-store;dur=${o.storeMs.toFixed(3)}`;
}

/**
 * The sealed record of `res` for the request `o` (core sealResponseChunks), shared by the Response
 * form below and the node:http parts form (sealed-parts.ts). HEAD: no body on the wire, so the
 * record (in nen-body) seals an empty body, never the handler's. The body stays unjoined
 * (node:crypto's ciphertext and tag of a large body: one body-sized copy and allocation less).
 */
export function sealRecord(res: PlainResult, o: Opened, compress: boolean): ReturnType<typeof sealResponseChunks> {
  const ctx = { keys: o.entry.keys, meta: o.head.meta, method: o.head.method };
  if (res instanceof JsonText && o.head.method !== 'HEAD')
    return sealTextResponseChunks(ctx, res.status, res.contentType, res.text, compress ? deflateRaw : undefined);
  const body = o.head.method === 'HEAD' ? EMPTY : res.body;
  return sealResponseChunks(ctx, res.status, res.contentType, body, compress ? deflateRaw : undefined);
}

/** The sealed Response for `res`, compressed when allowed and the client accepts it. */
export function sealed(ctx: ServerContext, res: PlainResult, o: Opened, compress: boolean): Response {
  const timing = ctx.s.serverTiming;
  const t0 = timing ? performance.now() : 0;
  const out = sealRecord(res, o, compress);
  const length = out.body ? totalLength(out.body) : -1;
  const serverTiming = timing ? timingHeader(o, performance.now() - t0) : '';
  // No empty statusText: it goes through more WebIDL conversion in undici's constructor.
  const init: ResponseInit = res.statusText ? { status: res.status, statusText: res.statusText } : { status: res.status };
  if (res instanceof ResponseBytes) {
    // From @hono/node-server's lightweight Response (adapters/hono.ts knownBytes), whose own
    // Response writes a header record in `init` as it is: no Headers object (~2.7 KB, ~3 µs less
    // per response than set() below). Not for undici's Response: its record conversion is slower.
    const record = headerRecord(out.headers, res.headers, length, serverTiming);
    if (record) {
      init.headers = record;
      return new Response(out.body ? (joinedOrOnly(out.body, length) as Uint8Array<ArrayBuffer>) : null, init);
    }
  }
  const response = new Response(responseBody(out.body), init);
  // Headers set one by one rather than a list in `init`: undici converts a list as a WebIDL
  // sequence of sequences (a copy of every pair, a label string per element, iterator results):
  // ~4 KB allocated and ~8 µs per response on Node 20, against ~0.6 KB for these calls. `set`, not
  // `append`, for Nen's own (distinct) names: a runtime's Response may start with a default
  // content-type (@hono/node-server's lightweight Response gives a body `text/plain`).
  const headers = response.headers;
  const list = out.headers;
  for (let i = 0; i < list.length; i++) {
    const h = list[i] as [string, string];
    headers.set(h[0], h[1]);
  }
  let cacheControl = false;
  if (res.headers) {
    res.headers.forEach((v, k) => {
      if (REPLACED_RESPONSE_HEADERS.has(k)) return;
      if (k === 'cache-control') cacheControl = true;
      headers.append(k, v);
    });
  }
  if (!cacheControl) headers.set('cache-control', 'no-store');
  // The sealed length, known here: a Node adapter sends head and body in one write, not chunked.
  if (out.body) headers.set('content-length', String(length));
  if (timing) headers.set('server-timing', serverTiming);
  return response;
}

/**
 * The sealed chunks as a Response body: a stream of them, which undici's Response hands on as they
 * are, where a byte body is copied by its constructor (Node 20: construct + read 34-40 -> 9-11 µs
 * at 100 KB, 8.0-9.3 -> 6.5-7.8 µs at 1 KB). The length is known: sealed() sets content-length.
 */
function responseBody(chunks: Uint8Array[] | null): ReadableStream<Uint8Array> | null {
  if (!chunks) return null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) if (c.length > 0) controller.enqueue(c);
      controller.close();
    },
  });
}

function totalLength(chunks: Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}

/**
 * The sealed response's headers as a record (the same as sealed() sets one by one), or null when
 * the handler's headers repeat a name a record cannot hold (set-cookie). Null prototype: a
 * `__proto__` header is a header like any other.
 */
function headerRecord(list: [string, string][], passed: Headers | null, length: number, serverTiming: string): Record<string, string> | null {
  const h = Object.create(null) as Record<string, string>;
  for (let i = 0; i < list.length; i++) {
    const e = list[i] as [string, string];
    h[e[0]] = e[1];
  }
  let cacheControl = false;
  let repeated = false;
  if (passed) {
    passed.forEach((v, k) => {
      if (REPLACED_RESPONSE_HEADERS.has(k)) return;
      if (k === 'set-cookie') repeated = true;
      if (k === 'cache-control') cacheControl = true;
      h[k] = v;
    });
  }
  if (repeated) return null;
  if (!cacheControl) h['cache-control'] = 'no-store';
  if (length >= 0) h['content-length'] = String(length);
  if (serverTiming) h['server-timing'] = serverTiming;
  return h;
}
