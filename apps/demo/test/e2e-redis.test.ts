/**
 * End to end, two `next start` instances of the demo sharing one real redis-server (REDIS_URL) on
 * 127.0.0.1: a session and a note made on one instance work on the other; with Redis down the
 * demo fails closed (503), never a plaintext answer. Processes: e2e-processes.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { DIST_DIR, WEBPACK, launch, startNext, stop, stopAll } from './e2e-processes';
import { ensureBuilt, freePort, keygen } from './live';

let keys: { env: string; pin: string };
let pin = '';

beforeAll(() => {
  ensureBuilt({ distDir: DIST_DIR, webpack: WEBPACK });
  keys = keygen();
  pin = keys.pin;
}, 300_000);

afterAll(async () => {
  await stopAll();
});

describe('two instances sharing one Redis (REDIS_URL)', () => {
  it('a session and a note made on one instance work on the other; Redis down fails closed with 503', async () => {
    const redisPort = await freePort();
    const redis = launch(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      process.env,
      `redis://127.0.0.1:${redisPort}`,
    );
    const redisUrl = redis.url;
    try {
      const ready = Date.now() + 10_000;
      while (!/Ready to accept connections/i.test(redis.log)) {
        if (Date.now() > ready || redis.child.exitCode !== null) throw new Error(`redis-server did not start:\n${redis.log}`);
        await sleep(50);
      }
      const [a, b] = await Promise.all([startNext(keys, { REDIS_URL: redisUrl }), startNext(keys, { REDIS_URL: redisUrl })]);
      // Round-robin transport: consecutive requests of one session alternate between the instances.
      let turn = 0;
      const roundRobin: typeof fetch = (input, init) => {
        const target = turn++ % 2 === 0 ? a! : b!;
        const url = new URL(input instanceof Request ? input.url : String(input));
        const rewritten = target.url + url.pathname + url.search;
        return input instanceof Request ? fetch(new Request(rewritten, input), init) : fetch(rewritten, init);
      };
      const client = createNenClient({ baseUrl: a!.url, serverKey: pin, fetch: roundRobin });
      const json = { 'content-type': 'application/json' };
      const created = await client.fetch('/api/notes', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 'shared', body: 'seen by both instances' }),
      });
      expect(created.status).toBe(201);
      const { note } = (await created.json()) as { note: { id: string } };
      for (let i = 0; i < 4; i++) {
        const read = await client.fetch(`/api/notes/${note.id}`);
        expect(read.status, `read ${i} (instance ${turn % 2 === 0 ? 'b' : 'a'})`).toBe(200);
        expect(((await read.json()) as { note: { body: string } }).note.body).toBe('seen by both instances');
      }
      expect((await client.fetch(`/api/notes/${note.id}`, { method: 'DELETE' })).status).toBe(200);
      expect((await client.fetch(`/api/notes/${note.id}`)).status).toBe(404);
      for (const inst of [a!, b!]) {
        const m = (await (await fetch(`${inst.url}/api/bench/metrics`)).json()) as Record<string, unknown>;
        expect(m.storeKind).toBe('redis');
        expect(m.notesKind).toBe('redis');
      }

      await stop(redis);
      const started = Date.now();
      const outcome = await client.fetch('/api/notes').then(
        (res) => `status ${res.status}`,
        (error: unknown) => `error ${(error as { code?: string }).code}`,
      );
      expect(outcome).toMatch(/status 503|NEN_STORE_UNAVAILABLE/);
      expect(Date.now() - started).toBeLessThan(15_000);
      await Promise.all([stop(a!), stop(b!)]);
    } finally {
      await stop(redis);
    }
  }, 120_000);
});
