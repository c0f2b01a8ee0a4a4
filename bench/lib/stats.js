/**
 * Latency statistics for the bench: percentiles by the nearest-rank method (the value at rank
 * ceil(p/100 · n) of the sorted sample, as in most load tools), median by interpolation of the two
 * middle values, mean, and a compact summary object written into every result file.
 *
 * Pitfalls: percentiles of a tiny sample are coarse (p99 of 50 samples is the maximum), so every
 * summary carries its sample count `n`; an empty sample yields nulls, never NaN or a throw;
 * inputs are not mutated (we sort a copy).
 */

/** Sorted ascending copy of a numeric array (Float64Array sort is numeric, not lexicographic). */
export function sortedCopy(values) {
  return Float64Array.from(values).sort();
}

/**
 * Nearest-rank percentile of an already sorted sample. p in [0, 100].
 * @param {ArrayLike<number>} sorted
 * @param {number} p
 * @returns {number | null}
 */
export function percentileSorted(sorted, p) {
  const n = sorted.length;
  if (n === 0) return null;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within [0, 100], got ${p}`);
  if (p === 0) return sorted[0];
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n, Math.max(1, rank)) - 1];
}

/** Nearest-rank percentile of an unsorted sample (not mutated). */
export function percentile(values, p) {
  return percentileSorted(sortedCopy(values), p);
}

/** Median: middle value, or the mean of the two middle values for an even count. */
export function median(values) {
  const s = sortedCopy(values);
  const n = s.length;
  if (n === 0) return null;
  const mid = n >> 1;
  return n % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function mean(values) {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Round to a fixed number of decimals for readable JSON (null passes through). */
export function round(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return x ?? null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * Summary of a latency sample in milliseconds.
 * @param {ArrayLike<number>} latenciesMs
 */
export function summarize(latenciesMs) {
  const s = sortedCopy(latenciesMs);
  const n = s.length;
  return {
    n,
    min: round(n ? s[0] : null),
    p50: round(percentileSorted(s, 50)),
    p90: round(percentileSorted(s, 90)),
    p99: round(percentileSorted(s, 99)),
    max: round(n ? s[n - 1] : null),
    mean: round(mean(s)),
  };
}

/** a / b rounded, or null when either is missing or b is zero. */
export function ratio(a, b, digits = 3) {
  if (a === null || b === null || a === undefined || b === undefined || b === 0) return null;
  return round(a / b, digits);
}
