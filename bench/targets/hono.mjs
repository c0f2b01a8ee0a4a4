#!/usr/bin/env node
/**
 * `node bench/targets/hono.mjs [--port 3100]`: a bench target without Next.js: Hono on
 * @hono/node-server with `@nen/server/hono`, serving the routes the bench drives, so run-all.js
 * shows Nen's own overhead apart from Next.js's:
 *
 *   /api/nen/:action        session routes (nenSessionRoutes)
 *   /api/echo               POST: sealed echo (nenMiddleware, compress) · GET: { method, path, query }
 *   /api/plain/echo         the same echo, plaintext
 *   /api/stream             POST ?n=32&delay=0: sealed SSE tokens (nenStreamMiddleware)
 *   /api/chat[/plain]       POST ?delay=0&tokens=N[&pace=turn]: AI SDK streamText on its mock model →
 *                           UI message stream (pace=turn: one token per event-loop turn, as the demo)
 *   /api/notes[/:id]        a minimal notes CRUD (bounded in-memory map), for the regression and scenarios stages
 *   /api/bench/metrics      process memory (the bench's memory sampler)
 *
 *   TARGET_URL=http://127.0.0.1:3100 node bench/run-all.js --only load,ai-stream
 *
 * `--server-dist <dir>` loads @nen/server from another build of packages/server/dist (kept under
 * packages/server so that its own imports resolve), to run two builds side by side.
 *
 * Configuration as any Nen server (NEN_SERVER_KEYS, NEN_HANDSHAKE_RATE, ...); without
 * NEN_SERVER_KEYS the key is generated at start (fine for a bench: its clients run unpinned);
 * NEN_HANDSHAKES_PER_SECOND defaults to 0 here (ceiling off: a bench measures handshakes, not 429s).
 * Pitfalls: listens on 127.0.0.1 only; SIGINT/SIGTERM close the server and release Nen's keys.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { simulateReadableStream, streamText, convertToModelMessages } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Hono } from 'hono';

const { values } = parseArgs({ options: { port: { type: 'string' }, 'server-dist': { type: 'string' } }, strict: true });
const port = Number(values.port ?? process.env.PORT ?? 3100);
// --server-dist <dir>: @nen/server from another build of packages/server/dist (A/B of two builds side by side)
const dist = values['server-dist'] ? (f) => pathToFileURL(path.resolve(values['server-dist'], f)).href : null;
const { createNen } = await import(dist ? dist('index.js') : '@nen/server');
const { nenMiddleware, nenSessionRoutes, nenStreamMiddleware } = await import(dist ? dist('adapters/hono.js') : '@nen/server/hono');
// a bench target: the per-instance handshake ceiling off unless set (its 429s are not handshakes; issue 21)
process.env.NEN_HANDSHAKES_PER_SECOND ??= '0';
const nen = createNen({ logger: (e) => (e.level === 'error' ? console.error(`nen: ${e.event} ${e.code ?? ''} ${e.reason ?? ''}`) : undefined) });
const clamp = (v, min, max, fallback) => (v !== undefined && /^\d{1,9}$/.test(v) ? Math.min(max, Math.max(min, Number(v))) : fallback);

/**
 * The same echo as the demo's: the body back with its content type, 204 when empty. Behind Nen
 * the body is read with the decrypted request's exact `bytes()` (its `arrayBuffer()` of an
 * in-envelope-compressed body is over-long; see the bench README); a plain body with arrayBuffer().
 */
function echo(sealed) {
  return async (c) => {
    const bytes = sealed ? await c.req.raw.bytes() : new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength === 0) return c.body(null, 204);
    return c.body(bytes, 200, { 'content-type': c.req.header('content-type') ?? 'application/octet-stream' });
  };
}

/** An AI-shaped answer: the AI SDK's mock model streaming `n` tokens "t0 ", "t1 ", ... */
function chat(n, delay, turn) {
  const parts = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'a' },
    ...Array.from({ length: n }, (_, i) => ({ type: 'text-delta', id: 'a', delta: `t${i} ` })),
    { type: 'text-end', id: 'a' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: n, text: n, reasoning: undefined } },
    },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream(
        turn
          ? { chunks: parts, initialDelayInMs: 0, chunkDelayInMs: 0, _internal: { delay: () => new Promise((r) => setImmediate(r)) } }
          : { chunks: parts, initialDelayInMs: delay || null, chunkDelayInMs: delay || null },
      ),
    }),
  });
}

