/**
 * The statistics every stage reports with (lib/stats.js: nearest-rank percentiles, median, mean,
 * ratios, rounding) and the memory sampler's slope and summary (lib/memory.js), on known data.
 */
import { describe, expect, it } from 'vitest';
import { percentile, percentileSorted, median, mean, summarize, ratio, round } from '../lib/stats.js';
import { slope, summarizeMemory } from '../lib/memory.js';

describe('stats', () => {
  const data = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted (descending)

  it('nearest-rank percentiles on known data', () => {
    expect(percentile(data, 50)).toBe(50);
    expect(percentile(data, 90)).toBe(90);
    expect(percentile(data, 99)).toBe(99);
    expect(percentile(data, 100)).toBe(100);
    expect(percentile(data, 0)).toBe(1);
    expect(percentile([5], 99)).toBe(5);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 51)).toBe(3);
    expect(percentileSorted([], 50)).toBeNull();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it('median interpolates even counts and does not mutate its input', () => {
    const input = [3, 1, 4, 2];
    expect(median(input)).toBe(2.5);
    expect(input).toEqual([3, 1, 4, 2]);
    expect(median([7, 1, 5])).toBe(5);
    expect(median([])).toBeNull();
    expect(mean([1, 2, 3, 6])).toBe(3);
  });

  it('sorts numerically, not lexicographically', () => {
    expect(percentile([10, 9, 100, 2], 100)).toBe(100);
    expect(median([10, 9, 100, 2])).toBe(9.5);
  });

  it('summarize reports n, min, p50, p90, p99, max, mean', () => {
    expect(summarize(data)).toEqual({ n: 100, min: 1, p50: 50, p90: 90, p99: 99, max: 100, mean: 50.5 });
    expect(summarize([])).toEqual({ n: 0, min: null, p50: null, p90: null, p99: null, max: null, mean: null });
  });

  it('ratio and round handle missing values', () => {
    expect(ratio(1, 2)).toBe(0.5);
    expect(ratio(1, 0)).toBeNull();
    expect(ratio(null, 2)).toBeNull();
    expect(round(1.23456, 2)).toBe(1.23);
  });

  it('memory growth is a least-squares slope per 1,000 requests', () => {
    expect(
      slope([
        [0, 1],
        [1, 3],
        [2, 5],
      ]),
    ).toBe(2);
    expect(slope([[1, 1]])).toBeNull();
    const samples = Array.from({ length: 50 }, (_, i) => ({
      t: i,
      target: 'a',
      requests: i * 1000,
      rss: 100 * 2 ** 20 + i * 1024 * 10,
      heapUsed: 50 * 2 ** 20,
      sessions: 1,
    }));
    const s = summarizeMemory(samples, ['a', 'b']);
    expect(s.a.rssGrowthKiBPer1000Requests).toBe(10);
    expect(s.a.heapGrowthKiBPer1000Requests).toBe(0);
    expect(s.b.samples).toBe(0);
  });
});
