#!/usr/bin/env node
/**
 * Where a bare server's CPU goes per request: starts a bench target (bench/targets/hono.mjs or
 * bench/targets/node-http.mjs, this package's dist/ or `--server-dist`) under `node --cpu-prof`,
 * pinned to core 0 (this process on core 1), sends N requests of one mode, stops it (SIGTERM) and
 * prints the profile's top functions by self time inside the measurement window, scaled to µs of
 * server CPU per request (/proc/<pid>/stat). Run one mode per call and diff two calls by eye.
 *
 *   node bench/profile-target.mjs --target hono --mode encrypted [--size 1024] [--requests 20000] [--top 30] [--keep out.cpuprofile] [--gc] [--server-cores 0] [--server-node-args='--flag ...']
 *   modes: plain (POST /api/plain/echo), encrypted (POST /api/echo through @nen/client), handshake,
 *   handshake-pinned (pinned to the key GET /api/nen/keys gives: the static key's decapsulation
 *   too, as the Next.js bench's handshakes and profile-requests.js's handshake mode)
 *   --gc: the server also runs with --trace-gc; prints its GCs per 1,000 requests by kind (a count
 *   that does not depend on the machine's load: the GC follows the bytes allocated per request)
 *   --server-cores: the server's CPU list for taskset (default 0; e.g. 0,1 lets V8's background
 *   GC threads run beside its main thread, the load generator still on core 1); --server-node-args:
 *   extra flags for the server's node (V8 GC flags, as profile-requests.js takes them)
 *
 * Pitfalls: the profile is sampled wall time on the server's thread (scaled to its CPU time, so
 * idle is dropped); native work (node:crypto, zlib, socket writes) shows under its JS caller or
 * "(program)". Loopback only; the server is always stopped, also on failure.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createNenClient } from '@nen/client';
import { createAccumulator, finish, runSlice } from '../../../bench/lib/driver.js';
import { ECHO_1K, realisticJson } from '../../../bench/lib/payloads.js';
import { readProcCpuMs } from '../../../bench/lib/servercpu.js';
import { createAgent, createFetch } from '../../../bench/lib/transport.js';
import { summarizeProfile } from '../../../bench/profile-summary.js';

const here = import.meta.dirname;
const { values: v } = parseArgs({
  options: {
    target: { type: 'string' },
    mode: { type: 'string' },
    size: { type: 'string' },
    requests: { type: 'string' },
    concurrency: { type: 'string' },
    top: { type: 'string' },
    'server-dist': { type: 'string' },
    keep: { type: 'string' },
    gc: { type: 'boolean' },
    'server-cores': { type: 'string' },
    'server-node-args': { type: 'string' },
  },
  strict: true,
});
const target = v.target ?? 'hono';
if (!['hono', 'node-http'].includes(target)) throw new Error('profile-target: --target hono|node-http');
const mode = v.mode ?? 'encrypted';
if (!['plain', 'encrypted', 'handshake', 'handshake-pinned'].includes(mode))
  throw new Error('profile-target: --mode plain|encrypted|handshake|handshake-pinned');
const size = Number(v.size ?? 1024);
const requests = Number(v.requests ?? 20_000);
const concurrency = Number(v.concurrency ?? 10);
const top = Number(v.top ?? 30);
const body = size === 1024 ? ECHO_1K : realisticJson(size, 7);
const dist = path.resolve(v['server-dist'] ?? path.join(here, '..', 'dist'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

execFileSync('taskset', ['-a', '-c', '-p', '1', String(process.pid)], { stdio: 'ignore' });
const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nen-prof-'));
const port = await freePort();
const script = path.join(here, '../../../bench/targets', `${target}.mjs`);
const child = spawn(
  'taskset',
  [
    '-c',
    v['server-cores'] ?? '0',
    process.execPath,
    '--cpu-prof',
    `--cpu-prof-dir=${profDir}`,
    ...(v.gc ? ['--trace-gc'] : []),
    ...(v['server-node-args'] ?? '').split(' ').filter(Boolean),
    script,
    '--port',
    String(port),
    '--server-dist',
    dist,
  ],
  {
    env: { ...process.env, NEN_HANDSHAKE_RATE: '100000000', NEN_HANDSHAKES_PER_SECOND: '0', NEN_LOG: 'silent' },
    stdio: ['ignore', v.gc ? 'pipe' : 'ignore', 'inherit'],
  },
);
/**
 * --gc: the server's --trace-gc lines counted by kind as they arrive (Scavenge, Mark-Compact, and
 * whatever a Node major calls its young-generation GC), and the full GCs by V8's stated reason
 * (e.g. "external memory pressure": ArrayBuffer bytes, not the heap, set them off).
 */
