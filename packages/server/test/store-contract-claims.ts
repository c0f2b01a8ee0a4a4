/**
 * The SessionStore contract's claimOnce cases (./store-contract.ts runs them for every store): one
 * true per key until the TTL passes, atomic under concurrency, bounded keys, its own namespace
 * (a claim never creates nor blocks a session), and NEN_CONFIG for bad arguments.
 * Pitfall: the TTL case sleeps 300 ms of real time (a store's clock, e.g. Redis PX, not `now`).
 */
import { expect, it } from 'vitest';
import { type FreshStore, sampleSession, sessionId, verdict } from './store-samples.js';

/** claimOnce: once per key per TTL, atomic, bounded, separate from sessions, argument checks. */
export function claimCases(fresh: FreshStore): void {
  it('claimOnce: true once per key until the claim expires, then true again', async () => {
    const store = await fresh();
    const key = `webhook:${sessionId()}`;
    expect(await store.claimOnce(key, 200)).toBe(true);
    expect(await store.claimOnce(key, 200)).toBe(false);
    expect(await store.claimOnce(`${key}x`, 200)).toBe(true); // another key
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.claimOnce(key, 60_000)).toBe(true);
    expect(await store.claimOnce(key, 60_000)).toBe(false);
  });

  it('claimOnce: 100 concurrent claims of one key, exactly one true; long keys are bounded; separate from sessions', async () => {
    const store = await fresh();
    const key = `k${sessionId()}`;
    const r = await Promise.all(Array.from({ length: 100 }, () => store.claimOnce(key, 60_000)));
    expect(r.filter(Boolean)).toHaveLength(1);
    const long = 'x'.repeat(4096);
    expect(await store.claimOnce(long, 60_000)).toBe(true);
    expect(await store.claimOnce(long, 60_000)).toBe(false);
    expect(await store.claimOnce(`${'x'.repeat(4095)}y`, 60_000)).toBe(true);
    // A claim whose key is a session id neither creates nor blocks that session.
    const t = Date.now();
    const s = sampleSession(t);
    expect(await store.claimOnce(s.id, 60_000)).toBe(true);
    expect(await store.get(s.id, t)).toBeNull();
    await store.create(s);
    expect(verdict(await store.commit(s.id, 1n, t))).toBe('ok');
    expect(await store.claimOnce(s.id, 60_000)).toBe(false);
  });

  it('claimOnce: bad arguments throw NEN_CONFIG (empty or over-long key, ttl outside 1 ms..7 days)', async () => {
    const store = await fresh();
    for (const [k, ttl] of [
      ['', 1000],
      ['x'.repeat(4097), 1000],
      ['k', 0],
      ['k', 1.5],
      ['k', 8 * 24 * 3600 * 1000],
      ['k', Number.NaN],
    ] as const) {
      await expect(store.claimOnce(k, ttl)).rejects.toMatchObject({ code: 'NEN_CONFIG' });
    }
  });
}
