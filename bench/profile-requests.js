#!/usr/bin/env node
/**
 * `node bench/profile-requests.js [--requests 20000] [--concurrency 10] [--size 1024] [--pin]
 * [--modes plain,plain-burn,plain-sleep,encrypted,handshake,handshake-raw,ohttp,stream-plain,stream-encrypted] [--burn-us 150]
 * [--tokens 200] [--warmup 4000] [--server-node-args=--trace-gc]`: the
 * per-request cost table of bench/README.md. For each mode (plain, encrypted) it starts the built
 * demo (`next start`, apps/demo/.next) under `node --cpu-prof` on a free loopback port, warms it
 * up, sends N echo requests (the plain route, or the encrypted one through the real client), stops
 * the server (SIGTERM: Next exits and V8 writes the profile), and summarises the profile samples
 * *inside the measurement window only* (bench/profile-summary.js; the window is taken on
 * CLOCK_MONOTONIC, which the profile's timestamps share): each component's share of the busy
 * samples times the server CPU per request from /proc/<pid>/stat = µs of server CPU per request by
 * component.
 *
 * Groups: crypto = Wasm (ML-KEM / X25519 / HPKE / ChaCha20-Poly1305 in nen-core) and node:crypto
 * (the server's AEAD backend); envelope = @nen/core JS + @nen/server (framing, AAD, replay window,
 * the wrapper — and, since Next bundles them into the chunk of the demo's lib/nen.ts, the JSON
 * parse of the decrypted body that the plain route does inside Next's own chunk); Next.js
 * (+ React); Node (internals, undici, native); GC. The difference of the totals is the honest
 * Nen cost; the groups say where it lands. Results: stdout (Markdown) and
 * bench/results/profile-<time>/.
 *
 * Pitfalls: sampling attributes native work (zlib, node:crypto) to the calling JS frame or
 * "(program)"; the load generator runs on the same machine (pin with taskset for steadier
 * figures); build first (`pnpm turbo run build`). `NEXT_DIST_DIR=.next-x` (env) serves the demo
 * built into apps/demo/.next-x instead (A/B of two builds while others use .next). The server
 * runs with the per-instance handshake ceiling off (NEN_HANDSHAKES_PER_SECOND=0), and a mode with
 * errors gets no per-request figures ('–'): its cheap error answers would dilute them (issue 21).
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { summarizeProfile } from './profile-summary.js';
import { createAgent, createFetch } from './lib/transport.js';
import { runSlice, createAccumulator, finish } from './lib/driver.js';
import { realisticJson, ECHO_1K } from './lib/payloads.js';
import { readProcCpuMs } from './lib/servercpu.js';
import { benchDir, repoRoot } from './lib/env.js';
import { timestampDirName } from './lib/results.js';

const appDir = path.join(repoRoot, 'apps/demo');
const nextBin = path.join(appDir, 'node_modules/next/dist/bin/next');

export const GROUPS = {
  crypto: ['Wasm', '@noble', 'node:crypto'],
  envelope: ['@nen/core', '@nen/server'],
  'Next.js': ['Next.js', 'React'],
  Node: ['Node internals', 'native/(program)', 'undici', 'other'],
  GC: ['GC'],
};

/**
 * Component shares of a profile summary → µs of server CPU per request per group. Samples measure
 * wall time on the thread (a descheduled thread keeps its frame), so each group's share of the busy
 * samples is applied to the CPU time /proc measured (`procCpuUsPerRequest`) when it is known.
 */
export function perRequestGroups(summary, requests, procCpuUsPerRequest = null) {
  const out = {};
  const busy = summary.busyMs || 0;
  for (const [g, comps] of Object.entries(GROUPS)) {
    const ms = summary.components.filter((c) => comps.includes(c.component)).reduce((a, c) => a + c.ms, 0);
    if (!requests) out[g] = null;
    else if (procCpuUsPerRequest !== null && busy > 0) out[g] = Math.round((ms / busy) * procCpuUsPerRequest);
    else out[g] = Math.round((ms * 1000) / requests);
  }
  out.sampled = requests ? Math.round((busy * 1000) / requests) : null;
  return out;
}

