/**
 * The OHTTP gateway fails closed when its replay store fails (RFC 9458 §6.5: a request whose
 * replay id cannot be recorded must not run; issue 23: "no 5xx and no hang"): a real
 * redis-server behind `redisStore()`, the gateway on node:http on 127.0.0.1, @nen/client in OHTTP
 * mode, plain and chunked requests:
 *  - Redis killed, then hung (SIGSTOP): each request is answered within the store's bound with an
 *    *encapsulated* 503 NEN_STORE_UNAVAILABLE (the outer status stays 200) and the handler never
 *    runs;
 *  - Redis back: the gateway reconnects by itself and requests run again.
 */
import { createServer } from 'node:http';
import { createNenClient } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { OHTTP_KEM, OhttpGatewayKeys, encodeKeyConfig, generateOhttpKey } from '@nen/core/ohttp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { createNen, type Nen } from '../../src/nen.js';
import { redisStore } from '../../src/redis.js';
import { closeServer, listenLoopback } from '../http-harness.js';
import { type RedisServer, startRedis } from './harness.js';

const keys = OhttpGatewayKeys.parse(generateOhttpKey(4, OHTTP_KEM.XWING));
const config = keys.configs()[0] as ReturnType<typeof keys.configs>[0];
const runs: string[] = [];
const outer: number[] = [];
const server = createServer();
let redis: RedisServer;
let nen: Nen;
let url = '';
let client: ReturnType<typeof createNenClient>;

beforeAll(async () => {
  redis = await startRedis();
  nen = createNen({ store: redisStore({ url: redis.url, wrapKey: new Uint8Array(32).fill(3), logger: () => {} }), logger: () => {} });
  const gateway = nen.ohttpGateway({
    keys,
    routes: {
      '/api/once': {
        POST: nen.withNen(async (_req, _ctx, body) => {
          runs.push(JSON.stringify(body));
          return { ran: body };
        }),
      },
      '/api/tokens': {
        POST: nen.withNenStream(async function* () {
          runs.push('stream');
          yield 'a';
          yield 'b';
        }),
      },
    },
  });
  server.on(
    'request',
    toNodeHandler((r) => gateway.fetch(r)),
  );
  url = await listenLoopback(server);
  client = createNenClient({
    mode: 'ohttp',
    baseUrl: 'https://app.example',
    relay: `${url}/.well-known/ohttp-gateway`,
    keyConfig: toBase64Url(encodeKeyConfig(config)),
    timeoutMs: 10_000,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      outer.push(res.status);
      return res;
    },
  });
}, 60_000);
afterAll(async () => {
  await closeServer(server);
  await nen?.close();
  await nen?.store.close();
  await redis?.stop();
});

async function attempt(n: number): Promise<{ plain: unknown; stream: unknown; ms: number }> {
  const t0 = performance.now();
  const plain = await client.fetch('/api/once', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
    (e: { code?: string; status?: number }) => ({ code: e.code, status: e.status }),
  );
  const stream = await (async () => {
    try {
      let text = '';
      for await (const c of client.stream('/api/tokens', { method: 'POST', body: '{}' })) text += new TextDecoder().decode(c);
      return text;
    } catch (e) {
      return { code: (e as { code?: string }).code, status: (e as { status?: number }).status };
    }
  })();
  return { plain, stream, ms: performance.now() - t0 };
}

/** Attempts until the store answers again (the gateway's Redis client reconnects by itself; bounded). */
async function untilBack(n: number): Promise<Awaited<ReturnType<typeof attempt>> | undefined> {
  const deadline = Date.now() + 20_000;
  let back: Awaited<ReturnType<typeof attempt>> | undefined;
  while (Date.now() < deadline) {
    back = await attempt(n);
    if ((back.plain as { status?: number }).status === 200) return back;
    await new Promise((r) => setTimeout(r, 200));
  }
  return back;
}

describe('OHTTP gateway with its Redis store down: fail closed, encapsulated 503, no hang', () => {
  it('killed, then hung: NEN_STORE_UNAVAILABLE inside an outer 200, the handlers never run; back up: they run', async () => {
    expect(await attempt(1)).toMatchObject({ plain: { status: 200, body: { ran: { n: 1 } } }, stream: 'ab' });
    runs.length = 0;
    outer.length = 0;
    const refused = { code: 'NEN_STORE_UNAVAILABLE', status: 503 };
    await redis.kill();
    const killed = await attempt(2);
    expect(killed).toMatchObject({ plain: refused, stream: refused });
    expect(runs).toEqual([]);
    await redis.restart();
    expect(await untilBack(3)).toMatchObject({ plain: { status: 200, body: { ran: { n: 3 } } }, stream: 'ab' });
    runs.length = 0;
    redis.pause();
    try {
      const hung = await attempt(4);
      expect(hung).toMatchObject({ plain: refused, stream: refused });
      // the store's bound is 1 s per command: two requests, far from the client's 10 s deadline
      expect(hung.ms).toBeLessThan(6_000);
    } finally {
      redis.resume();
    }
    expect(runs).toEqual([]);
    expect(outer.every((s) => s === 200)).toBe(true);
    expect(await untilBack(5)).toMatchObject({ plain: { status: 200, body: { ran: { n: 5 } } }, stream: 'ab' });
  }, 60_000);
});
