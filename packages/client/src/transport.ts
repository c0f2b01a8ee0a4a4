/**
 * The HTTP side of the client: a caller's arguments normalised to one request (`prepare`), the
 * per-call deadline combined with the caller's AbortSignal, the application-facing response
 * headers, the wire-exchange reports for `onExchange`, and a response body read whole within its
 * limit (`readBodyLimited`) or chunk by chunk for `stream()` (`bodyChunks`, both client modes).
 *
 * Pitfalls:
 *  - `prepare` reads a Request's body once; a retry reuses the prepared bytes (streamed bodies
 *    cannot be retried). A string body stays a string: each attempt encodes it into one reused
 *    buffer right before sealing (`withUtf8`, wiped after), so no body-sized array is allocated.
 *  - The timeout timer is unref'd (never keeps a process alive) and always cleared (`done`);
 *    with no timeout a request's fetch follows the caller's own signal, or none (`callDeadline`).
 *  - An aborted call rejects with the signal's own reason, as `fetch` does; a timeout with NEN_TIMEOUT.
 */
import { HEADER, isBodylessMethod, joinedOrOnly } from '@nen/core';
import { clientError } from './errors.js';
import type { WireExchange } from './options.js';

export interface PreparedRequest {
  readonly url: URL;
  readonly method: string;
  /** The application's headers minus those the envelope sets. */
  readonly headers: Headers;
  readonly contentType: string;
  /** A string body's bytes are encoded on first read (the session path seals `text` itself: `withUtf8`). */
  readonly body: Uint8Array | ReadableStream<Uint8Array> | null;
  /** The body as the application gave it when it was a string, else null. */
  readonly text: string | null;
  readonly signal: AbortSignal | null;
}

/** Headers the envelope owns: removed from the application's request headers. */
const ENVELOPE_REQUEST_HEADERS = ['content-type', 'content-length', HEADER.nen, HEADER.type, HEADER.body];
/** Response headers that describe the sealed envelope, not the plaintext the application sees. */
export const ENVELOPE_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  HEADER.nen,
  HEADER.type,
  HEADER.body,
]);

const utf8 = new TextEncoder();

/** The application's response headers: the wire's minus the envelope's, then the plaintext content type. */
export function appendAppHeaders(h: Headers, wire: Headers, contentType: string): Headers {
  wire.forEach((v, k) => {
    if (!ENVELOPE_RESPONSE_HEADERS.has(k)) h.append(k, v);
  });
  if (contentType) h.append('content-type', contentType);
  return h;
}

/**
 * The caller's arguments as one request. Synchronous (no promise, no microtask turn) unless a body
 * has to be read first: a Request's own body, or a Blob / FormData / URLSearchParams / ArrayBuffer.
 * Callers are async functions, so a synchronous throw still reaches the application as a rejection.
 */
export function prepare(resolveUrl: (u: string | URL) => URL, input: RequestInfo | URL, init: RequestInit = {}): PreparedRequest | Promise<PreparedRequest> {
  let url: URL;
  let method = (init.method ?? 'GET').toUpperCase();
  let headers = new Headers(init.headers);
  const bodyInit: BodyInit | null | undefined = init.body;
  let signal = init.signal ?? null;
  if (typeof Request !== 'undefined' && input instanceof Request) {
    url = resolveUrl(input.url);
    if (init.method === undefined) method = input.method.toUpperCase();
    if (init.headers === undefined) headers = new Headers(input.headers);
    signal = init.signal ?? input.signal;
    if (bodyInit === undefined && input.body) {
      const [u, m, h, sig] = [url, method, headers, signal]; // the values now (closures see later assignments)
      return input.arrayBuffer().then((b) => withBody(u, m, h, new Uint8Array(b) as Uint8Array<ArrayBuffer>, sig));
    }
  } else {
    url = resolveUrl(input as string | URL);
  }
  return withBody(url, method, headers, bodyInit, signal);
}

