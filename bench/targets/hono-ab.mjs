#!/usr/bin/env node
/**
 * `node bench/targets/hono-ab.mjs --a <dist> --b <dist> [--rounds 8] [--slice 2] [--lead <ms>] [--gc] [--concurrency 10] [--modes plain,encrypted] [--size 1024] [--no-pin] [--target hono|node-http|next]`:
 * two builds of @nen/server side by side in one run, each serving the Hono bench target
 * (bench/targets/hono.mjs --server-dist <dist>), for an A/B of Nen's per-request cost without
 * Next.js. Both servers run at once; the JSON echo (`--size` bytes, default 1 KB: `POST /api/echo`
 * through the real client vs `POST /api/plain/echo`) is driven in interleaved slices (A plain, A encrypted, B plain,
 * B encrypted, the order rotated each round) so that machine drift hits all four alike.
 * `--target node-http`: the same routes on bare node:http with `@nen/server/node`
 * (bench/targets/node-http.mjs) instead of Hono. `--target next`: `--a` / `--b` name two builds of the
 * demo in apps/demo (their NEXT_DIST_DIR, e.g. `.next-x`), each served by `next start` (what the
 * bench's "100 KB pinned" ratio measures, here two builds in one run). Per slice:
 * req/s, server CPU µs per request (/proc/<pid>/stat of that server), client CPU µs per request;
 * printed as medians over the rounds, with encrypted/plain ratios per build. `--modes` may add
 * `handshake` (a fresh unpinned session per operation: the session routes), `handshake-pinned` (the
 * same pinned to the key `GET /api/nen/keys` gives: the static key's decapsulation too, as the
 * Next.js bench's handshakes) and `stream` (a sealed
 * stream of 100 SSE records per operation, `POST /api/stream?n=100`: nenStreamMiddleware).
 *
 *   cp -r packages/server/dist packages/server/.dist-a     # e.g. the build before a change
 *   node bench/targets/hono-ab.mjs --a packages/server/.dist-a --b packages/server/dist
 *
 * Pitfalls: a <dist> must sit inside packages/server (its own imports resolve from there); by
 * default both servers are pinned to core 0 and this process to core 1 (`taskset`), so server CPU
 * per request is not inflated by the load generator's preemption (`--no-pin`: shared cores);
 * the /proc tick is 10 ms, so use slices of ≥ 1 s. Servers are stopped (SIGTERM) at the end.
 * The servers run with the per-instance handshake ceiling off (NEN_HANDSHAKES_PER_SECOND=0 unless set here: the
 * bench is not testing it, the flood stage does); a mode with any error (a 429, a mismatch) prints
 * no per-operation figure ('–', null in the JSON) and its errors apart, and the run exits 1: its
 * cheap error answers once counted as operations (issue 21: Node 24 Hono handshakes read 124-136
 * µs/op with ~16,000 429s, 190-198 µs with the ceiling off).
 * `--gc`: each server runs with --trace-gc and each row adds its full mark-compacts per 1,000
 * requests (median over its slices): at 100 KB a slot's server CPU follows them (~+17 µs per
 * request per MC/1,000 at load 10-18, bench/README.md issue 21 slot 11), so read a 100 KB ratio
 * only where both slots' counts agree.
 * `--lead <ms>` (default 1000 with `--target next`, else 0): unmeasured requests to the cell's server
 * right before each measured slice. Without it `--target next` read 2.3-3.5 ms of server CPU per
 * 100 KB request where bench/profile-requests.js read 1.6-1.9 ms in the same hour (issue 21): a
 * `next start` server that sat idle through the other cells' slices pays a start-up cost in its next
 * slice (same minutes, load 8-13, plain 100 KB, one build per slot: 2 s slices 3,111 / 3,409 µs at
 * 34-42 req/s, 8 s slices 1,820 / 1,700, profile-requests.js 1,583), which a 2 s slice of a few
 * hundred 100 KB requests does not amortise.
 */
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createNenClient } from '@nen/client';
import { createAccumulator, runSlice } from '../lib/driver.js';
import { ECHO_1K, realisticJson } from '../lib/payloads.js';
import { readProcCpuMs } from '../lib/servercpu.js';
import { createAgent, createFetch } from '../lib/transport.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: v } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string' },
    slice: { type: 'string' },
    concurrency: { type: 'string' },
    modes: { type: 'string' },
    size: { type: 'string' },
    'no-pin': { type: 'boolean' },
    target: { type: 'string' },
    lead: { type: 'string' },
    gc: { type: 'boolean' },
  },
  strict: true,
});
if (!v.a || !v.b) throw new Error('hono-ab: give --a <dist> and --b <dist>');
const rounds = Number(v.rounds ?? 8);
const sliceMs = Number(v.slice ?? 2) * 1000;
const concurrency = Number(v.concurrency ?? 10);
const pin = !v['no-pin'];
const size = Number(v.size ?? 1024);
const BODY = size === 1024 ? ECHO_1K : realisticJson(size, 7);
const modes = (v.modes ?? 'plain,encrypted').split(',');
const target = v.target ?? 'hono';
// Unmeasured requests before each measured slice (ms): a `next start` server that sat idle through
// the other cells' slices pays a start-up cost in its next one (see the header).
const leadMs = Number(v.lead ?? (target === 'next' ? 1000 : 0));
if (!['hono', 'node-http', 'next'].includes(target)) throw new Error('hono-ab: --target takes hono, node-http or next');
const demoDir = path.resolve(here, '../../apps/demo');
if (!modes.every((m) => ['plain', 'encrypted', 'handshake', 'handshake-pinned', 'stream'].includes(m)))
  throw new Error('hono-ab: --modes takes plain,encrypted,handshake,handshake-pinned,stream');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function start(name, dist) {
  const port = await freePort();
  const next = target === 'next';
  const args = next
    ? [path.join(demoDir, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', String(port)]
    : [path.join(here, `${target}.mjs`), '--port', String(port), '--server-dist', path.resolve(dist)];
  const nextEnv = next ? { NEXT_DIST_DIR: dist, NEN_BENCH_METRICS: '1', NODE_ENV: 'production' } : {};
  const nodeArgs = v.gc ? ['--trace-gc', ...args] : args;
  const child = spawn(pin ? 'taskset' : process.execPath, pin ? ['-c', '0', process.execPath, ...nodeArgs] : nodeArgs, {
    // the per-instance handshake ceiling off: its cheap 429s would count as handshakes (issue 21)
    env: {
      ...process.env,
      NEN_HANDSHAKE_RATE: '100000000',
      NEN_HANDSHAKES_PER_SECOND: process.env.NEN_HANDSHAKES_PER_SECOND ?? '0',
      NEN_LOG: 'silent',
      ...nextEnv,
    },
    ...(next ? { cwd: demoDir } : {}),
    stdio: ['ignore', v.gc ? 'pipe' : 'ignore', 'inherit'],
  });
  // --gc: the server's --trace-gc lines counted as they arrive (full mark-compacts apart)
  const gc = { markCompacts: 0 };
  if (v.gc) {
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (l.includes('Mark-Compact')) gc.markCompacts++;
    });
  }
  const base = `http://127.0.0.1:${port}`;
  const agent = createAgent({ connections: concurrency + 4 });
  const fetch = createFetch({ agent, targets: [base] });
  let pid = null;
  for (let i = 0; i < (next ? 600 : 150) && pid === null; i++) {
    if (child.exitCode !== null) {
      await agent.close();
      throw new Error(`hono-ab: server ${name} exited (${child.exitCode})`);
    }
    try {
      pid = (await (await fetch(`${base}/api/bench/metrics`)).json()).pid;
    } catch {
      await sleep(200);
    }
  }
  if (pid === null) {
    child.kill('SIGTERM');
    await agent.close();
    throw new Error(`hono-ab: server ${name} not ready`);
  }
  const headers = { 'content-type': 'application/json' };
  const client = createNenClient({ baseUrl: base, fetch, unpinned: true });
  await client.handshake();
  const serverKey = (await (await fetch(`${base}/api/nen/keys`)).json())?.keys?.[0]?.pin;
  if (typeof serverKey !== 'string') throw new Error(`hono-ab: server ${name}: GET /api/nen/keys gave no pin`);
  const ops = {
    plain: async () => {
      const res = await fetch(`${base}/api/plain/echo`, { method: 'POST', headers, body: BODY });
      if (res.status !== 200 || (await res.text()) !== BODY) throw new Error('plain echo mismatch');
    },
    encrypted: async () => {
      const res = await client.fetch('/api/echo', { method: 'POST', headers, body: BODY });
      if (res.status !== 200 || (await res.text()) !== BODY) throw new Error('encrypted echo mismatch');
    },
    // one sealed stream of 100 SSE records per op (nenStreamMiddleware)
    stream: async () => {
      let n = 0;
      for await (const _ of client.stream('/api/stream?n=100', { method: 'POST' })) n++;
      if (n === 0) throw new Error('empty stream');
    },
    // one fresh session per op (the session routes: ClientHello -> ServerHello, store create)
    handshake: async () => {
      await createNenClient({ baseUrl: base, fetch, unpinned: true }).handshake();
    },
    'handshake-pinned': async () => {
      await createNenClient({ baseUrl: base, fetch, serverKey }).handshake();
    },
  };
  return { name, dist, child, agent, pid, ops, gc };
}

