#!/usr/bin/env node
/**
 * Measures the Redis session store on loopback (a script, not a test: figures are reported,
 * never asserted). Needs the built package (`pnpm --filter @nen/server build`, or turbo build).
 *
 *   node packages/server/test/redis/measure.mjs            # starts its own redis-server
 *   REDIS_URL=redis://127.0.0.1:6379 node ... measure.mjs  # or uses yours (keys under nen-measure:)
 *
 * Reports: Redis commands per commit (from INFO commandstats), bytes per session (MEMORY USAGE
 * of the session hash before and after its replay window exists, and used_memory growth per
 * session over 10k sessions), commit / get latency p50/p99 over 10k sequential operations, and
 * commit throughput with 50 in flight. Prints one JSON object.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { redisStore } from '../../dist/stores/redis.js';

const N = Number(process.env.N ?? 10_000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

let child;
let dir;
let url = process.env.REDIS_URL;
if (!url) {
  const port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'nen-measure-'));
  child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  url = `redis://127.0.0.1:${port}`;
}
const raw = new Redis(url, { maxRetriesPerRequest: 1 });
raw.on('error', () => undefined); // connection refused until redis-server is up
for (let i = 0; i < 100; i++) {
  try {
    await raw.ping();
    break;
  } catch {
    await sleep(50);
  }
}

const pct = (arr, p) => {
  const s = [...arr].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x) => Math.round(x * 1000) / 1000;

const prefix = 'nen-measure:';
const wrapKey = crypto.getRandomValues(new Uint8Array(32));
const store = redisStore({ url, wrapKey, keyPrefix: prefix });
const now = () => Date.now();
const session = (id) => ({
  id,
  secret: crypto.getRandomValues(new Uint8Array(64)),
  meta: { k: 'x1', kem: 25722 },
  epoch: 0,
  createdAt: now(),
  expiresAt: now() + 3_600_000,
  idleTimeoutMs: 1_800_000,
  lastSeenAt: now(),
});

try {
  // bytes per session
  const s0 = session('measureSession0000000001');
  await store.create(s0);
  const key0 = `${prefix}{${s0.id}}:s`;
  const bytesFresh = Number(await raw.call('MEMORY', 'USAGE', key0));
  await store.commit(s0.id, 1n, now());
  const bytesWithWindow = Number(await raw.call('MEMORY', 'USAGE', key0));
  const encoding = await raw.object('ENCODING', key0);

  // commands per commit
  await raw.config('RESETSTAT');
  for (let i = 2n; i < 102n; i++) await store.commit(s0.id, i, now());
  const stats = (await raw.info('commandstats')).split('\n').filter((l) => l.startsWith('cmdstat_'));
  const calls = Object.fromEntries(stats.map((l) => [l.slice(8, l.indexOf(':')), Number(/calls=(\d+)/.exec(l)[1])]));

  // latency, sequential
  const commitUs = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const r = await store.commit(s0.id, BigInt(1000 + i), now());
    commitUs.push((performance.now() - t) * 1000);
    if (!r.ok) throw new Error('commit rejected');
  }
  const getUs = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await store.get(s0.id, now());
    getUs.push((performance.now() - t) * 1000);
  }
  // throughput, 50 in flight on one connection
  let next = 1_000_000n;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      for (let i = 0; i < N / 50; i++) await store.commit(s0.id, next++, now());
    }),
  );
  const commitsPerSecond = N / ((performance.now() - t0) / 1000);
  // Redis-side CPU per commit script (what bounds one Redis core), from commandstats
  const evalshaStat = (await raw.info('commandstats')).split('\n').find((l) => l.startsWith('cmdstat_evalsha:')) ?? '';
  const redisUsecPerCommit = Number(/usec_per_call=([\d.]+)/.exec(evalshaStat)?.[1] ?? NaN);

  // used_memory growth per session over N sessions (with windows)
  const mem = async () => Number(/used_memory:(\d+)/.exec(await raw.info('memory'))[1]);
  const before = await mem();
  const ids = Array.from({ length: N }, (_, i) => `measureBulk${String(i).padStart(10, '0')}`);
  for (let i = 0; i < N; i += 100) {
    await Promise.all(
      ids.slice(i, i + 100).map(async (id) => {
        await store.create(session(id));
        await store.commit(id, 1n, now());
      }),
    );
  }
  const after = await mem();
  for (let i = 0; i < N; i += 500) await raw.del(...ids.slice(i, i + 500).map((id) => `${prefix}{${id}}:s`));
  await raw.del(key0);

  console.log(
    JSON.stringify(
      {
        environment: {
          node: process.version,
          cpus: cpus().length,
          cpu: cpus()[0]?.model,
          redis: (await raw.info('server')).match(/redis_version:(\S+)/)?.[1],
          loopback: true,
        },
        commandsPer100Commits: calls,
        bytesPerSession: {
          memoryUsageFresh: bytesFresh,
          memoryUsageWithWindow: bytesWithWindow,
          encoding,
          usedMemoryGrowthPerSession: Math.round((after - before) / N),
        },
        commitLatencyUs: { n: N, p50: round(pct(commitUs, 50)), p99: round(pct(commitUs, 99)), mean: round(commitUs.reduce((a, b) => a + b, 0) / N) },
        getLatencyUs: { n: N, p50: round(pct(getUs, 50)), p99: round(pct(getUs, 99)) },
        commitThroughput50InFlight: Math.round(commitsPerSecond),
        redisUsecPerCommit,
        commitsPerRedisCoreSecond: Math.round(1e6 / redisUsecPerCommit),
      },
      null,
      2,
    ),
  );
} finally {
  await store.close();
  raw.disconnect();
  if (child) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