const gcCounts = {};
const gcReasons = {};
if (v.gc) {
  let rest = '';
  child.stdout.on('data', (d) => {
    const lines = (rest + d).split('\n');
    rest = lines.pop() ?? '';
    for (const l of lines) {
      const m = /ms: ([A-Z][A-Za-z -]*?) \d/.exec(l);
      if (!m) continue;
      gcCounts[m[1]] = (gcCounts[m[1]] ?? 0) + 1;
      if (m[1].startsWith('Mark-Compact')) {
        const why = l.slice(l.lastIndexOf(')') + 1).trim() || '(none given)';
        gcReasons[why] = (gcReasons[why] ?? 0) + 1;
      }
    }
  });
}
const base = `http://127.0.0.1:${port}`;
const agent = createAgent({ connections: concurrency + 4 });
try {
  const fetch = createFetch({ agent, targets: [base] });
  let pid = null;
  for (let i = 0; i < 150 && pid === null; i++) {
    if (child.exitCode !== null) throw new Error(`profile-target: server exited (${child.exitCode})`);
    try {
      pid = (await (await fetch(`${base}/api/bench/metrics`)).json()).pid;
    } catch {
      await sleep(200);
    }
  }
  if (pid === null) throw new Error('profile-target: server not ready');
  const headers = { 'content-type': 'application/json' };
  const client = createNenClient({ baseUrl: base, fetch, unpinned: true });
  if (mode === 'encrypted') await client.handshake();
  const serverKey = mode === 'handshake-pinned' ? (await (await fetch(`${base}/api/nen/keys`)).json())?.keys?.[0]?.pin : undefined;
  if (mode === 'handshake-pinned' && typeof serverKey !== 'string') throw new Error('profile-target: GET /api/nen/keys gave no pin');
  const ops = {
    plain: async () => {
      const res = await fetch(`${base}/api/plain/echo`, { method: 'POST', headers, body });
      if (res.status !== 200 || (await res.text()) !== body) throw new Error('plain echo mismatch');
    },
    encrypted: async () => {
      const res = await client.fetch('/api/echo', { method: 'POST', headers, body });
      if (res.status !== 200 || (await res.text()) !== body) throw new Error('encrypted echo mismatch');
    },
    handshake: async () => {
      await createNenClient({ baseUrl: base, fetch, unpinned: true }).handshake();
    },
    'handshake-pinned': async () => {
      await createNenClient({ baseUrl: base, fetch, serverKey }).handshake();
    },
  };
  const op = ops[mode];
  await runSlice({ op, concurrency, requests: Math.min(3000, requests) }); // warm-up (JIT)
  const gc0 = { ...gcCounts };
  const why0 = { ...gcReasons };
  const cpu0 = readProcCpuMs(pid);
  const t0 = nowUs();
  const acc = createAccumulator();
  await runSlice({ op, concurrency, requests, acc });
  const t1 = nowUs();
  const cpu1 = readProcCpuMs(pid);
  const gc1 = { ...gcCounts };
  const why1 = { ...gcReasons };
  const r = finish(acc);
  child.kill('SIGTERM');
  // an error answer (e.g. a 429) is cheaper than the operation: no per-request figure from such a run
  if (r.errors > 0) throw new Error(`profile-target: ${r.errors} errors ${JSON.stringify(r.errorKinds)}: no per-request figure`);
  for (let i = 0; i < 100 && child.exitCode === null; i++) await sleep(100);
  const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('profile-target: no profile written');
  if (v.keep) fs.copyFileSync(path.join(profDir, file), v.keep);
  const s = summarizeProfile(JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')), top, { fromUs: t0, toUs: t1 });
  const cpuUs = ((cpu1 - cpu0) * 1000) / r.requests;
  const scale = cpuUs / ((s.busyMs * 1000) / r.requests); // sampled busy wall time → CPU time
  const us = (ms) => ((ms * 1000 * scale) / r.requests).toFixed(1);
  console.log(
    `${target} ${mode}, ${size} B, ${r.requests} requests at c=${concurrency}: ${r.rps} req/s, server CPU ${cpuUs.toFixed(1)} µs/request, errors ${r.errors}`,
  );
  if (v.gc) {
    const per = (k) => (((gc1[k] ?? 0) - (gc0[k] ?? 0)) * 1000) / r.requests;
    console.log(
      `GCs per 1,000 requests: ${Object.keys(gc1)
        .map((k) => `${k} ${per(k).toFixed(1)}`)
        .join(', ')}`,
    );
    for (const [why, n] of Object.entries(why1)) {
      const d = n - (why0[why] ?? 0);
      if (d > 0) console.log(`  full GCs per 1,000 requests, ${why}: ${((d * 1000) / r.requests).toFixed(1)}`);
    }
  }
  console.log('\ncomponent | µs/request');
  for (const c of s.components) if (c.component !== 'idle') console.log(`${c.component} | ${us(c.ms)}`);
  console.log('\nfunction (self) | µs/request');
  for (const f of s.topFunctions) if (f.component !== 'idle') console.log(`${f.fn} [${f.component}] | ${us(f.ms)}`);
} finally {
  if (child.exitCode === null) child.kill('SIGKILL');
  await agent.close();
  fs.rmSync(profDir, { recursive: true, force: true });
}
