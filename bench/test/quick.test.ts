/**
 * The bench's quick mode against a real `next start` of the demo app: builds the app into its own
 * distDir (.next-bench) when that is missing or older than the app's sources and the SDK builds, starts it on a free 127.0.0.1 port with
 * NEN_BENCH_METRICS=1 (in-memory store), runs `node run-all.js --quick` as a child process into a
 * temporary results directory, and stops the server afterwards.
 *
 * What must hold: the regression stage passes (every security check), every stage wrote a valid
 * result envelope (the run uses --keep-going, so this holds apart from the regression verdict),
 * summary.json and report.html exist, and the whole quick run exits 0.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateStageResult } from '../lib/results.js';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(benchDir, '..');
const appDir = join(repoRoot, 'apps/demo');
const nextBin = join(appDir, 'node_modules/next/dist/bin/next');
// Its own build directory (the demo's next.config honours NEXT_DIST_DIR): another `next build` of
// the demo in the same checkout can then never rewrite the files this test's server is serving.
const DIST_DIR = '.next-bench';

let server: ChildProcess | undefined;
let serverLog = '';
let outDir = '';
let run: { status: number | null; stdout: string; stderr: string } = { status: null, stdout: '', stderr: '' };

function newestMtime(path: string, depth = 0): number {
  if (!existsSync(path) || depth > 8) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.next') || name === 'test-results') continue;
    newest = Math.max(newest, newestMtime(join(path, name), depth + 1));
  }
  return newest;
}

function buildIsFresh(): boolean {
  const id = join(appDir, DIST_DIR, 'BUILD_ID');
  if (!existsSync(id)) return false;
  const built = statSync(id).mtimeMs;
  const inputs = ['app', 'components', 'lib', 'next.config.ts', 'package.json'].map((p) => join(appDir, p));
  inputs.push(...['client', 'server', 'core'].map((p) => join(repoRoot, 'packages', p, 'dist')));
  return inputs.every((p) => newestMtime(p) < built);
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) throw new Error(`next start exited early:\n${serverLog}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`next start did not answer within ${timeoutMs} ms:\n${serverLog}`);
}

function runBench(args: string[], env: NodeJS.ProcessEnv): Promise<typeof run> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [join(benchDir, 'run-all.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-200_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    timer.unref();
    child.on('close', (status) => {
      clearTimeout(timer);
      resolveRun({ status, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  // Build when stale; if another `next build` of the app is running (a shared checkout), wait for
  // it and look again rather than fail (bounded: 5 minutes).
  for (let attempt = 0; !buildIsFresh(); attempt++) {
    const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: appDir, encoding: 'utf8', timeout: 300_000, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: DIST_DIR } });
    if (build.status === 0) break;
    const busy = /Another next build process is already running/.test(`${build.stdout}${build.stderr}`);
    if (!busy || attempt >= 60) throw new Error(`next build failed:\n${build.stdout}\n${build.stderr}`);
    await sleep(5000);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: '1', NEN_BENCH_METRICS: '1', NEN_HANDSHAKE_RATE: '100000000', NODE_ENV: 'production' };
  delete env.REDIS_URL;
  server = spawn(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (c: Buffer) => {
    serverLog = (serverLog + c.toString()).slice(-20_000);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  await waitReady(`${base}/api/bench/metrics`, 90_000);
  outDir = mkdtempSync(join(tmpdir(), 'nen-bench-quick-'));
  const benchEnv: NodeJS.ProcessEnv = { ...process.env, TARGET_URL: base };
  for (const k of ['BENCH_LEVELS', 'BENCH_DURATION', 'BENCH_ONLY', 'BENCH_SLICE', 'BENCH_OUT']) delete benchEnv[k];
  // --keep-going: every stage runs even when one fails, so each assertion below stands alone
  run = await runBench(['--quick', '--keep-going', '--out', outDir], benchEnv);
}, 420_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    const exited = await Promise.race([new Promise((r) => server!.once('exit', () => r(true))), sleep(5000).then(() => false)]);
    if (!exited) server.kill('SIGKILL');
  }
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

function stageFile(name: string) {
  const dirs = readdirSync(outDir).filter((d) => d !== 'latest');
  expect(dirs).toHaveLength(1);
  return JSON.parse(readFileSync(join(outDir, dirs[0]!, `${name}.json`), 'utf8'));
}

describe('run-all --quick against next start of the demo app', () => {
  it('passes the regression stage: every security check holds', () => {
    const reg = stageFile('regression');
    validateStageResult(reg);
    const failed = reg.data.checks.filter((c: { pass: boolean }) => !c.pass);
    expect(failed, `failed checks:\n${JSON.stringify(failed, null, 2)}\n--- bench stderr tail:\n${run.stderr.slice(-4000)}`).toEqual([]);
    expect(reg.ok).toBe(true);
    expect(reg.data.total).toBeGreaterThanOrEqual(25);
  });

  it('runs load, payload and scenarios without errors and writes valid results, summary.json, report.html, latest/', () => {
    for (const name of ['regression', 'load', 'payload', 'scenarios', 'memory']) validateStageResult(stageFile(name));
    // every encrypted and plain request of the load, payload and scenario stages came back intact
    for (const name of ['load', 'payload', 'scenarios']) {
      const st = stageFile(name);
      expect(st.ok, `${name}: ${st.error}`).toBe(true);
    }
    const latest = join(outDir, 'latest');
    const summary = JSON.parse(readFileSync(join(latest, 'summary.json'), 'utf8'));
    expect(summary.environment.storeKind).toBe('memory');
    expect(summary.load.length).toBe(3);
    const html = readFileSync(join(latest, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(stageFile('memory').data.available).toBe(true);
  });

  it('the whole quick run succeeds', () => {
    expect(run.status, `${run.stdout}\n--- stderr tail:\n${run.stderr.slice(-4000)}`).toBe(0);
    expect(run.stdout).toContain('enc req/s');
  });
});
