/**
 * The in-memory store against the shared SessionStore contract (test/store-contract.ts), plus what only
 * it does: LRU eviction at the session bound, the sweep, and the globalThis singleton.
 */
import { describe, expect, it, vi } from 'vitest';
import { sampleSession, storeContract } from '../../test/store-contract.js';
import { memoryStore, MemoryStore } from './memory.js';
import { RETRY_HORIZON_MS } from './types.js';

storeContract('memory store', async () => memoryStore({ shared: false }));

describe('memory store specifics', () => {
  it('commitNow: commit answered synchronously (no promise per request), same rules; a failure is thrown', async () => {
    const s = new MemoryStore({});
    const now = Date.now();
    await s.create(sampleSession(now, { id: 'a' }));
    expect(s.commitNow('a', 1n, now)).toMatchObject({ ok: true });
    expect(s.commitNow('a', 1n, now)).toEqual({ ok: false, reason: 'replay' });
    expect(await s.commit('a', 1n, now)).toEqual({ ok: false, reason: 'replay' }); // one window for both
    expect(s.commitNow('b', 1n, now)).toEqual({ ok: false, reason: 'unknown' });
    expect(() => s.commitNow('a', -1n, now)).toThrow();
    await s.close();
    expect(() => s.commitNow('a', 2n, now)).toThrow();
  });

  it('retries: a confirmed session evicted for room keeps its window for the horizon', async () => {
    const s = new MemoryStore({ maxSessions: 2 });
    const now = Date.now();
    await s.create(sampleSession(now, { id: 'a' }));
    expect((await s.commit('a', 1n, now)).ok).toBe(true);
    await s.create(sampleSession(now, { id: 'b' }));
    await s.create(sampleSession(now, { id: 'c' })); // evicts a
    expect(await s.get('a', now)).toBeNull();
    expect(await s.consumeRetry('a', 1n, now)).toBe('committed');
    expect(await s.consumeRetry('a', 2n, now)).toBe('marked');
    expect(s.retryCoverageSince()).toBeLessThanOrEqual(now); // nothing lost
    await s.close();
  });

  it('retries: a retry marked on an evicted session keeps its window RETRY_HORIZON_MS from then, as on a tombstone', async () => {
    const s = new MemoryStore({ maxSessions: 1 });
    const now = Date.now();
    await s.create(sampleSession(now, { id: 'a' }));
    expect((await s.commit('a', 1n, now)).ok).toBe(true);
    await s.create(sampleSession(now, { id: 'b' })); // evicts a: its window kept until about now + horizon
    const later = Date.now() + RETRY_HORIZON_MS - 1;
    expect(await s.consumeRetry('a', 2n, later)).toBe('marked');
    expect(await s.consumeRetry('a', 2n, later + 1000)).toBe('committed');
    expect(await s.consumeRetry('a', 3n, later + RETRY_HORIZON_MS)).toBe('absent');
    await s.close();
  });

  it('a tombstone looked at again stays one tombstone: size() counts live sessions only', async () => {
    const s = new MemoryStore();
    const now = Date.now();
    await s.create(sampleSession(now, { id: 'a' }));
    await s.create(sampleSession(now, { id: 'b' }));
    expect((await s.commit('a', 1n, now)).ok).toBe(true);
    expect(await s.delete('a')).toBe(true);
    for (let i = 0; i < 3; i++) {
      expect(await s.get('a', now)).toBeNull();
      expect(await s.commit('a', 2n, now)).toEqual({ ok: false, reason: 'expired' });
    }
    expect(await s.size()).toBe(1);
    expect(s.entries).toBe(2);
    expect(await s.consumeRetry('a', 1n, now)).toBe('committed');
    s.sweep(now + 700_000);
    expect([await s.size(), s.entries]).toEqual([0, 0]); // a's tombstone ended; b idle past its timeout, never confirmed: gone
    await s.close();
  });

  it('is bounded: the least recently used session is evicted', async () => {
    const s = new MemoryStore({ maxSessions: 3 });
    const now = Date.now();
    const recs = [0, 1, 2, 3].map((i) => sampleSession(now, { id: `s${i}` }));
    for (const r of recs.slice(0, 3)) await s.create(r);
    expect((await s.commit('s0', 1n, now)).ok).toBe(true); // s0 now most recent
    await s.create(recs[3]!);
    expect(await s.size()).toBe(3);
    expect(await s.get('s1', now)).toBeNull();
    expect(await s.get('s0', now)).not.toBeNull();
    expect(s.evictions).toBe(1);
    await s.close();
  });

  it('the sweep drops expired and idle sessions and wipes their secrets', async () => {
    const s = new MemoryStore();
    const now = Date.now();
    const a = sampleSession(now, { id: 'a', ttlMs: 10 });
    const b = sampleSession(now, { id: 'b', idleMs: 10 });
    const c = sampleSession(now, { id: 'c' });
    for (const r of [a, b, c]) await s.create(r);
    expect(s.sweep(now + 20)).toBe(2);
    expect(await s.size()).toBe(1);
    await s.close();
  });

  it('shared stores survive module reloads (one per name on globalThis) until closed', async () => {
    const x = memoryStore({ name: 'reload-test' });
    expect(memoryStore({ name: 'reload-test' })).toBe(x);
    await x.close();
    const y = memoryStore({ name: 'reload-test' });
    expect(y).not.toBe(x);
    await y.close();
  });

  it('claimOnce is bounded: at maxClaims live claims it fails closed (NEN_STORE_UNAVAILABLE) until one expires', async () => {
    // The clock is set, not slept on: under load more than b's 50 ms could pass between two claims.
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
    const s = new MemoryStore({ maxClaims: 2 });
    try {
      expect(await s.claimOnce('a', 60_000)).toBe(true);
      expect(await s.claimOnce('b', 50)).toBe(true);
      vi.setSystemTime(1_000_049); // b's last millisecond
      await expect(s.claimOnce('c', 60_000)).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE', name: 'StoreUnavailableError' });
      expect(await s.claimOnce('a', 60_000)).toBe(false); // a held claim still answers
      vi.setSystemTime(1_000_080);
      expect(await s.claimOnce('c', 60_000)).toBe(true); // 'b' expired and was swept
    } finally {
      await s.close();
      vi.useRealTimers();
    }
  });
});
