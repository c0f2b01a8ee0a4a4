/**
 * HTTP transport for the bench: one undici Agent with keep-alive connections, and a `fetch`-shaped
 * function built on `undici.request` that both the Nen client (through its `fetch` option) and the
 * plain-route driver use, so encrypted and plain requests travel the same code path.
 *
 * What it adds over `fetch`:
 *  - round-robin over several base URLs (TARGET_URL=a,b): every request's origin is rewritten to
 *    the next target, so a session made on one instance is used on the others (shared store);
 *  - exact wire byte counts (request and response bodies as sent, before any decoding: undici's
 *    `request` never decompresses), reported to an optional `onWire` hook;
 *  - an optional `tamper` hook that may rewrite the outgoing request (method, url, headers, body)
 *    or replace the incoming response: the regression suite's man in the middle.
 *
 * Pitfalls: responses with a null-body status (101, 204, 205, 304) must not get a body; response
 * headers from undici may be arrays; every response body must be consumed or cancelled, or the
 * keep-alive connection stays busy (callers read every body they get).
 */
import { Readable } from 'node:stream';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { Agent, request } from 'undici';

/** What a current browser sends (Chrome 13x); Next.js answers gzip for compressible types. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Decode a response body the way a browser's fetch does; unknown codings are an error. */
export function decodeContentEncoding(bytes, encoding) {
  const e = String(encoding ?? '')
    .trim()
    .toLowerCase();
  if (!e || e === 'identity') return bytes;
  if (e === 'gzip' || e === 'x-gzip') return new Uint8Array(gunzipSync(bytes));
  if (e === 'deflate') return new Uint8Array(inflateSync(bytes));
  if (e === 'br') return new Uint8Array(brotliDecompressSync(bytes));
  throw Object.assign(new Error(`bench: unsupported content-encoding ${e}`), { code: 'BENCH_ENCODING' });
}

const NULL_BODY = new Set([101, 204, 205, 304]);
/** Response types delivered as a stream rather than buffered. */
const STREAMING = /^(application\/nen-stream|text\/event-stream)/i;

/** Parse the comma-separated TARGET_URL list into normalised origins+base paths (no trailing /). */
export function parseTargets(value) {
  const list = String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const u = new URL(s);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`bench: TARGET_URL must be http(s), got ${s}`);
      return u.origin + u.pathname.replace(/\/+$/, '');
    });
  if (list.length === 0) throw new Error('bench: set TARGET_URL=http://host:port (comma-separate several instances)');
  return list;
}

/** A keep-alive agent sized for the highest concurrency; timeouts so that nothing hangs. */
export function createAgent({ connections = 256, timeoutMs = 30_000 } = {}) {
  return new Agent({
    connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: 10_000,
  });
}

function toHeaderObject(headers) {
  const out = {};
  if (!headers) return out;
  const h = headers instanceof Headers ? headers : new Headers(headers);
  for (const [k, v] of h) out[k] = v;
  return out;
}

/** Response headers from undici (string | string[]) → a WHATWG Headers. */
function toHeaders(raw) {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) for (const item of v) h.append(k, item);
    else if (v !== undefined) h.append(k, String(v));
  }
  return h;
}

/** Request body of any fetch-accepted kind → bytes (or a Readable for streams). */
export async function bodyToBytes(body) {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  if (body instanceof URLSearchParams) return new TextEncoder().encode(body.toString());
  if (typeof body.getReader === 'function') return new Uint8Array(await new Response(body).arrayBuffer());
  throw new TypeError('bench: unsupported request body type');
}

/**
 * Build a fetch-compatible function.
 * @param {object} o
 * @param {import('undici').Agent} o.agent
 * @param {string[]} [o.targets]   base URLs for round-robin (origin of each request is rewritten)
 * @param {(e: object) => void} [o.onWire]  called with { method, url, status, reqBytes, resBytes, reqHeaders, resHeaders } once the response body ends
 * @param {(req: object) => Promise<object|Response|void>|object|Response|void} [o.tamper]
 *        may return a modified { method, url, headers, body } or a Response to deliver instead of sending
 * @param {(req: object, res: Response) => Promise<Response|void>|Response|void} [o.tamperResponse]
 * @param {string} [o.acceptEncoding] send this Accept-Encoding (unless the caller set one) and decode
 *        the response like a browser; wire bytes stay the encoded ones
 */
export function createFetch({ agent, targets = [], onWire, tamper, tamperResponse, acceptEncoding } = {}) {
  let rr = 0;
  const origins = targets.map((t) => new URL(t).origin);
  return async function benchFetch(input, init = {}) {
    let url;
    let method;
    let headers;
    let body = init.body;
    if (typeof input === 'string' || input instanceof URL) {
      url = String(input);
      method = (init.method ?? 'GET').toUpperCase();
      headers = toHeaderObject(init.headers);
    } else {
      url = input.url;
      method = (init.method ?? input.method ?? 'GET').toUpperCase();
      headers = toHeaderObject(init.headers ?? input.headers);
      if (body === undefined && input.body) body = input.body;
    }
    if (acceptEncoding && !Object.keys(headers).some((k) => k.toLowerCase() === 'accept-encoding')) headers['accept-encoding'] = acceptEncoding;
    if (origins.length > 1) {
      const u = new URL(url);
      const next = origins[rr++ % origins.length];
      url = next + u.pathname + u.search;
    }
    const needBytes = Boolean(tamper || onWire);
    let sendBody = body === null ? undefined : body;
    if (needBytes || (sendBody !== undefined && typeof sendBody === 'object' && !(sendBody instanceof Uint8Array) && typeof sendBody !== 'string')) {
      sendBody = await bodyToBytes(sendBody);
    }
    let req = { method, url, headers, body: sendBody };
    if (tamper) {
      const t = await tamper(req);
      if (t instanceof Response) return t;
      if (t) req = t;
    }
    const res = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      dispatcher: agent,
      signal: init.signal ?? undefined,
    });
    const status = res.statusCode;
    const resHeaders = toHeaders(res.headers);
    let response;
    const wire = (resBytes) =>
      onWire?.({
        method: req.method,
        url: req.url,
        status,
        reqBytes: req.body?.byteLength ?? 0,
        resBytes,
        reqHeaders: req.headers,
        resHeaders,
        contentEncoding: resHeaders.get('content-encoding'),
      });
    if (NULL_BODY.has(status) || req.method === 'HEAD') {
      await res.body.dump();
      wire(0);
      response = new Response(null, { status, headers: resHeaders });
    } else if (STREAMING.test(resHeaders.get('content-type') ?? '')) {
      // streams stay streams (time to first record); bytes are counted as they pass
      let count = 0;
      const counter = new TransformStream({
        transform(chunk, controller) {
          count += chunk.byteLength;
          controller.enqueue(chunk);
        },
        flush() {
          wire(count);
        },
      });
      response = new Response(Readable.toWeb(res.body).pipeThrough(counter), { status, headers: resHeaders });
    } else {
      // whole bodies are buffered: about half the CPU of a web-stream bridge per request
      let bytes = new Uint8Array(await res.body.arrayBuffer());
      wire(bytes.byteLength);
      if (acceptEncoding && resHeaders.has('content-encoding')) {
        // as a browser: the body is decoded and the headers no longer describe the coding
        bytes = decodeContentEncoding(bytes, resHeaders.get('content-encoding'));
        resHeaders.delete('content-encoding');
        resHeaders.delete('content-length');
      }
      response = new Response(bytes, { status, headers: resHeaders });
    }
    if (tamperResponse) {
      const r = await tamperResponse(req, response);
      if (r) return r;
    }
    return response;
  };
}
