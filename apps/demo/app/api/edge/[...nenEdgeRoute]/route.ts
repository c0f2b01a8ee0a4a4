/**
 * Nen on the Edge runtime: one catch-all route (so the session routes and the echo share one
 * module instance and one session store) serving
 *   /api/edge/nen/<action>   the session endpoints (handshake, rotate, terminate, status, keys)
 *   /api/edge/echo           withNen: the decrypted body back, with the runtime it ran on
 *                            (compression allowed: the Edge path deflates with fflate)
 *   /api/edge/stream         withNenStream: one sealed record per chunk.
 *
 * Pitfall: Next's Edge adapter appends the catch-all's values to `request.url` (`?nenEdgeRoute=nen&nenEdgeRoute=handshake`);
 * @nen/server removes exactly those before authenticating the URL (packages/server/src/next-edge.ts),
 * so nothing here has to.
 */
import { nenEdge } from '../../../../lib/nen-edge';

export const runtime = 'edge';

const echo = nenEdge.withNen(
  async (request, _context, body) => ({
    runtime: typeof (globalThis as { EdgeRuntime?: string }).EdgeRuntime === 'string' ? 'edge' : 'node',
    method: request.method,
    path: new URL(request.url).pathname + new URL(request.url).search,
    body: body instanceof Uint8Array ? { bytes: body.length } : body,
  }),
  { compress: true },
);

const stream = nenEdge.withNenStream(async function* () {
  for (const word of ['post', 'quantum', 'edge']) yield `data: ${word}\n\n`;
});

const notFound = () => Response.json({ error: 'not found' }, { status: 404 });

function route(method: 'GET' | 'POST') {
  return (request: Request, context: { params: Promise<{ nenEdgeRoute: string[] }> }) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/api/edge/nen/')) return nenEdge.routes[method](request, context);
    if (path === '/api/edge/echo') return echo(request, context);
    if (path === '/api/edge/stream' && method === 'POST') return stream(request, context);
    return notFound();
  };
}

export const GET = route('GET');
export const POST = route('POST');
