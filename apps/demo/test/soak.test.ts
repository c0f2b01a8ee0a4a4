/**
 * Quick soak (the default test run): 5 000 encrypted requests at concurrency 50 on 10 live sessions
 * against `next start`, through test/soak.mjs (the same driver as the long form,
 * `node apps/demo/test/soak.mjs` = 100 000 requests). Zero errors, the sessions never change (no
 * re-handshake), the server holds exactly those sessions, and the RSS curve from the bench metrics
 * route is printed. Memory flatness (≤ +20 MB after warm-up) is judged by the long form only: 5 000
 * requests are mostly warm-up, so here only a loose sanity bound is checked.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDir, startNext, stopAll, type LiveServer } from './live';

let server: LiveServer;

beforeAll(async () => {
  server = await startNext({ env: { NEN_LOG: 'error' } });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await stopAll();
});

interface Summary {
  requests: number;
  errors: number;
  errorKinds: Record<string, number>;
  sameSessions: boolean;
  reqPerSec: number;
  latencyMs: { p50: number; p99: number; max: number };
  rssMiB: { start: number; afterWarmup: number; maxAfterWarmup: number; end: number };
  rssGrowthAfterWarmupMiB: number;
  serverSessions: number | null;
  curve: Array<{ done: number; rssMiB: number }>;
}

function runSoak(args: string[]): Promise<{ code: number | null; summary: Summary }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(appDir, 'test/soak.mjs'), ...args], { cwd: appDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-5000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    timer.unref();
    child.once('exit', (code) => {
      clearTimeout(timer);
      try {
        resolve({ code, summary: JSON.parse(out.trim().split('\n').pop() ?? '') as Summary });
      } catch {
        reject(new Error(`soak.mjs produced no summary (exit ${code}):\n${err}`));
      }
    });
  });
}

describe('soak (quick form)', () => {
  it('5 000 requests at concurrency 50 on live sessions: zero errors, same sessions, bounded memory', async () => {
    const { code, summary } = await runSoak([
      '--url',
      server.url,
      '--pin',
      server.pin,
      '--requests',
      '5000',
      '--concurrency',
      '50',
      '--clients',
      '10',
      '--samples',
      '10',
      '--json',
    ]);
    console.log(
      `[soak] ${summary.requests} req: ${summary.reqPerSec} req/s, p50 ${summary.latencyMs.p50} ms, p99 ${summary.latencyMs.p99} ms, errors ${summary.errors}; RSS MiB ${summary.curve.map((p) => `${p.done}:${p.rssMiB}`).join(' ')}`,
    );
    expect(summary.errorKinds).toEqual({});
    expect(summary.errors).toBe(0);
    expect(code).toBe(0);
    expect(summary.sameSessions).toBe(true);
    expect(summary.serverSessions).toBe(10);
    expect(summary.rssGrowthAfterWarmupMiB).toBeLessThan(150);
    expect(server.alive()).toBe(true);
  }, 180_000);
});
