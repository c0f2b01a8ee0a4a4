/**
 * `@nen/server/node`: Nen route handlers (Web Request → Response, what `withNen`, `withNenStream`
 * and `routes` return) served from `node:http` and Express 5. The adapter hands the handler a
 * lazily built Web Request over Node's IncomingMessage (node-request.ts: nothing of undici's
 * Request is built unless the handler asks for more than Nen's pipeline reads) and writes the
 * Web Response back, streaming both ways. `toWebRequest` builds a full undici Request instead.
 *
 *   createServer(toNodeHandler(nen.withNen(handler)))                  // node:http
 *   app.all('/api/nen/:action', nodeSessionRoutes(nen))                 // Express 5
 *   app.post('/api/notes', toNodeHandler(nen.withNen(handler)))
 *
 * Pitfalls:
 *  - Backpressure both ways: the request body is node-body.ts's stream (the socket is paused while
 *    64 KiB wait unread), the response is written one chunk at a time and waits for 'drain'.
 *  - An answer given before the request body was read in full (413 past the limit, 400) goes out
 *    with `connection: close` (and a content-length when it is a protocol error), then the rest of
 *    the body is drained, bounded in bytes and time, before the connection closes: closing at once
 *    would reset it under a client that is still sending, which then sees EPIPE, not the answer.
 *  - Don't run a body parser (express.json(), express.raw()) before a Nen route: the sealed body
 *    must reach the adapter unread; a consumed body is refused as NEN_MALFORMED, not a 5xx.
 *  - The URL comes from the Host header and `originalUrl` (Express strips mount paths from `url`);
 *    an unparseable one is NEN_MALFORMED. Nen authenticates the method and path, not the host.
 *  - A client that goes away aborts `request.signal` and cancels the response stream.
 *  - A handler with a SEALED_PARTS entry (wrap.ts: `withNen` routes, `routes.POST`, the OHTTP
 *    gateway's `fetch` / `POST`) hands its answers back as parts (sealed-parts.ts), written with
 *    `writeHead` + `end` and the same headers, in the same order, as its Response would have;
 *    mount it as it is (`toNodeHandler(gateway.fetch)`): a function around it has no such entry.
 *  - The returned function never rejects (plain `node:http` ignores its promise): an exception in
 *    the adapter itself answers 500 when headers are unsent, else destroys the socket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER } from '@nen/core';
import { errorResponse, readAll } from '../http.js';
import type { Nen } from '../nen.js';
import type { SealedParts } from '../sealed-parts.js';
import { type PartsRoute, SEALED_PARTS } from '../wrap.js';
import { drainRequest, nodeBodyStream } from './node-body.js';
import { nodeRequest } from './node-request.js';

/** A Web route handler: what `withNen`, `withNenStream` and the session routes are. */
export type WebHandler<C> = (request: Request, context: C) => Promise<Response>;

/** What an Express request adds to IncomingMessage (all optional: plain node:http has none). */
interface ExpressLike {
  originalUrl?: string;
  params?: Record<string, string>;
  body?: unknown;
}

