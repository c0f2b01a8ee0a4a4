/**
 * Node's IncomingMessage as a Web `Request` built lazily (`nodeRequest`): what `@nen/server/node`
 * hands its Web handlers. Nen's pipeline reads the method, the URL, a few headers and the body
 * bytes; building an undici Request for that (URL parse, Headers list, a web-stream body, an
 * abort-signal link) cost more per request than the AEAD on Node 20, so none of it is built
 * unless a handler asks for something beyond those.
 *
 * Pitfalls:
 *  - It is `instanceof Request` (its prototype chain holds Request.prototype) but not an undici
 *    Request: every Request property it does not answer itself is read from a real Request made
 *    on first use (with the body still as a stream when nothing read it yet). `new Request(it)`
 *    is not supported (undici reads its internal state); copy the parts instead.
 *  - `url` is the WHATWG serialization, as `new URL(path, origin).href` gives it: a path of plain
 *    characters (no dot segments, nothing the URL parser would encode) is appended to the origin's
 *    cached serialization (./request-url.ts, bounded), anything else goes through URL.
 *  - The body is read straight from the IncomingMessage by `arrayBuffer()` / `bytes()` / `text()`
 *    / `json()` (node-body.ts readWholeBody: no web stream), by Nen's pipeline as its unjoined
 *    chunks (WHOLE_BODY_CHUNKS: no copy of its own), or streamed through `body` (with byte-counted
 *    backpressure). Either way once: a second read is a TypeError, as for Request.
 *  - `signal` aborts when the client goes away before the response finished; its controller is
 *    made on first use (most handlers never look), from the response's state at that point.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WHOLE_BODY_CHUNKS, WHOLE_BODY_READ } from '../http.js';
import { defineBodyReaders, delegateToReal } from '../lazy-web.js';
import { NodeHeaders } from './node-headers.js';
import { nodeBodyStream, readWholeBody, readWholeChunks } from './node-body.js';
import { plainRequestUrl } from './request-url.js';

/** What an Express request adds to IncomingMessage (all optional: plain node:http has none). */
interface ExpressLike {
  originalUrl?: string;
  body?: unknown;
}

/** The request URL as `new URL(path, base).href` serializes it; throws when it does not parse. */
function requestUrl(path: string, base: string): string {
  const plain = plainRequestUrl(path, base);
  if (plain !== null) return plain;
  const u = new URL(path, base);
  if (u.origin === 'null') throw new TypeError('request URL without an origin');
  return u.href;
}

const EMPTY = new ArrayBuffer(0);

function unusable(): Promise<never> {
  return Promise.reject(new TypeError('Body is unusable: the request body was already read'));
}

/** The lazily built Request (see the module header). */
class NodeRequest {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse | undefined;
  readonly #url: string;
  readonly #method: string;
  readonly #bodyless: boolean;
  #headers: NodeHeaders | undefined;
  #real: Request | undefined;
  #used = false;
  #ac: AbortController | undefined;

  constructor(req: IncomingMessage, res: ServerResponse | undefined, url: string, method: string) {
    this.#req = req;
    this.#res = res;
    this.#url = url;
    this.#method = method;
    this.#bodyless = method === 'GET' || method === 'HEAD';
  }

  /** The real Request behind every property this class does not answer itself. */
  static real(r: NodeRequest): Request {
    return r.#materialise();
  }

  #materialise(): Request {
    if (!this.#real) {
      const init: RequestInit & { duplex?: 'half' } = { method: this.#method, headers: this.headers };
      if (!this.#bodyless && !this.#used) {
        init.body = nodeBodyStream(this.#req);
        init.duplex = 'half';
      }
      this.#real = new Request(this.#url, init);
    }
    return this.#real;
  }

  get url(): string {
    return this.#url;
  }

  get method(): string {
    return this.#method;
  }

  get headers(): Headers {
    this.#headers ??= new NodeHeaders(this.#req.rawHeaders);
    return this.#headers;
  }

  get signal(): AbortSignal {
    if (!this.#ac) {
      const ac = new AbortController();
      this.#ac = ac;
      const res = this.#res;
      if (res) {
        if (res.destroyed && !res.writableFinished) ac.abort();
        else
          res.once('close', () => {
            if (!res.writableFinished) ac.abort();
          });
      }
    }
    return this.#ac.signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#bodyless) return null;
    return this.#materialise().body;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real) return this.#real.arrayBuffer();
    if (this.#used) return unusable();
    this.#used = true;
    return this.#bodyless ? Promise.resolve(EMPTY.slice(0)) : readWholeBody(this.#req);
  }

  /** The body as the socket's chunks, unjoined (http.ts readSealedBody); null once read or streamed. */
  [WHOLE_BODY_CHUNKS](): Promise<Uint8Array[]> | null {
    if (this.#real || this.#used) return null;
    this.#used = true;
    return this.#bodyless ? Promise.resolve([]) : readWholeChunks(this.#req);
  }

  /** Body's readers over arrayBuffer() (lazy-web.ts defineBodyReaders). */
  declare bytes: () => Promise<Uint8Array>;
  declare text: () => Promise<string>;
  declare json: () => Promise<unknown>;
}

// Request's own accessors and methods that NodeRequest does not define read the real Request.
defineBodyReaders(NodeRequest);
delegateToReal<NodeRequest>(NodeRequest, Request, (r) => NodeRequest.real(r));
// Nen's pipeline reads a body of known length with arrayBuffer() (http.ts readBody): no stream.
Object.defineProperty(NodeRequest.prototype, WHOLE_BODY_READ, { value: true });

/** The first Host header, as `req.headers.host` gives it (without building Node's header object). */
function firstHost(raw: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i] as string;
    if (k.length === 4 && (k === 'host' || k.toLowerCase() === 'host')) return raw[i + 1];
  }
  return undefined;
}

/**
 * IncomingMessage → a lazily built Web Request (see the module header). Throws a TypeError when
 * the URL does not parse, or when a body parser already read the body.
 */
export function nodeRequest(req: IncomingMessage, res?: ServerResponse, origin?: string): Request {
  const x = req as IncomingMessage & ExpressLike;
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  const base = origin ?? `${secure ? 'https' : 'http'}://${firstHost(req.rawHeaders) ?? 'localhost'}`;
  const url = requestUrl(x.originalUrl ?? req.url ?? '/', base);
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD' && (req.readableEnded || x.body !== undefined))
    throw new TypeError('the request body was already read (a body parser ran before the Nen route)');
  return new NodeRequest(req, res, url, method) as unknown as Request;
}
