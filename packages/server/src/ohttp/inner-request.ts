/**
 * The OHTTP gateway's inner request as a Web `Request` built lazily (`InnerRequest`): what a
 * `withNen` handler behind the gateway receives. The handler and Nen's inner path read the method,
 * the URL, a few headers and the body bytes; an undici Request for that (Headers list, a web-stream
 * body read back through a reader) cost ~0.1 ms per request on Node 20, as much as the X-Wing
 * decapsulation, so none of it is built unless a handler asks for more.
 *
 * Pitfalls:
 *  - It is `instanceof Request` (its prototype chain holds Request.prototype) but not an undici
 *    Request: every Request property it does not answer itself is read from a real Request made
 *    on first use (with the body, unless already read). `new Request(it)` is not supported
 *    (undici reads its internal state); copy the parts instead.
 *  - Being an InnerRequest is the gateway's mark (inner.ts `isInner`): only the gateway constructs
 *    one (the class is not exported from the package), so no header or network input forges it.
 *  - The body is read once, as for Request (a second read is a TypeError); each read copies the
 *    content, so a handler that mutates what it read cannot change the bytes Nen parsed.
 *  - `signal` is the outer request's, read on first use (messages.ts).
 */
import { defineBodyReaders, delegateToReal } from '../lazy-web.js';

function unusable(): Promise<never> {
  return Promise.reject(new TypeError('Body is unusable: the request body was already read'));
}

/** The lazily built inner Request (see the module header). */
export class InnerRequest {
  readonly #url: string;
  readonly #method: string;
  readonly #fields: readonly (readonly [string, string])[];
  /** The inner body (empty for GET / HEAD): what inner.ts `innerBody` parses or hands to the handler. */
  readonly content: Uint8Array;
  readonly #signal: (() => AbortSignal) | undefined;
  #headers: Headers | undefined;
  #real: Request | undefined;
  #used = false;
  #ownSignal: AbortSignal | undefined;

  /** The URL's path, from the parse that built `url` (the route table's key: no second parse). */
  readonly #pathname: string;

  constructor(
    url: string,
    method: string,
    fields: readonly (readonly [string, string])[],
    content: Uint8Array,
    signal?: () => AbortSignal,
    pathname = new URL(url).pathname,
  ) {
    this.#url = url;
    this.#pathname = pathname;
    this.#method = method;
    this.#fields = fields;
    this.content = content;
    this.#signal = signal;
  }

  /** The real Request behind every property this class does not answer itself. */
  static real(r: InnerRequest): Request {
    if (!r.#real) {
      const hasBody = r.content.length > 0 && !r.#used;
      r.#real = new Request(r.#url, { method: r.#method, headers: r.headers, ...(hasBody ? { body: r.content.slice() } : {}) });
    }
    return r.#real;
  }

  /** The request's path (routes.ts dispatch): its own for an InnerRequest, else parsed from the URL. */
  static pathname(r: Request): string {
    return r instanceof InnerRequest ? r.#pathname : new URL(r.url).pathname;
  }

  get url(): string {
    return this.#url;
  }

  get method(): string {
    return this.#method;
  }

  get headers(): Headers {
    if (!this.#headers) {
      const h = new Headers();
      for (const [n, v] of this.#fields) h.append(n, v);
      this.#headers = h;
    }
    return this.#headers;
  }

  get signal(): AbortSignal {
    if (this.#signal) return this.#signal();
    this.#ownSignal ??= new AbortController().signal;
    return this.#ownSignal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.content.length === 0) return null;
    return InnerRequest.real(this).body;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real) return this.#real.arrayBuffer();
    if (this.#used) return unusable();
    this.#used = true;
    return Promise.resolve(this.content.slice().buffer);
  }

  /** Body's readers over arrayBuffer() (lazy-web.ts defineBodyReaders). */
  declare bytes: () => Promise<Uint8Array>;
  declare text: () => Promise<string>;
  declare json: () => Promise<unknown>;
}

// Request's own accessors and methods that InnerRequest does not define read the real Request.
defineBodyReaders(InnerRequest);
delegateToReal<InnerRequest>(InnerRequest, Request, (r) => InnerRequest.real(r));