export interface NodeAdapterOptions<C> {
  /** Origin used for the request URL (default `http(s)://<Host header>`). */
  origin?: string;
  /** The route context handed to the handler (default `{ params: Promise<req.params> }`, as Next.js). */
  context?: (req: IncomingMessage) => C;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => Promise<void>;

/** IncomingMessage → Web Request; the body streams (with backpressure) for methods that have one. */
export function toWebRequest(req: IncomingMessage, res?: ServerResponse, origin?: string): Request {
  const x = req as IncomingMessage & ExpressLike;
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  const base = origin ?? `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
  const url = new URL(x.originalUrl ?? req.url ?? '/', base);
  if (url.origin === 'null') throw new TypeError('request URL without an origin');
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i]!;
    if (k.charCodeAt(0) !== 58 /* ':' HTTP/2 pseudo-header */) headers.append(k, raw[i + 1]!);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    if (req.readableEnded || x.body !== undefined) throw new TypeError('the request body was already read (a body parser ran before the Nen route)');
    init.body = nodeBodyStream(req);
    init.duplex = 'half';
  }
  const request = new Request(url, init);
  if (res) abortOnClose(request, res);
  return request;
}

/**
 * `request.signal` aborts when the client goes away before the response is finished: an own
 * property over the Request's, its controller made on first use. A signal handed to undici's
 * Request constructor costs ~20 µs per request on Node 20 (it follows it with its own signal and
 * raises its listener limit), and most handlers never look at it.
 */
function abortOnClose(request: Request, res: ServerResponse): void {
  let ac: AbortController | undefined;
  let gone = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    ac?.abort();
  });
  Object.defineProperty(request, 'signal', {
    configurable: true,
    get(): AbortSignal {
      if (!ac) {
        ac = new AbortController();
        if (gone) ac.abort();
      }
      return ac.signal;
    },
  });
}

/** Waits until `res` can take more data, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Ends `res`; when the request body was not read in full, after the bounded drain (node-body.ts). */
async function endAfterDrain(res: ServerResponse, req: IncomingMessage | undefined): Promise<void> {
  if (req && !req.complete) await drainRequest(req);
  res.end();
}

/** Writes a Web Response to `res`, one chunk at a time, waiting for 'drain' (backpressure). */
export async function sendWebResponse(res: ServerResponse, response: Response, req?: IncomingMessage): Promise<void> {
  // A body read whole (Nen reads exactly Content-Length bytes) leaves `complete` false until the
  // parser's end of message, one event-loop turn later: wait for that turn before taking the
  // request for one answered early (connection: close, a new connection for every request).
  if (req && !req.complete && req.method !== 'GET' && req.method !== 'HEAD') await new Promise<void>((r) => setImmediate(r));
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    if (k !== 'set-cookie') out[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  // Answered without reading the whole request body (413, 400): don't reuse this connection, and
  // let the client read the answer whole before the drain ends (endAfterDrain).
  const early = req !== undefined && !req.complete;
  if (early) out.connection = 'close';
  if (early && response.body && response.headers.has(HEADER.error) && req.method !== 'HEAD') {
    const body = await readAll(response.body);
    out['content-length'] = String(body.byteLength);
    res.writeHead(response.status, response.statusText || undefined, out);
    res.write(body);
    await endAfterDrain(res, req);
    return;
  }
  res.writeHead(response.status, response.statusText || undefined, out);
  if (!response.body || req?.method === 'HEAD') {
    await endAfterDrain(res, req);
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      if (!res.write(r.value)) await drained(res);
      if (res.destroyed) {
        await reader.cancel().catch(() => undefined);
        return;
      }
    }
    await endAfterDrain(res, req);
  } catch {
    // The response stream failed (e.g. a handler's stream threw): cut the connection so the
    // client sees a truncated response, never a clean end.
    res.destroy();
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * Writes the sealed body's chunks (sealed-parts.ts) and ends `res`, or leaves it open for the
 * early answer's drain (`end` false). Node corks the socket on the first write of a message, so
 * head and chunks leave in one writev.
 */
function writeChunks(res: ServerResponse, body: Uint8Array[] | null, end: boolean): void {
  const n = body ? body.length : 0;
  for (let i = 0; i < n - 1; i++) res.write((body as Uint8Array[])[i]);
  if (n > 0 && !end) res.write((body as Uint8Array[])[n - 1]);
  if (end) {
    if (n > 0) res.end((body as Uint8Array[])[n - 1]);
    else res.end();
  }
}

/**
 * Writes a sealed answer's parts (a `withNen` route's, the handshake's or the OHTTP gateway's
 * SEALED_PARTS entry) to `res`: head and body in one write, no Response in between. One answered
 * before the request body was read in full goes out with `connection: close` (and a problem
 * answer's content-length), then the bounded drain, as sendWebResponse.
 */
function sendSealedParts(res: ServerResponse, parts: SealedParts, req: IncomingMessage): Promise<void> | undefined {
  // The common case (the body read in full) ends synchronously: no promise per request.
  if (req.complete) {
    res.writeHead(parts.status, parts.statusText || undefined, parts.headers);
    writeChunks(res, req.method === 'HEAD' ? null : parts.body, true);
    return undefined;
  }
  return sendSealedPartsEarly(res, parts, req);
}

/** sendSealedParts for a request whose body is not (yet) complete. */
async function sendSealedPartsEarly(res: ServerResponse, parts: SealedParts, req: IncomingMessage): Promise<void> {
  // As sendWebResponse: `complete` may turn true one turn after the body was read to its length.
  if (req.method !== 'GET' && req.method !== 'HEAD') await new Promise<void>((r) => setImmediate(r));
  const early = !req.complete;
  const body = req.method === 'HEAD' ? null : parts.body;
  res.writeHead(parts.status, parts.statusText || undefined, early ? earlyHeaders(parts.headers, body) : parts.headers);
  writeChunks(res, body, !early);
  if (early) await endAfterDrain(res, req);
}

/**
 * An early answer's headers as sendWebResponse writes them: `connection: close` (replacing one
 * the answer has, else last), and a problem answer's (nen-error: the OHTTP gateway's 413 / 415
 * parts) content-length after it, so that the client reads it whole before the drain ends.
 */
function earlyHeaders(headers: readonly string[], body: Uint8Array[] | null): string[] {
  const out = headers.slice();
  setHeader(out, 'connection', 'close');
  if (body && indexOfHeader(out, HEADER.error) >= 0) {
    let n = 0;
    for (const c of body) n += c.length;
    setHeader(out, 'content-length', String(n));
  }
  return out;
}

/** Where `name` is in a flat header list (lower-case names), -1 when absent. */
function indexOfHeader(flat: readonly string[], name: string): number {
  for (let i = 0; i < flat.length; i += 2) if (flat[i] === name) return i;
  return -1;
}

/** Sets `name` in a flat header list: its value replaced in place, else appended. */
function setHeader(flat: string[], name: string, value: string): void {
  const i = indexOfHeader(flat, name);
  if (i >= 0) flat[i + 1] = value;
  else flat.push(name, value);
}

/** The default route context, `{ params }` as Next.js gives it; the promise is made when a handler reads it. */
class NodeRouteContext {
  readonly #req: IncomingMessage;
  #params: Promise<Record<string, string>> | undefined;
  constructor(req: IncomingMessage) {
    this.#req = req;
  }
  get params(): Promise<Record<string, string>> {
    this.#params ??= Promise.resolve((this.#req as ExpressLike).params ?? {});
    return this.#params;
  }
}

function defaultContext(req: IncomingMessage): unknown {
  return new NodeRouteContext(req);
}

/** A Node (and Express 5) request handler serving a Web route handler. */
export function toNodeHandler<C = unknown>(handler: WebHandler<C>, options: NodeAdapterOptions<C> = {}): NodeHandler {
  const context = options.context ?? (defaultContext as (req: IncomingMessage) => C);
  // A withNen route: its sealed answers are written from their parts (no Response in between).
  const parts = (handler as { [SEALED_PARTS]?: PartsRoute<C> })[SEALED_PARTS];
  return async (req, res) => {
    try {
      let request: Request;
      try {
        request = nodeRequest(req, res, options.origin);
      } catch {
        await sendWebResponse(res, errorResponse('NEN_MALFORMED'), req);
        return;
      }
      if (parts) {
        const out = await parts(request, context(req));
        if (out instanceof Response) await sendWebResponse(res, out, req);
        else {
          const sending = sendSealedParts(res, out, req);
          if (sending) await sending;
        }
      } else await sendWebResponse(res, await handler(request, context(req)), req);
    } catch {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ error: { code: 'NEN_INTERNAL', message: 'nen: internal error' } }));
      } else {
        res.destroy();
      }
    }
  };
}

/** The session endpoints (`<sessionPath>/:action`) as one Node handler: GET/HEAD → routes.GET, others → routes.POST (405 there). */
export function nodeSessionRoutes(nen: Pick<Nen, 'routes'>, options: NodeAdapterOptions<unknown> = {}): NodeHandler {
  const { GET, POST } = nen.routes;
  const handler: WebHandler<unknown> = (request, context) =>
    request.method === 'GET' || request.method === 'HEAD' ? GET(request, context) : POST(request, context);
  // The handshake's ServerHello written from its parts, as a withNen route's sealed answer (session-routes.ts).
  const postParts = (POST as { [SEALED_PARTS]?: PartsRoute<unknown> })[SEALED_PARTS];
  if (postParts) {
    const partsRoute: PartsRoute<unknown> = (request, context) =>
      request.method === 'GET' || request.method === 'HEAD' ? GET(request, context) : postParts(request, context);
    Object.defineProperty(handler, SEALED_PARTS, { value: partsRoute });
  }
  return toNodeHandler(handler, options);
}
