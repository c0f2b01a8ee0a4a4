/**
 * The SessionStore contract as a reusable vitest suite: `storeContract(name, makeStore)` runs the
 * same behavioural tests against any store (memory, Redis standalone, Redis Cluster, Durable
 * Objects); sample sessions, the reference replay window and `verdict` come from
 * ./store-samples.ts. This module holds the records and lifetime cases; the replay window's are in
 * ./store-contract-window.ts and claimOnce's in ./store-contract-claims.ts.
 *
 * What it pins down (./types.ts, THREAT_MODEL.md properties 7 and 8):
 *  - create/get/commit/update/delete/size round trips, with the record returned field for field;
 *  - the replay window (RFC 4303 §3.4.3 style, REPLAY_WINDOW = 1024): seq 0 is never valid, any
 *    seq >= 1 opens the window, in-window out-of-order seqs are accepted once, H - seq >= 1024 is
 *    "too-old", a seen seq is "replay"; checked against a simple reference model (a set of seen
 *    numbers plus the highest) on random sequences with fast-check, over the whole u64 range;
 *  - idle timeout (from the last commit) and absolute expiry, judged by the caller's `now`;
 *  - a store keeps its own copy of the secret; concurrent commits of one (id, seq) → exactly one ok;
 *  - claimOnce: one true per key until the TTL passes, atomic under concurrency, its own namespace.
 *
 * Pitfalls:
 *  - Expiry boundaries are only tested a millisecond away from the exact instant, so stores may
 *    differ on `now === expiresAt`. The first commit after expiry must say "expired"; once a store
 *    has noticed (a get or commit), it may delete the session and say "unknown" afterwards.
 *  - `seq` outside [0, 2^64) must be rejected (throw), never silently accepted.
 *  - `makeStore` must return an empty, independent store per call (Redis: a fresh key prefix).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../src/stores/types.js';
import { claimCases } from './store-contract-claims.js';
import { windowExampleCases, windowModelCases } from './store-contract-window.js';
import { type FreshStore, sampleSession, sessionId, verdict } from './store-samples.js';

export { ReferenceWindow, sampleSession, sessionId } from './store-samples.js';

/** `countsSize: false` for stores whose `size()` cannot count (the Durable Object store: sessions spread over objects). */
export function storeContract(name: string, makeStore: () => SessionStore | Promise<SessionStore>, options: { countsSize?: boolean } = {}): void {
  describe(`SessionStore contract: ${name}`, () => {
    const open: SessionStore[] = [];
    const fresh: FreshStore = async () => {
      const s = await makeStore();
      open.push(s);
      return s;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });
    windowModelCases(fresh);
    recordCases(fresh, options);
    windowExampleCases(fresh);
    lifetimeCases(fresh);
    claimCases(fresh);
  });
}

/** create/get/commit/delete/size round trips, the record returned field for field. */
export function recordCases(fresh: FreshStore, options: { countsSize?: boolean }): void {
  it('create then get returns the record field for field', async () => {
    const store = await fresh();
    const now = Date.now();
    const s = sampleSession(now);
    await store.create(s);
    const got = await store.get(s.id, now + 1);
    expect(got).not.toBeNull();
    expect(got!.id).toBe(s.id);
    expect(Array.from(got!.secret)).toEqual(Array.from(s.secret));
    expect(got!.meta).toEqual(s.meta);
    expect(got!.epoch).toBe(0);
    expect(got!.createdAt).toBe(s.createdAt);
    expect(got!.expiresAt).toBe(s.expiresAt);
    expect(got!.idleTimeoutMs).toBe(s.idleTimeoutMs);
    expect(got!.lastSeenAt).toBe(now);
  });

  it('keeps its own copy of the secret (the caller may wipe its array)', async () => {
    const store = await fresh();
    const now = Date.now();
    const s = sampleSession(now);
    const expected = Array.from(s.secret);
    await store.create(s);
    s.secret.fill(0);
    const got = await store.get(s.id, now);
    expect(Array.from(got!.secret)).toEqual(expected);
  });

  it('unknown sessions: get null, commit "unknown", update/delete false', async () => {
    const store = await fresh();
    const id = sessionId();
    expect(await store.get(id, Date.now())).toBeNull();
    expect(await store.commit(id, 1n, Date.now())).toEqual({ ok: false, reason: 'unknown' });
    expect(await store.update(id, { epoch: 1 })).toBe(false);
    expect(await store.delete(id)).toBe(false);
  });

  it('commit accepts, returns the session with lastSeenAt = now, and get sees it', async () => {
    const store = await fresh();
    const t = Date.now();
    const s = sampleSession(t);
    await store.create(s);
    const r = await store.commit(s.id, 1n, t + 10);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.session.id).toBe(s.id);
    expect(Array.from(r.session.secret)).toEqual(Array.from(s.secret));
    expect(r.session.meta).toEqual(s.meta);
    expect(r.session.lastSeenAt).toBe(t + 10);
    expect(r.session.expiresAt).toBe(s.expiresAt);
    expect((await store.get(s.id, t + 20))!.lastSeenAt).toBe(t + 10);
  });

  it('delete removes the session', async () => {
    const store = await fresh();
    const t = Date.now();
    const s = sampleSession(t);
    await store.create(s);
    expect(await store.delete(s.id)).toBe(true);
    expect(await store.get(s.id, t)).toBeNull();
    expect(verdict(await store.commit(s.id, 1n, t))).toBe('unknown');
    expect(await store.delete(s.id)).toBe(false);
  });

  (options.countsSize === false ? it.skip : it)('size counts live sessions', async () => {
    const store = await fresh();
    const t = Date.now();
    const ids = [sampleSession(t), sampleSession(t), sampleSession(t)];
    for (const s of ids) await store.create(s);
    expect(await store.size()).toBe(3);
    await store.delete(ids[0]!.id);
    expect(await store.size()).toBe(2);
  });
}

