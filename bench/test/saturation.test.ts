/**
 * The saturation search: the knee rule (last step inside the p99 budget and error-free) and the
 * ramp runner (stops at the first broken step).
 */
import { describe, expect, it } from 'vitest';
import { findKnee, breach, rampUntilSaturated } from '../lib/saturation.js';

const step = (concurrency: number, rps: number, p99Ms: number, errors = 0) => ({ concurrency, rps, p99Ms, errors, requests: 1000 });

describe('findKnee', () => {
  it('is the last step before p99 crosses the budget, with the peak throughput up to it', () => {
    const k = findKnee([step(2, 300, 5), step(8, 900, 20), step(4, 600, 9), step(16, 880, 60), step(32, 870, 140), step(64, 860, 90)], { budgetP99Ms: 100 });
    expect(k.knee).toEqual({ concurrency: 16, rps: 880, p99Ms: 60 });
    expect(k.peakInBudget).toEqual({ concurrency: 8, rps: 900, p99Ms: 20 });
    expect(k.brokeAt).toEqual({ concurrency: 32, reason: 'p99 140 ms > 100 ms' });
    expect(k.saturated).toBe(true);
  });
  it('errors break the budget even with a low p99', () => {
    const k = findKnee([step(2, 300, 5), step(4, 500, 6, 3)]);
    expect(k.knee?.concurrency).toBe(2);
    expect(k.brokeAt?.reason).toMatch(/errors \(3\)/);
  });
  it('no knee when the first step is already over budget; a lower bound when the ramp never breaks', () => {
    expect(findKnee([step(2, 10, 500)], { budgetP99Ms: 100 }).knee).toBeNull();
    const k = findKnee([step(2, 100, 1), step(4, 200, 2)], { budgetP99Ms: 100 });
    expect(k.knee?.concurrency).toBe(4);
    expect(k.saturated).toBe(false);
    expect(findKnee([], {}).knee).toBeNull();
  });
  it('a step without completed requests or p99 is broken', () => {
    expect(breach({ concurrency: 2, rps: 0, p99Ms: null, errors: 0, requests: 0 }, 100)).toMatch(/no completed/);
    expect(breach({ concurrency: 2, rps: 1, p99Ms: null, errors: 0, requests: 1 }, 100)).toMatch(/no p99/);
    expect(breach(step(2, 1, 100), 100)).toBeNull(); // the budget itself is inside
  });
});

describe('rampUntilSaturated', () => {
  it('measures ascending steps and stops at the first broken one', async () => {
    const seen: number[] = [];
    const steps = await rampUntilSaturated({
      ramp: [16, 2, 8, 4, 32],
      measure: async (c: number) => {
        seen.push(c);
        return step(c, c * 10, c * 5);
      },
      broken: (s: { p99Ms: number }) => s.p99Ms > 30,
    });
    expect(seen).toEqual([2, 4, 8]);
    expect(steps.map((s) => s.concurrency)).toEqual([2, 4, 8]);
  });
});
