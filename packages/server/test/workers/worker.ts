/**
 * The Worker the workerd tests run (bundled by ./harness.ts with esbuild and wrangler's export
 * conditions: workerd, worker, browser). Sessions live in the NenSessionObject Durable Object.
 *
 *   /api/nen/:action  session routes        /api/echo    withNen (JSON echo + instance name)
 *   /api/stream       withNenStream          /hono/echo   the Hono middleware from ../../src/adapters/hono.ts
 *   /hono/stream      the Hono stream middleware
 *   /backend          the crypto backend 'auto' chose (wasm: from @nen/core's `.wasm` module)
 */
import { loadBackend } from '@nen/core';
import { Hono } from 'hono';
import { nenMiddleware, nenSessionRoutes, nenStreamMiddleware } from '../../src/adapters/hono.js';
import { createNen, type Nen, type NenRouteHandler } from '../../src/index.js';
import { durableObjectStore, type DurableObjectNamespaceLike } from '../../src/workers/index.js';

export { NenSessionObject } from '../../src/workers/index.js';

interface Env {
  NEN_SESSIONS: DurableObjectNamespaceLike;
  NEN_SERVER_KEYS: string;
  INSTANCE: string;
}

interface App {
  nen: Nen;
  echo: NenRouteHandler<unknown>;
  stream: NenRouteHandler<unknown>;
  hono: Hono;
}

let app: App | undefined;

function setup(env: Env): App {
  // Created on the first request: Workers forbid random numbers and timers at global scope.
  const nen = createNen({ store: durableObjectStore(env.NEN_SESSIONS), serverKeys: env.NEN_SERVER_KEYS, handshakeRateLimit: 0, logger: () => {} });
  const hono = new Hono();
  hono.all('/hono/nen/:action', nenSessionRoutes(nen));
  hono.use('/hono/echo', nenMiddleware(nen));
  hono.post('/hono/echo', async (c) => c.json({ via: 'hono', instance: env.INSTANCE, body: await c.req.json() }));
  hono.use('/hono/stream', nenStreamMiddleware(nen, { contentType: 'text/event-stream' }));
  hono.post('/hono/stream', (c) => c.body(new Blob(['data: a\n\n', 'data: b\n\n']).stream()));
  return {
    nen,
    echo: nen.withNen(async (_r, _c, body) => ({ instance: env.INSTANCE, body })),
    stream: nen.withNenStream(async function* () {
      for (const w of ['post', 'quantum', 'workerd']) yield `data: ${w}\n\n`;
    }),
    hono,
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    app ??= setup(env);
    const path = new URL(request.url).pathname;
    if (path.startsWith('/api/nen/')) return request.method === 'GET' || request.method === 'HEAD' ? app.nen.routes.GET(request) : app.nen.routes.POST(request);
    if (path === '/api/echo') return app.echo(request, undefined);
    if (path === '/api/stream') return app.stream(request, undefined);
    if (path.startsWith('/hono/')) return app.hono.fetch(request, env);
    if (path === '/backend') return new Response((await loadBackend()).name);
    return new Response('not found', { status: 404 });
  },
};
