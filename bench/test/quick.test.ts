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
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateStageResult } from '../lib/results.js';
// The demo's live-server harness (build when stale, waiting for a concurrent build; free port;
// bounded start and stop): one harness for every suite that runs `next start` of the demo.
import { startNext, suiteDistDir, type LiveServer } from '../../apps/demo/test/live';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Its own build directory (the demo's next.config honours NEXT_DIST_DIR): another `next build` of
// the demo in the same checkout can then never rewrite the files this test's server is serving.
// Under CI and the whole suite (one package at a time) it is the build stage's `.next`.
const DIST_DIR = suiteDistDir('.next-bench');

let server: LiveServer | undefined;
let outDir = '';
let run: { status: number | null; stdout: string; stderr: string } = { status: null, stdout: '', stderr: '' };

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
  // Built into DIST_DIR when stale; no server key (the app generates one at start and publishes
  // its pin at /api/nen/keys, which the regression stage reads); in-memory store.
  server = await startNext({ distDir: DIST_DIR, keys: null, env: { NEN_HANDSHAKE_RATE: '100000000', NODE_ENV: 'production' }, readyTimeoutMs: 90_000 });
  const base = server.url;
  outDir = mkdtempSync(join(tmpdir(), 'nen-bench-quick-'));
  const benchEnv: NodeJS.ProcessEnv = { ...process.env, TARGET_URL: base };
  for (const k of ['BENCH_LEVELS', 'BENCH_DURATION', 'BENCH_ONLY', 'BENCH_SLICE', 'BENCH_OUT']) delete benchEnv[k];
  // --keep-going: every stage runs even when one fails, so each assertion below stands alone
  run = await runBench(['--quick', '--keep-going', '--out', outDir], benchEnv);
}, 420_000);

afterAll(async () => {
  await server?.stop();
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
    expect(html).toContain('id="nen-charts"');
    expect(html).toMatch(/data-chart="\d+"/);
    // the load variants and memory by mode ran (pinned when taskset and 2 cores are there)
    expect(summary.variants.map((v: { id: string }) => v.id)).toEqual([
      '1k-off-shared',
      '1k-off-pinned',
      '1k-realistic-shared',
      '1k-realistic-pinned',
      '100k-off-shared',
      '100k-off-pinned',
      '100k-realistic-shared',
      '100k-realistic-pinned',
      'handshake-shared',
      'handshake-pinned',
      'ohttp-1k-pinned',
    ]);
    // handshakes (pinned to the key from GET /api/nen/keys) against the plain echo, with server CPU
    const hs = summary.variants.find((v: { id: string }) => v.id === 'handshake-shared');
    expect(hs.encryptedRps).toBeGreaterThan(0);
    expect(hs.note).toContain('pinned handshake');
    expect(summary.figures).toHaveProperty('handshakesVsPlainPinned');
    // OHTTP to the demo's own gateway vs plain on the pinned server (issue 23), with server CPU
    const oh = summary.variants.find((v: { id: string }) => v.id === 'ohttp-1k-pinned');
    expect(oh.encryptedRps).toBeGreaterThan(0);
    expect(oh.errors).toBe(0);
    expect(oh.note).toContain('OHTTP');
    expect(summary.figures).toHaveProperty('ohttpRpsRatio1kPinned');
    const realistic = summary.variants.find((v: { id: string }) => v.id === '1k-realistic-shared');
    expect(realistic.bytes.plainResponse).toBeLessThan(1024); // Next gzipped the plain route
    expect(realistic.bytes.encryptedResponse).toBeLessThan(1024); // compressed inside the envelope
    expect(summary.memoryAttribution.windows.map((w: { mode: string }) => w.mode)).toEqual(['plain', 'encrypted']);
    expect(summary.figures).toHaveProperty('rpsRatio1k');
    expect(summary.budgets.limits.length).toBeGreaterThan(5);
    // quick runs write no history line
    expect(readdirSync(outDir)).not.toContain('history');
    expect(stageFile('memory').data.available).toBe(true);
  });

  it('ohttp (a default stage): cold first request for all four modes and the floor, throughput, its figures in summary.json and its report section', () => {
    const st = stageFile('ohttp');
    expect(st.ok, `ohttp: ${st.error}`).toBe(true);
    expect(Object.keys(st.data.coldMs).sort()).toEqual(['floor', 'ohttp', 'ohttp-relay', 'plain', 'session']);
    expect(typeof st.data.figures.ohttpFloorColdOverPlainMs).toBe('number');
    for (const k of ['plain-1k', 'ohttp-1k', 'session-1k', 'plain-100k', 'ohttp-100k']) expect(st.data.throughput[k].rps).toBeGreaterThan(0);
    const latest = join(outDir, 'latest');
    const summary = JSON.parse(readFileSync(join(latest, 'summary.json'), 'utf8'));
    expect(summary.ohttp.figures.ohttpRpsRatio1k).toBeGreaterThan(0);
    expect(summary.figures).toHaveProperty('ohttpServerCpuUs1k');
    expect(summary.figures).toHaveProperty('ohttpFloorColdOverPlainMs');
    const html = readFileSync(join(latest, 'report.html'), 'utf8');
    expect(html).toContain('id="ohttp"');
    expect(html).toContain('floor cold - plain (ms)');
  });

  it('cold-browser: real Chromium loads the page; the default client fetches no .wasm and stays within the weight budget', () => {
    const cold = stageFile('cold-browser');
    validateStageResult(cold);
    expect(cold.ok, `cold-browser: ${cold.error}`).toBe(true);
    const { modes, weight } = cold.data;
    for (const m of ['plain', 'nen', 'nen-wasm']) expect(modes[m].loads, m).toBe(2);
    expect(modes.nen.wasmBytes).toBe(0);
    expect(modes['nen-wasm'].wasmBytes).toBeGreaterThan(50_000); // the module as transferred (79.9 KB gzip since the unroll budget)
    expect(weight.defaultInitial.gzip).toBeLessThanOrEqual(40_000);
    expect(readFileSync(join(outDir, 'latest', 'report.html'), 'utf8')).toContain('id="browser"');
  });

  it('the whole quick run succeeds', () => {
    expect(run.status, `${run.stdout}\n--- stderr tail:\n${run.stderr.slice(-4000)}`).toBe(0);
    expect(run.stdout).toContain('enc req/s');
  });
});
