/**
 * Why a cold OHTTP request costs the gateway more CPU than a warm one (issue 23): the stage's
 * server (./server.mjs) under four request patterns, each in a fresh server process after the
 * same warm-up, for the OHTTP echo and the plain echo:
 *   warm   one keep-alive connection, requests back to back (the throughput loop);
 *   fresh  a new connection per request, back to back (connection set-up, caches hot);
 *   idle   one keep-alive connection, IDLE_MS between requests (caches cooled, no new connection);
 *   cold   a new connection per request and IDLE_MS between (the stage's cold pattern).
 * Per pattern: the server's CPU per request (process.cpuUsage over the measured requests, no
 * profiler; user and system apart, and the context switches), and with PROFILE=1 a second run under `--cpu-prof` whose samples inside the measured
 * window are grouped by component and function (../profile-summary.js), in µs per request.
 *
 * Then a control in this process, no I/O: the same work back to back and after IDLE_MS of sleep,
 * for a register-only loop (slows only if the core's clock does), a 1 KB JSON round trip and the
 * gateway's crypto (decapsulation + response sealing, @nen/core): what slows after idle is what
 * touches memory, so the cause is the caches, not the gateway's code path.
 *
 * Run: `node bench/ohttp/cold-profile.mjs` (env N requests per pattern, default 120; IDLE_MS 20;
 * PATTERNS, MODES comma lists; PROFILE=1; CONTROL=0 skips the control). Loopback only, fixed
 * counts, every server stopped.
 * Pitfall: the server is pinned to core 0 and this client to core 1 when `taskset` exists, so the
 * client's own work does not share the server's core; the idle patterns let other processes of
 * a shared machine run on core 0 in between, which is the effect measured, so report the load.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { summarizeProfile } from '../profile-summary.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.N ?? 120);
const IDLE_MS = Number(process.env.IDLE_MS ?? 20);
const WARMUP = 200;
const PATTERNS = (process.env.PATTERNS ?? 'warm,fresh,idle,cold').split(',');
const MODES = (process.env.MODES ?? 'ohttp,plain').split(',');
const PROFILE = process.env.PROFILE === '1';
const BODY = JSON.stringify({ data: 'x'.repeat(1000) });
const POST = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY };

function taskset() {
  try {
    execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const pinned = os.availableParallelism() > 1 && taskset();

async function startServer(profDir) {
  const node = [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=100'] : []), path.join(here, 'server.mjs')];
  const child = pinned
    ? spawn('taskset', ['-c', '0', process.execPath, ...node], { stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn(process.execPath, node, { stdio: ['pipe', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('server did not start in 20 s')), 20_000);
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) {
        clearTimeout(t);
        resolve(JSON.parse(buf.slice(0, buf.indexOf('\n'))));
      }
    });
    child.once('exit', () => reject(new Error('server exited')));
  });
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
  };
  return { base: `http://127.0.0.1:${info.port}`, keyConfig: info.keyConfig, stop };
}

const fetcher =
  (dispatcher) =>
  (u, init = {}) =>
    fetch(u, { ...init, dispatcher, signal: AbortSignal.timeout(10_000) });

/** The server's CPU counters (GET /cpu: us, user, system µs; voluntary, involuntary switches). */
async function counters(base) {
  return (await fetch(`${base}/cpu`)).json();
}

/** One request of `mode` through `f`; throws on a wrong echo. */
function sender(mode, srv, createNenClient) {
  return async (f) => {
    let res;
    if (mode === 'plain') res = await f(`${srv.base}/plain/echo`, POST);
    else
      res = await createNenClient({
        mode: 'ohttp',
        relay: `${srv.base}/.well-known/ohttp-gateway`,
        keyConfig: srv.keyConfig,
        baseUrl: srv.base,
        fetch: f,
      }).fetch('/api/echo', POST);
    if ((await res.text()) !== BODY) throw new Error(`${mode}: echo mismatch (${res.status})`);
  };
}

