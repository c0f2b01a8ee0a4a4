/**
 * key-cache.ts: bounded, reference counted, least recently used evicted first (to within a
 * quarter of the capacity), and keys disposed only when evicted and no longer held.
 */
import { describe, expect, it } from 'vitest';
import type { SessionKeys } from '@nen/core';
import { KeyCache } from './key-cache.js';

function fakeKeys(): SessionKeys & { disposedCount: number } {
  const k = {
    disposedCount: 0,
    dispose() {
      k.disposedCount++;
    },
  };
  return k as unknown as SessionKeys & { disposedCount: number };
}

describe('KeyCache', () => {
  it('stays within max entries, and a session in use is not the one evicted', () => {
    const c = new KeyCache(16);
    const hot = fakeKeys();
    c.release(c.put('hot', 0, hot));
    for (let i = 0; i < 1000; i++) {
      c.release(c.put(`s${i}`, 0, fakeKeys()));
      const e = c.acquire('hot', 0);
      expect(e?.keys).toBe(hot);
      c.release(e!);
      expect(c.size).toBeLessThanOrEqual(16);
    }
    expect(hot.disposedCount).toBe(0);
    // the least recently used of the others went first: the oldest ones are gone, the newest are there
    expect(c.acquire('s0', 0)).toBeUndefined();
    expect(c.acquire('s999', 0)).toBeDefined();
  });

  it('an evicted entry is disposed once, when its last holder releases it', () => {
    const c = new KeyCache(16);
    const k = fakeKeys();
    const e = c.put('a', 0, k);
    c.evictSession('a', 0);
    expect(k.disposedCount).toBe(0);
    expect(c.acquire('a', 0)).toBeUndefined();
    c.release(e);
    expect(k.disposedCount).toBe(1);
    const k2 = fakeKeys();
    c.release(c.put('b', 1, k2));
    c.clear();
    expect([k2.disposedCount, c.size]).toEqual([1, 0]);
  });

  it('epochs are separate entries; evictSession drops the neighbouring epochs too', () => {
    const c = new KeyCache(16);
    const [k0, k1, k3] = [fakeKeys(), fakeKeys(), fakeKeys()];
    for (const [ep, k] of [
      [0, k0],
      [1, k1],
      [3, k3],
    ] as const)
      c.release(c.put('a', ep, k));
    expect(c.acquire('a', 1)?.keys).toBe(k1);
    c.evictSession('a', 1);
    expect([k0.disposedCount, k3.disposedCount, c.size]).toEqual([1, 0, 1]);
  });
});