function withBody(
  url: URL,
  method: string,
  headers: Headers,
  bodyInit: BodyInit | null | undefined,
  signal: AbortSignal | null,
): PreparedRequest | Promise<PreparedRequest> {
  const contentType = headers.get('content-type') ?? '';
  if (bodyInit === undefined || bodyInit === null) return prepared(url, method, headers, contentType, null, signal);
  if (isBodylessMethod(method)) throw clientError('NEN_BAD_INPUT', `${method} requests cannot have a body`);
  if ((typeof ReadableStream !== 'undefined' && bodyInit instanceof ReadableStream) || bodyInit instanceof Uint8Array) {
    return prepared(url, method, headers, contentType, bodyInit as Uint8Array | ReadableStream<Uint8Array>, signal);
  }
  if (typeof bodyInit === 'string') return prepared(url, method, headers, contentType || 'text/plain;charset=UTF-8', null, signal, bodyInit);
  // Blob, FormData, URLSearchParams, ArrayBuffer, other views: let the platform serialise it.
  const r = new Request('http://nen.invalid/', { method: 'POST', body: bodyInit });
  return r.arrayBuffer().then((b) => prepared(url, method, headers, contentType || (r.headers.get('content-type') ?? ''), new Uint8Array(b), signal));
}

function prepared(
  url: URL,
  method: string,
  headers: Headers,
  contentType: string,
  body: Uint8Array | ReadableStream<Uint8Array> | null,
  signal: AbortSignal | null,
  text: string | null = null,
): PreparedRequest {
  for (const h of ENVELOPE_REQUEST_HEADERS) headers.delete(h);
  return new Prepared(url, method, headers, contentType, body, signal, text);
}

/** A class, not a literal with a getter: one shape for every request, the getter on the prototype. */
class Prepared implements PreparedRequest {
  #bytes: Uint8Array | ReadableStream<Uint8Array> | null;
  constructor(
    readonly url: URL,
    readonly method: string,
    readonly headers: Headers,
    readonly contentType: string,
    body: Uint8Array | ReadableStream<Uint8Array> | null,
    readonly signal: AbortSignal | null,
    readonly text: string | null,
  ) {
    this.#bytes = body;
  }

