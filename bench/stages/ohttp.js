/**
 * Stage `ohttp` (issue 23): Oblivious HTTP against plain and session mode, with its own server
 * (../ohttp/server.mjs, a child process on 127.0.0.1, on core 0 when `taskset` exists; this
 * process on core 1) and the development relay (@nen/server createOhttpRelay, in this process).
 *  - Cold first request (no session, a fresh connection each): plain; session mode (handshake +
 *    request); OHTTP direct to the gateway; OHTTP through the relay; and the floor: RFC 9458's
 *    cryptography alone around the plain echo (../ohttp/floor-client.mjs against the server's POST
 *    /floor/ohttp: @nen/core's encapsulation, decapsulation and response seal / open, no Binary
 *    HTTP, Date, replay claim, dispatch or client object), so each run shows how much of OHTTP's
 *    cold figure is the cryptography itself on this machine and how much @nen/client and
 *    @nen/server add (bench/README.md, OHTTP fifteenth pass). Every connection goes
 *    through a delaying TCP proxy adding `RTT_MS` per round trip (RTT_MS / 2 each way), so a
 *    round trip costs what it costs on a network. Median over 60 rounds (env NEN_BENCH_OHTTP_ROUNDS,
 *    at most 200), modes interleaved: with 15 the OHTTP - plain difference of medians had a
 *    sampling sd of 1.1-1.4 ms at load 2-8 (rounds resampled from 30- and 60-round runs), more
 *    than the changes it is read for; 60 halve it (0.4-0.8) for ~6 s more (bench/README.md, OHTTP
 *    twelfth pass). The
 *    proxies run in worker threads (../ohttp/delay-proxy.mjs): in this thread a chunk's delay
 *    started only when the client's JavaScript yielded, so work a client did after writing (the
 *    OHTTP sender's encapsulation ahead) lengthened its round trip (issue 23, tenth pass).
 *    Before the rounds the server is warmed from another process, every mode alike
 *    (../ohttp/warm-server.mjs, 2,000 requests per mode; NEN_BENCH_OHTTP_SERVER_WARMUP=0 skips
 *    it): the figure is a new client's first request to a running server, not a fresh server
 *    process's first ~20 requests (its gateway JS runs ~2x slower until V8 has optimised it).
 *    2,000 suffice here: 8,000 gave the same cold gateway time (twelfth pass: a cold request's
 *    0.8-1.2 ms is cooled caches, not V8's tier; the load stage's 4,000 are for its hot window).
 *  - Throughput, no added delay, keep-alive, `CONCURRENCY` loops for `SECONDS` each: plain vs
 *    OHTTP at 1 KB and 100 KB, and session mode at 1 KB; server CPU per request from the
 *    server's process.cpuUsage() (GET /cpu) over each run.
 * Targets (issue 23): OHTTP cold within 1 ms of plain at equal RTT, one RTT below session mode;
 * 1 KB throughput >= 0.8x plain.
 * Run alone: `node bench/stages/ohttp.js [--json FILE]` (needs the built packages).
 *
 * Pitfalls: bounded (fixed rounds, fixed seconds, every request with a deadline); the server is
 * killed and the proxies / relay closed in `finally`. The client's own crypto (X-Wing encaps,
 * ~ms in JS) is part of each figure, as it is for a user.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { startDelayProxy } from '../ohttp/delay-proxy.mjs';
import { floorFetch } from '../ohttp/floor-client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const RTT_MS = 20;
const ROUNDS = Math.min(200, Math.max(1, Number(process.env.NEN_BENCH_OHTTP_ROUNDS ?? 60) || 60));
const SECONDS = 3;
const CONCURRENCY = 10;
// requests per mode warming the server before the cold rounds (NEN_BENCH_OHTTP_SERVER_WARMUP; 0: none)
const WARM_REQUESTS = Math.min(20_000, Math.max(0, Number(process.env.NEN_BENCH_OHTTP_SERVER_WARMUP ?? 2000) || 0));
const BODY_1K = JSON.stringify({ data: 'x'.repeat(1000) });
const JSON_HEADERS = { 'content-type': 'application/json' };

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function startServer(pinned) {
  const args = [path.join(here, '../ohttp/server.mjs')];
  const child = pinned
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  const ready = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('ohttp bench server did not start in 20 s')), 20_000);
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(t);
        resolve(JSON.parse(buf.slice(0, nl)));
      }
    });
    child.once('exit', (c) => reject(new Error(`ohttp bench server exited ${c}`)));
  });
  return { child, ...ready };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};
const r2 = (x) => (x === null ? null : Math.round(x * 100) / 100);

function fetcher(dispatcher) {
  return (u, init = {}) => fetch(u, { ...init, dispatcher, signal: init.signal ?? AbortSignal.timeout(10_000) });
}

async function serverCpuUs(base) {
  const r = await fetch(`${base}/cpu`);
  return (await r.json()).us;
}

/** The stage's server (pinned when `pinned`), the in-process relay to its gateway and the two delaying proxies. */
async function startTargets(pinned, toNodeHandler, createOhttpRelay) {
  const srv = await startServer(pinned);
  const direct = `http://127.0.0.1:${srv.port}`;
  const relayHandler = createOhttpRelay({ gateway: `${direct}/.well-known/ohttp-gateway` });
  const relayServer = createServer(toNodeHandler((r) => relayHandler(r)));
  relayServer.listen(0, '127.0.0.1');
  await once(relayServer, 'listening');
  // in worker threads on every core: a network does not wait for the client's thread (../ohttp/delay-proxy.mjs)
  const cpus = pinned ? `0-${os.cpus().length - 1}` : null;
  const toServer = await startDelayProxy(srv.port, RTT_MS / 2, { cpus });
  const toRelay = await startDelayProxy(relayServer.address().port, RTT_MS / 2, { cpus });
  const close = async () => {
    await toServer.close();
    await toRelay.close();
    await new Promise((r) => relayServer.close(() => r()));
    relayServer.closeAllConnections?.();
    srv.child.kill('SIGTERM');
  };
  return { srv, direct, toServer, toRelay, close };
}

