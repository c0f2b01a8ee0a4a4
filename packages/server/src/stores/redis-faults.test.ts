/**
 * Redis session store faults against real redis-servers of its own (test/redis/harness.ts): a
 * killed, hung (SIGSTOP) or absent Redis makes every operation fail fast with
 * StoreUnavailableError within the command timeout, and the store heals when Redis is back.
 * Pitfall: each test starts and stops its own server; a stopped (SIGSTOP) one is continued before
 * it is killed.
 */
import { describe, expect, it } from 'vitest';
import { sleep, startRedis } from '../../test/redis/harness.js';
import { sampleSession, sessionId } from '../../test/store-contract.js';
import { type RedisStoreEvent, redisStore } from './redis.js';
import { StoreUnavailableError } from './types.js';

const wrapKey = new Uint8Array(32).map((_, i) => i + 1);

describe('redis store: faults', () => {
  const timeoutMs = 500;

  async function expectUnavailableWithin(p: Promise<unknown>, boundMs: number) {
    const t0 = performance.now();
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    const elapsed = performance.now() - t0;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as StoreUnavailableError).code).toBe('NEN_STORE_UNAVAILABLE');
    expect(elapsed).toBeLessThan(boundMs);
  }

  async function eventually<T>(what: string, f: () => Promise<T>, timeout = 15_000): Promise<T> {
    const deadline = Date.now() + timeout;
    for (;;) {
      try {
        return await f();
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`${what}: still failing after ${timeout} ms`, { cause: err });
        await sleep(100);
      }
    }
  }

  it('Redis killed → StoreUnavailableError within the bound; restarted → works again by itself', async () => {
    const own = await startRedis();
    const events: RedisStoreEvent[] = [];
    const store = redisStore({ url: own.url, wrapKey, commandTimeoutMs: timeoutMs, logger: (e) => events.push(e) });
    try {
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      expect((await store.commit(s.id, 1n, t)).ok).toBe(true);
      await own.kill();
      // every operation fails fast, in parallel and one after another
      await Promise.all([
        expectUnavailableWithin(store.commit(s.id, 2n, t), 2 * timeoutMs + 500),
        expectUnavailableWithin(store.get(s.id, t), 2 * timeoutMs + 500),
        expectUnavailableWithin(store.create(sampleSession(t)), 2 * timeoutMs + 500),
      ]);
      for (let i = 0; i < 3; i++) await expectUnavailableWithin(store.commit(s.id, BigInt(3 + i), t), 2 * timeoutMs + 500);
      // reported, but rate-limited: one event per second however many operations fail
      const unavailable = events.filter((e) => e.event === 'redis.unavailable');
      expect(unavailable.length).toBeGreaterThanOrEqual(1);
      expect(unavailable.length).toBeLessThanOrEqual(3);
      await own.restart();
      // data is gone (no persistence), but the store serves again without being recreated
      const s2 = sampleSession(Date.now());
      await eventually('create after restart', () => store.create(s2));
      expect((await store.commit(s2.id, 1n, Date.now())).ok).toBe(true);
      expect(await store.get(s.id, Date.now())).toBeNull();
    } finally {
      await store.close();
      await own.stop();
    }
  }, 40_000);

  it('Redis hung (SIGSTOP) → StoreUnavailableError within the bound; resumed → works', async () => {
    const own = await startRedis();
    const store = redisStore({ url: own.url, wrapKey, commandTimeoutMs: timeoutMs });
    try {
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      own.pause();
      await expectUnavailableWithin(store.commit(s.id, 1n, t), timeoutMs + 500);
      await expectUnavailableWithin(store.get(s.id, t), timeoutMs + 500);
      own.resume();
      // the timed-out commit was sent before the hang: its effect may land, so use a new seq
      const r = await eventually('commit after resume', () => store.commit(s.id, 2n, Date.now()));
      expect(r.ok).toBe(true);
    } finally {
      own.resume();
      await store.close();
      await own.stop();
    }
  }, 40_000);

  it('Redis absent from the start: bounded failures, no unhandled errors, close() does not hang', async () => {
    const own = await startRedis();
    const url = own.url;
    await own.stop();
    const store = redisStore({ url, wrapKey, commandTimeoutMs: timeoutMs });
    await expectUnavailableWithin(store.get(sessionId(), Date.now()), timeoutMs + 500);
    await expectUnavailableWithin(store.commit(sessionId(), 1n, Date.now()), timeoutMs + 500);
    const t0 = performance.now();
    await store.close();
    expect(performance.now() - t0).toBeLessThan(timeoutMs + 500);
    await expect(store.get(sessionId(), Date.now())).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 20_000);
});
