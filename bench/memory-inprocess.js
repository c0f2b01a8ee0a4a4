#!/usr/bin/env node
/**
 * Nen's own memory under sustained load, without Next.js or sockets: in ONE process, a
 * createNenClient whose fetch hands each Request straight to a handler of @nen/server (as
 * packages/server/bench/client-roundtrip.mjs does), in windows of one mode each: plain (the same
 * echo handler without withNen), encrypted (withNen echo, 10 live sessions), handshake (a new
 * session each) and stream (withNenStream, 32 records). After each window a full GC (run with
 * --expose-gc), then RSS, heapUsed, external, arrayBuffers and the smaps parts (Wasm memory,
 * glibc arenas). What grows here is Nen's (or the runtime's Request/Response), never Next's.
 *
 *   node --expose-gc bench/memory-inprocess.js [--requests 200000] [--rounds 4] [--handshakes 4000] [--streams 2000]
 *
 * Pitfalls: client and server share the process, so the figures are both ends together. Each
 * batch returns to the event loop (see run()): without I/O the microtask queue never drains and
 * V8 keeps every WeakRef target of the run alive, which looks like ~1.9 KB retained per request.
 */
import { createNenClient } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { createNen, memoryStore } from '@nen/server';
import { smapsBreakdown } from './lib/smaps.js';

const MiB = 2 ** 20;
const arg = (name, d) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const o = { requests: arg('requests', 200_000), rounds: arg('rounds', 4), handshakes: arg('handshakes', 4000), streams: arg('streams', 2000) };
if (typeof globalThis.gc !== 'function') throw new Error('memory-inprocess: run with node --expose-gc');

const nen = createNen({
  backend: 'auto',
  store: memoryStore({ shared: false }),
  serverKeys: `k1:${toBase64Url(new Uint8Array(32).fill(5))}`,
  logger: () => {},
  handshakeRateLimit: 0,
});
const pin = (await nen.publicKeys())[0].pin;
const echo = async (req, _ctx, body) => (req.headers.get('content-type') === 'application/json' ? body : null);
const sealed = nen.withNen(echo);
const plainEcho = async (req) => Response.json(await req.json());
const stream = nen.withNenStream(async function* () {
  for (let i = 0; i < 32; i++) yield `data: ${JSON.stringify({ i, token: `token-${i} ` })}\n\n`;
});
const route = (url, init) => {
  const u = String(url);
  if (u.includes('/api/nen/')) return nen.routes.POST(new Request(url, init));
  if (u.includes('/api/stream')) return stream(new Request(url, init), {});
  if (u.includes('/api/plain')) return plainEcho(new Request(url, init));
  return sealed(new Request(url, init), {});
};
const newClient = () => createNenClient({ baseUrl: 'http://127.0.0.1', fetch: route, serverKey: pin, sessionPath: '/api/nen' });
const clients = [];
for (let i = 0; i < 10; i++) {
  const c = newClient();
  await c.handshake();
  clients.push(c);
}
const body = JSON.stringify({ data: 'x'.repeat(1012) });
const headers = { 'content-type': 'application/json' };
let w = 0;
const ops = {
  plain: async () => {
    const r = await route('http://127.0.0.1/api/plain/echo', { method: 'POST', headers, body });
    if ((await r.text()) !== body) throw new Error('plain');
  },
  encrypted: async () => {
    const r = await clients[w++ % 10].fetch('/api/echo', { method: 'POST', headers, body });
    if ((await r.text()) !== body) throw new Error('encrypted');
  },
  handshake: async () => {
    const c = newClient();
    await c.handshake();
    await c.terminate();
  },
  stream: async () => {
    let n = 0;
    for await (const chunk of clients[w++ % 10].stream('/api/stream', { method: 'POST', headers, body: '{}' })) n += chunk.length;
    if (n === 0) throw new Error('stream');
  },
};
const run = async (mode, n) => {
  const batch = 16; // a little concurrency, as a server sees
  for (let i = 0; i < n; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, n - i) }, () => ops[mode]()));
    // Back to the event loop, as a server between socket reads: WeakRef targets (Node's Request
    // keeps one per AbortSignal it follows) stay alive until the job ends ("KeepDuringJob"), so a
    // loop of microtasks alone would hold every request's AbortController.
    await new Promise((r) => setImmediate(r));
  }
};
const snap = async () => {
  globalThis.gc();
  await new Promise((r) => setTimeout(r, 50));
  globalThis.gc();
  const m = process.memoryUsage();
  const s = (await smapsBreakdown(process.pid)) ?? {};
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    wasm: s.wasmCommitted ?? null,
    arenas: s.mallocArenas ?? null,
  };
};
for (const mode of ['plain', 'encrypted', 'handshake', 'stream']) await run(mode, mode === 'handshake' ? 200 : 2000); // warm-up
const plan = [];
for (let r = 0; r < o.rounds; r++) plan.push(...(r % 2 ? ['encrypted', 'plain'] : ['plain', 'encrypted']).map((m) => [m, o.requests / o.rounds]));
plan.push(['handshake', o.handshakes], ['stream', o.streams]);
const total = {};
let before = await snap();
const start = before;
for (const [mode, n] of plan) {
  const t0 = performance.now();
  await run(mode, n);
  const after = await snap();
  const t = (total[mode] ??= { requests: 0, seconds: 0, d: {} });
  t.requests += n;
  t.seconds += (performance.now() - t0) / 1000;
  for (const k of Object.keys(after)) t.d[k] = (t.d[k] ?? 0) + ((after[k] ?? 0) - (before[k] ?? 0));
  before = after;
}
const f = (b) => (b / MiB).toFixed(2);
console.log(`start: rss ${f(start.rss)} MiB, heap ${f(start.heapUsed)}, wasm ${f(start.wasm ?? 0)}, arenas ${f(start.arenas ?? 0)}`);
console.log('| mode | requests | req/s | RSS | heapUsed | external | arrayBuffers | Wasm | glibc arenas |\n|---|---|---|---|---|---|---|---|---|');
for (const [mode, t] of Object.entries(total))
  console.log(
    `| ${mode} | ${t.requests} | ${Math.round(t.requests / t.seconds)} | ${f(t.d.rss)} | ${f(t.d.heapUsed)} | ${f(t.d.external)} | ${f(t.d.arrayBuffers)} | ${f(t.d.wasm)} | ${f(t.d.arenas)} |`,
  );
console.log(`sessions at the end: ${await nen.store.size()}`);
for (const c of clients) await c.terminate().catch(() => undefined);
await nen.close();
