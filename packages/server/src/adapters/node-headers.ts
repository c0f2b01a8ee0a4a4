/**
 * The request headers of a Node IncomingMessage as a Web `Headers` (`instanceof Headers`, usable
 * wherever one is) that answers `get` and `has` straight from `rawHeaders` until something needs
 * the whole list: Nen's pipeline reads a handful of headers per request, and copying every header
 * into a Headers list (WebIDL conversion and validation per entry) costs several µs on Node 20.
 *
 * Pitfalls:
 *  - `get` joins repeated headers as undici's Headers does: `, `, or `; ` for `cookie` (not Node's
 *    `req.headers`, which drops repeats of content-type, host, authorization, ... and would let a
 *    repeated header through unnoticed).
 *  - HTTP/2 pseudo-headers (`:path`, ...) are left out, as Headers would refuse them.
 *  - Anything but `get`/`has` (iteration, mutation, `getSetCookie`) first copies the headers into
 *    this object, once; from then on it is a plain Headers. undici copies a Headers' internal list
 *    directly only when its iterator is `Headers.prototype.entries`: this class overrides the
 *    iterator, so a Request/Response built with it goes through it and sees the filled list.
 *  - Node's parser has already refused names that are not tokens and values with CR, LF or NUL,
 *    and trimmed the values' surrounding whitespace.
 */

/** Headers' iterator methods, as the platform defines them. */
const ITERATORS = Headers.prototype as unknown as {
  entries(this: Headers): IterableIterator<[string, string]>;
  keys(this: Headers): IterableIterator<string>;
  values(this: Headers): IterableIterator<string>;
};

/** A header name as Headers accepts it (an HTTP token); anything else goes to Headers itself, which throws. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

/** `rawHeaders`' values for `lower` (a lower-case name), joined as Headers.get joins them; null when absent. */
function lookup(raw: readonly string[], lower: string): string | null {
  let value: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i] as string;
    if (k.length !== lower.length || (k !== lower && k.toLowerCase() !== lower)) continue;
    const v = raw[i + 1] as string;
    value = value === null ? v : `${value}${lower === 'cookie' ? '; ' : ', '}${v}`;
  }
  return value;
}

/** IncomingMessage headers as a Headers that reads `rawHeaders` until it has to copy them. */
export class NodeHeaders extends Headers {
  #raw: readonly string[] | null;
  constructor(raw: readonly string[]) {
    super();
    this.#raw = raw;
  }

  #fill(): void {
    const raw = this.#raw;
    if (raw === null) return;
    this.#raw = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = raw[i] as string;
      if (k.charCodeAt(0) !== 58 /* ':' HTTP/2 pseudo-header */) super.append(k, raw[i + 1] as string);
    }
  }

  override get(name: string): string | null {
    const raw = this.#raw;
    if (raw === null) return super.get(name);
    const n = String(name).toLowerCase();
    return TOKEN.test(n) ? lookup(raw, n) : super.get(name);
  }

  override has(name: string): boolean {
    const raw = this.#raw;
    if (raw === null) return super.has(name);
    const n = String(name).toLowerCase();
    return TOKEN.test(n) ? lookup(raw, n) !== null : super.has(name);
  }

  override append(name: string, value: string): void {
    this.#fill();
    super.append(name, value);
  }

  override set(name: string, value: string): void {
    this.#fill();
    super.set(name, value);
  }

  override delete(name: string): void {
    this.#fill();
    super.delete(name);
  }

  override getSetCookie(): string[] {
    this.#fill();
    return super.getSetCookie();
  }

  override forEach(cb: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#fill();
    super.forEach(cb, thisArg);
  }

  // entries/keys/values/iterator: not in this package's TypeScript lib (no DOM.Iterable), hence the casts.
  entries(): IterableIterator<[string, string]> {
    this.#fill();
    return ITERATORS.entries.call(this);
  }

  keys(): IterableIterator<string> {
    this.#fill();
    return ITERATORS.keys.call(this);
  }

  values(): IterableIterator<string> {
    this.#fill();
    return ITERATORS.values.call(this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    this.#fill();
    return ITERATORS.entries.call(this);
  }
}
