/**
 * Saturation search: ramp the concurrency step by step until the p99 latency exceeds a budget
 * (default 100 ms) or errors appear, and report the knee — the highest step (and the throughput
 * there) still inside the budget. `findKnee` is the pure rule, `rampUntilSaturated` the runner
 * (it stops at the first step that breaks the budget, so an overloaded cell costs one step more,
 * not the whole ramp).
 *
 * Pitfalls: closed-loop p99 under overload is optimistic (coordinated omission), so the knee is an
 * upper bound of the sustainable load; a step with zero completed requests counts as broken.
 */

/** Why a step is outside the budget, or null when it is inside. */
export function breach(step, budgetP99Ms) {
  if (!step) return 'no data';
  if ((step.errors ?? 0) > 0) return `errors (${step.errors})`;
  if (!(step.requests > 0)) return 'no completed requests';
  if (!Number.isFinite(step.p99Ms)) return 'no p99';
  if (step.p99Ms > budgetP99Ms) return `p99 ${step.p99Ms} ms > ${budgetP99Ms} ms`;
  return null;
}

/**
 * @param {Array<{ concurrency: number, rps: number, p99Ms: number, errors: number, requests: number }>} steps
 * @param {{ budgetP99Ms?: number }} [o]
 * @returns {{ budgetP99Ms: number, knee: null | { concurrency: number, rps: number, p99Ms: number },
 *   peakInBudget: null | { concurrency: number, rps: number, p99Ms: number },
 *   brokeAt: null | { concurrency: number, reason: string }, saturated: boolean }}
 *   knee: the last step before the first breach; peakInBudget: the highest req/s among the steps
 *   up to the knee (throughput may flatten or dip before p99 breaks); saturated: a breach was seen
 *   (otherwise the knee is a lower bound: the ramp ended first).
 */
export function findKnee(steps, { budgetP99Ms = 100 } = {}) {
  const sorted = [...steps].sort((a, b) => a.concurrency - b.concurrency);
  let knee = null;
  let peak = null;
  let brokeAt = null;
  for (const s of sorted) {
    const why = breach(s, budgetP99Ms);
    if (why) {
      brokeAt = { concurrency: s.concurrency, reason: why };
      break;
    }
    knee = { concurrency: s.concurrency, rps: s.rps, p99Ms: s.p99Ms };
    if (!peak || s.rps > peak.rps) peak = { concurrency: s.concurrency, rps: s.rps, p99Ms: s.p99Ms };
  }
  return { budgetP99Ms, knee, peakInBudget: peak, brokeAt, saturated: brokeAt !== null };
}

/**
 * Measure each step in turn (ascending) until `stop(step)` says the budget broke.
 * @param {object} o
 * @param {number[]} o.ramp concurrency steps
 * @param {(concurrency: number) => Promise<object>} o.measure returns the step record
 * @param {(step: object) => boolean} o.broken
 * @param {(step: object) => void} [o.onStep]
 */
export async function rampUntilSaturated({ ramp, measure, broken, onStep }) {
  const steps = [];
  for (const c of [...ramp].sort((a, b) => a - b)) {
    const step = await measure(c);
    steps.push(step);
    onStep?.(step);
    if (broken(step)) break;
  }
  return steps;
}
