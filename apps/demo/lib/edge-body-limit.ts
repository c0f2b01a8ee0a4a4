/**
 * The Edge routes' declared-length refusal (issue 20): `next.config.ts` rewrites a request to an
 * Edge route whose `content-length` is over that route's limit to a Node-runtime route that
 * answers `413 NEN_TOO_LARGE` without reading the body (app/api/edge-too-large/route.ts).
 * Why: under `next start` Next sends an Edge route's answer only once the request body has ended
 * (its sandbox awaits the body's `finalize()`, next/dist/server/web/sandbox/sandbox.js), so a 413
 * from the Edge route itself reaches a client that declared more than it sends only when Node's
 * `requestTimeout` (300 s) ends the connection. Rewrites are matched in Next's router before any
 * route runs and never touch the body; a Node route's answer goes out at once.
 *
 * Pitfalls:
 *  - Next matches a `has` header value as `^(value)$` against the header as received (Node's
 *    parser allows only digits, leading zeros included), so the pattern is a decimal "> limit"
 *    with `0*` in front; no capturing groups (Next would turn named ones into params).
 *  - Rewrites are built into the routes manifest by `next build`: the limits are the ones the
 *    Edge routes have at build time (NEN_MAX_BODY then, default 4 MiB; ClientHello 4096).
 *  - A chunked body has no length to match: Next answers it when the upload ends (docs/runtimes.md).
 */

/** The sealed request body limit: the plaintext limit (NEN_MAX_BODY, default 4 MiB) + the 16-byte tag. */
export function sealedLimit(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.NEN_MAX_BODY);
  return (env.NEN_MAX_BODY && Number.isSafeInteger(n) && n > 0 ? n : 4 * 1024 * 1024) + 16;
}

/** The ClientHello limit (PROTOCOL.md §9). */
export const HELLO_LIMIT = 4096;

/** A regular expression source matching exactly the decimal integers greater than `n` (n >= 0). */
export function decimalOver(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`decimalOver: ${n} is not a non-negative integer`);
  const d = String(n);
  const alternatives = [`[1-9]\\d{${d.length},}`]; // more digits than n
  for (let i = 0; i < d.length; i++) {
    const digit = Number(d[i]);
    if (digit === 9) continue;
    // same length: equal to n up to position i, then a larger digit, then anything
    const rest = d.length - i - 1;
    alternatives.push(`${d.slice(0, i)}[${digit + 1}-9]${rest > 0 ? `\\d{${rest}}` : ''}`);
  }
  return `0*(?:${alternatives.join('|')})`;
}

/** Next.js `rewrites().beforeFiles` entries sending over-limit declared lengths on Edge routes to the Node 413. */
export function edgeBodyLimitRewrites(env: Record<string, string | undefined> = process.env) {
  const over = (limit: number) => [{ type: 'header' as const, key: 'content-length', value: decimalOver(limit) }];
  const destination = '/api/edge-too-large';
  return [
    { source: '/api/edge/nen/handshake', has: over(HELLO_LIMIT), destination },
    { source: '/api/edge/:path*', has: over(sealedLimit(env)), destination },
  ];
}
