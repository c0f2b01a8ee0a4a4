/**
 * The request a handler sees: the original Request through a Proxy that shows the decrypted body,
 * the plaintext content type, no Nen headers, and the confidential query restored in `url`.
 *
 * Pitfalls:
 *  - The original is kept (a NextRequest under Next.js, so `nextUrl`, `cookies`, `signal` work);
 *    only `url`, `method`, `headers` and the body accessors are overridden.
 *  - Nothing is built until a handler asks for it: one allocation per request otherwise (a real
 *    Request plus its abort-signal link costs more than the whole AEAD open on Node 20).
 *  - `json()` returns the value the pipeline already parsed (the handler's `body` argument is the
 *    same object): a 100 KB body is not parsed twice (~400 µs). Mutating one mutates the other.
 */
import { HEADER, type RequestHead, isBodylessMethod } from '@nen/core';

const utf8 = new TextDecoder();

/** Request headers a handler never sees: Nen's own, and the sealed body's framing (content type restored below). */
const HIDDEN_REQUEST_HEADERS: ReadonlySet<string> = new Set([HEADER.nen, HEADER.type, HEADER.body, 'content-length', 'content-encoding', 'content-type']);

/**
 * The request handed to handlers: the original Request (a NextRequest under Next.js, so
 * `nextUrl`, `cookies`, `signal` keep working) seen through a Proxy that overrides what Nen
 * changed: `url` (confidential query restored), `headers` (plaintext content type, no Nen
 * headers) and the body (the decrypted plaintext). A real `Request` is only materialised for the
 * rarely used body accessors (`body`, `blob`, `formData`, `clone`), because constructing one per
 * request (plus an abort-signal link) costs more than the whole AEAD open on Node 20. The proxy
 * handler is this one object: the headers and the body accessors are only built when a handler
 * uses them (one allocation per request otherwise).
 */
class DecryptedRequestView implements ProxyHandler<Request> {
  #real: Request | undefined;
  #headers: Headers | undefined;
  constructor(
    private readonly original: Request,
    private readonly url: string,
    private readonly method: string,
    private readonly contentType: string,
    private readonly body: Uint8Array | ReadableStream<Uint8Array> | null,
    private readonly parsed: { readonly value: unknown } | undefined,
  ) {}

  headers(): Headers {
    if (!this.#headers) {
      // One pass over the original headers, appended one by one: on Node 20 half the cost of a
      // list handed to the constructor (its WebIDL conversion), and less than a copy and deletes.
      const h = new Headers();
      this.original.headers.forEach((v, k) => {
        if (!HIDDEN_REQUEST_HEADERS.has(k)) h.append(k, v);
      });
      if (this.contentType) h.append('content-type', this.contentType);
      this.#headers = h;
    }
    return this.#headers;
  }

  materialise(): Request {
    if (!this.#real) {
      const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers: this.headers() };
      const body = this.body;
      if (body !== null) {
        init.body = body instanceof ReadableStream ? body : asBody(body);
        if (body instanceof ReadableStream) init.duplex = 'half';
      }
      this.#real = new Request(this.url, init);
    }
    return this.#real;
  }

  async bytes(): Promise<Uint8Array> {
    const body = this.body;
    if (body === null) return new Uint8Array(0);
    if (body instanceof ReadableStream) return new Uint8Array(await this.materialise().arrayBuffer());
    // A fresh Uint8Array over its own exact-size buffer: `body` may be a Buffer view into a larger
    // pool (zlib's inflate output), and Buffer#slice returns a view, so `.buffer` would leak it.
    return new Uint8Array(body);
  }

  /** The body as UTF-8 text (BOM stripped, invalid bytes replaced, as Body.text()), decoded in place without a copy. */
  async text(): Promise<string> {
    const body = this.body;
    if (body === null) return '';
    return utf8.decode(body instanceof ReadableStream ? await this.bytes() : body);
  }

  get(target: Request, prop: string | symbol): unknown {
    switch (prop) {
      case 'url':
        return this.url;
      case 'method':
        return this.method;
      case 'headers':
        return this.headers();
      case 'body':
        return this.materialise().body;
      case 'bodyUsed':
        return this.#real?.bodyUsed ?? false;
      case 'bytes':
        return () => this.bytes();
      case 'arrayBuffer':
        return async () => (await this.bytes()).buffer;
      case 'text':
        return () => this.text();
      case 'json':
        // The pipeline already parsed a JSON body (PROTOCOL.md step 8): the same value, not a second parse.
        return async () => (this.parsed ? this.parsed.value : (JSON.parse(await this.text()) as unknown));
      case 'blob':
        return () => this.materialise().blob();
      case 'formData':
        return () => this.materialise().formData();
      case 'clone':
        return () => this.materialise().clone();
      default: {
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      }
    }
  }
}

/** Uint8Array as a fetch body (TS 5.9 types bodies as ArrayBuffer-backed views). */
function asBody(b: Uint8Array): BodyInit {
  return b as Uint8Array<ArrayBuffer>;
}

/** The handler's view of a decrypted request (`query` null: the URL is unchanged). */
export function handlerRequest(
  request: Request,
  head: RequestHead,
  query: string | null,
  body: Uint8Array | ReadableStream<Uint8Array> | null,
  parsed?: { readonly value: unknown },
): Request {
  const { method, contentType } = head;
  const u = query === null ? request.url : `${head.origin}${head.path}${query ? `?${query}` : ''}`;
  const bodyless = isBodylessMethod(method);
  return new Proxy(request, new DecryptedRequestView(request, u, method, contentType, bodyless ? null : body, bodyless ? undefined : parsed));
}