  get body(): Uint8Array | ReadableStream<Uint8Array> | null {
    if (this.#bytes === null && this.text !== null) this.#bytes = utf8.encode(this.text);
    return this.#bytes;
  }
}

/** Largest reused UTF-8 buffer (bytes); a longer string is encoded into a fresh array. */
const SCRATCH_MAX = 1 << 20;
let scratch = new Uint8Array(0);

/**
 * `use(UTF-8 of s)`, the bytes in one reused buffer (wiped after `use` returns or throws): a string
 * body is encoded once per attempt straight before it is sealed, with no allocation of its size
 * (TextEncoder.encode of 100 KB ≈ 22 µs on Node 20, encodeInto a reused buffer ≈ 4 µs; 1 KB 0.7 vs
 * 0.12). Pitfall: `use` must consume the bytes synchronously and return nothing that views them
 * (every Aead's seal returns a new array); it runs no application code.
 */
export function withUtf8<T>(s: string, use: (b: Uint8Array) => T): T {
  const need = 3 * s.length; // UTF-8 needs at most 3 bytes per UTF-16 code unit
  if (need > SCRATCH_MAX) return use(utf8.encode(s));
  if (scratch.length < need) scratch = new Uint8Array(Math.min(SCRATCH_MAX, Math.max(need, 2 * scratch.length, 4096)));
  const b = scratch;
  const n = utf8.encodeInto(s, b).written;
  try {
    return use(b.subarray(0, n));
  } finally {
    b.fill(0, 0, n);
  }
}

export interface Deadline {
  readonly signal: AbortSignal;
  done(): void;
  /** The error to throw for a failed fetch or body read: timeout, the caller's abort reason, or `e`. */
  map(e: unknown): unknown;
}

/** A deadline whose fetch may follow no signal at all (nothing can end the call). */
export type CallDeadline = Omit<Deadline, 'signal'> & { readonly signal: AbortSignal | null };

const NO_DEADLINE: CallDeadline = { signal: null, done: () => undefined, map: (e) => e };

/**
 * `deadline()`, or without a timeout the caller's own signal (or none) as what the fetch follows:
 * an AbortController costs ~2 µs on Node 20 and the transport then adds and removes a listener on
 * it, per request, with nothing to combine. Same errors: the caller's reason, or `e`.
 */
export function callDeadline(signal: AbortSignal | null | undefined, timeoutMs: number): CallDeadline {
  if (timeoutMs > 0) return deadline(signal, timeoutMs);
  if (!signal) return NO_DEADLINE;
  return { signal, done: () => undefined, map: (e) => (signal.aborted ? (signal.reason ?? clientError('NEN_ABORTED')) : e) };
}

/** A combined signal: the caller's signal plus the timeout. */
export function deadline(signal: AbortSignal | null | undefined, timeoutMs: number): Deadline {
  const ac = new AbortController();
  let timedOut = false;
  const onAbort = () => ac.abort(signal?.reason);
  if (signal) {
    if (signal.aborted) ac.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (timeoutMs > 0) {
    timer = setTimeout(() => {
      timedOut = true;
      ac.abort(clientError('NEN_TIMEOUT', `no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    (timer as { unref?: () => void }).unref?.();
  }
  return {
    signal: ac.signal,
    done: () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
    map: (e) => {
      if (timedOut) return clientError('NEN_TIMEOUT', `no complete response within ${timeoutMs} ms`, e);
      if (ac.signal.aborted) return ac.signal.reason ?? clientError('NEN_ABORTED');
      return e;
    },
  };
}

/** Waits `ms`, or rejects with the signal's reason. The timer is unref'd. */
export function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    (t as { unref?: () => void }).unref?.();
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Waits for `p`, or stops waiting (rejects) when `signal` fires; `p` itself goes on. */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | null): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason ?? clientError('NEN_ABORTED'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? clientError('NEN_ABORTED'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// ---------------------------------------------------------------- wire-exchange reports

function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export function headersRecord(h: Headers): Record<string, string> {
  const o: Record<string, string> = {};
  h.forEach((v, k) => {
    o[k] = v;
  });
  return o;
}

/** The first 32 bytes, hex (what a wire panel shows of a body). */
export function head32(b: Uint8Array | null | undefined): string {
  return b ? hex(b.subarray(0, 32)) : '';
}

/** Calls `onExchange`; an observer that throws never breaks a request. */
export function report(onExchange: ((e: WireExchange) => void) | undefined, e: WireExchange): void {
  if (!onExchange) return;
  try {
    onExchange(e);
  } catch {
    // observers never break requests
  }
}

/**
 * A response body of at most `max` bytes. A declared content-length above it, or more bytes than
 * that arriving, cancels the body and throws `tooLarge()`: an oversized (hostile or broken) answer
 * must not fill memory before it fails authentication. Read through the body's reader, never
 * arrayBuffer(): Node 20's undici copies the body twice there (the chunks joined, then
 * `new Uint8Array(bytes).buffer`); a one-chunk body is returned as that chunk (in process, a byte
 * Response built and read: 1 KB 12.5 -> 8.9 µs, 100 KB 47-69 -> 19-25 µs). The bytes are only
 * opened (AEAD input) or reported, never handed to the application, so a view is fine.
 */
export async function readBodyLimited(res: Response, max: number, tooLarge: () => Error): Promise<Uint8Array> {
  const declared = res.headers.get('content-length');
  if (declared !== null && /^\d{1,16}$/.test(declared) && Number(declared) > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    parts.push(value);
  }
  return joinedOrOnly(parts, total);
}

/**
 * `NenClient.stream()` in both modes: the body of the Response `response` gives, chunk by chunk
 * (nothing when it has none). Leaving the loop early releases the reader and cancels the body, so
 * the server's stream stops.
 */
export function bodyChunks(response: () => Promise<Response>): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      const res = await response();
      if (!res.body) return;
      const reader = res.body.getReader();
      try {
        for (;;) {
          const r = await reader.read();
          if (r.done) return;
          yield r.value;
        }
      } finally {
        reader.releaseLock();
        await res.body.cancel().catch(() => undefined);
      }
    },
  };
}