/**
 * The server warmed from a process of its own (../ohttp/warm-server.mjs: every mode alike, so that
 * the cold figures time a new client against a running server, not a fresh server's first
 * requests; this process's client code stays as cold as before). `n` 0 skips it.
 */
async function warmServer({ srv, direct }, n) {
  if (!n) return;
  const args = [path.join(here, '../ohttp/warm-server.mjs'), JSON.stringify({ direct, pin: srv.pin, keyConfig: srv.keyConfig, n })];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const t = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const [code] = await once(child, 'exit');
  clearTimeout(t);
  if (code !== 0) throw new Error(`ohttp bench: warming the server failed (exit ${code})`);
}

/** Cold first requests: each mode once per round on a fresh connection through the delaying proxies; samples in ms per mode. */
async function coldFirstRequests({ srv, direct, toServer, toRelay }, createNenClient, rounds) {
  const echoed = async (r) => (await r.text()) === BODY_1K;
  const post = { method: 'POST', headers: JSON_HEADERS, body: BODY_1K };
  const once1 = {
    plain: async (f) => echoed(await f(`${toServer.url}/plain/echo`, post)),
    floor: async (f) => (await floorFetch(f, `${toServer.url}/floor/ohttp`, srv.keyConfig, BODY_1K)) === BODY_1K,
    session: async (f) => echoed(await createNenClient({ serverKey: srv.pin, baseUrl: toServer.url, fetch: f }).fetch('/api/echo', post)),
    ohttp: async (f) => {
      const c = createNenClient({ mode: 'ohttp', relay: `${toServer.url}/.well-known/ohttp-gateway`, keyConfig: srv.keyConfig, baseUrl: direct, fetch: f });
      return echoed(await c.fetch('/api/echo', post));
    },
    'ohttp-relay': async (f) => {
      const c = createNenClient({ mode: 'ohttp', relay: toRelay.url, keyConfig: srv.keyConfig, baseUrl: direct, fetch: f });
      return echoed(await c.fetch('/api/echo', post));
    },
  };
  // one warm-up each (JIT, module loading), not counted
  for (const [mode, fn] of Object.entries(once1)) {
    const a = new Agent();
    if (!(await fn(fetcher(a)))) throw new Error(`ohttp bench: ${mode} echo mismatch`);
    await a.close();
  }
  const cold = Object.fromEntries(Object.keys(once1).map((m) => [m, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [mode, fn] of Object.entries(once1)) {
      const a = new Agent();
      const t0 = performance.now();
      const ok = await fn(fetcher(a));
      cold[mode].push(performance.now() - t0);
      await a.close();
      if (!ok) throw new Error(`ohttp bench: ${mode} echo mismatch`);
    }
  }
  return cold;
}

/** `CONCURRENCY` keep-alive loops posting `body` with `send` for `seconds`: req/s, errors, server CPU per request. */
async function closedLoop(direct, send, body, seconds) {
  const cpu0 = await serverCpuUs(direct);
  const end = performance.now() + seconds * 1000;
  let n = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        try {
          const r = await send(body);
          await r.arrayBuffer();
          if (r.status === 200) n++;
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const cpu1 = await serverCpuUs(direct);
  return { rps: Math.round(n / secs), errors, serverCpuUsPerRequest: n ? Math.round((cpu1 - cpu0) / n) : null };
}

/** Throughput without added delay: plain / OHTTP / session at 1 KB, plain / OHTTP at 100 KB, one after the other. */
async function throughputRuns({ srv, direct }, createNenClient, seconds, log) {
  const agent = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  const f = fetcher(agent);
  const ohttpClient = createNenClient({ mode: 'ohttp', relay: `${direct}/.well-known/ohttp-gateway`, keyConfig: srv.keyConfig, baseUrl: direct, fetch: f });
  const sessionClient = createNenClient({ serverKey: srv.pin, baseUrl: direct, fetch: f });
  await sessionClient.handshake();
  const bodies = { '1k': BODY_1K, '100k': JSON.stringify({ data: 'x'.repeat(100_000) }) };
  const senders = {
    plain: (b) => f(`${direct}/plain/echo`, { method: 'POST', headers: JSON_HEADERS, body: b }),
    ohttp: (b) => ohttpClient.fetch('/api/echo', { method: 'POST', headers: JSON_HEADERS, body: b }),
    session: (b) => sessionClient.fetch('/api/echo', { method: 'POST', headers: JSON_HEADERS, body: b }),
  };
  const runs = [
    ['plain', '1k'],
    ['ohttp', '1k'],
    ['session', '1k'],
    ['plain', '100k'],
    ['ohttp', '100k'],
  ];
  const throughput = {};
  for (const [mode, size] of runs) {
    throughput[`${mode}-${size}`] = await closedLoop(direct, senders[mode], bodies[size], seconds);
    log(`[ohttp] ${mode} ${size}: ${JSON.stringify(throughput[`${mode}-${size}`])}`);
  }
  await agent.close();
  return throughput;
}

/** The stage's history figures from the cold medians and the throughput runs. */
function figuresOf(coldMs, throughput) {
  const ratio = (a, b) => (throughput[a] && throughput[b]?.rps ? r2(throughput[a].rps / throughput[b].rps) : null);
  return {
    ohttpColdOverPlainMs: r2(coldMs.ohttp - coldMs.plain),
    ohttpRelayColdOverPlainMs: r2(coldMs['ohttp-relay'] - coldMs.plain),
    // the cryptography alone over plain, and what the client and gateway add over it (see the header)
    ohttpFloorColdOverPlainMs: r2(coldMs.floor - coldMs.plain),
    ohttpColdOverFloorMs: r2(coldMs.ohttp - coldMs.floor),
    sessionColdOverOhttpMs: r2(coldMs.session - coldMs.ohttp),
    ohttpRpsRatio1k: ratio('ohttp-1k', 'plain-1k'),
    ohttpRpsRatio100k: ratio('ohttp-100k', 'plain-100k'),
    ohttpServerCpuUs1k: throughput['ohttp-1k'].serverCpuUsPerRequest,
    sessionServerCpuUs1k: throughput['session-1k'].serverCpuUsPerRequest,
    plainServerCpuUs1k: throughput['plain-1k'].serverCpuUsPerRequest,
  };
}

export async function measure({ log = () => {}, rounds = ROUNDS, seconds = SECONDS } = {}) {
  const { createNenClient } = await import('@nen/client');
  const { createOhttpRelay } = await import('@nen/server/relay');
  const { toNodeHandler } = await import('@nen/server/node');
  const pinned = hasTaskset();
  // this process on core 1 for the stage, then back on every core (run-all.js goes on after it)
  if (pinned) execFileSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
  const targets = await startTargets(pinned, toNodeHandler, createOhttpRelay);
  try {
    await warmServer(targets, WARM_REQUESTS);
    const cold = await coldFirstRequests(targets, createNenClient, rounds);
    const coldMs = Object.fromEntries(Object.entries(cold).map(([k, v]) => [k, r2(median(v))]));
    log(`[ohttp] cold first request, +${RTT_MS} ms RTT (median of ${rounds}): ${JSON.stringify(coldMs)}`);
    const throughput = await throughputRuns(targets, createNenClient, seconds, log);
    return {
      rttMs: RTT_MS,
      serverWarmupPerMode: WARM_REQUESTS,
      rounds,
      seconds,
      concurrency: CONCURRENCY,
      pinned,
      gateway: targets.srv.gateway,
      relay: 'createOhttpRelay (this process, no added delay to the gateway)',
      coldMs,
      coldSamplesMs: Object.fromEntries(Object.entries(cold).map(([k, v]) => [k, v.map(r2)])),
      throughput,
      figures: figuresOf(coldMs, throughput),
      targets: { ohttpColdOverPlainMs: 1, sessionColdOverOhttpMs: RTT_MS, ohttpRpsRatio1k: 0.8 },
    };
  } finally {
    await targets.close();
    if (pinned) execFileSync('taskset', ['-pc', `0-${os.cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
  }
}

/** run-all.js stage entry: self-contained (its own server); ctx for progress and --quick (3 rounds, 0.5 s runs). */
export async function run(ctx) {
  const quick = ctx?.options?.quick === true ? { rounds: 3, seconds: 0.5 } : {};
  const log = ctx?.progress?.log ? (s) => ctx.progress.log(s) : (s) => console.log(s); // once, not both
  const data = await measure({ log, ...quick });
  return { ok: true, data };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const jsonAt = process.argv.indexOf('--json');
  const data = await measure({ log: (s) => console.log(s) });
  console.log(JSON.stringify(data.figures, null, 2));
  if (jsonAt > 0 && process.argv[jsonAt + 1]) fs.writeFileSync(process.argv[jsonAt + 1], `${JSON.stringify(data, null, 2)}\n`);
}
