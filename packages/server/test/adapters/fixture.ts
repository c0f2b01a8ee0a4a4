/**
 * Adapter test fixture: one Nen instance served three ways over real HTTP on 127.0.0.1: Hono on
 * @hono/node-server (`@nen/server/hono` middleware), Express 5 and plain node:http
 * (`@nen/server/node`). Every server exposes the same routes, so one test body runs against all.
 *
 * Routes: /api/nen/:action (session), POST|GET /api/echo (buffered), POST /api/stream (sealed
 * stream of `n` tokens), POST /api/upload (streamed upload: bytes + how many chunks the client had
 * produced when the first one arrived), POST /api/download (`n` chunks of 64 KiB, streamed).
 *
 * Pitfalls: `probe` is shared state between the client side and the handlers (same process), used
 * to observe streaming and backpressure; servers close in `close()` (afterAll).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as honoServe } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { toBase64Url } from '@nen/core';
import { createNen, memoryStore, type Nen } from '../../src/index.js';
import { nenMiddleware, nenSessionRoutes, nenStreamMiddleware } from '../../src/adapters/hono.js';
import { nodeSessionRoutes, toNodeHandler, type WebHandler } from '../../src/adapters/node-http.js';
import { closeServer, listenLoopback as listen } from '../http-harness.js';

export const SEED = toBase64Url(new Uint8Array(32).map((_, i) => i + 7));
export const CHUNK = 64 * 1024;

/** Shared between test and handlers: what the server side has seen / produced so far. */
export const probe = { produced: 0, downloadProduced: 0, downloadFinished: false, producedAtFirstUpload: -1 };

export interface Served {
  readonly name: 'hono' | 'express' | 'node';
  readonly url: string;
}

export interface Fixture {
  nen: Nen;
  pin: string;
  servers: Served[];
  /** The same routes as plain Web handlers (what Next.js calls), for parity checks. */
  direct: Record<string, WebHandler<unknown>>;
  close(): Promise<void>;
}

function uploadHandler(): Parameters<Nen['withNen']>[0] {
  return async (_req, _c, body) => {
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      if (bytes === 0) probe.producedAtFirstUpload = probe.produced;
      bytes += chunk.length;
    }
    return { bytes, producedAtFirst: probe.producedAtFirstUpload };
  };
}

function downloadHandler(): Parameters<Nen['withNenStream']>[0] {
  return async function* (req) {
    const n = Number(new URL(req.url).searchParams.get('n') ?? '16');
    probe.downloadProduced = 0;
    probe.downloadFinished = false;
    const chunk = new Uint8Array(CHUNK).fill(7);
    try {
      for (let i = 0; i < n; i++) {
        probe.downloadProduced++;
        yield chunk;
      }
    } finally {
      probe.downloadFinished = true;
    }
  };
}

async function* tokens(n: number): AsyncGenerator<string> {
  for (let i = 0; i < n; i++) yield `data: token-${i}\n\n`;
}

/** A byte stream of the iterator's strings (UTF-8), one pulled per read, as a Hono route returns it. */
export function textStream(it: AsyncIterator<string>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(ctl) {
      const r = await it.next();
      if (r.done) ctl.close();
      else ctl.enqueue(enc.encode(r.value));
    },
  });
}

export async function setup(): Promise<Fixture> {
  const nen = createNen({
    serverKeys: `k1:${SEED}`,
    store: memoryStore({ shared: false }),
    handshakeRateLimit: 0,
    maxBodyBytes: 256 * 1024,
    logger: () => undefined,
  });
  const echo = nen.withNen(async (req, _c, body) => ({
    method: req.method,
    path: new URL(req.url).pathname,
    query: new URL(req.url).search,
    body: body ?? null,
    ct: req.headers.get('content-type'),
  }));
  const stream = nen.withNenStream((req) => tokens(Number(new URL(req.url).searchParams.get('n') ?? '5')));
  const upload = nen.withNen(uploadHandler(), { maxBodyBytes: 256 * 1024 * 1024 });
  const download = nen.withNenStream(downloadHandler(), { contentType: 'application/octet-stream' });
  const sessions: WebHandler<unknown> = (r, c) => (r.method === 'GET' ? nen.routes.GET(r, c) : nen.routes.POST(r, c));
  const direct: Record<string, WebHandler<unknown>> = { '/api/nen/': sessions, '/api/echo': echo, '/api/stream': stream, '/api/upload': upload };

  // Hono on @hono/node-server: the middleware, not the wrapped handlers.
  const app = new Hono();
  app.all('/api/nen/:action', nenSessionRoutes(nen));
  app.use('/api/echo', nenMiddleware(nen));
  app.on(['GET', 'POST'], '/api/echo', async (c) => {
    const u = new URL(c.req.url);
    const body = c.req.method === 'GET' ? null : await c.req.json();
    return c.json({ method: c.req.method, path: u.pathname, query: u.search, body, ct: c.req.header('content-type') ?? null });
  });
  app.use('/api/stream', nenStreamMiddleware(nen));
  app.post('/api/stream', (c) => {
    const n = Number(c.req.query('n') ?? '5');
    return new Response(textStream(tokens(n)), { headers: { 'content-type': 'text/event-stream' } });
  });
  app.use('/api/upload', nenMiddleware(nen, { maxBodyBytes: 256 * 1024 * 1024 }));
  app.post('/api/upload', async (c) => {
    let bytes = 0;
    const reader = c.req.raw.body!.getReader();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      if (bytes === 0) probe.producedAtFirstUpload = probe.produced;
      bytes += r.value.length;
    }
    return c.json({ bytes, producedAtFirst: probe.producedAtFirstUpload });
  });
  app.post('/api/download', (c) => download(c.req.raw, c));
  const honoServer = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((r) => (honoServer.listening ? r() : honoServer.once('listening', () => r())));
  const honoUrl = `http://127.0.0.1:${(honoServer.address() as AddressInfo).port}`;

  // Express 5.
  const ex = express();
  ex.all('/api/nen/:action', nodeSessionRoutes(nen));
  ex.all('/api/echo', toNodeHandler(echo));
  ex.post('/api/stream', toNodeHandler(stream));
  ex.post('/api/upload', toNodeHandler(upload));
  ex.post('/api/download', toNodeHandler(download));
  const exServer = createServer(ex);
  const exUrl = await listen(exServer);

  // Plain node:http: a tiny path table.
  const table: Record<string, ReturnType<typeof toNodeHandler>> = {
    '/api/echo': toNodeHandler(echo),
    '/api/stream': toNodeHandler(stream),
    '/api/upload': toNodeHandler(upload),
    '/api/download': toNodeHandler(download),
  };
  const nenRoutes = nodeSessionRoutes(nen);
  const nodeServer = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const h = path.startsWith('/api/nen/') ? nenRoutes : table[path];
    if (h) void h(req, res);
    else res.writeHead(404).end();
  });
  const nodeUrl = await listen(nodeServer);

  const pin = (await nen.publicKeys())[0]!.pin;
  return {
    nen,
    pin,
    direct,
    servers: [
      { name: 'hono', url: honoUrl },
      { name: 'express', url: exUrl },
      { name: 'node', url: nodeUrl },
    ],
    async close() {
      await Promise.all([closeServer(honoServer), closeServer(exServer), closeServer(nodeServer)]);
      await nen.close();
    },
  };
}
