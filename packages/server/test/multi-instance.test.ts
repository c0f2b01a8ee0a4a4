/**
 * Two Nen server instances sharing one real redis-server (configured from the environment as in
 * production: REDIS_URL + NEN_SERVER_KEYS, store: redisStore()), each behind its own node:http server: sessions made on
 * one instance work on the other, a replay is caught across instances, terminate on one ends the
 * session everywhere, and a request costs ONE Redis command in steady state (keys cached
 * in-process per session and epoch). Redis down → 503, back → service resumes.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient, type WireExchange } from '@nen/client';
import { loadBackend, toBase64Url } from '@nen/core';
import { createNen, type Nen } from '../src/index.js';
import { redisStore } from '../src/redis.js';
import { serve, type TestServer } from './http-harness.js';
import { startRedis, type RedisServer } from './redis/harness.js';

let redis: RedisServer;
let raw: Redis;
const instances: { nen: Nen; server: TestServer }[] = [];
const KEYS = `k1:${toBase64Url(new Uint8Array(32).fill(42))}`;

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  raw.on('error', () => undefined); // reconnect noise while the fault test has Redis down
  const saved = { url: process.env.REDIS_URL, keys: process.env.NEN_SERVER_KEYS };
  process.env.REDIS_URL = redis.url;
  process.env.NEN_SERVER_KEYS = KEYS;
  try {
    for (let i = 0; i < 2; i++) {
      const nen = createNen({ store: redisStore({ backend: loadBackend('noble'), logger: () => {} }), backend: 'noble', logger: () => {} });
      const server = await serve({
        '/api/nen/*': nen.routes,
        '/api/who': { POST: nen.withNen(async (_r: Request, _c: unknown, body: unknown) => ({ instance: i, body })) },
      });
      instances.push({ nen, server });
    }
  } finally {
    if (saved.url === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = saved.url;
    if (saved.keys === undefined) delete process.env.NEN_SERVER_KEYS;
    else process.env.NEN_SERVER_KEYS = saved.keys;
  }
}, 30_000);

afterAll(async () => {
  for (const { nen, server } of instances) {
    await server.close();
    await nen.close();
    await nen.store.close();
  }
  raw?.disconnect();
  await redis?.stop();
});

/** Round-robin transport over the two instances; `pick` can force one. */
function roundRobin() {
  let n = 0;
  const state = { pick: undefined as number | undefined, sent: [] as { url: string; init: RequestInit }[] };
  const f: typeof fetch = (input, init) => {
    const i = state.pick ?? n++ % 2;
    const u = new URL(String(input));
    const target = `${instances[i]!.server.url}${u.pathname}${u.search}`;
    state.sent.push({ url: target, init: { ...init } });
    return fetch(target, init);
  };
  return { f, state };
}

describe('two instances, one Redis', () => {
  it('uses the Redis store passed in (redisStore() reads REDIS_URL)', () => {
    expect(instances.map((x) => x.nen.store.kind)).toEqual(['redis', 'redis']);
  });

  it('nen.store.claimOnce is one claim across both instances (what withNenWebhook({ store: nen.store }) relies on)', async () => {
    const key = `webhook:${Date.now()}:${Math.random()}`;
    const both = await Promise.all([instances[0]!.nen.store.claimOnce(key, 60_000), instances[1]!.nen.store.claimOnce(key, 60_000)]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await instances[0]!.nen.store.claimOnce(key, 60_000)).toBe(false);
  });

  it('a session made on one instance works on the other; one Redis command per request in steady state', async () => {
    const rr = roundRobin();
    const pin = (await instances[0]!.nen.publicKeys())[0]!.pin;
    const client = createNenClient({ baseUrl: 'http://nen.test', serverKey: pin, backend: 'noble', fetch: rr.f });
    const seen = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const r = await client.fetch('/api/who', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(i) });
      const j = (await r.json()) as { instance: number; body: number };
      expect(j.body).toBe(i);
      seen.add(j.instance);
    }
    expect([...seen].sort()).toEqual([0, 1]);
    // MONITOR shows every command with its source; commands run inside Lua scripts say "lua".
    const monitor = await raw.monitor();
    const fromClients: string[] = [];
    const marks = new Set<string>();
    monitor.on('monitor', (_t: string, args: string[], source: string) => {
      const command = String(args[0]).toLowerCase();
      if (command === 'echo' && String(args[1]).startsWith('nen-mark-')) marks.add(String(args[1]));
      else if (source !== 'lua') fromClients.push(command);
    });
    // MONITOR is one ordered stream: once it shows a marker, it has shown every command Redis ran
    // before it (fixed sleeps before and after raced the monitor connection under load).
    const mark = async (name: string) => {
      const deadline = Date.now() + 10_000;
      while (!marks.has(name)) {
        expect(Date.now(), `MONITOR did not show ${name} within 10 s`).toBeLessThan(deadline);
        await raw.echo(name);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await mark('nen-mark-start');
    fromClients.length = 0;
    for (let i = 0; i < 10; i++) await (await client.fetch('/api/who', { method: 'POST', body: 'x' })).arrayBuffer();
    await mark('nen-mark-end');
    monitor.disconnect();
    expect(fromClients).toEqual(Array(10).fill('evalsha'));
  });

  it('a replay is caught across instances, and terminate on one ends the session on both', async () => {
    const rr = roundRobin();
    const seen: WireExchange[] = [];
    const client = createNenClient({ baseUrl: 'http://nen.test', backend: 'noble', fetch: rr.f, onExchange: (e) => seen.push(e), unpinned: true });
    rr.state.pick = 0;
    await (await client.fetch('/api/who', { method: 'POST', body: 'a' })).arrayBuffer();
    const captured = rr.state.sent[rr.state.sent.length - 1]!;
    const onOther = captured.url.replace(instances[0]!.server.url, instances[1]!.server.url);
    const replay = await fetch(onOther, captured.init);
    expect([replay.status, replay.headers.get('nen-error')]).toEqual([409, 'NEN_REPLAY']);
    await replay.arrayBuffer();
    rr.state.pick = 1;
    await client.terminate();
    rr.state.pick = 0;
    seen.length = 0;
    const again = await client.fetch('/api/who', { method: 'POST', body: 'b' });
    expect((await again.json()).body).toEqual(expect.anything());
    expect(seen.map((e) => e.kind)).toEqual(['handshake', 'request']);
    // The old session's captured request is refused on both instances.
    for (const url of [captured.url, onOther]) {
      const r = await fetch(url, captured.init);
      expect(r.status).toBe(401);
      await r.arrayBuffer();
    }
  });

  it('Redis down → 503 NEN_STORE_UNAVAILABLE quickly; back → service resumes', async () => {
    const client = createNenClient({ baseUrl: instances[0]!.server.url, backend: 'noble', unpinned: true });
    await client.handshake();
    await redis.kill();
    const t0 = Date.now();
    await expect(client.fetch('/api/who', { method: 'POST', body: 'x' })).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE', status: 503 });
    expect(Date.now() - t0).toBeLessThan(5000);
    await redis.restart();
    // The restarted Redis is empty: the old session is unknown, so the client re-handshakes once.
    let ok = false;
    for (let i = 0; i < 50 && !ok; i++) {
      try {
        const r = await client.fetch('/api/who', { method: 'POST', body: 'y' });
        ok = r.ok;
        await r.arrayBuffer();
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(ok).toBe(true);
  });
});
