/**
 * Window statistics for bench/memory-attribution.js: per mode, the median and spread (min..max)
 * of the windows' changes, and the least-squares trend of the levels its windows end at, against
 * the requests of that mode so far (growth per 100,000 requests). The trend is what accumulates;
 * the median change is the working-set step a window of this mode brings after the other mode.
 *
 * Pitfall: a single window's change is noisy (V8 grows or gives back heap pages by allocation rate,
 * glibc arenas by thread timing), so a verdict from one window, or from the sum of few, can flip
 * between runs; read the median and spread, and the trend over several windows (`--rounds 8`).
 */
import { slope } from './memory.js';

const MiB = 2 ** 20;
/** The fields summarised per window (bytes). */
export const WINDOW_FIELDS = ['rss', 'heapTotal', 'gcHeapUsed', 'mallocArenas', 'wasmCommitted'];

/** One window: its changes, the levels it ended at, and the mode's requests so far. */
export function windowRecord(before, after, requestsSoFar) {
  const w = { requests: requestsSoFar, delta: {}, end: {} };
  for (const f of WINDOW_FIELDS) {
    const a = after[f];
    const b = before[f];
    w.delta[f] = typeof a === 'number' && typeof b === 'number' ? a - b : null;
    w.end[f] = typeof a === 'number' ? a : null;
  }
  return w;
}

export function median(xs) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((x, y) => x - y);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** Per field: median / min / max of the windows' changes, median end level, trend per 100,000 requests (bytes). */
export function windowStats(perWindow) {
  const out = {};
  for (const f of WINDOW_FIELDS) {
    const d = perWindow.map((w) => w.delta[f]).filter((x) => typeof x === 'number');
    const levels = perWindow.filter((w) => typeof w.end[f] === 'number').map((w) => [w.requests, w.end[f]]);
    const k = slope(levels);
    out[f] = {
      windows: d.length,
      medianDelta: median(d),
      minDelta: d.length ? Math.min(...d) : null,
      maxDelta: d.length ? Math.max(...d) : null,
      medianLevel: median(levels.map(([, y]) => y)),
      trendPer100k: k === null ? null : k * 100_000,
    };
  }
  return out;
}

const mib = (b) => (typeof b === 'number' ? (b / MiB).toFixed(1) : '–');

/** Markdown table of the window statistics (MiB) of every run and mode. */
export function statsTable(runs) {
  const lines = [
    '| run | mode | windows | RSS change per window: median (min..max) | RSS level: median | RSS trend per 100k requests | heapTotal change: median (min..max) | live heap trend per 100k |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of runs)
    for (const [mode, m] of Object.entries(r.modes)) {
      const st = m.stats;
      if (!st) continue;
      const { rss, heapTotal, gcHeapUsed } = st;
      lines.push(
        `| ${r.label} | ${mode} | ${rss.windows} | ${mib(rss.medianDelta)} (${mib(rss.minDelta)}..${mib(rss.maxDelta)}) | ${mib(rss.medianLevel)} | ${mib(rss.trendPer100k)} | ${mib(heapTotal.medianDelta)} (${mib(heapTotal.minDelta)}..${mib(heapTotal.maxDelta)}) | ${mib(gcHeapUsed.trendPer100k)} |`,
      );
    }
  return `${lines.join('\n')}\n(MiB; trend: least-squares slope of the levels the mode's windows end at, per 100,000 requests of that mode)`;
}

/**
 * The target's verdict on accumulation, robust to window noise: the encrypted RSS trend (growth of
 * the levels its windows end at, scaled to its requests) ≤ the plain one, with 1 MiB of slack.
 * The working-set step between the modes (median level, encrypted minus plain: V8's heap sized by
 * the allocation rate) is returned beside it: a cost, not growth. Null when a mode is missing or
 * the request counts differ.
 */
export function robustVerdict(run) {
  const p = run.modes?.plain;
  const e = run.modes?.encrypted;
  if (!p?.stats || !e?.stats || p.requests !== e.requests) return null;
  const pr = p.stats.rss;
  const er = e.stats.rss;
  if (pr.trendPer100k === null || er.trendPer100k === null) return null;
  const scale = e.requests / 100_000;
  return {
    requests: e.requests,
    plainTrendMiB: (pr.trendPer100k * scale) / MiB,
    encryptedTrendMiB: (er.trendPer100k * scale) / MiB,
    plainMedianMiB: pr.medianDelta / MiB,
    encryptedMedianMiB: er.medianDelta / MiB,
    stepMiB: (er.medianLevel - pr.medianLevel) / MiB,
    ok: er.trendPer100k * scale <= pr.trendPer100k * scale + MiB,
  };
}
