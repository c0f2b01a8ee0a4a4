/**
 * `OpenedResponse`: the application's Response for an opened single body on Node (./response.ts
 * makes it). The body is already whole in memory, so text() / json() / arrayBuffer() answer
 * straight from those bytes: a Response around a body stream (Node 20's undici: ~9 µs to build and
 * read at 1 KB; a 100 KB body goes through the stream) is made only when the application asks for
 * `body`, bytes(), blob(), formData() or clone().
 *
 * Pitfalls:
 *  - The base Response has a null body (the cheap part: headers and status), so every body
 *    accessor is overridden; a body is readable once, as with fetch (TypeError after).
 *  - `headers` is filled from the wire response's (minus the envelope's) on first read, through
 *    the getter below: every path that needs them (real(), the application) reads that getter.
 *  - arrayBuffer() hands over the plaintext's own buffer only when the array spans all of it
 *    (never a view into a pooled or shared buffer), else a copy: `new Uint8Array(b)`, since
 *    `b.slice()` on a Node.js byte array from node:zlib's inflate is a view, not a copy.
 */
import { appendAppHeaders } from './transport.js';

const utf8 = new TextDecoder();

export class OpenedResponse extends Response {
  /** The opened body until read or handed to `#real`. */
  #bytes: Uint8Array | null;
  /** A stream-backed Response with this body and head, made only when one is needed. */
  #real: Response | undefined;

  /** The wire response's headers and the plaintext content type, until `headers` is first read. */
  #wire: Headers | null;
  #type: string;

  constructor(bytes: Uint8Array, init: ResponseInit, wire: Headers | null = null, contentType = '') {
    super(null, init);
    this.#bytes = bytes;
    this.#wire = wire;
    this.#type = contentType;
  }

  /** `h` (this Response's own Headers) with the application's headers appended, the first time. */
  filled(h: Headers): Headers {
    const wire = this.#wire;
    if (wire) {
      this.#wire = null;
      appendAppHeaders(h, wire, this.#type);
    }
    return h;
  }

  /** The stream-backed twin, taking over the body (a read one: an empty twin that is already read). */
  real(): Response {
    if (!this.#real) {
      const r = new Response((this.#bytes ?? new Uint8Array(0)) as Uint8Array<ArrayBuffer>, {
        status: this.status,
        statusText: this.statusText,
        headers: this.headers,
      });
      if (!this.#bytes) r.body?.cancel();
      this.#bytes = null;
      this.#real = r;
    }
    return this.#real;
  }

  /** The body from the bytes, once; through the twin when there is one (or when it was read). */
  #read<T>(fast: (b: Uint8Array) => T, slow: 'text' | 'json' | 'arrayBuffer'): Promise<T> {
    const b = this.#bytes;
    if (!b) return this.real()[slow]();
    this.#bytes = null;
    return new Promise((resolve) => resolve(fast(b)));
  }

  // `body`, `bodyUsed`, bytes(), blob(), formData() and clone() are defined on the prototype below,
  // through the twin: the DOM lib declares the first two as properties, which a class may not
  // override with accessors.
  override text(): Promise<string> {
    return this.#read((b) => utf8.decode(b), 'text');
  }

  override json(): Promise<unknown> {
    return this.#read((b) => JSON.parse(utf8.decode(b)), 'json');
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read((b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b.buffer : new Uint8Array(b).buffer) as ArrayBuffer, 'arrayBuffer');
  }

  used(): boolean {
    return this.#real ? this.#real.bodyUsed : !this.#bytes;
  }
}

const proto = OpenedResponse.prototype as unknown as Record<string, unknown>;
for (const m of ['bytes', 'blob', 'formData', 'clone']) {
  proto[m] = function (this: OpenedResponse) {
    return (this.real() as unknown as Record<string, () => unknown>)[m]!();
  };
}
const ownHeaders = Object.getOwnPropertyDescriptor(Response.prototype, 'headers')?.get as (this: Response) => Headers;
Object.defineProperties(proto, {
  headers: {
    get(this: OpenedResponse) {
      return this.filled(ownHeaders.call(this));
    },
  },
  body: {
    get(this: OpenedResponse) {
      return this.real().body;
    },
  },
  bodyUsed: {
    get(this: OpenedResponse) {
      return this.used();
    },
  },
});
