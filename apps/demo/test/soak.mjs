#!/usr/bin/env node
/**
 * Soak run (docs/design.md "Performance targets": server memory over 100 k requests on live sessions must
 * be flat, ≤ +20 MB after warm-up): N encrypted requests at concurrency C against `next start` of
 * the demo, through the real pinned @nen/client, on a fixed set of live sessions. It samples the
 * server's bench metrics route (NEN_BENCH_METRICS=1: rss, heapUsed, sessions) along the way and
 * prints the RSS curve; every response is checked (status 200 and the echoed body), so "zero
 * errors" means zero failed or wrong answers.
 *
 * Usage (from the repo root, after `pnpm build`):
 *   node apps/demo/test/soak.mjs                          # 100 000 requests, concurrency 50, own server
 *   node apps/demo/test/soak.mjs --requests 5000 --concurrency 50
 *   node apps/demo/test/soak.mjs --url http://127.0.0.1:3000 --pin 'kid:base64url…'   # existing deployment
 *   options: --clients 10 (sessions), --body 1024 (bytes of JSON), --samples 40, --json (summary as JSON)
 * Without --url it runs `next build` when .next is missing, generates a key with `nen keygen`, starts
 * `next start` on a free 127.0.0.1 port with NEN_BENCH_METRICS=1 and stops it at the end.
 * Exit code 0 when there were zero errors and, for runs of 50 000 requests or more, RSS growth after
 * warm-up (first 10 %) stayed within 20 MB; 1 otherwise.
 *
 * Pitfalls: the load generator shares the 2-core machine with the server, so throughput figures
 * are indicative only; RSS is sampled, so a short spike between samples is not seen.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createNenClient } from '@nen/client';

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(appDir, '../..');
const nextBin = join(appDir, 'node_modules/next/dist/bin/next');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms).unref());

const { values: opt } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '50' },
    clients: { type: 'string', default: '10' },
    body: { type: 'string', default: '1024' },
    samples: { type: 'string', default: '40' },
    url: { type: 'string' },
    pin: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const total = Math.max(1, Number(opt.requests));
const concurrency = Math.max(1, Number(opt.concurrency));
const nClients = Math.max(1, Math.min(concurrency, Number(opt.clients)));
const bodySize = Math.max(16, Number(opt.body));
const samples = Math.max(2, Number(opt.samples));
const log = (s) => process.stderr.write(`${s}\n`);

async function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => res(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function ownServer() {
  if (!existsSync(join(appDir, '.next/BUILD_ID'))) {
    log('[soak] next build …');
    const b = spawnSync(process.execPath, [nextBin, 'build'], { cwd: appDir, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    if (b.status !== 0) throw new Error('next build failed');
  }
  const kg = spawnSync(process.execPath, [join(repoRoot, 'packages/server/dist/cli.js'), 'keygen'], { encoding: 'utf8' });
  const text = `${kg.stdout}\n${kg.stderr}`;
  const keys = /NEN_SERVER_KEYS=(\S+)/.exec(text)?.[1];
  const pin = /NEN_SERVER_PIN=(\S+)/.exec(text)?.[1] ?? /NEXT_PUBLIC_NEN_SERVER_KEY=(\S+)/.exec(text)?.[1];
  if (!keys || !pin) throw new Error('nen keygen output not understood');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEN_SERVER_KEYS: keys, NEN_BENCH_METRICS: '1', NEN_LOG: 'error' };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: appDir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('next start exited early');
    try {
      const r = await fetch(`${url}/api/bench/metrics`, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      if (r.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('next start did not come up within 60 s');
    await sleep(200);
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    t.unref();
    await exited;
    clearTimeout(t);
  };
  return { url, pin, stop };
}

async function metrics(url) {
  const r = await fetch(`${url}/api/bench/metrics`, { signal: AbortSignal.timeout(5000) });
  if (!r.ok) throw new Error(`metrics route answered ${r.status}: start the server with NEN_BENCH_METRICS=1`);
  return r.json();
}

/** The run's summary: throughput, latency quantiles, the RSS curve and its growth after warm-up (the first 10 %). */
function summarize({ url, curve, latencies, errors, errorKinds, elapsed, end, sameSessions }) {
  const warm = curve.find((p) => p.done >= total * 0.1) ?? curve[0];
  const after = curve.filter((p) => p.done >= warm.done);
  const maxAfter = Math.max(...after.map((p) => p.rss));
  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return {
    url: opt.url ? url : 'own next start',
    requests: total,
    concurrency,
    sessions: nClients,
    bodyBytes: bodySize,
    errors,
    errorKinds: Object.fromEntries(errorKinds),
    sameSessions,
    seconds: Number(elapsed.toFixed(1)),
    reqPerSec: Number((total / elapsed).toFixed(0)),
    latencyMs: { p50: Number(q(0.5).toFixed(2)), p99: Number(q(0.99).toFixed(2)), max: Number(sorted[sorted.length - 1].toFixed(2)) },
    rssMiB: {
      start: +(curve[0].rss / 2 ** 20).toFixed(1),
      afterWarmup: +(warm.rss / 2 ** 20).toFixed(1),
      maxAfterWarmup: +(maxAfter / 2 ** 20).toFixed(1),
      end: +(end.rss / 2 ** 20).toFixed(1),
    },
    rssGrowthAfterWarmupMiB: +((maxAfter - warm.rss) / 2 ** 20).toFixed(1),
    serverSessions: end.sessions,
    curve: curve.map((p) => ({ done: p.done, rssMiB: +(p.rss / 2 ** 20).toFixed(1), heapMiB: +(p.heapUsed / 2 ** 20).toFixed(1), sessions: p.sessions })),
  };
}