async function run(mode, pattern, profDir, createNenClient) {
  const srv = await startServer(profDir);
  try {
    const send = sender(mode, srv, createNenClient);
    const keep = new Agent();
    for (let i = 0; i < WARMUP; i++) await send(fetcher(keep));
    const fresh = pattern === 'fresh' || pattern === 'cold';
    const idle = pattern === 'idle' || pattern === 'cold';
    await sleep(50);
    const c0 = await counters(srv.base);
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    for (let i = 0; i < N; i++) {
      if (idle) await sleep(IDLE_MS);
      const a = fresh ? new Agent() : keep;
      await send(fetcher(a));
      if (fresh) await a.close();
    }
    const toUs = Number(process.hrtime.bigint() / 1000n);
    const c1 = await counters(srv.base);
    const per = Object.fromEntries(Object.keys(c0).map((k) => [k, (c1[k] - c0[k]) / N]));
    await keep.close();
    return { per, window: { fromUs, toUs } };
  } finally {
    await srv.stop();
  }
}

const { createNenClient } = await import('@nen/client');
console.log(
  `N=${N} per pattern, idle ${IDLE_MS} ms, server pinned: ${pinned}, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
for (const mode of MODES) {
  for (const pattern of PATTERNS) {
    const { per } = await run(mode, pattern, null, createNenClient);
    const f = (x, d = 0) => x.toFixed(d).padStart(5);
    let line = `${mode.padEnd(6)} ${pattern.padEnd(6)} server CPU ${f(per.us)} us/request (user ${f(per.user)}, system ${f(per.system)}; switches voluntary ${f(per.voluntary, 2)}, involuntary ${f(per.involuntary, 2)})`;
    if (PROFILE) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nen-cold-prof-'));
      const { window } = await run(mode, pattern, dir, createNenClient);
      const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      const s = summarizeProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), 12, window);
      const per = (ms) => ((ms * 1000) / N).toFixed(0);
      line += `; profiled busy ${per(s.busyMs)} us/request: ${s.components
        .filter((c) => c.component !== 'idle')
        .map((c) => `${c.component} ${per(c.ms)}`)
        .join(', ')}`;
      line += `\n    top: ${s.topFunctions
        .filter((f) => f.component !== 'idle')
        .slice(0, 8)
        .map((f) => `${f.fn} ${per(f.ms)}`)
        .join('; ')}`;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    console.log(line);
  }
}

/** The in-process control (see the header): medians in µs, back to back and after IDLE_MS. */
async function control() {
  const core = await import('@nen/core');
  await core.loadBackend();
  const keys = core.OhttpGatewayKeys.parse(core.generateOhttpKey(1, core.OHTTP_KEM.XWING));
  const content = new TextEncoder().encode(BODY);
  const inner = () => ({
    method: 'POST',
    scheme: 'https',
    authority: 'x',
    path: '/api/echo',
    headers: [['date', new Date().toUTCString()]],
    content,
    trailers: [],
  });
  const answer = core.encodeBhttpResponse({ informational: [], status: 200, headers: [], content, trailers: [] });
  const work = {
    spin: () => {
      let x = 0;
      for (let i = 0; i < 200_000; i++) x = (x * 31 + i) | 0;
      return x;
    },
    json: () => JSON.stringify(JSON.parse(BODY)),
    crypto: (r) => core.decapsulateRequest(keys, r).sealResponse(answer),
  };
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1] * 1000;
  for (const [name, f] of Object.entries(work)) {
    const reqs = Array.from({ length: N }, () => core.encapsulateRequest(keys.configs()[0], core.encodeBhttpRequest(inner())).encapsulatedRequest);
    for (let i = 0; i < WARMUP; i++) f(reqs[i % N]);
    const hot = [];
    const cold = [];
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      f(reqs[i]);
      hot.push(performance.now() - t);
    }
    for (let i = 0; i < N; i++) {
      await sleep(IDLE_MS);
      const t = performance.now();
      f(reqs[i]);
      cold.push(performance.now() - t);
    }
    console.log(
      `control ${name.padEnd(6)} back to back ${med(hot).toFixed(0).padStart(4)} us, after ${IDLE_MS} ms idle ${med(cold).toFixed(0).padStart(4)} us (${(med(cold) / med(hot)).toFixed(2)}x)`,
    );
  }
}
if (process.env.CONTROL !== '0') await control();
