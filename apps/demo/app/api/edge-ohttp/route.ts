/**
 * The OHTTP gateway on Next's Edge runtime (PROTOCOL.md §11): GET the key configurations, POST
 * encapsulated requests; inner requests to `/api/edge-ohttp/echo` reach a `withNen` handler of the
 * Edge Nen instance, which reports the runtime it ran on.
 *
 * Pitfall: development keys (`ephemeralKeys`, or NEN_OHTTP_KEYS when set), generated per Edge
 * module instance: `next start` keeps one per route, a multi-region deployment would not.
 */
import { nenEdge } from '../../../lib/nen-edge';

export const runtime = 'edge';

const echo = nenEdge.withNen(async (_request, _context, body) => ({
  runtime: typeof (globalThis as { EdgeRuntime?: string }).EdgeRuntime === 'string' ? 'edge' : 'node',
  body,
}));

let gateway: ReturnType<typeof nenEdge.ohttpGateway> | undefined;
const gw = () => (gateway ??= nenEdge.ohttpGateway({ ephemeralKeys: true, routes: { '/api/edge-ohttp/echo': { POST: echo } } }));

export const GET = () => gw().GET();
export const POST = (request: Request) => gw().POST(request);
