/**
 * The delegation behind the lazily built Request and Response objects: the node:http adapter's
 * request (adapters/node-request.ts) and the OHTTP gateway's inner request and answer
 * (ohttp/inner-request.ts, ohttp/inner-response.ts). Every accessor and method of the Web
 * class's prototype that the lazy class does not define itself is read from a real instance
 * made on first use, and the lazy class's prototype chain holds the Web class's, so
 * `instanceof Request` / `Response` holds. Body's bytes() / text() / json() are the lazy class's
 * own (defineBodyReaders), read through its arrayBuffer().
 *
 * Pitfalls:
 *  - The whole prototype chain is delegated, not only the class's own prototype: workerd's
 *    Request and Response inherit `body`, `arrayBuffer()`, ... from a Body class, whose native
 *    accessors throw "Illegal invocation" on any other `this`.
 *  - Only prototype members are delegated; the Web class's internal state (undici's symbols) is
 *    not, so `new Request(lazy)` / `new Response(lazy.body, lazy)`-style copies read what they
 *    ask through the accessors, and anything reading internals directly is not supported.
 */
/** A class constructor of any shape. */
type Ctor = abstract new (...args: never[]) => object;

const utf8 = new TextDecoder();

/** What Body's bytes() / text() / json() read from: the lazy class's own arrayBuffer(). */
interface Readable {
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
}

/**
 * Body's `bytes()`, `text()` and `json()` as own methods of the lazy class, each reading its
 * `arrayBuffer()` (so the body is read once, as Body's are, and no real instance is made); call it
 * before delegateToReal, which then leaves them alone. The class declares them (`declare bytes: ...`).
 */
export function defineBodyReaders(lazy: Ctor): void {
  const method = (value: (this: Readable) => Promise<unknown>) => ({ configurable: true, writable: true, value });
  Object.defineProperties(lazy.prototype, {
    bytes: method(async function (this: Readable) {
      return new Uint8Array(await this.arrayBuffer());
    }),
    text: method(async function (this: Readable) {
      return utf8.decode(await this.arrayBuffer());
    }),
    json: method(async function (this: Readable) {
      return JSON.parse(await this.text()) as unknown;
    }),
  });
}

export function delegateToReal<T extends object>(lazy: Ctor, web: { prototype: object }, real: (self: T) => object): void {
  for (let proto: object | null = web.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) delegateOwn(lazy, proto, real);
  Object.setPrototypeOf(lazy.prototype, web.prototype);
}

/** The members of one prototype of the Web class's chain not yet on the lazy class (nearest first). */
function delegateOwn<T extends object>(lazy: Ctor, proto: object, real: (self: T) => object): void {
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor' || Object.hasOwn(lazy.prototype, key)) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (!d) continue;
    if (typeof d.value === 'function') {
      Object.defineProperty(lazy.prototype, key, {
        configurable: true,
        writable: true,
        value(this: T, ...args: unknown[]) {
          const r = real(this);
          return (Reflect.get(r, key) as (...a: unknown[]) => unknown).apply(r, args);
        },
      });
    } else if (d.get) {
      Object.defineProperty(lazy.prototype, key, {
        configurable: true,
        get(this: T) {
          return Reflect.get(real(this), key);
        },
      });
    }
  }
}