async function chatRoute(c) {
  const body = await c.req.json().catch(() => null);
  const messages = Array.isArray(body?.messages) && body.messages.length > 0 && body.messages.length <= 50 ? body.messages : null;
  if (!messages)
    return c.body(`data: ${JSON.stringify({ type: 'error', errorText: 'expected { messages }' })}\n\n`, 200, { 'content-type': 'text/event-stream' });
  const delay = clamp(c.req.query('delay'), 0, 1000, 0);
  const model = chat(clamp(c.req.query('tokens'), 1, 10_000, 100), delay, delay === 0 && c.req.query('pace') === 'turn');
  return streamText({ model, messages: await convertToModelMessages(messages), abortSignal: c.req.raw.signal }).toUIMessageStreamResponse();
}

/** Minimal notes CRUD with the demo's shapes ({ note }, { notes }), at most MAX_NOTES kept. */
const MAX_NOTES = 1000;
const notes = new Map();
function notesApp() {
  const r = new Hono();
  r.get('/', (c) => {
    const q = (c.req.query('q') ?? '').toLowerCase();
    return c.json({
      query: q,
      notes: [...notes.values()].filter((n) => !q || n.title.toLowerCase().includes(q) || n.body.toLowerCase().includes(q)).slice(0, 200),
    });
  });
  r.post('/', async (c) => {
    const b = await c.req.json().catch(() => null);
    if (typeof b?.title !== 'string' || b.title.length > 200 || (b.body !== undefined && typeof b.body !== 'string'))
      return c.json({ error: 'invalid note', code: 'INVALID_NOTE' }, 400);
    const note = {
      id: crypto.randomUUID().replaceAll('-', '').slice(0, 12),
      title: b.title,
      body: (b.body ?? '').slice(0, 20_000),
      createdAt: Date.now(),
      updatedAt: Date.now(),
    };
    if (notes.size >= MAX_NOTES) notes.delete(notes.keys().next().value);
    notes.set(note.id, note);
    return c.json({ note }, 201);
  });
  r.get('/:id', (c) =>
    notes.has(c.req.param('id')) ? c.json({ note: notes.get(c.req.param('id')) }) : c.json({ error: 'not found', code: 'NOT_FOUND' }, 404),
  );
  r.put('/:id', async (c) => {
    const n = notes.get(c.req.param('id'));
    if (!n) return c.json({ error: 'not found', code: 'NOT_FOUND' }, 404);
    const b = await c.req.json().catch(() => null);
    if (typeof b?.title === 'string') n.title = b.title.slice(0, 200);
    if (typeof b?.body === 'string') n.body = b.body.slice(0, 20_000);
    n.updatedAt = Date.now();
    return c.json({ note: n });
  });
  r.delete('/:id', (c) => (notes.delete(c.req.param('id')) ? c.json({ deleted: true }) : c.json({ error: 'not found', code: 'NOT_FOUND' }, 404)));
  return r;
}

const app = new Hono();
app.use('/api/notes/*', nenMiddleware(nen)); // '/x/*' matches '/x' too
app.route('/api/notes', notesApp());
app.all('/api/nen/:action', nenSessionRoutes(nen));
app.use('/api/echo', nenMiddleware(nen, { compress: true }));
app.post('/api/echo', echo(true));
app.get('/api/echo', (c) => c.json({ method: c.req.method, path: c.req.path, query: c.req.query() }));
// The remaining methods, for the conformance kit's real-traffic suite (conformance/runner/real.mjs).
app.on(['PUT', 'PATCH'], '/api/echo', echo(true));
app.on(['DELETE', 'OPTIONS'], '/api/echo', (c) => c.body(null, 204));
app.post('/api/plain/echo', echo(false));
app.use('/api/stream', nenStreamMiddleware(nen));
app.post('/api/stream', (c) => {
  const n = clamp(c.req.query('n'), 1, 10_000, 32);
  const delay = clamp(c.req.query('delay'), 0, 1000, 0);
  let i = 0;
  const enc = new TextEncoder();
  const stream = new ReadableStream({
    async pull(ctl) {
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      if (i < n) ctl.enqueue(enc.encode(`data: ${JSON.stringify({ i, token: `token-${i} ` })}\n\n`));
      else {
        ctl.enqueue(enc.encode('data: [DONE]\n\n'));
        ctl.close();
      }
      i++;
    },
  });
  return c.body(stream, 200, { 'content-type': 'text/event-stream' });
});
app.use('/api/chat', nenStreamMiddleware(nen));
app.post('/api/chat', chatRoute);
app.post('/api/chat/plain', chatRoute);
app.get('/api/bench/metrics', (c) => {
  const m = process.memoryUsage();
  return c.json({ rss: m.rss, heapUsed: m.heapUsed, external: m.external, sessions: null, counters: {}, storeKind: 'memory', pid: process.pid });
});

await nen.ready();
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) =>
  console.log(`nen bench target (hono) listening on http://127.0.0.1:${info.port}`),
);
const shutdown = () => server.close(() => void nen.close().then(() => process.exit(0)));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
