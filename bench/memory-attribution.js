#!/usr/bin/env node
/**
 * Memory attribution under sustained load: which mode grows the demo server's memory, and where.
 *
 *   node bench/memory-attribution.js [--requests 200000] [--handshakes 4000] [--streams 2000]
 *        [--concurrency 32] [--rounds 4] [--no-arena2] [--out bench/results/memory-attribution.json]
 *        [--demo apps/demo (a built copy of the demo app: next start runs there)]
 *
 * Starts the built demo (`next start`, NODE_ENV=production, NEN_BENCH_METRICS=1) on a free
 * 127.0.0.1 port, warms it up, then drives windows of one mode each: plain (POST /api/plain/echo,
 * 1 KB, no Nen), encrypted (the same echo through withNen, 10 live sessions), handshake (a new
 * session per request) and stream (withNenStream, 32 sealed records). Plain and encrypted alternate
 * in `rounds` windows each so that neither gets the early (or the late) part of the run. At each
 * window boundary it reads the server's RSS, heapUsed, heapTotal, external, arrayBuffers
 * (/api/bench/metrics) and the smaps breakdown (Wasm memories, glibc arenas, other anonymous
 * memory, files: lib/smaps.js), then the same after a full GC in the server (?gc=1; the server runs
 * with --expose-gc): live memory, not garbage waiting for the collector. Each mode's figure is the
 * sum of its windows' changes. Since V8 sizes its heap by the allocation rate, a window's change
 * depends on the window before it: each window is also kept on its own, and lib/windowstats.js
 * gives per mode the median and spread of the windows' changes and the trend of the levels the
 * mode's windows end at (growth per 100,000 requests of that mode: accumulation, as opposed to
 * the working-set difference between modes). `--rounds 8` for a steadier figure.
 *
 * With arena2 (default on) the same sequence runs a second time on a fresh server started with
 * MALLOC_ARENA_MAX=2: growth that goes away there is glibc's per-thread arenas (allocator slack),
 * not live data. Results: JSON (for the report's memory section) and a table on stdout.
 *
 * Pitfalls: bounded in count and time (every request has a 30 s timeout; the servers are stopped
 * on exit, even on failure); local targets only (smaps of the server's pid). RSS is noisy on a
 * shared machine: compare modes of the same run, never figures of different runs.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { freePort } from '../tests/support/free-port.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadClientModule } from './lib/context.js';
import { fetchMetrics } from './lib/memory.js';
import { smapsBreakdown } from './lib/smaps.js';
import { statsTable, windowRecord, windowStats } from './lib/windowstats.js';
import { request } from 'undici';
import { createAgent, createFetch } from './lib/transport.js';

const here = dirname(fileURLToPath(import.meta.url));
const MiB = 2 ** 20;
const BODY = JSON.stringify({ pad: 'x'.repeat(1000) }).slice(0, 1024);

function options(argv) {
  const o = {
    requests: 200_000,
    handshakes: 4000,
    streams: 2000,
    concurrency: 32,
    rounds: 4,
    arena2: true,
    demo: join(here, '../apps/demo'),
    out: join(here, 'results/memory-attribution.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => argv[++i];
    if (a === '--requests') o.requests = Number(v());
    else if (a === '--handshakes') o.handshakes = Number(v());
    else if (a === '--streams') o.streams = Number(v());
    else if (a === '--concurrency') o.concurrency = Number(v());
    else if (a === '--rounds') o.rounds = Number(v());
    else if (a === '--no-arena2') o.arena2 = false;
    else if (a === '--out') o.out = v();
    else if (a === '--demo') o.demo = v();
    else throw new Error(`memory-attribution: unknown option ${a}`);
  }
  return o;
}

async function startDemo(demoDir, extraEnv) {
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    NEN_BENCH_METRICS: '1',
    NEN_HANDSHAKE_RATE: '100000000',
    NEN_LOG: 'silent',
    NODE_OPTIONS: '--expose-gc', // lets /api/bench/metrics?gc=1 collect before it measures
    ...extraEnv,
  };
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: demoDir,
    env,
    stdio: 'ignore',
  });
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop); // a failed or interrupted run leaves no server behind
  const base = `http://127.0.0.1:${port}`;
  const agent = createAgent({ connections: 64 });
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    if (child.exitCode !== null) throw new Error(`memory-attribution: next start exited with ${child.exitCode} (is the demo built? pnpm turbo run build)`);
    const m = await fetchMetrics(base, agent).catch(() => null);
    if (m?.ok) return { child, base, agent, pid: m.metrics.pid };
  }
  child.kill('SIGTERM');
  throw new Error('memory-attribution: the demo did not answer /api/bench/metrics within 60 s');
}

async function pool(n, concurrency, op) {
  let next = 0;
  let errors = 0;
  const worker = async (w) => {
    while (next < n) {
      next++;
      try {
        await op(w);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, (_, w) => worker(w)));
  if (errors > n * 0.01) throw new Error(`memory-attribution: ${errors} of ${n} requests failed`);
  return errors;
}

async function metricsAfterGc(s) {
  const res = await request(`${s.base}/api/bench/metrics?gc=1`, { dispatcher: s.agent, headersTimeout: 30_000, bodyTimeout: 30_000 });
  if (res.statusCode !== 200) {
    await res.body.dump();
    return {};
  }
  return res.body.json();
}

/** The server's memory as it is, then after a full GC (`gc*` fields; what is live, not garbage). */
async function snapshot(s) {
  const r = await fetchMetrics(s.base, s.agent);
  const m = r.metrics ?? {};
  const sm = (await smapsBreakdown(s.pid)) ?? {};
  const g = await metricsAfterGc(s);
  const gsm = (await smapsBreakdown(s.pid)) ?? {};
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal ?? null,
    external: m.external,
    arrayBuffers: m.arrayBuffers ?? null,
    sessions: m.sessions,
    wasmCommitted: sm.wasmCommitted ?? null,
    wasmMemories: sm.wasmMemories ?? null,
    mallocArenas: sm.mallocArenas ?? null,
    otherAnon: sm.otherAnon ?? null,
    files: sm.files ?? null,
    gcRss: g.gc ? g.rss : null,
    gcHeapUsed: g.gc ? g.heapUsed : null,
    gcHeapTotal: g.gc ? (g.heapTotal ?? null) : null,
    gcMallocArenas: g.gc ? (gsm.mallocArenas ?? null) : null,
    gcOtherAnon: g.gc ? (gsm.otherAnon ?? null) : null,
  };
}