/** Idle timeout, absolute expiry and update (which may move the expiry), judged by the caller's `now`. */
export function lifetimeCases(fresh: FreshStore): void {
  it('idle timeout runs from the last commit', async () => {
    const store = await fresh();
    const t = Date.now();
    const s = sampleSession(t, { idleMs: 1000 });
    await store.create(s);
    expect(verdict(await store.commit(s.id, 1n, t + 900))).toBe('ok');
    expect(verdict(await store.commit(s.id, 2n, t + 1800))).toBe('ok'); // 900 ms after the last commit
    expect(await store.get(s.id, t + 2799)).not.toBeNull();
    expect(await store.get(s.id, t + 2801)).toBeNull();
    expect(['expired', 'unknown']).toContain(verdict(await store.commit(s.id, 3n, t + 2801)));
    expect(['expired', 'unknown']).toContain(verdict(await store.commit(s.id, 4n, t + 2802)));
  });

  it('absolute expiry holds however active the session is', async () => {
    const store = await fresh();
    const t = Date.now();
    const s = sampleSession(t, { ttlMs: 3000, idleMs: 1000 });
    await store.create(s);
    for (let i = 1; i <= 5; i++) expect(verdict(await store.commit(s.id, BigInt(i), t + i * 500))).toBe('ok');
    expect(verdict(await store.commit(s.id, 6n, t + 2999))).toBe('ok');
    // the first look after expiry says "expired"; later ones may say "unknown" (deleted)
    expect(verdict(await store.commit(s.id, 7n, t + 3001))).toBe('expired');
    expect(await store.get(s.id, t + 3001)).toBeNull();
  });

  it('update replaces secret/meta/epoch/expiresAt and keeps the replay window', async () => {
    const store = await fresh();
    const t = Date.now();
    const s = sampleSession(t);
    await store.create(s);
    expect(verdict(await store.commit(s.id, 5n, t))).toBe('ok');
    const secret2 = new Uint8Array(32).fill(0xab);
    expect(await store.update(s.id, { secret: secret2, epoch: 1, meta: { keyId: 'k2' } })).toBe(true);
    let got = await store.get(s.id, t);
    expect(Array.from(got!.secret)).toEqual(Array.from(secret2));
    expect(got!.epoch).toBe(1);
    expect(got!.meta).toEqual({ keyId: 'k2' });
    expect(verdict(await store.commit(s.id, 5n, t))).toBe('replay');
    // epoch alone, then secret alone, then expiry alone
    expect(await store.update(s.id, { epoch: 2 })).toBe(true);
    got = await store.get(s.id, t);
    expect(got!.epoch).toBe(2);
    expect(Array.from(got!.secret)).toEqual(Array.from(secret2));
    const secret3 = new Uint8Array(48).fill(0x5c);
    expect(await store.update(s.id, { secret: secret3 })).toBe(true);
    got = await store.get(s.id, t);
    expect(got!.epoch).toBe(2);
    expect(Array.from(got!.secret)).toEqual(Array.from(secret3));
    expect(await store.update(s.id, { expiresAt: t + 100 })).toBe(true);
    expect((await store.get(s.id, t + 99))!.expiresAt).toBe(t + 100);
    expect(verdict(await store.commit(s.id, 6n, t + 101))).toBe('expired');
    expect(await store.get(s.id, t + 101)).toBeNull();
  });
}
