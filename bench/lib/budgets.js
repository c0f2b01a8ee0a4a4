/**
 * Budgets: the key figures of a run (one flat, named set, `keyFigures`), the limits of
 * bench/budgets.json checked on them, and the comparison with a saved earlier run (`--baseline
 * FILE`: a summary.json, a history line, or a history file whose last line is taken).
 *
 * A figure moves "the bad way" when it falls (better: higher) or rises (better: lower); the
 * comparison fails when it moved more than `tolerance` (relative to the baseline) plus `slack`
 * (absolute, for figures near zero such as memory growth). Missing figures on either side are
 * reported as "not compared", never as a pass or a failure.
 *
 * Pitfall: on a shared 2-core machine req/s wanders by ~5-10 % between runs; ratios from
 * interleaved slices of the same run are steadier, which is why their tolerances are tighter.
 */
import fs from 'node:fs';
import path from 'node:path';
import { benchDir } from './env.js';
import { ratio } from './stats.js';

export const DEFAULT_BUDGETS_FILE = path.join(benchDir, 'budgets.json');

const worst = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x));
  return v.length ? Math.max(...v) : null;
};

/**
 * The named figures of a run, from the stage results (any stage may be missing → null).
 * @param {Record<string, any>} stages stage envelopes (with .data)
 */
export function keyFigures(stages) {
  const levels = stages.load?.data?.levels ?? [];
  const l50 = levels.find((l) => l.concurrency === 50) ?? null;
  const variants = stages.load?.data?.variants ?? [];
  const v = (id) => variants.find((x) => x.id === id) ?? null;
  const cases = stages.payload?.data?.cases ?? [];
  const pc = (kind, size) => cases.find((c) => c.kind === kind && c.size === size) ?? null;
  const hs = stages.scenarios?.data?.handshakes?.levels ?? [];
  const hs50 = hs.find((l) => l.concurrency === 50) ?? null;
  const memByTarget = Object.values(stages.memory?.data?.summary ?? {});
  const loadMem = memByTarget.map((m) => m?.byStage?.load).filter(Boolean);
  const sat = stages.saturation?.data?.payloads ?? [];
  const knee = (size) => sat.find((p) => p.size === size)?.knee?.encrypted?.knee ?? null;
  return {
    encryptedRps1k: l50?.encrypted.rps ?? null,
    plainRps1k: l50?.plain.rps ?? null,
    rpsRatio1k: l50?.ratio.rps ?? null,
    p99Ratio1k: l50?.ratio.p99 ?? null,
    encryptedP99Ms1k: l50?.encrypted.latencyMs.p99 ?? null,
    serverCpuRatio1k: l50?.ratio.serverCpuPerRequest ?? null,
    rpsRatio1kPinned: v('1k-off-pinned')?.ratio.rps ?? null,
    rpsRatio100kPinned: v('100k-off-pinned')?.ratio.rps ?? null,
    serverCpuRatio1kPinned: v('1k-off-pinned')?.ratio.serverCpuPerRequest ?? null,
    rpsRatio1kRealistic: v('1k-realistic-shared')?.ratio.rps ?? null,
    rpsRatio100kRealistic: v('100k-realistic-shared')?.ratio.rps ?? null,
    bytesRatio1kRealistic: v('1k-realistic-shared')?.bytes?.responseRatio ?? null,
    bytesRatio100kRealistic: v('100k-realistic-shared')?.bytes?.responseRatio ?? null,
    handshakesPerSecond: hs50?.handshakesPerSecond ?? null,
    handshakesVsPlain: ratio(hs50?.handshakesPerSecond, l50?.plain.rps),
    handshakesVsPlainPinned: v('handshake-pinned')?.ratio.rps ?? null,
    handshakeServerCpuOverPlainMsPinned: v('handshake-pinned')?.serverCpuMsOverPlain ?? null,
    // which side bounded the pinned handshakes/s: each side's CPU in cores (~1 = its core saturated)
    handshakeServerCoresBusyPinned: v('handshake-pinned')?.coresBusy?.encrypted.server ?? null,
    handshakeGeneratorCoresBusyPinned: v('handshake-pinned')?.coresBusy?.encrypted.generator ?? null,
    wireRatioRandom1k: pc('random', 1024)?.ratios.encryptedVsPlaintext ?? null,
    wireRatioRandom100k: pc('random', 102400)?.ratios.encryptedVsPlaintext ?? null,
    wireCompressedVsGzipJson100k: pc('json', 102400)?.ratios.encryptedCompressedVsPlainGzip ?? null,
    heapGrowthKiBPer1000: worst(loadMem.map((m) => m.heapGrowthKiBPer1000Requests)),
    rssGrowthKiBPer1000: worst(loadMem.map((m) => m.rssGrowthKiBPer1000Requests)),
    kneeConcurrency1k: knee(1024)?.concurrency ?? null,
    kneeRps1k: knee(1024)?.rps ?? null,
    kneeConcurrency100k: knee(102400)?.concurrency ?? null,
    kneeRps100k: knee(102400)?.rps ?? null,
    browserWeightGzip: stages['cold-browser']?.data?.weight?.defaultInitial?.gzip ?? null,
    coldBrowserOverPlainMs: stages['cold-browser']?.data?.extraMs?.nen ?? null,
    coldBrowserOhttpOverPlainMs: stages['cold-browser']?.data?.extraMs?.['nen-ohttp'] ?? null,
    browserStreamTpsRatio: stages['cold-browser']?.data?.stream?.noble?.tokensPerSecondRatio ?? null,
    ohttpColdOverPlainMs: stages.ohttp?.data?.figures?.ohttpColdOverPlainMs ?? null,
    ohttpFloorColdOverPlainMs: stages.ohttp?.data?.figures?.ohttpFloorColdOverPlainMs ?? null,
    ohttpRpsRatio1k: stages.ohttp?.data?.figures?.ohttpRpsRatio1k ?? null,
    ohttpServerCpuUs1k: stages.ohttp?.data?.figures?.ohttpServerCpuUs1k ?? null,
    // issue 23's target: OHTTP to the demo's gateway vs plain on the pinned server (the above: bare-echo floor)
    ohttpRpsRatio1kPinned: v('ohttp-1k-pinned')?.ratio.rps ?? null,
    ohttpServerCpuOverPlainMsPinned: v('ohttp-1k-pinned')?.serverCpuMsOverPlain ?? null,
  };
}

