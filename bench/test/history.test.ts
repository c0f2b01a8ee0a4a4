/**
 * run-all.js and the tracked history (bench/results/history/ keeps one line per full run): a
 * partial run (`--only` leaving out a default stage) writes its results, summary.json and report,
 * but no history line unless `--history` forces one (kind 'partial'). The target is a local
 * node:http server that answers 404 to everything, so the regression stage fails within seconds
 * and the run still reaches the writer of summary.json and the history line.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const runAll = resolve(dirname(fileURLToPath(import.meta.url)), '../run-all.js');
let server: Server;
let target = '';
const dirs: string[] = [];

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not here'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs run-all.js with `args` into a fresh results root; its exit code and that root. */
function runBench(args: string[]): Promise<{ status: number | null; out: string; stderr: string }> {
  const out = mkdtempSync(join(tmpdir(), 'nen-bench-history-'));
  dirs.push(out);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('BENCH_') || k === 'TARGET_URL') delete env[k];
  return new Promise((done) => {
    const child = spawn(process.execPath, [runAll, '--target', target, '--out', out, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-20_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, out, stderr });
    });
  });
}

const historyFiles = (out: string) => (existsSync(join(out, 'history')) ? readdirSync(join(out, 'history')) : []);

describe('run-all --only: a partial run and the history', () => {
  it('writes summary.json and the report but no history line', async () => {
    const r = await runBench(['--only', 'regression']);
    expect(r.status, r.stderr).toBe(1); // the 404 target fails the regression stage
    expect(existsSync(join(r.out, 'latest', 'summary.json'))).toBe(true);
    expect(existsSync(join(r.out, 'latest', 'report.html'))).toBe(true);
    expect(historyFiles(r.out)).toEqual([]);
  });

  it('records it with --history, as kind partial', async () => {
    const r = await runBench(['--only', 'regression', '--history']);
    const files = historyFiles(r.out);
    expect(files, r.stderr).toHaveLength(1);
    expect(files[0]).toMatch(/_partial\.json$/);
    const line = JSON.parse(readFileSync(join(r.out, 'history', files[0]!), 'utf8'));
    expect(line).toMatchObject({ kind: 'partial', ok: false });
  });
});
