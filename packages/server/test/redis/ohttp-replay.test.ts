/**
 * OHTTP replay across gateway instances (RFC 9458 §6.5; PROTOCOL.md "Oblivious HTTP mode"): two
 * gateways, each with its own createNen() and its own redisStore() client, share one real
 * redis-server (then a real 3-master Redis Cluster). One encapsulated request delivered to both
 * at once, 20 times over: exactly one handler run per request, the other answer an encapsulated
 * 409 NEN_REPLAY; a replay delivered later to either instance is refused too.
 */
import { OHTTP_KEM, decodeBhttpResponse, encapsulateRequest, encodeBhttpRequest, generateOhttpKey } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNen, type Nen } from '../../src/nen.js';
import { redisStore } from '../../src/redis.js';
import { type RedisCluster, type RedisServer, startCluster, startRedis } from './harness.js';

const KEYS = generateOhttpKey(5, OHTTP_KEM.XWING);
const WRAP = new Uint8Array(32).fill(9);

function instance(opts: { url?: string; clusterNodes?: readonly string[] }, runs: string[], name: string) {
  const nen = createNen({ store: redisStore({ ...opts, wrapKey: WRAP, logger: () => {} }), logger: () => {} });
  const handler = nen.withNen(async (_req, _ctx, body) => {
    runs.push(`${name}:${JSON.stringify(body)}`);
    return { by: name };
  });
  return { nen, gateway: nen.ohttpGateway({ keys: KEYS, routes: { '/api/once': { POST: handler } } }) };
}

async function race(target: { url?: string; clusterNodes?: readonly string[] }): Promise<Nen[]> {
  const runs: string[] = [];
  const a = instance(target, runs, 'a');
  const b = instance(target, runs, 'b');
  const config = a.gateway.keys.configs()[0]!;
  const send = (g: typeof a.gateway, body: Uint8Array) =>
    g.POST(
      new Request('https://gw.test/.well-known/ohttp-gateway', {
        method: 'POST',
        headers: { 'content-type': 'message/ohttp-req' },
        body: body as Uint8Array<ArrayBuffer>,
      }),
    );
  for (let i = 0; i < 20; i++) {
    const req = {
      method: 'POST',
      scheme: 'https',
      authority: 'app',
      path: '/api/once',
      headers: [
        ['content-type', 'application/json'],
        ['date', new Date().toUTCString()],
      ] as [string, string][],
      content: new TextEncoder().encode(`{"i":${i}}`),
      trailers: [],
    };
    const c = encapsulateRequest(config, encodeBhttpRequest(req));
    const answers = await Promise.all([send(a.gateway, c.encapsulatedRequest), send(b.gateway, c.encapsulatedRequest)]);
    const statuses = await Promise.all(answers.map(async (r) => decodeBhttpResponse(c.openResponse(new Uint8Array(await r.arrayBuffer()))).status));
    expect(statuses.sort()).toEqual([200, 409]);
    const late = decodeBhttpResponse(c.openResponse(new Uint8Array(await (await send(i % 2 ? a.gateway : b.gateway, c.encapsulatedRequest)).arrayBuffer())));
    expect({ status: late.status, code: JSON.parse(new TextDecoder().decode(late.content)).code }).toEqual({ status: 409, code: 'NEN_REPLAY' });
  }
  expect(runs.length).toBe(20);
  expect(new Set(runs.map((r) => r.slice(2))).size).toBe(20);
  return [a.nen, b.nen];
}

async function closeAll(nens: Nen[]): Promise<void> {
  for (const n of nens) {
    await n.close();
    await n.store.close();
  }
}

describe('OHTTP replay ids on real Redis', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  beforeAll(async () => {
    redis = await startRedis();
    cluster = await startCluster(3);
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
    await cluster?.stop();
  });

  it('standalone: two gateway instances racing the same request run the handler once', async () => {
    await closeAll(await race({ url: redis.url }));
  });

  it('cluster: the same, through ioredis Cluster clients', async () => {
    await closeAll(await race({ clusterNodes: cluster.urls }));
  });
});