const FIELDS = [
  'rss',
  'heapUsed',
  'heapTotal',
  'external',
  'arrayBuffers',
  'wasmCommitted',
  'mallocArenas',
  'otherAnon',
  'files',
  'gcRss',
  'gcHeapUsed',
  'gcHeapTotal',
  'gcMallocArenas',
  'gcOtherAnon',
];

async function modeOps(s, createNenClient) {
  const fetch = createFetch({ agent: s.agent, targets: [s.base] });
  const headers = { 'content-type': 'application/json' };
  const clients = [];
  for (let i = 0; i < 10; i++) {
    const c = createNenClient({ baseUrl: s.base, fetch, unpinned: true });
    await c.handshake();
    clients.push(c);
  }
  const check = (ok, what) => {
    if (!ok) throw new Error(what);
  };
  return {
    plain: async () => {
      const res = await fetch(`${s.base}/api/plain/echo`, { method: 'POST', headers, body: BODY });
      check(res.status === 200 && (await res.text()) === BODY, 'plain echo');
    },
    encrypted: async (w) => {
      const res = await clients[w % clients.length].fetch('/api/echo', { method: 'POST', headers, body: BODY });
      check(res.status === 200 && (await res.text()) === BODY, 'encrypted echo');
    },
    handshake: async () => {
      const c = createNenClient({ baseUrl: s.base, fetch, unpinned: true });
      await c.handshake();
    },
    stream: async (w) => {
      let n = 0;
      for await (const chunk of clients[w % clients.length].stream('/api/stream?n=32', { method: 'POST', headers, body: '{}' })) n += chunk.length;
      check(n > 0, 'stream');
    },
  };
}

