/**
 * The SessionStore contract as a reusable vitest suite: `storeContract(name, makeStore)` runs the
 * same behavioural tests against any store (memory, Redis standalone, Redis Cluster); sample
 * sessions and the reference replay window come from ./store-samples.ts.
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
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../src/stores/types.js';
import { ReferenceWindow, sampleSession, sessionId } from './store-samples.js';

export { ReferenceWindow, sampleSession, sessionId } from './store-samples.js';

const U64_MAX = (1n << 64n) - 1n;

function verdict(r: Awaited<ReturnType<SessionStore['commit']>>): string {
  return r.ok ? 'ok' : r.reason;
}

/** `countsSize: false` for stores whose `size()` cannot count (the Durable Object store: sessions spread over objects). */
export function storeContract(name: string, makeStore: () => SessionStore | Promise<SessionStore>, options: { countsSize?: boolean } = {}): void {
  describe(`SessionStore contract: ${name}`, () => {
    const open: SessionStore[] = [];
    const fresh = async () => {
      const s = await makeStore();
      open.push(s);
      return s;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });

    it('retries (PROTOCOL.md §7.1): consumeRetry marks an unseen seq, reports a committed one, survives death as a tombstone; unconfirmed sessions leave nothing', async () => {
      const store = await fresh();
      const now = Date.now();
      const s = sampleSession(now);
      await store.create(s);
      expect((await store.commit(s.id, 5n, now)).ok).toBe(true);
      expect(await store.consumeRetry!(s.id, 5n, now)).toBe('committed');
      expect(await store.consumeRetry!(s.id, 6n, now)).toBe('marked');
      expect(await store.commit(s.id, 6n, now)).toEqual({ ok: false, reason: 'replay' }); // the original can never commit now
      expect(await store.consumeRetry!(sessionId(), 1n, now)).toBe('absent');
      // terminated (deleted): the window stays as a tombstone; the session is gone
      expect(await store.delete(s.id)).toBe(true);
      expect(await store.get(s.id, now)).toBeNull();
      expect((await store.commit(s.id, 7n, now)).ok).toBe(false);
      expect(await store.consumeRetry!(s.id, 5n, now)).toBe('committed');
      expect(await store.consumeRetry!(s.id, 8n, now)).toBe('marked');
      // an unconfirmed session past confirmBy is gone: no commit, no tombstone
      const u = { ...sampleSession(now), confirmBy: now + 50 };
      await store.create(u);
      expect(await store.get(u.id, now + 60)).toBeNull();
      expect((await store.commit(u.id, 1n, now + 60)).ok).toBe(false);
      expect(await store.consumeRetry!(u.id, 1n, now + 60)).toBe('absent');
      // a request under an epoch that is not live is refused without marking its seq
      const e = sampleSession(now);
      await store.create(e);
      expect(await store.commit(e.id, 1n, now, 3)).toEqual({ ok: false, reason: 'epoch' });
      expect(await store.consumeRetry!(e.id, 1n, now)).toBe('marked');
    });

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

    it('window: replay, in-window out-of-order, too-old, seq 0, big jumps', async () => {
      const store = await fresh();
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      const c = async (seq: bigint) => verdict(await store.commit(s.id, seq, t));
      expect(await c(0n)).toBe('too-old');
      expect(await c(1n)).toBe('ok');
      expect(await c(1n)).toBe('replay');
      expect(await c(3n)).toBe('ok');
      expect(await c(2n)).toBe('ok'); // out of order, inside the window
      expect(await c(2n)).toBe('replay');
      expect(await c(2000n)).toBe('ok');
      expect(await c(976n)).toBe('too-old'); // 2000 - 976 = 1024
      expect(await c(977n)).toBe('ok'); // 2000 - 977 = 1023: last slot of the window
      expect(await c(977n)).toBe('replay');
      expect(await c(1999n)).toBe('ok');
      expect(await c(5000n)).toBe('ok'); // jump >= 1024 clears the window
      expect(await c(1999n)).toBe('too-old');
      expect(await c(3977n)).toBe('ok');
      expect(await c(4999n)).toBe('ok');
      expect(await c(5000n)).toBe('replay');
      expect(await c(5001n)).toBe('ok'); // a jump of 1: the slot of 5001 - 1024 = 3977 is reused
      expect(await c(3977n)).toBe('too-old');
    });

    it('window: a jump shorter than the window frees exactly the slots it passes over', async () => {
      const store = await fresh();
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      const c = async (seq: bigint) => verdict(await store.commit(s.id, seq, t));
      for (let i = 1n; i <= 10n; i++) expect(await c(i)).toBe('ok');
      expect(await c(600n)).toBe('ok');
      expect(await c(1030n)).toBe('ok'); // passes over 1025..1029, which share slots with 1..5
      for (let i = 1025n; i <= 1029n; i++) expect(await c(i)).toBe('ok');
      expect(await c(7n)).toBe('replay'); // 1030 - 7 = 1023: still inside
      expect(await c(6n)).toBe('too-old');
      expect(await c(600n)).toBe('replay');
      expect(await c(599n)).toBe('ok');
    });

    it('window: full u64 range, and out-of-range seqs are rejected', async () => {
      const store = await fresh();
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      const c = async (seq: bigint) => verdict(await store.commit(s.id, seq, t));
      expect(await c((1n << 53n) + 1n)).toBe('ok');
      expect(await c((1n << 53n) + 2n)).toBe('ok');
      expect(await c((1n << 53n) + 1n)).toBe('replay');
      expect(await c(U64_MAX - 1023n)).toBe('ok');
      expect(await c(U64_MAX)).toBe('ok');
      expect(await c(U64_MAX - 1023n)).toBe('replay');
      expect(await c(U64_MAX - 1024n)).toBe('too-old');
      expect(await c(U64_MAX - 1n)).toBe('ok');
      expect(await c(U64_MAX)).toBe('replay');
      await expect(store.commit(s.id, U64_MAX + 1n, t)).rejects.toThrow();
      await expect(store.commit(s.id, -1n, t)).rejects.toThrow();
    });

    it('window agrees with the reference model on random sequences', async () => {
      const store = await fresh();
      const t = Date.now();
      await fc.assert(
        fc.asyncProperty(
          fc.bigInt({ min: 1n, max: U64_MAX - 5000n }),
          // runs of small steps fill the bitmap; medium jumps (< 1024) must clear exactly the slots
          // they pass over; back steps probe the window, 0 repeats the highest
          fc.array(
            fc.oneof(
              { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 8 },
              { arbitrary: fc.integer({ min: 4, max: 100 }), weight: 2 },
              { arbitrary: fc.integer({ min: 300, max: 1023 }), weight: 2 },
              { arbitrary: fc.integer({ min: 1024, max: 1300 }), weight: 1 },
              { arbitrary: fc.integer({ min: -1100, max: -1 }), weight: 4 },
              { arbitrary: fc.integer({ min: -40, max: -1 }), weight: 2 },
              { arbitrary: fc.constant(0), weight: 1 },
            ),
            { minLength: 120, maxLength: 200 },
          ),
          async (base, steps) => {
            const s = sampleSession(t);
            await store.create(s);
            const model = new ReferenceWindow();
            // Walk around a moving point: steps are offsets from the highest accepted so far.
            for (const step of steps) {
              let seq = (model.highest === 0n ? base : model.highest) + BigInt(step);
              if (seq < 0n) seq = 0n;
              if (seq > U64_MAX) seq = U64_MAX;
              const want = model.commit(seq);
              const got = verdict(await store.commit(s.id, seq, t));
              if (got !== want) throw new Error(`seq ${seq}: store says ${got}, model says ${want}`);
            }
            await store.delete(s.id);
          },
        ),
        { numRuns: 60 },
      );
    }, 60_000);

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

    it('a new session starts with an empty window', async () => {
      const store = await fresh();
      const t = Date.now();
      const a = sampleSession(t);
      const b = sampleSession(t);
      await store.create(a);
      await store.create(b);
      expect(verdict(await store.commit(a.id, 1n, t))).toBe('ok');
      expect(verdict(await store.commit(b.id, 1n, t))).toBe('ok');
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

    it('200 concurrent commits of one (id, seq): exactly one ok; distinct seqs all ok', async () => {
      const store = await fresh();
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      const same = await Promise.all(Array.from({ length: 200 }, () => store.commit(s.id, 42n, t)));
      expect(same.filter((r) => r.ok)).toHaveLength(1);
      expect(same.filter((r) => !r.ok && r.reason === 'replay')).toHaveLength(199);
      const distinct = await Promise.all(Array.from({ length: 200 }, (_, i) => store.commit(s.id, BigInt(100 + i), t)));
      expect(distinct.every((r) => r.ok)).toBe(true);
    });

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
  });
}
