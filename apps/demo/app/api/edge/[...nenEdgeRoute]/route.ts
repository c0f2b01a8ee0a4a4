/**
 * Nen on the Edge runtime: one catch-all route (so the session routes and the echo share one
 * module instance and one session store) serving
 *   /api/edge/nen/<action>   the session endpoints (handshake, rotate, terminate, status, keys)
 *   /api/edge/echo           withNen: the decrypted body back, with the runtime it ran on
 *                            (compression allowed: the Edge path deflates with fflate)
 *   /api/edge/stream         withNenStream: one sealed record per chunk.
 *
 * Pitfall (Next.js 16 Edge adapter): the values of dynamic route segments are appended to
 * `request.url` as query parameters (`?nenEdgeRoute=echo`), so the URL the handler sees is not
 * the one the client authenticated (NEN_AUTH_FAILED). `withoutRouteParams` removes exactly that
 * parameter (named unusually so that no real query parameter collides) before Nen sees it.
 */
import { nenEdge } from '../../../../lib/nen-edge';

export const runtime = 'edge';

const ROUTE_PARAM = 'nenEdgeRoute';

const echo = nenEdge.withNen(
  async (request, _context, body) => ({
    runtime: typeof (globalThis as { EdgeRuntime?: string }).EdgeRuntime === 'string' ? 'edge' : 'node',
    method: request.method,
    body: body instanceof Uint8Array ? { bytes: body.length } : body,
  }),
  { compress: true },
);

const stream = nenEdge.withNenStream(async function* () {
  for (const word of ['post', 'quantum', 'edge']) yield `data: ${word}\n\n`;
});

/** The request as the client sent it: without the route parameter Next's Edge adapter appended. */
function withoutRouteParams(request: Request): Request {
  const url = new URL(request.url);
  if (!url.searchParams.has(ROUTE_PARAM)) return request;
  url.searchParams.delete(ROUTE_PARAM);
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.body) {
    init.body = request.body;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

const notFound = () => Response.json({ error: 'not found' }, { status: 404 });

function route(method: 'GET' | 'POST') {
  return (incoming: Request, context: { params: Promise<{ nenEdgeRoute: string[] }> }) => {
    const request = withoutRouteParams(incoming);
    const path = new URL(request.url).pathname;
    if (path.startsWith('/api/edge/nen/')) return nenEdge.routes[method](request, context);
    if (path === '/api/edge/echo') return echo(request, context);
    if (path === '/api/edge/stream' && method === 'POST') return stream(request, context);
    return notFound();
  };
}

export const GET = route('GET');
export const POST = route('POST');
