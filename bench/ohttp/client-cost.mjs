/**
 * The OHTTP client's own CPU per request (issue 23: in the pinned demo runs the load generator,
 * @nen/client in OHTTP mode, spent 367-424 µs of CPU per OHTTP request against 124-145 plain and
 * bounded the req/s as much as the server). The stage's server (./server.mjs) pinned to core 0;
 * per (build, mode) a fresh worker process on core 1 (this script with `--worker`) runs a warm-up
 * and then N 1 KB echo requests at concurrency C through the global fetch: `plain` to
 * POST /plain/echo, `ohttp` through `createNenClient({ mode: 'ohttp' })` to the gateway. Each
 * worker reports its CPU per request (process.cpuUsage over the measured requests: user + system)
 * and req/s, and the server's CPU per request (GET /cpu). Builds and modes alternate, ROUNDS
 * rounds; medians printed per (build, mode), with OHTTP - plain.
 *
 * Run: `node bench/ohttp/client-cost.mjs [ROOT...]` (ROOT: a tree with `packages/client/dist`
 * and its @nen/core resolvable, default `.`; run it under the Node you want to measure: the
 * workers use process.execPath). Env N (2000), C (10), ROUNDS (3), MODES (plain,ohttp), PROFILE=1:
 * each worker under `--cpu-prof` (100 µs), its samples inside the measured window grouped
 * by component and top functions (../profile-summary.js), in µs per request.
 * Loopback only, fixed counts, every process stopped.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { summarizeProfile } from '../profile-summary.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.N ?? 2000);
const C = Number(process.env.C ?? 10);
const BODY = JSON.stringify({ data: 'x'.repeat(1000) });
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function worker([root, mode, base, keyConfig]) {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY };
  let op;
  if (mode === 'plain') {
    op = async () => {
      const res = await fetch(`${base}/plain/echo`, init);
      if ((await res.text()) !== BODY) throw new Error('plain echo mismatch');
    };
  } else {
    const { createNenClient } = await import(pathToFileURL(path.join(root, 'packages/client/dist/index.js')).href);
    const client = createNenClient({ mode: 'ohttp', relay: `${base}/.well-known/ohttp-gateway`, keyConfig, baseUrl: base });
    op = async () => {
      const res = await client.fetch('/api/echo', init);
      if (res.status !== 200 || (await res.text()) !== BODY) throw new Error(`ohttp echo mismatch (${res.status})`);
    };
  }
  const run = async (n) => {
    let left = n;
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (left-- > 0) await op();
      }),
    );
  };
  const serverCpu = async () => (await (await fetch(`${base}/cpu`)).json()).us;
  await run(Math.min(N, 500));
  const s0 = await serverCpu();
  const c0 = process.cpuUsage();
  const t0 = nowUs();
  await run(N);
  const t1 = nowUs();
  const c1 = process.cpuUsage(c0);
  const s1 = await serverCpu();
  const out = { clientUs: (c1.user + c1.system) / N, rps: N / ((t1 - t0) / 1e6), serverUs: (s1 - s0) / N, fromUs: t0, toUs: t1 };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

function pinned(core, args) {
  try {
    execFileSync('taskset', ['-c', String(core), 'true'], { stdio: 'ignore' });
    return os.availableParallelism() > 1 ? ['taskset', ['-c', String(core), ...args]] : [args[0], args.slice(1)];
  } catch {
    return [args[0], args.slice(1)];
  }
}

function collect(child) {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
    });
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(buf.trim().split('\n').pop())) : reject(new Error(`worker exited ${code}`))));
  });
}

async function main() {
  const roots = (process.argv.slice(2).length ? process.argv.slice(2) : ['.']).map((r) => path.resolve(r));
  const rounds = Number(process.env.ROUNDS ?? 3);
  const modes = (process.env.MODES ?? 'plain,ohttp').split(',');
  const profile = process.env.PROFILE === '1';
  const [cmd, args] = pinned(0, [process.execPath, path.join(here, 'server.mjs')]);
  const server = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('server did not start in 20 s')), 20_000);
    let buf = '';
    server.stdout.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) {
        clearTimeout(t);
        resolve(JSON.parse(buf.slice(0, buf.indexOf('\n'))));
      }
    });
  });
  const base = `http://127.0.0.1:${info.port}`;
  const results = new Map();
  const profDir = profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'nen-client-cost-')) : null;
  try {
    for (let r = 0; r < rounds; r++)
      for (const root of r % 2 ? [...roots].reverse() : roots)
        for (const mode of modes) {
          const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=100'] : [];
          const [wc, wa] = pinned(1, [process.execPath, ...prof, fileURLToPath(import.meta.url), '--worker', root, mode, base, info.keyConfig]);
          const before = profDir ? new Set(fs.readdirSync(profDir)) : null;
          const res = await collect(spawn(wc, wa, { stdio: ['ignore', 'pipe', 'inherit'] }));
          const key = `${root} ${mode}`;
          if (!results.has(key)) results.set(key, { client: [], rps: [], server: [], profiles: [] });
          const e = results.get(key);
          e.client.push(res.clientUs);
          e.rps.push(res.rps);
          e.server.push(res.serverUs);
          if (before) for (const f of fs.readdirSync(profDir)) if (!before.has(f)) e.profiles.push({ file: path.join(profDir, f), res });
        }
  } finally {
    server.kill('SIGTERM');
    await Promise.race([new Promise((r) => server.once('exit', r)), sleep(5000)]);
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log(
    `${process.version} (OpenSSL ${process.versions.openssl}), N=${N} c=${C}, ${rounds} rounds, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  for (const root of roots) {
    const plain = results.get(`${root} plain`);
    for (const mode of modes) {
      const e = results.get(`${root} ${mode}`);
      const over = mode !== 'plain' && plain ? ` (+${(med(e.client) - med(plain.client)).toFixed(0)} over plain)` : '';
      console.log(
        `${root} ${mode.padEnd(6)} client CPU ${med(e.client).toFixed(0)} us/req${over} [${e.client.map((x) => x.toFixed(0)).join(' ')}]  ${med(e.rps).toFixed(0)} req/s  server ${med(e.server).toFixed(0)} us/req`,
      );
      for (const { file, res } of e.profiles) {
        const s = summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8')), Number(process.env.TOP ?? 15), { fromUs: res.fromUs, toUs: res.toUs });
        const per = (ms) => ((ms * 1000) / N).toFixed(0);
        if (process.env.KEEP === '1') console.log(`  ${file} window ${res.fromUs} ${res.toUs}`);
        console.log(`  profile: ${s.components.map((c) => `${c.component} ${per(c.ms)}`).join(', ')} (us/req)`);
        for (const f of s.topFunctions) console.log(`    ${per(f.ms).padStart(4)} us  [${f.component}] ${f.fn}`);
      }
    }
  }
  if (profDir && process.env.KEEP !== '1') fs.rmSync(profDir, { recursive: true, force: true });
  else if (profDir) console.log(`profiles kept in ${profDir}`);
}

if (process.argv[2] === '--worker') await worker(process.argv.slice(3));
else await main();