export function costTable(rows) {
  const keys = [...Object.keys(GROUPS), 'sampled'];
  const lines = [
    '| µs of server CPU per request | ' + rows.map((r) => r.mode).join(' | ') + ' | difference |',
    '|---|' + rows.map(() => '---|').join('') + '---|',
  ];
  for (const k of keys) {
    const vals = rows.map((r) => r.perRequestUs[k]);
    const diff = vals.length === 2 && vals.every((v) => typeof v === 'number') ? vals[1] - vals[0] : null;
    lines.push(
      `| ${k === 'sampled' ? 'sampled wall time on the thread (for reference)' : k} | ${vals.map((v) => v ?? '–').join(' | ')} | ${diff === null ? '–' : (diff > 0 ? '+' : '') + diff} |`,
    );
  }
  const tot = rows.map((r) => r.procCpuUsPerRequest);
  lines.push(
    `| total (/proc utime+stime) | ${tot.map((v) => v ?? '–').join(' | ')} | ${tot.length === 2 && tot.every((v) => typeof v === 'number') ? (tot[1] - tot[0] > 0 ? '+' : '') + (tot[1] - tot[0]) : '–'} |`,
  );
  return lines.join('\n');
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function waitReady(base, child) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode})`);
    try {
      const r = await request(`${base}/api/bench/metrics`, { headersTimeout: 2000, bodyTimeout: 2000 });
      if (r.statusCode === 200) return await r.body.json();
      await r.body.dump();
    } catch {
      /* not yet */
    }
    await sleep(500);
  }
  throw new Error('next start not ready after 120 s');
}

/** One operation of `mode` against the demo at `base` (after this returns, only its requests run). */
async function makeOp(mode, { base, fetch, body, burnUs, tokens }) {
  const headers = { 'content-type': 'application/json' };
  if (mode === 'plain' || mode === 'plain-burn' || mode === 'plain-sleep') {
    // Controls for the encrypted client's extra cost without its bytes: after each response the
    // load generator spends `burnUs` busy (plain-burn: CPU on its own core) or blocked without
    // CPU (plain-sleep: Atomics.wait, the same stall of its event loop). If the server's CPU
    // per request rises with plain-burn but not with plain-sleep, the other core's load is
    // inflating the server's CPU time (shared physical core or host), not the request pattern.
    const burn = mode === 'plain-burn' ? burnUs : 0;
    const sleep = mode === 'plain-sleep' ? burnUs : 0;
    const cell = new Int32Array(new SharedArrayBuffer(4));
    return async () => {
      const res = await fetch(`${base}/api/plain/echo`, { method: 'POST', headers, body });
      if (res.status !== 200 || (await res.text()) !== body) throw new Error('plain echo mismatch');
      if (burn > 0) for (const end = performance.now() + burn / 1000; performance.now() < end; );
      if (sleep > 0) Atomics.wait(cell, 0, 0, sleep / 1000);
    };
  } else if (mode === 'stream-plain' || mode === 'stream-encrypted') {
    // one AI-SDK chat stream per op (the ai-stream stage's paced stream: one token per
    // event-loop turn), read to the end; per-request figures are per stream of `tokens` tokens
    const query = `delay=0&pace=turn&tokens=${tokens}`;
    const chatBody = JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'profile' }] }] });
    const { createNenClient } = await import('@nen/client');
    const client = mode === 'stream-encrypted' ? createNenClient({ baseUrl: base, fetch, unpinned: true }) : null;
    if (client) await client.handshake();
    return async () => {
      const init = { method: 'POST', headers, body: chatBody };
      const res = client ? await client.fetch(`/api/chat?${query}`, init) : await fetch(`${base}/api/chat/plain?${query}`, init);
      const text = await res.text();
      if (res.status !== 200 || !text.includes(`t${tokens - 1} `)) throw new Error(`${mode}: incomplete stream`);
    };
  } else if (mode === 'handshake') {
    // one fresh session per op: the whole handshake route (ClientHello -> ServerHello, store create)
    const { createNenClient } = await import('@nen/client');
    const keys = await (await fetch(`${base}/api/nen/keys`)).json();
    const serverKey = keys?.keys?.[0]?.pin;
    if (typeof serverKey !== 'string') throw new Error('bench: GET /api/nen/keys gave no pin');
    return async () => {
      await createNenClient({ baseUrl: base, fetch, serverKey }).handshake();
    };
  } else if (mode === 'handshake-raw') {
    // issue 21: pinned ClientHellos made beforehand (512, cycled: each still costs the server a
    // fresh encapsulation and session), POSTed raw: the generator pays HTTP only, not the pinned
    // client's ~0.5 ms of crypto, so the server bounds the rate; each answer's status and length checked
    const core = await import('@nen/core');
    const be = await core.loadBackend('auto');
    const keys = await (await fetch(`${base}/api/nen/keys`)).json();
    const pin = core.parseServerKeyPin(keys?.keys?.[0]?.pin ?? '');
    const hellos = Array.from({ length: 512 }, () => {
      const st = core.clientHandshakeStart(be, { pin });
      st.dispose();
      return st.hello;
    });
    const hsHeaders = { 'content-type': core.MEDIA_TYPE.handshake };
    const want = 36 + core.KEM_SIZES[pin.kem].enc + 32;
    let n = 0;
    return async () => {
      const res = await fetch(`${base}/api/nen/handshake`, { method: 'POST', headers: hsHeaders, body: hellos[n++ & 511] });
      if (res.status !== 200 || (await res.arrayBuffer()).byteLength !== want) throw new Error('handshake-raw: bad answer');
    };
  } else if (mode === 'ohttp') {
    // issue 23: each op one OHTTP request to the demo's gateway (inner POST /api/echo), no session
    const { createNenClient } = await import('@nen/client');
    const gw = `${base}/.well-known/ohttp-gateway`;
    const list = new Uint8Array(await (await fetch(gw)).arrayBuffer());
    const client = createNenClient({ mode: 'ohttp', relay: gw, keyConfig: list.slice(2, 2 + ((list[0] << 8) | list[1])), baseUrl: base, fetch });
    return async () => {
      const res = await client.fetch('/api/echo', { method: 'POST', headers, body });
      if (res.status !== 200 || (await res.text()) !== body) throw new Error('ohttp echo mismatch');
    };
  } else {
    const { createNenClient } = await import('@nen/client');
    const client = createNenClient({ baseUrl: base, fetch, unpinned: true });
    await client.handshake();
    return async () => {
      const res = await client.fetch('/api/echo', { method: 'POST', headers, body });
      if (res.status !== 200 || (await res.text()) !== body) throw new Error('encrypted echo mismatch');
    };
  }
}

async function profileMode(mode, { requests, warmup, concurrency, body, outDir, pin, serverArgs, burnUs, tokens }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profDir = path.join(outDir, mode);
  fs.mkdirSync(profDir, { recursive: true });
  const logFile = fs.openSync(path.join(outDir, `server-${mode}.log`), 'w');
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profDir}`, ...serverArgs, nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)];
  // --pin: the server on core 0 (taskset execs node: same pid), this process on core 1
  const child = spawn(pin ? 'taskset' : process.execPath, pin ? ['-c', '0', process.execPath, ...nodeArgs] : nodeArgs, {
    cwd: appDir,
    env: { ...process.env, NEN_BENCH_METRICS: '1', NEN_HANDSHAKE_RATE: '100000000', NEN_HANDSHAKES_PER_SECOND: '0', NODE_ENV: 'production', NEN_LOG: 'silent' },
    stdio: ['ignore', logFile, logFile],
  });
  const agent = createAgent({ connections: concurrency + 4 });
  try {
    const metrics = await waitReady(base, child);
    const fetch = createFetch({ agent, targets: [base] });
    const op = await makeOp(mode, { base, fetch, body, burnUs, tokens });
    await runSlice({ op, concurrency, requests: warmup }); // warm-up: JIT, route compilation (the same count for every mode)
    const cpu0 = readProcCpuMs(metrics.pid);
    const t0 = nowUs();
    const acc = createAccumulator();
    await runSlice({ op, concurrency, requests, acc });
    const t1 = nowUs();
    const cpu1 = readProcCpuMs(metrics.pid);
    const r = finish(acc);
    child.kill('SIGTERM');
    for (let i = 0; i < 100 && child.exitCode === null; i++) await sleep(100);
    const file = fs.readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${metrics.pid}.`))[0];
    if (!file) throw new Error(`no .cpuprofile of pid ${metrics.pid} in ${profDir} (did next start exit cleanly?)`);
    const summary = summarizeProfile(JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')), 15, { fromUs: t0, toUs: t1 });
    const ok = r.requests > 0 && r.errors === 0; // errors: no per-request figure (see the header)
    const procCpuUsPerRequest = cpu0 !== null && cpu1 !== null && ok ? Math.round(((cpu1 - cpu0) * 1000) / r.requests) : null;
    // The load generator's own CPU per request and the server's idle share: a server that idles
    // while this process is busy is waiting for the generator (then req/s and the batching of
    // requests per event-loop turn, hence server CPU per request, say more about the client).
    const clientCpuUsPerRequest = ok ? Math.round((acc.cpuUserUs + acc.cpuSystemUs) / r.requests) : null;
    const idle = summary.components.find((c) => c.component === 'idle')?.ms ?? 0;
    const serverIdlePct = summary.totalMs ? Math.round((idle / summary.totalMs) * 1000) / 10 : null;
    return {
      mode,
      requests: r.requests,
      errors: r.errors,
      rps: r.rps,
      procCpuUsPerRequest,
      clientCpuUsPerRequest,
      serverIdlePct,
      perRequestUs: perRequestGroups(summary, ok ? r.requests : 0, procCpuUsPerRequest),
      profile: summary,
      // the measurement window on the profile's clock, to re-summarise the .cpuprofile (e.g. more functions)
      window: { fromUs: t0, toUs: t1, file: path.join(mode, file) },
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await agent.close();
    fs.closeSync(logFile);
  }
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      requests: { type: 'string' },
      concurrency: { type: 'string' },
      size: { type: 'string' },
      pin: { type: 'boolean' },
      modes: { type: 'string' },
      'server-node-args': { type: 'string' },
      'burn-us': { type: 'string' },
      tokens: { type: 'string' },
      warmup: { type: 'string' },
    },
    strict: true,
  });
  const pin = Boolean(values.pin);
  if (pin) execFileSync('taskset', ['-a', '-c', '-p', '1', String(process.pid)], { stdio: 'ignore' });
  const requests = Number(values.requests ?? 20000);
  const concurrency = Number(values.concurrency ?? 10);
  const size = Number(values.size ?? 1024);
  // Node 20 reaches a steady OHTTP gateway only after ~3,000 requests (bench/ohttp/warm-curve.mjs)
  const warmup = Number(values.warmup ?? 4000);
  if (!(warmup >= 0 && warmup <= 1_000_000)) throw new Error('bench: bad --warmup');
  if (!(requests >= 100 && concurrency >= 1 && size >= 64)) throw new Error('bench: bad --requests / --concurrency / --size');
  // NEXT_DIST_DIR (the demo's next.config honours it): profile a build kept beside the shared .next
  if (!fs.existsSync(path.join(appDir, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID')))
    throw new Error('bench: build the demo first (pnpm turbo run build)');
  const body = size === 1024 ? ECHO_1K : realisticJson(size, 7);
  const outDir = path.join(benchDir, 'results', `profile-${timestampDirName()}`);
  const rows = [];
  // e.g. --server-node-args=--trace-gc: extra flags for the server's node (output in server-<mode>.log)
  const serverArgs = (values['server-node-args'] ?? '').split(' ').filter(Boolean);
  const modes = (values.modes ?? 'plain,encrypted').split(',');
  if (
    !modes.every((m) =>
      ['plain', 'plain-burn', 'plain-sleep', 'encrypted', 'handshake', 'handshake-raw', 'ohttp', 'stream-plain', 'stream-encrypted'].includes(m),
    )
  )
    throw new Error('bench: --modes takes plain,plain-burn,plain-sleep,encrypted,handshake,handshake-raw,ohttp,stream-plain,stream-encrypted');
  const burnUs = Number(values['burn-us'] ?? 150);
  if (!(burnUs >= 0 && burnUs <= 100_000)) throw new Error('bench: bad --burn-us');
  const tokens = Number(values.tokens ?? 200);
  if (!(tokens >= 1 && tokens <= 10_000)) throw new Error('bench: bad --tokens');
  for (const mode of modes) {
    console.error(`[profile] ${mode}: ${requests} requests at c=${concurrency}, ${size} B JSON`);
    rows.push(await profileMode(mode, { requests, warmup, concurrency, body, outDir, pin, serverArgs, burnUs, tokens }));
  }
  fs.writeFileSync(path.join(outDir, 'profile.json'), JSON.stringify({ requests, warmup, concurrency, size, pin, rows }, null, 2) + '\n');
  console.log(
    `${size} B JSON echo, ${requests} requests at c=${concurrency} per mode${pin ? ', server pinned to core 0, load generator to core 1' : ', shared cores'} (${rows.map((r) => `${r.mode} ${r.rps} req/s`).join(', ')}; load generator CPU per request ${rows.map((r) => `${r.mode} ${r.clientCpuUsPerRequest} µs`).join(', ')}; server idle ${rows.map((r) => `${r.mode} ${r.serverIdlePct} %`).join(', ')}):\n`,
  );
  console.log(costTable(rows));
  console.log(`\nprofiles and profile.json: ${outDir}`);
  return 0;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invokedDirectly) {
  main().then(
    (c) => (process.exitCode = c),
    (e) => {
      console.error(e?.stack ?? e);
      process.exitCode = 1;
    },
  );
}
