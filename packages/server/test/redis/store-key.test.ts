/**
 * The key wrapping session secrets in Redis across a server key rotation (docs/operations.md §4).
 * Two createNen() instances configured from the environment (REDIS_URL, NEN_STORE_KEY) share one
 * real redis-server; one holds server keys {k1}, the other {k1, k2}: the state in the middle of a
 * rolling restart that adds k2.
 *  - With NEN_STORE_KEY set on both, a session made on the old instance works on the new one.
 *  - Without it, the wrap key is derived from the key set: the new instance cannot unwrap the
 *    session (NEN_SESSION_UNKNOWN, `redis.unwrap_failed`), and createNen warned about exactly this
 *    at start (`config.store_key_derived`).
 *  - A short NEN_STORE_KEY is a configuration error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { createNen, type Nen, type NenLogEvent } from '../../src/index.js';
import { redisStore } from '../../src/redis.js';
import { serve, type TestServer } from '../http-harness.js';
import { startRedis, type RedisServer } from './harness.js';

const K1 = toBase64Url(new Uint8Array(32).map((_, i) => 3 * i + 1));
const K2 = toBase64Url(new Uint8Array(32).map((_, i) => 5 * i + 2));

let redis: RedisServer;
const saved = { url: process.env.REDIS_URL, storeKey: process.env.NEN_STORE_KEY };

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const [k, v] of [
    ['REDIS_URL', saved.url],
    ['NEN_STORE_KEY', saved.storeKey],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await redis?.stop();
});

interface Instance {
  nen: Nen;
  server: TestServer;
  logs: NenLogEvent[];
}

async function instance(serverKeys: string, storeKey: string | undefined): Promise<Instance> {
  process.env.REDIS_URL = redis.url;
  if (storeKey === undefined) delete process.env.NEN_STORE_KEY;
  else process.env.NEN_STORE_KEY = storeKey;
  const logs: NenLogEvent[] = [];
  const log = (e: NenLogEvent) => void (logs.length < 200 && logs.push(e));
  const store = redisStore({ serverKeys, logger: (e) => log({ level: e.level, event: e.event, reason: e.message }) });
  const nen = createNen({ store, serverKeys, backend: 'wasm', handshakeRateLimit: 0, logger: log });
  const server = await serve({ '/api/nen/*': nen.routes, '/api/echo': { POST: nen.withNen(async (_r: Request, _c: unknown, body: unknown) => ({ body })) } });
  return { nen, server, logs };
}

async function stop(...xs: Instance[]): Promise<void> {
  for (const x of xs) {
    await x.server.close();
    await x.nen.close();
    await x.nen.store.close();
  }
}

/** Handshake on `before`, then every request to `after` (a rolling restart moved the client). */
async function crossInstance(before: Instance, after: Instance): Promise<unknown> {
  const routing: typeof fetch = (input, init) => {
    const u = new URL(String(input));
    return fetch((u.pathname.endsWith('/handshake') ? before : after).server.url + u.pathname + u.search, init);
  };
  const client = createNenClient({ baseUrl: before.server.url, backend: 'wasm', fetch: routing, unpinned: true });
  await client.handshake();
  return client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' }).then(
    (r) => r.json(),
    (e: unknown) => e,
  );
}

describe('NEN_STORE_KEY across a server key rotation (real Redis)', () => {
  it("with NEN_STORE_KEY, instances with {k1} and {k1,k2} read each other's sessions; no warning", async () => {
    const storeKey = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    const old = await instance(`k1:${K1}`, storeKey);
    const rotated = await instance(`k1:${K1},k2:${K2}`, storeKey);
    try {
      expect(await crossInstance(old, rotated)).toEqual({ body: { n: 1 } });
      expect(await crossInstance(rotated, old)).toEqual({ body: { n: 1 } });
      expect([...old.logs, ...rotated.logs].some((l) => l.event === 'config.store_key_derived')).toBe(false);
    } finally {
      await stop(old, rotated);
    }
  });

  it('without it, redisStore() warns at start, and what it warns about happens', async () => {
    const old = await instance(`k1:${K1}`, undefined);
    const rotated = await instance(`k1:${K1},k2:${K2}`, undefined);
    try {
      for (const x of [old, rotated]) {
        const w = x.logs.find((l) => l.event === 'config.store_key_derived');
        expect(w).toMatchObject({ level: 'warn' });
        expect(w!.reason).toMatch(/NEN_STORE_KEY.*NEN_SERVER_KEYS.*rolling restart/s);
      }
      // The retry (a new handshake on `old`, the request on `rotated`) fails alike: outcome unknown.
      expect(await crossInstance(old, rotated)).toMatchObject({ code: 'NEN_OUTCOME_UNKNOWN', cause: { code: 'NEN_SESSION_UNKNOWN' } });
      expect(rotated.logs.some((l) => l.event === 'redis.unwrap_failed')).toBe(true);
    } finally {
      await stop(old, rotated);
    }
  });

  it('a short NEN_STORE_KEY is a configuration error', () => {
    process.env.REDIS_URL = redis.url;
    process.env.NEN_STORE_KEY = 'short-secret';
    expect(() => redisStore({ serverKeys: `k1:${K1}`, logger: () => {} })).toThrow(expect.objectContaining({ code: 'NEN_CONFIG' }));
  });
});
