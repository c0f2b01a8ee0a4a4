/**
 * The Worker the workerd tests run (bundled by ./harness.ts with esbuild and wrangler's export
 * conditions: workerd, worker, browser). Sessions live in the NenSessionObject Durable Object.
 *
 *   /api/nen/:action  session routes        /api/echo    withNen (JSON echo + instance name)
 *   /api/stream       withNenStream          /hono/echo   the Hono middleware from ../../src/adapters/hono.ts
 *   /hono/stream      the Hono stream middleware
 *   /backend          the crypto backend 'auto' chose (wasm: from @nen/core's `.wasm` module)
 *   /.well-known/ohttp-gateway  the OHTTP gateway (with NEN_OHTTP_KEYS): GET key configs, POST
 *                     message/ohttp-req and -chunked-req to /api/echo and /api/stream; replay ids
 *                     claimed in the Durable Object store (`c:ohttp:<hex>` objects)
 *
 * Test-only routes (never in a real Worker): /__test/secret?sid= (a session's secret, hex, read
 * through the store), /__test/create (a session made through the store with the given lifetimes,
 * optionally committed once), /__test/rows?sid= (the rows and alarm of the session's object, read
 * from its SQLite storage by the subclass below; no secrets, only whether one is stored),
 * /__test/cost?sid=&op=get|commit&n=&from= (mean µs per store call, for the opt-in measurement),
 * /__test/runs (how many times this isolate ran a handler), /__test/object?name= (the rows of the
 * object named `nen:<name>`, e.g. a claim's).
 */
import { loadBackend } from '@nen/core';
import { Hono } from 'hono';
import { nenMiddleware, nenSessionRoutes, nenStreamMiddleware } from '../../src/adapters/hono.js';
import { createNen, type Nen, type NenRouteHandler, type OhttpGateway } from '../../src/index.js';
import {
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
  durableObjectStore,
  NenSessionObject as Base,
  type NenSessionObjectEnv,
} from '../../src/workers/index.js';
import type { SessionStore } from '../../src/stores/types.js';

/** The real object, plus a read-only view of its storage for the tests (`/__test/rows`). */
export class NenSessionObject extends Base {
  readonly #st: DurableObjectStateLike;
  constructor(state: DurableObjectStateLike, env: NenSessionObjectEnv) {
    super(state, env);
    this.#st = state;
  }

  override async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== '/__test/rows') return super.fetch(request);
    const sql = this.#st.storage.sql!;
    const sessions = sql.exec('SELECT id, secret IS NOT NULL AS has_secret, wrapped, dead_until, next_at FROM nen_sessions').toArray();
    const claims = sql.exec('SELECT count(*) AS n FROM nen_claims').toArray()[0]!.n;
    return Response.json({ sessions, claims, alarm: await this.#st.storage.getAlarm() });
  }
}

interface Env {
  NEN_SESSIONS: DurableObjectNamespaceLike;
  NEN_SERVER_KEYS: string;
  NEN_OHTTP_KEYS?: string;
  INSTANCE: string;
}

interface App {
  nen: Nen;
  store: SessionStore;
  echo: NenRouteHandler<unknown>;
  stream: NenRouteHandler<unknown>;
  hono: Hono;
  gateway: OhttpGateway | undefined;
}

let app: App | undefined;
/** Handler runs in this isolate (echo and stream), for the replay tests. */
let runs = 0;

function setup(env: Env): App {
  // Created on the first request: Workers forbid random numbers and timers at global scope.
  const store = durableObjectStore(env.NEN_SESSIONS);
  const nen = createNen({ store, serverKeys: env.NEN_SERVER_KEYS, handshakeRateLimit: 0, logger: () => {} });
  const hono = new Hono();
  hono.all('/hono/nen/:action', nenSessionRoutes(nen));
  hono.use('/hono/echo', nenMiddleware(nen));
  hono.post('/hono/echo', async (c) => c.json({ via: 'hono', instance: env.INSTANCE, body: await c.req.json() }));
  hono.use('/hono/stream', nenStreamMiddleware(nen, { contentType: 'text/event-stream' }));
  hono.post('/hono/stream', (c) => c.body(new Blob(['data: a\n\n', 'data: b\n\n']).stream()));
  const echo = nen.withNen(async (_r, _c, body) => {
    runs++;
    return { instance: env.INSTANCE, body };
  });
  const stream = nen.withNenStream(async function* () {
    runs++;
    for (const w of ['post', 'quantum', 'workerd']) yield `data: ${w}\n\n`;
  });
  const routes = { '/api/echo': { POST: echo }, '/api/stream': { POST: stream } };
  const gateway = env.NEN_OHTTP_KEYS ? nen.ohttpGateway({ keys: env.NEN_OHTTP_KEYS, routes }) : undefined;
  return { nen, store, echo, stream, hono, gateway };
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
    if (path === '/.well-known/ohttp-gateway' && app.gateway) return app.gateway.fetch(request);
    if (path.startsWith('/__test/')) return testRoute(request, env, app.store);
    return new Response('not found', { status: 404 });
  },
};

const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

async function testRoute(request: Request, env: Env, store: SessionStore): Promise<Response> {
  const url = new URL(request.url);
  const sid = url.searchParams.get('sid') ?? '';
  if (url.pathname === '/__test/secret') {
    const s = await store.get(sid, Date.now());
    return Response.json({ secret: s ? hex(s.secret) : null });
  }
  if (url.pathname === '/__test/rows' || url.pathname === '/__test/object') {
    const name = url.pathname === '/__test/rows' ? `s:${sid}` : (url.searchParams.get('name') ?? '');
    return env.NEN_SESSIONS.get(env.NEN_SESSIONS.idFromName(`nen:${name}`) as never).fetch(new Request('https://object/__test/rows'));
  }
  if (url.pathname === '/__test/runs') return Response.json({ runs });
  if (url.pathname === '/__test/create') {
    const { ttlMs, confirmMs, commit } = (await request.json()) as { ttlMs: number; confirmMs?: number; commit?: boolean };
    const now = Date.now();
    const id = hex(crypto.getRandomValues(new Uint8Array(16)));
    await store.create({
      id,
      secret: crypto.getRandomValues(new Uint8Array(32)),
      meta: {},
      epoch: 0,
      createdAt: now,
      expiresAt: now + ttlMs,
      idleTimeoutMs: ttlMs,
      lastSeenAt: now,
      ...(confirmMs === undefined ? {} : { confirmBy: now + confirmMs }),
    });
    if (commit) await store.commit(id, 1n, now);
    return Response.json({ id });
  }
  if (url.pathname === '/__test/cost') {
    // Mean µs per store call from this Worker (one Durable Object round trip each): `get` reads,
    // `commit` also writes the session's row. Measurement only (workerd.test.ts, opt-in).
    const n = Math.min(1000, Number(url.searchParams.get('n')));
    const from = Number(url.searchParams.get('from'));
    const op = url.searchParams.get('op');
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      if (op === 'get') await store.get(sid, Date.now());
      else await store.commit(sid, BigInt(from + i), Date.now());
    }
    return Response.json({ us: ((performance.now() - t0) * 1000) / n });
  }
  return new Response('not found', { status: 404 });
}