async function runSequence(o, label, extraEnv) {
  const { createNenClient } = await loadClientModule();
  const s = await startDemo(o.demo, extraEnv);
  try {
    const ops = await modeOps(s, createNenClient);
    const log = (m) => process.stderr.write(`[memory ${label}] ${m}\n`);
    // warm-up: JIT, route compilation, connection pool, the allocator's first arenas. The 1 KB
    // modes come last: the slow handshake / stream windows shrink V8's heap reservation, and the
    // first measured window must not be charged with growing it back.
    const warm = Math.min(20_000, Math.max(1000, o.requests / 10));
    await pool(Math.min(500, o.handshakes), 8, ops.handshake);
    await pool(Math.min(200, o.streams), 8, ops.stream);
    for (const mode of ['plain', 'encrypted']) await pool(warm, o.concurrency, ops[mode]);
    const plan = [];
    for (let r = 0; r < o.rounds; r++) {
      const [a, b] = r % 2 === 0 ? ['plain', 'encrypted'] : ['encrypted', 'plain'];
      plan.push([a, Math.round(o.requests / o.rounds), o.concurrency], [b, Math.round(o.requests / o.rounds), o.concurrency]);
    }
    plan.push(['handshake', o.handshakes, 8], ['stream', o.streams, 8]);
    const start = await snapshot(s);
    const modes = {};
    let before = start;
    for (const [mode, n, c] of plan) {
      const t0 = Date.now();
      const errors = await pool(n, c, ops[mode]);
      const after = await snapshot(s);
      const m = (modes[mode] ??= { requests: 0, seconds: 0, errors: 0, windows: 0, delta: Object.fromEntries(FIELDS.map((f) => [f, 0])), perWindow: [] });
      m.requests += n;
      m.errors += errors;
      m.windows++;
      m.seconds += (Date.now() - t0) / 1000;
      for (const f of FIELDS) if (typeof after[f] === 'number' && typeof before[f] === 'number') m.delta[f] += after[f] - before[f];
      // each window on its own (lib/windowstats.js: median, spread, trend of the levels)
      m.perWindow.push(windowRecord(before, after, m.requests));
      log(
        `${mode} ${n}: rss ${(after.rss / MiB).toFixed(1)} MiB (${((after.rss - before.rss) / MiB).toFixed(1)}), heap ${(after.heapUsed / MiB).toFixed(1)}, arenas ${((after.mallocArenas ?? 0) / MiB).toFixed(1)}, wasm ${((after.wasmCommitted ?? 0) / MiB).toFixed(2)}; after GC: rss ${((after.gcRss ?? 0) / MiB).toFixed(1)}, heap ${((after.gcHeapUsed ?? 0) / MiB).toFixed(1)} / ${((after.gcHeapTotal ?? 0) / MiB).toFixed(1)}`,
      );
      before = after;
    }
    for (const m of Object.values(modes)) m.stats = windowStats(m.perWindow);
    return { label, env: extraEnv, start, end: before, modes };
  } finally {
    s.child.kill('SIGTERM');
    await s.agent.close();
  }
}

function table(runs) {
  const mib = (b) => (typeof b === 'number' ? (b / MiB).toFixed(1) : '–');
  const lines = [
    '| run | mode | requests | req/s | RSS | heapUsed | heapTotal | external | arrayBuffers | Wasm | glibc arenas | other anon | RSS after GC | heapUsed after GC | heapTotal after GC |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of runs) {
    for (const [mode, m] of Object.entries(r.modes)) {
      const d = m.delta;
      lines.push(
        `| ${r.label} | ${mode} | ${m.requests} | ${Math.round(m.requests / m.seconds)} | ${mib(d.rss)} | ${mib(d.heapUsed)} | ${mib(d.heapTotal)} | ${mib(d.external)} | ${mib(d.arrayBuffers)} | ${mib(d.wasmCommitted)} | ${mib(d.mallocArenas)} | ${mib(d.otherAnon)} | ${mib(d.gcRss)} | ${mib(d.gcHeapUsed)} | ${mib(d.gcHeapTotal)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n(changes in MiB over each mode's windows after warm-up)`;
}

for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => process.exit(130));
const o = options(process.argv.slice(2));
const t0 = Date.now();
const runs = [await runSequence(o, 'default', {})];
if (o.arena2) runs.push(await runSequence(o, 'MALLOC_ARENA_MAX=2', { MALLOC_ARENA_MAX: '2' }));
const result = {
  generatedAt: new Date().toISOString(),
  node: process.version,
  command: `node bench/memory-attribution.js ${process.argv.slice(2).join(' ')}`.trim(),
  options: o,
  seconds: Math.round((Date.now() - t0) / 1000),
  runs,
};
mkdirSync(dirname(o.out), { recursive: true });
writeFileSync(o.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(table(runs));
console.log(statsTable(runs));
console.log(`written: ${o.out} (${result.seconds} s)`);
