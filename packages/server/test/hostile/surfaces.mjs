/**
 * The hostile-upload suite's server process: one Nen instance (default limits: 4 MiB body, 4096-byte
 * ClientHello) served by Hono on @hono/node-server, Express 5 and plain node:http from the built
 * package (dist), each with the session routes and a sealed echo. Run in a child process so that
 * a client writing at full speed and the server do not share one event loop, and so that the
 * server's memory is its own.
 *
 *   node --expose-gc test/hostile/surfaces.mjs   → prints {"ports":{"hono":…,"express":…,"node":…},"pin":…}
 *
 * Over the IPC channel: 'memory' answers { heapUsed, arrayBuffers, external, rss } after a full GC;
 * 'stop' closes everything and exits.
 * Pitfalls: listens on 127.0.0.1 only; exits when the parent goes away (IPC disconnect).
 */
import { createServer } from 'node:http';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { nenMiddleware, nenSessionRoutes } from '../../dist/adapters/hono.js';
import { nodeSessionRoutes, toNodeHandler } from '../../dist/adapters/node-http.js';
import { createNen, memoryStore } from '../../dist/index.js';

const nen = createNen({ store: memoryStore({ shared: false }), handshakeRateLimit: 0, handshakesPerSecond: 0, logger: () => undefined });
const echo = nen.withNen(async (_req, _c, body) => ({ bytes: body instanceof Uint8Array ? body.length : 0 }));

const app = new Hono();
app.all('/api/nen/:action', nenSessionRoutes(nen));
app.use('/api/echo', nenMiddleware(nen));
app.post('/api/echo', async (c) => c.json({ bytes: (await c.req.raw.bytes()).length }));

const ex = express();
ex.all('/api/nen/:action', nodeSessionRoutes(nen));
ex.post('/api/echo', toNodeHandler(echo));

const sessions = nodeSessionRoutes(nen);
const plainEcho = toNodeHandler(echo);

const listening = (server) => new Promise((resolve) => (server.listening ? resolve(server) : server.once('listening', () => resolve(server))));
const servers = {
  hono: await listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })),
  express: await listening(createServer(ex).listen(0, '127.0.0.1')),
  node: await listening(
    createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path.startsWith('/api/nen/')) void sessions(req, res);
      else if (path === '/api/echo') void plainEcho(req, res);
      else res.writeHead(404).end();
    }).listen(0, '127.0.0.1'),
  ),
};

async function stop() {
  for (const s of Object.values(servers)) s.closeAllConnections();
  await Promise.all(Object.values(servers).map((s) => new Promise((r) => s.close(r))));
  await nen.close();
  process.exit(0);
}

process.on('message', (m) => {
  if (m === 'memory') {
    globalThis.gc?.();
    const { heapUsed, arrayBuffers, external, rss } = process.memoryUsage();
    process.send?.({ heapUsed, arrayBuffers, external, rss });
  } else if (m === 'stop') void stop();
});
process.on('disconnect', () => void stop());
const ports = Object.fromEntries(Object.entries(servers).map(([k, s]) => [k, s.address().port]));
process.stdout.write(`${JSON.stringify({ ports, pin: (await nen.publicKeys())[0].pin })}\n`);
