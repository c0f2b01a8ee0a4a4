/**
 * The SessionStore contract's replay-window cases (./store-contract.ts runs them for every store):
 * worked examples at the window's edges and over the whole u64 range, agreement with the reference
 * model on random sequences (fast-check), concurrent commits, and consumeRetry (PROTOCOL.md §7.1).
 * Pitfall: seqs outside [0, 2^64) must throw, never be accepted or wrapped.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type FreshStore, ReferenceWindow, sampleSession, sessionId, verdict } from './store-samples.js';

const U64_MAX = (1n << 64n) - 1n;

/** Worked examples: replay, out of order, too old, seq 0, jumps, the u64 range, a fresh window per session. */
export function windowExampleCases(fresh: FreshStore): void {
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
}

/** The window against the reference model, under concurrency, and the retry marks (consumeRetry). */
export function windowModelCases(fresh: FreshStore): void {
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
}
