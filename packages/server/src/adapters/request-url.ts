/**
 * A request URL without the URL parser where its result is known: `plainRequestUrl(path, base)` is
 * `new URL(path, base).href` for a plain path (only characters the parser keeps as they are, one
 * leading '/', no dot segment), built as the base's cached origin serialization + the path; null
 * otherwise (the caller parses). Used by the node:http adapter's lazy Request (./node-request.ts)
 * and the OHTTP gateway's inner request (../ohttp/messages.ts): a cold `new URL` cost ~0.03-0.04 ms
 * of a cold request each (bench/README.md OHTTP thirteenth pass).
 *
 * Pitfalls:
 *  - Only whole dot segments (`.`, `..`, percent-encoded too) are resolved by the parser:
 *    `/.well-known/ohttp-gateway` is plain; `/a/./b`, `/a/%2e%2E/b`, `/a/..` are not.
 *  - The origin cache is keyed by the base string and bounded (MAX_PREFIXES, then cleared): a
 *    client choosing many hosts costs URL parses, never memory.
 *  - A base the parser refuses, or one with an opaque ('null') origin, throws a TypeError.
 */

/** A path and query the URL parser keeps as they are: plain characters only, not `//`-led. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*$/;
/** Dot segments (`.`, `..`, also percent-encoded), which the URL parser would resolve: whole segments only. */
const DOTS = /\/(?:\.|%2e){1,2}(?=[/?]|$)/i;
/** Origin serializations (`new URL('/', base).href` without its last '/') by base; bounded. */
const prefixes = new Map<string, string>();
const MAX_PREFIXES = 32;

/** `new URL(path, base).href` when `path` is plain (see the module header), else null. */
export function plainRequestUrl(path: string, base: string): string | null {
  if (!PLAIN_PATH.test(path) || DOTS.test(path)) return null;
  let prefix = prefixes.get(base);
  if (prefix === undefined) {
    const u = new URL('/', base);
    if (u.origin === 'null') throw new TypeError('request URL without an origin');
    prefix = u.href.slice(0, -1);
    if (prefixes.size >= MAX_PREFIXES) prefixes.clear();
    prefixes.set(base, prefix);
  }
  return prefix + path;
}
