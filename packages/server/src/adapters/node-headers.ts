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
 *    this object, once (../lazy-headers.ts); from then on it is a plain Headers.
 *  - Node's parser has already refused names that are not tokens and values with CR, LF or NUL,
 *    and trimmed the values' surrounding whitespace.
 */
import { LazyHeaders } from '../lazy-headers.js';

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
export class NodeHeaders extends LazyHeaders {
  #raw: readonly string[] | null;
  constructor(raw: readonly string[]) {
    super();
    this.#raw = raw;
  }

  protected fill(): void {
    const raw = this.#raw;
    if (raw === null) return;
    this.#raw = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = raw[i] as string;
      if (k.charCodeAt(0) !== 58 /* ':' HTTP/2 pseudo-header */) this.appendFilled(k, raw[i + 1] as string);
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
}