async function main() {
  if (pin) execFileSync('taskset', ['-a', '-c', '-p', '1', String(process.pid)], { stdio: 'ignore' });
  // pushed one by one: a B that fails to start still stops A (finally)
  const servers = [];
  try {
    servers.push(await start('A', v.a));
    servers.push(await start('B', v.b));
    const cells = servers.flatMap((s) => modes.map((mode) => ({ s, mode, rps: [], serverUs: [], clientUs: [], mc: [], errors: 0, errorKinds: {} })));
    for (const c of cells) await runSlice({ op: c.s.ops[c.mode], concurrency, requests: 1500 }); // warm-up (JIT)
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < cells.length; k++) {
        const c = cells[(k + r) % cells.length];
        if (leadMs > 0) await runSlice({ op: c.s.ops[c.mode], concurrency, durationMs: leadMs });
        const acc = createAccumulator();
        const cpu0 = readProcCpuMs(c.s.pid);
        const mc0 = c.s.gc.markCompacts;
        await runSlice({ op: c.s.ops[c.mode], concurrency, durationMs: sliceMs, acc });
        const cpu1 = readProcCpuMs(c.s.pid);
        c.mc.push(((c.s.gc.markCompacts - mc0) * 1000) / Math.max(1, acc.completed));
        const n = acc.completed;
        c.errors += acc.errors;
        for (const [k, x] of Object.entries(acc.errorKinds)) c.errorKinds[k] = (c.errorKinds[k] ?? 0) + x;
        c.rps.push(acc.completed / (acc.busyMs / 1000));
        // a slice with errors gives no per-operation figure (an error answer costs less than the operation)
        c.serverUs.push(acc.errors ? Number.NaN : ((cpu1 - cpu0) * 1000) / n);
        c.clientUs.push(acc.errors ? Number.NaN : (acc.cpuUserUs + acc.cpuSystemUs) / n);
      }
    }
    // NaN (a slice with errors) poisons its cell's median: printed as '–', null in the JSON
    const fig = (x) => (Number.isFinite(x) ? Math.round(x) : null);
    const rows = cells.map((c) => ({
      build: c.s.name,
      dist: c.s.dist,
      mode: c.mode,
      rps: Math.round(median(c.rps)),
      serverUsPerRequest: c.errors ? null : fig(median(c.serverUs)),
      clientUsPerRequest: c.errors ? null : fig(median(c.clientUs)),
      errors: c.errors,
      errorKinds: c.errorKinds,
      ...(v.gc ? { markCompactsPer1000: Number(median(c.mc).toFixed(1)) } : {}),
    }));
    const ratios = servers.map((s) => {
      const [p, e] = ['plain', 'encrypted'].map((m) => cells.find((c) => c.s === s && c.mode === m));
      if (!p || !e || p.errors || e.errors) return { build: s.name };
      // per round (adjacent slices), then the median
      return {
        build: s.name,
        rpsRatio: Number(median(e.rps.map((x, i) => x / p.rps[i])).toFixed(3)),
        serverCpuRatio: Number(median(e.serverUs.map((x, i) => x / p.serverUs[i])).toFixed(2)),
        serverUsAdded: Math.round(median(e.serverUs.map((x, i) => x - p.serverUs[i]))),
      };
    });
    console.log(
      `${target}: ${size} B JSON echo, c=${concurrency}, ${rounds} rounds × ${sliceMs / 1000} s slices, ${pin ? 'servers pinned to core 0, load generator core 1' : 'shared cores'}`,
    );
    const gcCol = v.gc ? ' full GCs / 1,000 |' : '';
    console.log(`| build | mode | req/s | server µs/req | client µs/req |${gcCol} errors |\n|---|---|---|---|---|${v.gc ? '---|' : ''}---|`);
    const cell = (x) => x ?? '–';
    for (const r of rows)
      console.log(
        `| ${r.build} | ${r.mode} | ${r.rps} | ${cell(r.serverUsPerRequest)} | ${cell(r.clientUsPerRequest)} |${v.gc ? ` ${r.markCompactsPer1000} |` : ''} ${r.errors ? `${r.errors} ${JSON.stringify(r.errorKinds)}` : 0} |`,
      );
    console.log('\n| build | encrypted/plain req/s | server CPU/request | server µs added |\n|---|---|---|---|');
    for (const r of ratios) if (r.rpsRatio !== undefined) console.log(`| ${r.build} | ${r.rpsRatio}× | ${r.serverCpuRatio}× | +${r.serverUsAdded} |`);
    console.log(JSON.stringify({ concurrency, rounds, sliceMs, pin, rows, ratios }));
    return rows.some((r) => r.errors > 0) ? 1 : 0;
  } finally {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.agent.close();
    }
  }
}

main().then(
  (code) => (process.exitCode = code),
  (e) => {
    console.error(e?.stack ?? e);
    process.exitCode = 1;
  },
);
