/**
 * Scale-out on a real Redis Cluster (issue 6, item 5): three masters of Debian `redis-server` in
 * cluster mode on loopback ports (the server package's harness, `startCluster()`), and TWO real
 * `next start` instances of the demo with the same NEN_SERVER_KEYS / NEN_STORE_KEY / NEN_OHTTP_KEYS and
 * REDIS_URL = the comma-separated seed list (ioredis Cluster client inside @nen/server and the
 * demo's notes). Checked, with the real pinned @nen/client:
 *
 *  1. a session made on instance A is used on instance B with no new handshake (same session id,
 *     B's handshake counter stays 0): the session lives in the cluster, not in a process;
 *  2. a request sent to A and B at the same moment (the same bytes) is accepted exactly once: one
 *     200, one 409 NEN_REPLAY (protocol property: replay protection holds across instances and
 *     across the cluster's slots, since the replay window is in Redis);
 *  3. the bench's quick mode (`run-all.js --quick --only regression,load`) round-robins across A
 *     and B (TARGET_URL=A,B) and exits 0: every observable security property, including the 8-way
 *     replay race across instances, holds on the cluster-backed deployment.
 *
 * Pitfalls:
 *  - `@nen/client` re-handshakes transparently when a server answers 401 for an unknown session, so
 *    "the session works on B" alone would pass even if B could not see A's session: the test also
 *    asserts the session id is unchanged and B performed no handshake.
 *  - Everything started here (cluster nodes, Next processes, the bench child) is stopped in afterAll
 *    or bounded by a timeout; ports are loopback only; the bench writes to a temp dir removed here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { startCluster, type RedisCluster } from '../../../packages/server/test/redis/harness';
import { keygen, repoRoot, startNext, stopAll, type LiveServer } from './live';

let cluster: RedisCluster | undefined;
let a: LiveServer | undefined;
let b: LiveServer | undefined;
let outDir: string | undefined;

/** NEN_STORE_KEY from the real CLI (`nen keygen` prints one per run). */
function storeKey(): string {
  const out = spawnSyncText(process.execPath, [join(repoRoot, 'packages/server/dist/cli.js'), 'keygen']);
  const key = /NEN_STORE_KEY=(\S+)/.exec(out)?.[1];
  if (!key) throw new Error('nen keygen printed no NEN_STORE_KEY line');
  return key.replace(/^['"]|['"]$/g, '');
}

/** NEN_OHTTP_KEYS from the real CLI: every instance behind one gateway URL serves the same key
 * config (RFC 9458 key consistency), else a request encapsulated to A's key fails on B. */
function ohttpKeys(): string {
  const out = spawnSyncText(process.execPath, [join(repoRoot, 'packages/server/dist/cli.js'), 'keygen', '--ohttp']);
  const keys = /^NEN_OHTTP_KEYS=(.+)$/m.exec(out)?.[1];
  if (!keys) throw new Error('nen keygen --ohttp printed no NEN_OHTTP_KEYS line');
  return keys.replace(/^['"]|['"]$/g, '');
}

function spawnSyncText(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return `${r.stdout}\n${r.stderr}`;
}

beforeAll(async () => {
  cluster = await startCluster(3, 0);
  const keys = keygen();
  const env = {
    // CLUSTER_TEST_B_REDIS_URL (manual check only) points B elsewhere, e.g. a standalone redis:
    // then the cross-instance assertions must fail.
    REDIS_URL: cluster.urls.join(','),
    NEN_STORE_KEY: storeKey(),
    NEN_OHTTP_KEYS: ohttpKeys(),
    NEN_HANDSHAKE_RATE: '100000000',
    NEN_LOG: 'silent',
  };
  [a, b] = await Promise.all([
    startNext({ keys, env }),
    startNext({ keys, env: { ...env, REDIS_URL: process.env.CLUSTER_TEST_B_REDIS_URL ?? env.REDIS_URL } }),
  ]);
}, 240_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await stopAll();
  await cluster?.stop();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('two demo instances on a 3-master Redis Cluster', () => {
  it('runs on the cluster store', async () => {
    const [ma, mb] = await Promise.all([a!.metrics(), b!.metrics()]);
    expect(ma.storeKind).toMatch(/redis/);
    expect(mb.storeKind).toMatch(/redis/);
  });

  it('a session made on instance A works on instance B without a new handshake', async () => {
    let target = a!.url;
    const client = createNenClient({
      baseUrl: a!.url,
      serverKey: a!.pin,
      fetch: (input, init) => {
        const req = new Request(input, init);
        const u = new URL(req.url);
        const t = new URL(target);
        u.host = t.host;
        return fetch(new Request(u, req));
      },
    });
    await client.handshake();
    const id = client.session!.id;
    const hsB = (await b!.metrics()).counters['nen.handshake'] ?? 0;
    target = b!.url;
    // several requests: each one's replay-window entry may hash to a different master
    for (let i = 0; i < 6; i++) {
      const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ i });
    }
    expect(client.session!.id).toBe(id);
    expect((await b!.metrics()).counters['nen.handshake'] ?? 0).toBe(hsB);
  });

  it('the same request sent to A and B concurrently is accepted exactly once', async () => {
    const results: number[][] = [];
    const codes: string[] = [];
    const client = createNenClient({
      baseUrl: a!.url,
      serverKey: a!.pin,
      fetch: async (input, init) => {
        const req = new Request(input, init);
        const u = new URL(req.url);
        if (u.pathname.startsWith('/api/nen/')) return fetch(req);
        const body = new Uint8Array(await req.arrayBuffer());
        const send = (base: string) => {
          const t = new URL(req.url);
          t.host = new URL(base).host;
          return fetch(t, { method: req.method, headers: req.headers, body });
        };
        const both = await Promise.all([send(a!.url), send(b!.url)]);
        results.push(both.map((r) => r.status).sort());
        const ok = both.find((r) => r.status === 200);
        for (const r of both) if (r !== ok) codes.push(r.headers.get('nen-error') ?? '');
        for (const r of both) if (r !== ok) await r.arrayBuffer();
        return ok ?? both[0]!;
      },
    });
    for (let i = 0; i < 8; i++) {
      const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ race: i }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ race: i });
    }
    expect(results).toEqual(Array.from({ length: 8 }, () => [200, 409]));
    expect(codes).toEqual(Array.from({ length: 8 }, () => 'NEN_REPLAY'));
  });

  it("the bench's quick mode (regression, load) passes round-robin across both instances", async () => {
    outDir = mkdtempSync(join(tmpdir(), 'nen-cluster-bench-'));
    const child = spawn(process.execPath, ['bench/run-all.js', '--quick', '--only', 'regression,load', '--out', outDir], {
      cwd: repoRoot,
      env: { ...process.env, TARGET_URL: `${a!.url},${b!.url}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    const keep = (d: Buffer) => {
      text = (text + d.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    timer.unref();
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    clearTimeout(timer);
    console.log(`[cluster] bench --quick across ${a!.url},${b!.url}: exit ${code}\n${text.split('\n').slice(-25).join('\n')}`);
    expect(code, text).toBe(0);
    const [ma, mb] = await Promise.all([a!.metrics(), b!.metrics()]);
    expect(a!.alive() && b!.alive()).toBe(true);
    // both instances served bench traffic
    expect(Object.values(ma.counters).reduce((s, n) => s + n, 0)).toBeGreaterThan(0);
    expect(Object.values(mb.counters).reduce((s, n) => s + n, 0)).toBeGreaterThan(0);
  }, 180_000);
});
