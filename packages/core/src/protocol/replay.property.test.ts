/**
 * Property-based test (fast-check) of the anti-replay window (RFC 4303 §3.4.3 style;
 * THREAT_MODEL.md property 7) against a reference model that remembers every accepted sequence
 * number in a Set:
 *
 *  - no sequence number is ever accepted twice;
 *  - a sequence number inside the window (highest - W < seq) that was never accepted is accepted;
 *  - a sequence number at or below highest - W, and 0, are rejected ('too-old');
 *  - `check` alone never changes state (the window advances only after the AEAD check);
 *  - memory is bounded: the bitmap stays W bits whatever the traffic (the model's Set grows, the
 *    window does not), including near 2^64 - 1.
 *
 * Pitfall: sequences are generated around a moving "highest" so that they hit the interesting
 * region (inside the window, its edge, just past it) rather than being uniformly random u64s.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW_WIDTH, ReplayWindow } from './replay.js';

const W = BigInt(REPLAY_WINDOW_WIDTH);
const U64_MAX = (1n << 64n) - 1n;

class Model {
  readonly seen = new Set<bigint>();
  highest = 0n;
  verdict(seq: bigint): 'ok' | 'replay' | 'too-old' {
    if (seq < 1n) return 'too-old';
    if (this.seen.has(seq)) return seq + W <= this.highest ? 'too-old' : 'replay';
    if (seq + W <= this.highest) return 'too-old';
    return 'ok';
  }
  accept(seq: bigint): void {
    this.seen.add(seq);
    if (seq > this.highest) this.highest = seq;
  }
}

/** A step: a delta relative to the current highest (negative = older), and whether the AEAD passed. */
const arbStep = fc.record({
  delta: fc.oneof(
    fc.integer({ min: -40, max: 40 }),
    fc.integer({ min: -REPLAY_WINDOW_WIDTH - 3, max: -REPLAY_WINDOW_WIDTH + 3 }),
    fc.integer({ min: -2 * REPLAY_WINDOW_WIDTH, max: 2 * REPLAY_WINDOW_WIDTH }),
    fc.integer({ min: 1, max: 70 }).map((n) => n * 31), // shifts across word boundaries
  ),
  authentic: fc.boolean(),
});

function run(start: bigint, steps: ReadonlyArray<{ delta: number; authentic: boolean }>): void {
  const w = new ReplayWindow();
  const m = new Model();
  const bitsLength = w.bits.length;
  const base = start;
  for (const { delta, authentic } of steps) {
    let seq = (m.highest === 0n ? base : m.highest) + BigInt(delta);
    if (seq > U64_MAX) seq = U64_MAX;
    if (seq < 0n) seq = 0n;
    const before = { highest: w.highest, bits: w.bits.slice() };
    const v = w.check(seq);
    expect(v).toBe(m.verdict(seq));
    // check alone changes nothing
    expect(w.highest).toBe(before.highest);
    expect(w.bits).toEqual(before.bits);
    if (v === 'ok' && authentic) {
      w.accept(seq);
      m.accept(seq);
    }
    expect(w.highest).toBe(m.highest);
    expect(w.bits.length).toBe(bitsLength);
  }
  // Every accepted number is now refused, and every unseen number inside the window is accepted.
  for (const s of m.seen) expect(w.check(s)).not.toBe('ok');
  const lo = m.highest > W ? m.highest - W + 1n : 1n;
  for (let s = lo; s <= m.highest + 2n && s <= U64_MAX; s++) {
    if (!m.seen.has(s)) expect(w.check(s)).toBe('ok');
  }
}

describe('ReplayWindow against a reference model', () => {
  it('agrees with the model for random walks from small sequence numbers', () => {
    fc.assert(
      fc.property(fc.array(arbStep, { minLength: 1, maxLength: 300 }), (steps) => run(1n, steps)),
      { numRuns: 200 },
    );
  });

  it('agrees with the model near 2^64 - 1', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: U64_MAX - 3000n, max: U64_MAX }), fc.array(arbStep, { minLength: 1, maxLength: 200 }), (start, steps) => run(start, steps)),
      { numRuns: 100 },
    );
  });

  it('checkAndAccept never accepts a duplicate within a long stream of replays', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 2000 }), (seqs) => {
        const w = new ReplayWindow();
        const accepted = new Set<number>();
        for (const s of seqs) {
          if (w.checkAndAccept(BigInt(s)) === 'ok') {
            expect(accepted.has(s)).toBe(false);
            accepted.add(s);
          }
        }
        expect(w.bits.length).toBe(REPLAY_WINDOW_WIDTH / 32);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects 0 and everything at or past the window edge', () => {
    const w = new ReplayWindow();
    expect(w.check(0n)).toBe('too-old');
    w.accept(5000n);
    expect(w.check(5000n - W)).toBe('too-old');
    expect(w.check(5000n - W + 1n)).toBe('ok');
    expect(w.check(5000n)).toBe('replay');
  });
});
