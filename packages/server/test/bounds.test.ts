/**
 * Issue 10 item 2 (bounded unconfirmed state) and the spec-review fixes:
 *  - a session on which no request committed dies after `unconfirmedTtlSeconds`, leaving nothing
 *    in the store (memory; real redis-server: DBSIZE back to 0); a used session lives on;
 *  - the per-instance handshake ceiling answers 429 NEN_RATE_LIMITED + Retry-After whatever the
 *    x-forwarded-for; without a trusted proxy that header sets no per-address limit, with one
 *    (1 hop) rotating the client-written part of it does not bypass the per-address limit;
 *  - a streamed upload whose records cross network-chunk boundaries reaches the handler (pull
 *    loops until it enqueues);
 *  - HEAD answers seal an empty body (the nen-body header stays small whatever the handler returns).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RecordSealer,
  SessionKeys,
  clientHandshakeStart,
  formatRequestHeader,
  loadBackend,
  parseServerKeyPin,
  requestAad,
  toBase64Url,
  type Backend,
} from '@nen/core';
import { createNenClient } from '@nen/client';
import { Redis } from 'ioredis';
import { createNen, memoryStore, type MemoryStore } from '../src/index.js';
import { redisStore } from '../src/redis.js';
import { serve } from './http-harness.js';
import { startRedis, sleep, type RedisServer } from './redis/harness.js';

const SEED = toBase64Url(new Uint8Array(32).fill(3));
const ORIGIN = 'http://127.0.0.1';
let be: Backend;
beforeAll(async () => {
  be = await loadBackend('noble');
});

const hello = (xff?: string) =>
  new Request(`${ORIGIN}/api/nen/handshake`, {
    method: 'POST',
    headers: { 'content-type': 'application/nen-handshake', ...(xff ? { 'x-forwarded-for': xff } : {}) },
    body: new Uint8Array(3),
  });

describe('unconfirmed sessions expire quickly', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('memory store: a handshake never used is gone after unconfirmedTtlSeconds; a used session stays', async () => {
    const store = memoryStore({ shared: false }) as MemoryStore;
    const nen = createNen({ store, serverKeys: `k1:${SEED}`, unconfirmedTtlSeconds: 1, logger: () => undefined });
    const echo = nen.withNen(async () => ({ ok: true }));
    const server = await serve({ '/api/nen/*': { POST: nen.routes.POST }, '/api/echo': { POST: echo } });
    try {
      await createNenClient({ baseUrl: server.url, unpinned: true }).handshake();
      const used = createNenClient({ baseUrl: server.url, unpinned: true });
      expect((await used.fetch('/api/echo', { method: 'POST', body: 'x' })).status).toBe(200);
      expect(await store.size()).toBe(2);
      await sleep(1200);
      store.sweep(Date.now());
      expect(store.entries).toBe(1);
      expect((await used.fetch('/api/echo', { method: 'POST', body: 'y' })).status).toBe(200);
    } finally {
      await server.close();
      await nen.close();
      await store.close();
    }
  });

  it('Redis: the unconfirmed session key expires (DBSIZE back to 0); a used one is still there', async () => {
    const raw = new Redis(redis.url, { lazyConnect: true });
    await raw.connect();
    const nen = createNen({
      store: redisStore({ url: redis.url, wrapKey: new Uint8Array(32).fill(1), logger: () => undefined }),
      serverKeys: `k1:${SEED}`,
      unconfirmedTtlSeconds: 1,
      logger: () => undefined,
    });
    const echo = nen.withNen(async () => ({ ok: true }));
    const server = await serve({ '/api/nen/*': { POST: nen.routes.POST }, '/api/echo': { POST: echo } });
    try {
      await raw.flushall();
      await createNenClient({ baseUrl: server.url, unpinned: true }).handshake();
      expect(await raw.dbsize()).toBe(1);
      const keys = await raw.keys('*');
      expect(await raw.pttl(keys[0]!)).toBeLessThanOrEqual(2000); // 1 s + the 1 s TTL grace
      const used = createNenClient({ baseUrl: server.url, unpinned: true });
      expect((await used.fetch('/api/echo', { method: 'POST', body: 'x' })).status).toBe(200);
      expect(await raw.dbsize()).toBe(2);
      await sleep(2300);
      expect(await raw.dbsize()).toBe(1);
      expect((await used.fetch('/api/echo', { method: 'POST', body: 'y' })).status).toBe(200);
    } finally {
      await server.close();
      await nen.close();
      raw.disconnect();
    }
  });
});

describe('handshake ceiling and trusted proxies', () => {
  it('per-instance ceiling: 429 NEN_RATE_LIMITED with Retry-After, whatever x-forwarded-for says', async () => {
    const nen = createNen({ store: memoryStore({ shared: false }), serverKeys: `k1:${SEED}`, handshakesPerSecond: 5, logger: () => undefined });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await nen.routes.POST(hello(`203.0.113.${i}`));
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('nen-error')).toBe('NEN_RATE_LIMITED');
        expect(res.headers.get('retry-after')).toBe('1');
      }
      await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 400)).toHaveLength(5); // allowed (then refused as a malformed hello)
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    await nen.close();
  });

  it('without trustProxy, x-forwarded-for sets no per-address limit; with 1 hop, only the proxy-appended address counts', async () => {
    const plain = createNen({
      store: memoryStore({ shared: false }),
      serverKeys: `k1:${SEED}`,
      handshakeRateLimit: 2,
      handshakesPerSecond: 0,
      logger: () => undefined,
    });
    for (let i = 0; i < 4; i++) expect((await plain.routes.POST(hello('203.0.113.7'))).status).toBe(400);
    await plain.close();
    const proxied = createNen({
      store: memoryStore({ shared: false }),
      serverKeys: `k1:${SEED}`,
      handshakeRateLimit: 2,
      handshakesPerSecond: 0,
      trustProxy: 1,
      logger: () => undefined,
    });
    const got: number[] = [];
    for (let i = 0; i < 4; i++) got.push((await proxied.routes.POST(hello(`198.51.100.${i}, 203.0.113.7`))).status);
    expect(got).toEqual([400, 400, 429, 429]);
    expect((await proxied.routes.POST(hello('203.0.113.8'))).status).toBe(400);
    await proxied.close();
  });
});

describe('spec-review fixes', () => {
  async function session(nen: ReturnType<typeof createNen>) {
    const pin = (await nen.publicKeys())[0]!.pin;
    const st = clientHandshakeStart(be, { pin: parseServerKeyPin(pin) });
    const hs = await nen.routes.POST(
      new Request(`${ORIGIN}/api/nen/handshake`, {
        method: 'POST',
        headers: { 'content-type': 'application/nen-handshake' },
        body: st.hello as Uint8Array<ArrayBuffer>,
      }),
    );
    const r = st.finish(new Uint8Array(await hs.arrayBuffer()));
    return { id: r.sessionId, keys: new SessionKeys(be, r.secret, 0) };
  }

  it('a streamed upload whose records cross network-chunk boundaries (and an empty record) reaches the handler', async () => {
    const nen = createNen({ backend: be, store: memoryStore({ shared: false }), serverKeys: `k1:${SEED}`, logger: () => undefined });
    const route = nen.withNen(async (_req: Request, _c: unknown, body: unknown) => {
      let n = 0;
      const reader = (body as ReadableStream<Uint8Array>).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) n += r.value.length;
      return { n };
    });
    const s = await session(nen);
    const meta = { sessionId: s.id, epoch: 0, seq: 1n, timestamp: Date.now(), flags: 4 };
    const sealer = new RecordSealer(s.keys.c2s, s.keys.c2sIv, 1n, requestAad(meta, 'POST', '/u', ''));
    const a = sealer.seal(new Uint8Array(1000), false);
    const empty = sealer.seal(new Uint8Array(0), false);
    const b = sealer.seal(new Uint8Array(1000), false);
    const f = sealer.seal(new Uint8Array(0), true);
    // record b split over three network chunks, the final record over two, an empty record between
    const parts = [a, empty, b.subarray(0, 3), b.subarray(3, 500), b.subarray(500), f.subarray(0, 5), f.subarray(5)];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    });
    const req = new Request(`${ORIGIN}/u`, {
      method: 'POST',
      headers: { nen: formatRequestHeader(meta), 'content-type': 'application/nen-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    const res = await Promise.race([route(req, {}), sleep(5000).then(() => 'hang' as const)]);
    expect(res).not.toBe('hang');
    expect((res as Response).status).toBe(200);
    await (res as Response).arrayBuffer();
    await nen.close();
  });

  it('HEAD: the sealed record in nen-body seals an empty body, never the handler body', async () => {
    const nen = createNen({ store: memoryStore({ shared: false }), serverKeys: `k1:${SEED}`, logger: () => undefined });
    const big = nen.withNen(async () => new Response('x'.repeat(10_000), { headers: { 'content-type': 'text/plain' } }));
    const server = await serve({ '/api/nen/*': { POST: nen.routes.POST }, '/api/big': { HEAD: big, GET: big } });
    try {
      const heads: Record<string, string>[] = [];
      const c = createNenClient({ baseUrl: server.url, unpinned: true, onExchange: (e) => void (e.kind === 'request' && heads.push(e.responseHeaders)) });
      const res = await c.fetch('/api/big', { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(heads[0]!['nen-body']!.length).toBeLessThan(40); // the 16-byte tag of an empty plaintext
      expect(await (await c.fetch('/api/big')).text()).toHaveLength(10_000);
    } finally {
      await server.close();
      await nen.close();
    }
  });
});
