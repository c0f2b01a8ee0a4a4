/**
 * The Node-runtime answer for Edge routes' over-limit declared lengths: next.config.ts rewrites a
 * request to /api/edge/* whose `content-length` is over the route's limit here (lib/edge-body-limit.ts).
 * Answers `413` with `nen-error: NEN_TOO_LARGE` (the wire error of PROTOCOL.md §9) without reading
 * a byte of the body; Next's Node layer discards the rest as for any Node route.
 *
 * Pitfalls: must stay on the Node runtime (an Edge route's answer waits for the body's end), and
 * must not read the body. Every method, so no request falls through to a 405 that waits.
 */
export const runtime = 'nodejs';

const tooLarge = () =>
  new Response(JSON.stringify({ error: { code: 'NEN_TOO_LARGE', message: 'nen: body too large' } }), {
    status: 413,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'nen-error': 'NEN_TOO_LARGE' },
  });

export const GET = tooLarge;
export const POST = tooLarge;
export const PUT = tooLarge;
export const PATCH = tooLarge;
export const DELETE = tooLarge;
