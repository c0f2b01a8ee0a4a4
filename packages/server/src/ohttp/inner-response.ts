/**
 * A `withNen` handler's answer behind the OHTTP gateway as a Web `Response` built lazily
 * (`InnerResponse`): when the handler returned a value (or a result already reduced to bytes), its
 * status, headers and body bytes are known, and the gateway encodes them into Binary HTTP as they
 * are (`plainOf`). An undici Response would make a web-stream body only for the gateway to read it
 * back (a Response, a transferable stream and a reader per request on Node 20).
 *
 * Pitfalls:
 *  - It is `instanceof Response` (lazy.ts), so a custom `dispatch` (e.g. Hono middleware) that
 *    reads or rewraps it works: every member it does not answer itself comes from a real Response
 *    made on first use, and from then on the real one is the answer (`plainOf` returns null).
 *  - The body is read once, as for Response; each read copies the bytes.
 */
import type { PlainResult } from '../respond.js';
import { defineBodyReaders, delegateToReal } from '../lazy-web.js';

export class InnerResponse {
  readonly #plain: PlainResult;
  #headers: Headers | undefined;
  #real: Response | undefined;
  #used = false;

  constructor(plain: PlainResult) {
    this.#plain = plain;
  }

  /** The real Response behind every property this class does not answer itself. */
  static real(r: InnerResponse): Response {
    if (!r.#real) {
      const p = r.#plain;
      const body = p.body.length > 0 && !r.#used ? (p.body.slice() as Uint8Array<ArrayBuffer>) : null;
      r.#real = new Response(body, { status: p.status, statusText: p.statusText, headers: r.headers });
    }
    return r.#real;
  }

  /** The answer's parts when nothing but this class's own members were used, else null. */
  static plainOf(r: InnerResponse): PlainResult | null {
    return r.#real || r.#used ? null : r.#plain;
  }

  get status(): number {
    return this.#plain.status;
  }

  get statusText(): string {
    return this.#plain.statusText;
  }

  get ok(): boolean {
    return this.#plain.status >= 200 && this.#plain.status < 300;
  }

  get headers(): Headers {
    if (!this.#headers) {
      const h = new Headers(this.#plain.headers ?? undefined);
      if (this.#plain.contentType) h.set('content-type', this.#plain.contentType);
      this.#headers = h;
    }
    return this.#headers;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real) return this.#real.arrayBuffer();
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: the response body was already read'));
    this.#used = true;
    return Promise.resolve(this.#plain.body.slice().buffer);
  }

  /** Body's readers over arrayBuffer() (lazy-web.ts defineBodyReaders). */
  declare bytes: () => Promise<Uint8Array>;
  declare text: () => Promise<string>;
  declare json: () => Promise<unknown>;
}

// Response's own accessors and methods that InnerResponse does not define read the real Response.
defineBodyReaders(InnerResponse);
delegateToReal<InnerResponse>(InnerResponse, Response, (r) => InnerResponse.real(r));
