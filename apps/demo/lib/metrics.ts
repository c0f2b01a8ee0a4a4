/**
 * Process-wide counters for the bench-only metrics route (GET /api/bench/metrics, enabled by
 * NEN_BENCH_METRICS=1). Kept on `globalThis` so every route bundle counts into one object.
 *
 * Pitfall: bounded: counter names come from a fixed set in code or from Nen's logger event names,
 * capped at MAX_COUNTERS distinct keys so hostile input can never grow the map.
 */
const MAX_COUNTERS = 64;
const KEY = Symbol.for('nen.demo.counters');
const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, number> };
const counters: Map<string, number> = (holder[KEY] ??= new Map());

export function count(name: string, by = 1): void {
  const current = counters.get(name);
  if (current === undefined && counters.size >= MAX_COUNTERS) return;
  counters.set(name, (current ?? 0) + by);
}

export function snapshot(): Record<string, number> {
  return Object.fromEntries(counters);
}
