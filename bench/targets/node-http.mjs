#!/usr/bin/env node
/**
 * `node bench/targets/node-http.mjs [--port 3100] [--server-dist <dir>]`: the bench target on bare
 * `node:http` (no framework), with `@nen/server/node` (`toNodeHandler`), for the routes
 * bench/targets/hono-ab.mjs drives: the session routes, `POST /api/echo` (sealed), `POST
 * /api/plain/echo` (the same echo as a plain node:http handler), `POST /api/stream` (a sealed
 * stream of `n` SSE records) and `GET /api/bench/metrics`. Both echoes answer the body with its
 * content type (204 when empty); the sealed one is a `lazyJson` route (it reads bytes, never JSON).
 * `NEN_BENCH_PLAIN_ECHO=web` (read here, so hono-ab and profile-target pass it through): the plain
 * echo runs the sealed route's own Web handler (`echo`: builds a Response, read back before
 * writing), the like-for-like baseline for "server CPU Nen adds"; default `bare` (no Response).
 *
 *   node bench/targets/hono-ab.mjs --target node-http --a <dist> --b packages/server/dist
 *   NEN_BENCH_PLAIN_ECHO=web node bench/targets/hono-ab.mjs --target node-http --a <dist> --b <dist>
 *
 * NEN_HANDSHAKES_PER_SECOND defaults to 0 here (the per-instance ceiling off: its 429s are not handshakes).
 * Pitfalls: listens on 127.0.0.1 only; SIGINT/SIGTERM close the server and release Nen's keys;
 * `--server-dist` must sit inside packages/server (its own imports resolve from there).
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, 'server-dist': { type: 'string' } }, strict: true });
const port = Number(values.port ?? process.env.PORT ?? 3100);
const dist = values['server-dist'] ? (f) => pathToFileURL(path.resolve(values['server-dist'], f)).href : null;
const { createNen } = await import(dist ? dist('index.js') : '@nen/server');
const { toNodeHandler, nodeSessionRoutes } = await import(dist ? dist('adapters/node-http.js') : '@nen/server/node');
// a bench target: the per-instance handshake ceiling off unless set (its 429s are not handshakes; issue 21)
process.env.NEN_HANDSHAKES_PER_SECOND ??= '0';
const nen = createNen({ logger: (e) => (e.level === 'error' ? console.error(`nen: ${e.event} ${e.code ?? ''} ${e.reason ?? ''}`) : undefined) });
const MAX_PLAIN = 4 * 1024 * 1024;
const plainKind = process.env.NEN_BENCH_PLAIN_ECHO ?? 'bare';
if (plainKind !== 'bare' && plainKind !== 'web') throw new Error('node-http target: NEN_BENCH_PLAIN_ECHO is bare or web');

/** The echo as a Web handler: the body back with its content type (204 when empty). */
function echo(bytes, contentType) {
  if (bytes.byteLength === 0) return new Response(null, { status: 204 });
  return new Response(bytes, { headers: { 'content-type': contentType ?? 'application/octet-stream' } });
}

const sealedEcho = toNodeHandler(nen.withNen(async (req) => echo(await req.bytes(), req.headers.get('content-type')), { compress: true, lazyJson: true }));
const enc = new TextEncoder();
const sealedStream = toNodeHandler(
  nen.withNenStream(function* (req) {
    const n = Math.min(10_000, Math.max(1, Number(new URL(req.url).searchParams.get('n')) || 32));
    for (let i = 0; i < n; i++) yield enc.encode(`data: ${JSON.stringify({ i, token: `token-${i} ` })}\n\n`);
    yield enc.encode('data: [DONE]\n\n');
  }),
);
const sessions = nodeSessionRoutes(nen);

/** A Response's body bytes by a reader loop (as @nen/server reads a handler's Response). */
async function responseBytes(r) {
  if (!r.body) return null;
  const reader = r.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** NEN_BENCH_PLAIN_ECHO=web: `echo`'s Response for this body, written back as the sealed route's is. */
async function writeWebEcho(res, body, contentType) {
  const r = echo(body, contentType);
  const bytes = await responseBytes(r);
  const head = { 'content-type': r.headers.get('content-type') ?? 'application/octet-stream' };
  if (bytes) head['content-length'] = bytes.length;
  res.writeHead(r.status, head).end(bytes ?? undefined);
}

/** The plain echo: the body back with its content type, as a bare node:http handler writes it. */
function plainEcho(req, res) {
  const chunks = [];
  let total = 0;
  req.on('data', (c) => {
    total += c.length;
    if (total > MAX_PLAIN) req.destroy();
    else chunks.push(c);
  });
  req.on('end', () => {
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
    if (plainKind === 'web') return void writeWebEcho(res, body, req.headers['content-type']);
    if (body.length === 0) {
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/octet-stream', 'content-length': body.length }).end(body);
  });
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const p = url.split('?')[0];
  if (p.startsWith('/api/nen/')) return void sessions(req, res);
  if (p === '/api/echo' && req.method === 'POST') return void sealedEcho(req, res);
  if (p === '/api/plain/echo' && req.method === 'POST') return plainEcho(req, res);
  if (p === '/api/stream' && req.method === 'POST') return void sealedStream(req, res);
  if (p === '/api/bench/metrics') {
    const m = process.memoryUsage();
    const body = JSON.stringify({
      rss: m.rss,
      heapUsed: m.heapUsed,
      external: m.external,
      sessions: null,
      counters: {},
      storeKind: 'memory',
      pid: process.pid,
    });
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
});

await nen.ready();
server.listen(port, '127.0.0.1', () => console.log(`nen bench target (node:http) listening on http://127.0.0.1:${server.address().port}`));
const shutdown = () => server.close(() => void nen.close().then(() => process.exit(0)));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