/** Prints the summary: one JSON line with --json, else three log lines. */
function report(summary) {
  if (opt.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    log(
      `[soak] ${total} requests, concurrency ${concurrency}, ${nClients} sessions: ${summary.reqPerSec} req/s, p50 ${summary.latencyMs.p50} ms, p99 ${summary.latencyMs.p99} ms, errors ${summary.errors}`,
    );
    log(
      `[soak] RSS MiB: start ${summary.rssMiB.start}, after warm-up ${summary.rssMiB.afterWarmup}, max after warm-up ${summary.rssMiB.maxAfterWarmup}, end ${summary.rssMiB.end} (growth ${summary.rssGrowthAfterWarmupMiB})`,
    );
    log(`[soak] curve (requests: rss MiB): ${summary.curve.map((p) => `${p.done}:${p.rssMiB}`).join(' ')}`);
  }
}

async function main() {
  const own = opt.url ? null : await ownServer();
  const url = opt.url ?? own.url;
  const pin = opt.pin ?? own?.pin;
  const stopOwn = async () => own?.stop();
  process.once('SIGINT', () => void stopOwn().then(() => process.exit(130)));
  try {
    const clients = Array.from({ length: nClients }, () => createNenClient({ baseUrl: url, ...(pin ? { serverKey: pin } : {}) }));
    await Promise.all(clients.map((c) => c.handshake()));
    const sessionIds = clients.map((c) => c.session?.id);
    const pad = 'p'.repeat(Math.max(0, bodySize - 40));
    const curve = [];
    const sampleEvery = Math.max(1, Math.floor(total / samples));
    const m0 = await metrics(url);
    curve.push({ done: 0, rss: m0.rss, heapUsed: m0.heapUsed, sessions: m0.sessions });
    let next = 0;
    let done = 0;
    let errors = 0;
    const errorKinds = new Map();
    let sampling = Promise.resolve();
    const t0 = performance.now();
    const latencies = new Float64Array(total);
    async function worker(w) {
      const client = clients[w % nClients];
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const s = performance.now();
        try {
          const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"i":${i},"pad":"${pad}"}` });
          const j = await res.json();
          if (res.status !== 200 || j.i !== i) throw new Error(`wrong answer (status ${res.status})`);
        } catch (e) {
          errors++;
          const k = e?.code ?? e?.message ?? String(e);
          errorKinds.set(k, (errorKinds.get(k) ?? 0) + 1);
        }
        latencies[i] = performance.now() - s;
        done++;
        if (done % sampleEvery === 0) {
          const at = done;
          sampling = sampling.then(async () => {
            let m;
            try {
              m = await metrics(url);
            } catch (e) {
              log(`[soak] metrics sample at ${at} failed: ${e?.message ?? e}`);
              return;
            }
            curve.push({ done: at, rss: m.rss, heapUsed: m.heapUsed, sessions: m.sessions });
            if (at % (sampleEvery * Math.max(1, Math.floor(samples / 10))) === 0) {
              log(
                `[soak] ${at}/${total} req, ${(at / ((performance.now() - t0) / 1000)).toFixed(0)} req/s, errors ${errors}${errors ? ` ${JSON.stringify(Object.fromEntries(errorKinds))}` : ''}, rss ${(m.rss / 2 ** 20).toFixed(1)} MiB, heap ${(m.heapUsed / 2 ** 20).toFixed(1)} MiB, sessions ${m.sessions}`,
              );
            }
          });
        }
      }
    }
    await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
    await sampling;
    const elapsed = (performance.now() - t0) / 1000;
    const mEnd = await metrics(url);
    curve.push({ done: total, rss: mEnd.rss, heapUsed: mEnd.heapUsed, sessions: mEnd.sessions });
    const summary = summarize({
      url,
      curve,
      latencies,
      errors,
      errorKinds,
      elapsed,
      end: mEnd,
      sameSessions: clients.every((c, i) => c.session?.id === sessionIds[i]),
    });
    report(summary);
    const flatOk = total < 50_000 || summary.rssGrowthAfterWarmupMiB <= 20;
    process.exitCode = errors === 0 && flatOk ? 0 : 1;
  } finally {
    await stopOwn();
  }
}

main().catch((e) => {
  log(`[soak] failed: ${e?.stack ?? e}`);
  process.exitCode = 1;
});
