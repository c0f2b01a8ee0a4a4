/**
 * The gateway's decapsulation batches (./batch.ts): a lone call runs inline, calls that follow
 * each other within `busyMs` run back to back at the end of the turn, each with its own result or
 * error, the queue is bounded, and a batch ends the busy spell only after `busyMs` of quiet.
 */
import { describe, expect, it } from 'vitest';
import { createBatcher } from './batch.js';

describe('createBatcher', () => {
  it('a lone call runs inline (a value, no promise); one after idle too', () => {
    let t = 0;
    const b = createBatcher((x: number) => x * 2, { busyMs: 2, now: () => t });
    expect(b.run(1)).toBe(2);
    t = 10;
    expect(b.run(2)).toBe(4);
  });

  it('calls within busyMs are queued and run back to back, in order, each with its own result or error', async () => {
    let t = 0;
    const ran: number[] = [];
    const b = createBatcher(
      (x: number) => {
        ran.push(x);
        if (x === 3) throw new Error(`bad ${x}`);
        return `out ${x}`;
      },
      { busyMs: 2, now: () => t },
    );
    expect(b.run(1)).toBe('out 1'); // the first: inline
    t = 1;
    const queued = [2, 3, 4].map((x) => b.run(x));
    expect(queued.every((p) => p instanceof Promise)).toBe(true);
    expect(ran).toEqual([1]); // nothing of the batch ran yet
    const settled = await Promise.allSettled(queued);
    expect(ran).toEqual([1, 2, 3, 4]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'out 2' },
      { status: 'rejected', reason: new Error('bad 3') },
      { status: 'fulfilled', value: 'out 4' },
    ]);
  });

  it('bounded: the call that fills the queue runs the batch at once', async () => {
    let t = 0;
    let most = 0;
    let pending = 0;
    const b = createBatcher(
      (x: number) => {
        most = Math.max(most, pending);
        pending--;
        return x;
      },
      { busyMs: 5, max: 4, now: () => t },
    );
    b.run(0);
    const ps: (number | Promise<number>)[] = [];
    for (let i = 1; i <= 10; i++) {
      t += 0.1;
      pending++;
      ps.push(b.run(i));
    }
    expect(await Promise.all(ps)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(most).toBeLessThanOrEqual(4);
  });

  it('busyMs 0: always inline', () => {
    const b = createBatcher((x: number) => x + 1, { busyMs: 0, now: () => 0 });
    for (let i = 0; i < 5; i++) expect(b.run(i)).toBe(i + 1);
  });
});
