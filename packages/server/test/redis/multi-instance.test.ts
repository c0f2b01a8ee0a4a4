/**
 * Two Nen server instances (two Node processes running createNen({ store: redisStore() }) from env:
 * REDIS_URL and NEN_SERVER_KEYS, exactly as a deployment configures them) share one real redis-server:
 *  - a session made on one instance works on the other (scale-out, docs/design.md "Scale");
 *  - one encrypted request delivered to both instances at once is accepted exactly once (the
 *    other answers 409): the replay window is shared through one atomic EVALSHA (property 7);
 *  - a session terminated on one instance is gone for both.
 * The real @nen/client drives them over real HTTP; its `fetch` option routes each request to an
 * instance (or to both, for the replay race).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { startRedis, transpileStoreForChild, type RedisServer } from './harness.js';

const SEED = Buffer.from(new Uint8Array(32).map((_, i) => 7 * i + 3)).toString('base64url');

const CHILD = (dir: string) => `
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
const { createNen } = await import(${JSON.stringify(join(dir, 'index.js'))});
const { redisStore } = await import(${JSON.stringify(join(dir, 'redis.js'))});
const nen = createNen({ store: redisStore({ logger: () => {} }), handshakeRateLimit: 0, logger: () => {} });
const echo = nen.withNen(async (_req, _ctx, body) => ({ pid: process.pid, body }));
const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://127.0.0.1:' + server.address().port);
    const h = url.pathname.startsWith('/api/nen/') ? nen.routes[req.method] : url.pathname === '/api/echo' ? echo : undefined;
    if (!h) { res.writeHead(404).end(); return; }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) for (const x of v) headers.append(k, x); else if (v !== undefined) headers.set(k, v);
    }
    const init = { method: req.method, headers };
    if (req.method !== 'GET' && req.method !== 'HEAD') { init.body = Readable.toWeb(req); init.duplex = 'half'; }
    const r = await h(new Request(url, init), { params: Promise.resolve({ action: url.pathname.slice(9) }) });
    const out = {};
    r.headers.forEach((v, k) => { out[k] = v; });
    res.writeHead(r.status, out);
    res.end(Buffer.from(await r.arrayBuffer()));
  } catch (e) {
    console.error('instance error', e);
    if (!res.headersSent) res.writeHead(599);
    res.end();
  }
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

interface Instance {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
}

async function startInstance(dir: string, redisUrl: string): Promise<Instance> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD(dir)], {
    env: { ...process.env, REDIS_URL: redisUrl, NEN_SERVER_KEYS: `k1:${SEED}`, NEN_STORE_KEY: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('instance did not start within 20 s')), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /port (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, child };
}

let redis: RedisServer;
let raw: Redis;
let transpiled: { dir: string; cleanup: () => void };
let a: Instance;
let b: Instance;

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  raw.on('error', () => undefined); // Redis is killed on purpose in the fault test
  transpiled = await transpileStoreForChild();
  [a, b] = await Promise.all([startInstance(transpiled.dir, redis.url), startInstance(transpiled.dir, redis.url)]);
}, 60_000);

afterAll(async () => {
  for (const i of [a, b]) {
    if (i && i.child.exitCode === null) {
      const exited = new Promise((r) => i.child.once('exit', r));
      i.child.kill('SIGKILL');
      await exited;
    }
  }
  transpiled?.cleanup();
  raw?.disconnect();
  await redis?.stop();
});

describe('two createNen instances sharing one Redis', () => {
  it('a session made on one works on the other; a request delivered to both is accepted once', async () => {
    let target = a.url;
    let race: number[][] | null = null;
    const routingFetch: typeof fetch = async (input, init) => {
      const req = new Request(input, init);
      const u = new URL(req.url);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await req.arrayBuffer());
      const send = (base: string) => fetch(base + u.pathname + u.search, { method: req.method, headers: req.headers, body });
      if (race && u.pathname === '/api/echo') {
        // the same bytes to both instances at once
        const rs = await Promise.all([send(a.url), send(b.url)]);
        race.push(rs.map((r) => r.status).sort());
        const winner = rs.find((r) => r.status === 200) ?? rs[0]!;
        for (const r of rs) if (r !== winner) await r.arrayBuffer();
        return winner;
      }
      return send(target);
    };
    const client = createNenClient({ baseUrl: a.url, fetch: routingFetch, unpinned: true });
    const post = async (n: number) => {
      const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
      expect(res.status).toBe(200);
      return (await res.json()) as { pid: number; body: { n: number } };
    };

    await client.handshake();
    const sid = client.session!.id;
    expect(await raw.exists(`nen:{${sid}}:s`)).toBe(1);
    expect(await raw.pttl(`nen:{${sid}}:s`)).toBeGreaterThan(0);

    target = b.url;
    expect(await post(1)).toEqual({ pid: b.pid, body: { n: 1 } });
    target = a.url;
    expect(await post(2)).toEqual({ pid: a.pid, body: { n: 2 } });
    expect(client.session!.id).toBe(sid); // no re-handshake happened

    race = [];
    for (let i = 0; i < 20; i++) expect((await post(100 + i)).body.n).toBe(100 + i);
    expect(race).toHaveLength(20);
    for (const statuses of race) expect(statuses).toEqual([200, 409]);
    race = null;

    // a real session with its replay window stays a compact listpack hash, with a TTL
    const key = `nen:{${sid}}:s`;
    expect(await raw.object('ENCODING', key)).toBe('listpack');
    expect(Number(await raw.call('MEMORY', 'USAGE', key))).toBeLessThan(600);
    expect(await raw.pttl(key)).toBeGreaterThan(0);

    // terminated through A: gone from Redis, so B refuses the old session; the client recovers
    await client.terminate();
    // a confirmed session leaves only a tombstone (its replay window, no secret) for the retry horizon
    expect(await raw.hexists(key, 'k')).toBe(0);
    expect(await raw.pttl(key)).toBeLessThanOrEqual(121_000);
    target = b.url;
    expect((await post(3)).pid).toBe(b.pid);
    expect(client.session!.id).not.toBe(sid);
  }, 60_000);

  it('Redis down: requests fail fast with 503 NEN_STORE_UNAVAILABLE; back up: the client recovers', async () => {
    const client = createNenClient({ baseUrl: a.url, unpinned: true });
    const post = (n: number) => client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
    expect((await post(1)).status).toBe(200);
    await redis.kill();
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const err = await post(2 + i).then(
        (r) => r,
        (e: unknown) => e,
      );
      // the store's default bound is 1 s; the request must not hang on the dead store
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(err).toMatchObject({ code: 'NEN_STORE_UNAVAILABLE', status: 503 });
    }
    await redis.restart();
    // the data set is gone: the old session is unknown (401), the client re-handshakes once and
    // retries; the instances reconnected by themselves
    const deadline = Date.now() + 20_000;
    let res: Response | undefined;
    while (!res && Date.now() < deadline) {
      res = await post(10).catch(() => undefined);
      if (!res) await new Promise((r) => setTimeout(r, 200));
    }
    expect(res?.status).toBe(200);
    expect(((await res!.json()) as { body: { n: number } }).body.n).toBe(10);
  }, 60_000);
});
