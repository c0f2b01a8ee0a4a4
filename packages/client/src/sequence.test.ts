/**
 * Flow control against the server's replay window: numbers are unique and increasing, and a new
 * number never runs a full window ahead of the oldest one still in flight (which the server would
 * then reject as too old).
 */
import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW_WIDTH } from '@nen/core';
import { SequenceCounter } from './sequence.js';

describe('SequenceCounter', () => {
  it('hands out 1, 2, 3, … at once while the window allows', () => {
    const c = new SequenceCounter();
    expect([c.acquire(), c.acquire(), c.acquire()]).toEqual([1n, 2n, 3n]);
    c.release(2n);
    expect(c.inFlight).toBe(2);
    c.release(1n);
    c.release(3n);
    expect(c.inFlight).toBe(0);
  });

  it('never lets a number run a window ahead of the oldest one in flight', async () => {
    const c = new SequenceCounter();
    const stalled = c.acquire() as bigint; // 1, never answered for a while
    const got: bigint[] = [];
    let waiting: Promise<bigint> | undefined;
    // Many later requests complete while the first one stalls.
    for (let i = 0; i < 5 * REPLAY_WINDOW_WIDTH; i++) {
      const r = c.acquire();
      if (typeof r !== 'bigint') {
        waiting = r; // must wait now
        break;
      }
      got.push(r);
      c.release(r);
    }
    const last = got[got.length - 1]!;
    expect(last - stalled).toBeLessThan(BigInt(REPLAY_WINDOW_WIDTH));
    expect(waiting).toBeInstanceOf(Promise);
    if (!waiting) return;
    let woke: bigint | undefined;
    void waiting.then((v) => (woke = v));
    await Promise.resolve();
    expect(woke).toBeUndefined();
    c.release(stalled); // the stalled request got its answer: the waiter proceeds
    expect(await waiting).toBe(last + 1n);
  });

  it('wakes waiters in order and honours their AbortSignal', async () => {
    const c = new SequenceCounter();
    const first = c.acquire() as bigint;
    let r: bigint | Promise<bigint>;
    while (typeof (r = c.acquire()) === 'bigint') c.release(r);
    const a = r as Promise<bigint>;
    const ac = new AbortController();
    const b = c.acquire(ac.signal) as Promise<bigint>;
    const d = c.acquire() as Promise<bigint>;
    ac.abort(new Error('stop'));
    await expect(b).rejects.toThrow('stop');
    c.release(first);
    const [va, vd] = await Promise.all([a, d]);
    expect(vd).toBe(va + 1n);
  });

  it('ignores a double or unknown release', () => {
    const c = new SequenceCounter();
    const one = c.acquire() as bigint;
    c.release(one);
    c.release(one);
    c.release(99n);
    expect(c.inFlight).toBe(0);
    expect(c.acquire()).toBe(2n);
  });

  it('releases in any order (oldest first or not, doubles included) leave exactly the unreleased numbers in flight', () => {
    let x = 12345; // mulberry32: a reproducible sequence
    const rnd = (n: number) => {
      x = (x + 0x6d2b79f5) | 0;
      let t = Math.imul(x ^ (x >>> 15), 1 | x);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    let maxLive = 0;
    let outOfOrder = 0;
    const c = new SequenceCounter();
    const live = new Set<bigint>();
    for (let step = 0; step < 20_000; step++) {
      if (live.size < 500 && rnd(2) === 0) {
        const seq = c.acquire() as bigint;
        expect(typeof seq).toBe('bigint');
        live.add(seq);
      } else if (live.size > 0) {
        const all = [...live];
        let oldest = all[0]!;
        for (const v of all) if (v < oldest) oldest = v;
        const seq = rnd(3) === 0 ? oldest : all[rnd(all.length)]!;
        if (seq !== oldest) outOfOrder++;
        c.release(seq);
        live.delete(seq);
        if (rnd(4) === 0) c.release(seq); // a double release changes nothing
      }
      expect(c.inFlight).toBe(live.size);
      maxLive = Math.max(maxLive, live.size);
    }
    expect(maxLive).toBeGreaterThan(20);
    expect(outOfOrder).toBeGreaterThan(1000);
  });
});
