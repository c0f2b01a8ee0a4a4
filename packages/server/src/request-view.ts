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
 *  - `bytes()` (and `arrayBuffer()`) hand over the decrypted array itself when it owns its exact
 *    buffer, as the handler's `body` argument does for non-JSON bodies: what the handler writes
 *    into it, a later `text()` or `json()` of the same request sees.
 *  - A route with `lazyJson` (PROTOCOL.md step 8, deferred) has nothing parsed: `json()` of a
 *    JSON-typed body is then the step 8 check itself (strict UTF-8, NEN_BAD_JSON), on first use.
 */
import { HEADER, type NenProtocolError, type RequestHead, isBodylessMethod, wireError } from '@nen/core';
import { LazyHeaders } from './lazy-headers.js';

const utf8 = new TextDecoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The view's step 8 check, by a key no handler code can name (request-view.ts `deferredJsonError`). */
const STEP8 = Symbol('nen.step8');

/**
 * A deferred step 8 (`lazyJson`), checked now: the NEN_BAD_JSON error when `request` is a view
 * whose JSON-typed body does not parse, else undefined. Called only once a handler failed, so
 * that a handler that choked on bad JSON answers 400 NEN_BAD_JSON, as the eager check would.
 */
export function deferredJsonError(request: Request): NenProtocolError | undefined {
  const check = (request as unknown as Record<symbol, unknown>)[STEP8];
  return typeof check === 'function' ? (check as () => NenProtocolError | undefined)() : undefined;
}

/**
 * Whether `request` is a handler view this module built (its proxy answers the STEP8 key): an
 * adapter's overlapping mounts open a request once. A property read, where a WeakSet of views
 * cost an insert per request and ephemeron work in every GC.
 */
export function isDecryptedView(request: Request): boolean {
  return typeof (request as unknown as Record<symbol, unknown>)[STEP8] === 'function';
}

/** PROTOCOL.md step 8: a JSON-typed plaintext must be UTF-8 JSON, else NEN_BAD_JSON. */
export function parseJsonBody(plain: Uint8Array): unknown {
  try {
    return JSON.parse(strictUtf8.decode(plain)) as unknown;
  } catch {
    throw wireError('NEN_BAD_JSON', 'decrypted body is not valid UTF-8 JSON');
  }
}

/** Request headers a handler never sees: Nen's own, and the sealed body's framing (content type restored below). */
const HIDDEN_REQUEST_HEADERS: ReadonlySet<string> = new Set([HEADER.nen, HEADER.type, HEADER.body, 'content-length', 'content-encoding', 'content-type']);

/**
 * The view's headers: a real `Headers` (instanceof, usable wherever one is) that answers `get` and
 * `has` from the original request's headers until something needs the whole list: the common
 * handler reads one or two headers (`content-type`, an auth header), and copying a dozen headers
 * into a new Headers object costs several µs per request on Node 20. Anything else (iteration,
 * mutation, `getSetCookie`) first copies the visible headers into this object, once
 * (./lazy-headers.ts, which also says why the iterators are overridden).
 */
class ViewHeaders extends LazyHeaders {
  #source: Headers | null;
  readonly #contentType: string;
  constructor(source: Headers, contentType: string) {
    super();
    this.#source = source;
    this.#contentType = contentType;
  }

  protected fill(): void {
    const src = this.#source;
    if (src === null) return;
    this.#source = null;
    // One pass over the original headers, appended one by one: on Node 20 half the cost of a
    // list handed to the constructor (its WebIDL conversion), and less than a copy and deletes.
    src.forEach((v, k) => {
      if (!HIDDEN_REQUEST_HEADERS.has(k)) this.appendFilled(k, v);
    });
    if (this.#contentType) this.appendFilled('content-type', this.#contentType);
  }

  override get(name: string): string | null {
    const src = this.#source;
    if (src === null) return super.get(name);
    const n = String(name).toLowerCase();
    if (n === 'content-type') return this.#contentType || null;
    return HIDDEN_REQUEST_HEADERS.has(n) ? null : src.get(name);
  }

  override has(name: string): boolean {
    const src = this.#source;
    if (src === null) return super.has(name);
    const n = String(name).toLowerCase();
    if (n === 'content-type') return this.#contentType !== '';
    return HIDDEN_REQUEST_HEADERS.has(n) ? false : src.has(name);
  }
}

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
    private parsed: { readonly value: unknown } | undefined,
    /** The body is JSON-typed and step 8 was deferred (`lazyJson`): `json()` checks it. */
    private readonly checkJson: boolean,
  ) {}

  headers(): Headers {
    this.#headers ??= new ViewHeaders(this.original.headers, this.contentType);
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
    // The decrypted array itself when it is a plain Uint8Array over its own exact-size buffer (the
    // AEAD's fresh output: a 100 KB copy saved), as the `body` argument already is; else a fresh
    // copy: `body` may be a Buffer view into a larger pool (zlib's inflate output), whose `.buffer`
    // would leak the pool.
    if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && Object.getPrototypeOf(body) === Uint8Array.prototype) return body;
    return new Uint8Array(body);
  }

  /** The body as UTF-8 text (BOM stripped, invalid bytes replaced, as Body.text()), decoded in place without a copy. */
  async text(): Promise<string> {
    const body = this.body;
    if (body === null) return '';
    return utf8.decode(body instanceof ReadableStream ? await this.bytes() : body);
  }

  /** `json()`: the value parsed in step 8, or step 8 itself when it was deferred, or Body.json()'s parse. */
  async json(): Promise<unknown> {
    if (this.parsed) return this.parsed.value;
    const body = this.body;
    if (!this.checkJson || body === null || body instanceof ReadableStream) return JSON.parse(await this.text()) as unknown;
    this.parsed = { value: parseJsonBody(body) };
    return this.parsed.value;
  }

  /** The deferred step 8 now: the error when the JSON-typed body does not parse. */
  step8(): NenProtocolError | undefined {
    const body = this.body;
    if (!this.checkJson || this.parsed || body === null || body instanceof ReadableStream) return undefined;
    try {
      this.parsed = { value: parseJsonBody(body) };
      return undefined;
    } catch (e) {
      return e as NenProtocolError;
    }
  }

  get(target: Request, prop: string | symbol): unknown {
    switch (prop) {
      case STEP8:
        return () => this.step8();
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
        return () => this.json();
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
  checkJson = false,
): Request {
  const { method, contentType } = head;
  const u = query === null ? request.url : `${head.origin}${head.path}${query ? `?${query}` : ''}`;
  const bodyless = isBodylessMethod(method);
  return new Proxy(
    request,
    new DecryptedRequestView(request, u, method, contentType, bodyless ? null : body, bodyless ? undefined : parsed, !bodyless && checkJson),
  );
}