export function loadBudgets(file = DEFAULT_BUDGETS_FILE) {
  const b = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(b.limits) || !b.baseline || typeof b.baseline !== 'object') throw new Error(`bench: ${file}: needs "limits" [] and "baseline" {}`);
  for (const l of b.limits) {
    if (typeof l.figure !== 'string' || (l.min === undefined && l.max === undefined))
      throw new Error(`bench: ${file}: each limit needs "figure" and "min" or "max"`);
  }
  return b;
}

/** Each limit of the budgets against this run's figures. */
export function checkLimits(figures, budgets) {
  return budgets.limits.map((l) => {
    const value = figures[l.figure];
    const known = typeof value === 'number' && Number.isFinite(value);
    const ok = !known ? null : (l.min === undefined || value >= l.min) && (l.max === undefined || value <= l.max);
    return {
      figure: l.figure,
      what: l.what ?? null,
      value: known ? value : null,
      min: l.min ?? null,
      max: l.max ?? null,
      target: l.target ?? null,
      ok,
    };
  });
}

/**
 * This run against a baseline run.
 * @returns {Array<{ figure, baseline, value, change, allowed, better, ok: boolean | null }>}
 *   change: relative change (value / baseline - 1); ok null when either side is missing
 */
export function compareBaseline(figures, baseline, budgets) {
  const def = budgets.baseline.default ?? { better: 'higher', tolerance: 0.15, slack: 0 };
  const out = [];
  for (const [figure, rule0] of Object.entries(budgets.baseline.figures ?? {})) {
    const rule = { ...def, ...rule0 };
    const value = figures[figure];
    const base = baseline[figure];
    const known = [value, base].every((x) => typeof x === 'number' && Number.isFinite(x));
    if (!known) {
      out.push({
        figure,
        baseline: base ?? null,
        value: value ?? null,
        change: null,
        allowed: rule.tolerance,
        better: rule.better,
        ok: null,
      });
      continue;
    }
    const slack = rule.slack ?? 0;
    const ok = rule.better === 'lower' ? value <= base * (1 + rule.tolerance) + slack : value >= base * (1 - rule.tolerance) - slack;
    out.push({
      figure,
      baseline: base,
      value,
      change: base === 0 ? null : Math.round((value / base - 1) * 1000) / 1000,
      allowed: rule.tolerance,
      slack,
      better: rule.better,
      ok,
    });
  }
  return out;
}

/** Figures of a saved run: summary.json (its .figures), a history line, or a history file (last line). */
export function readBaselineFigures(file) {
  const text = fs.readFileSync(file, 'utf8').trim();
  const lines = text.split('\n').filter((l) => l.trim());
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = JSON.parse(lines[lines.length - 1]);
  }
  if (doc?.figures && typeof doc.figures === 'object')
    return {
      figures: doc.figures,
      commit: doc.commit ?? doc.environment?.git?.commit ?? null,
      date: doc.date ?? doc.startedAt ?? null,
    };
  throw new Error(`bench: ${file} has no "figures" (give a summary.json or a bench/results/history line of this bench version)`);
}

/** Console lines for the limits and the baseline comparison. */
export function formatBudgetReport({ limits, baseline }) {
  const lines = [];
  const f = (x) => (x === null || x === undefined ? '–' : String(x));
  if (limits?.length) {
    lines.push('budgets (bench/budgets.json):');
    for (const l of limits) {
      const bound = [l.min !== null ? `>= ${l.min}` : null, l.max !== null ? `<= ${l.max}` : null].filter(Boolean).join(', ');
      lines.push(
        `  ${l.ok === null ? 'n/a ' : l.ok ? 'ok  ' : 'OVER'} ${l.figure.padEnd(30)} ${f(l.value).padEnd(10)} limit ${bound}${l.target !== null ? `, target ${l.target}` : ''}`,
      );
    }
  }
  if (baseline) {
    lines.push(`baseline ${baseline.file} (commit ${f(baseline.commit)?.slice(0, 12)}, ${f(baseline.date)}):`);
    for (const c of baseline.comparison) {
      const ch = c.change === null ? '–' : `${c.change > 0 ? '+' : ''}${Math.round(c.change * 1000) / 10} %`;
      lines.push(
        `  ${c.ok === null ? 'n/a ' : c.ok ? 'ok  ' : 'REGR'} ${c.figure.padEnd(30)} ${f(c.baseline).padEnd(10)} → ${f(c.value).padEnd(10)} ${ch.padEnd(9)} (${c.better} is better, allowed ${Math.round(c.allowed * 100)} %${c.slack ? ` + ${c.slack}` : ''})`,
      );
    }
  }
  return lines.join('\n');
}
