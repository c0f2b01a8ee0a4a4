/**
 * Budgets and baselines: the key figures of a run, the limits of bench/budgets.json, the
 * comparison with a saved run (summary.json, history line, history file) and the exit verdict of
 * run-all.js, plus the history files (one line per run, tracked in git).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFigures, loadBudgets, checkLimits, compareBaseline, readBaselineFigures, formatBudgetReport } from '../lib/budgets.js';
import { historyRecord, writeHistory, readHistory, historyFileName } from '../lib/history.js';
import { applyBudgets } from '../run-all.js';

const dir = mkdtempSync(join(tmpdir(), 'nen-bench-budgets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lat = (p: number) => ({ p50: p, p90: p, p99: p * 2, max: p * 3 });
const mode = (rps: number, p: number, cpu: number) => ({ rps, latencyMs: lat(p), server: { cpuMsPerRequest: cpu }, errors: 0, requests: 100 });
const stages = {
  load: {
    data: {
      levels: [{ concurrency: 50, encrypted: mode(900, 10, 1.1), plain: mode(1000, 9, 1), ratio: { rps: 0.9, p99: 1.11, serverCpuPerRequest: 1.1 } }],
      variants: [
        { id: '1k-off-pinned', ratio: { rps: 0.93, serverCpuPerRequest: 1.05 } },
        { id: '1k-realistic-shared', ratio: { rps: 1.01 }, bytes: { responseRatio: 1.05 } },
      ],
    },
  },
  payload: {
    data: {
      cases: [
        { kind: 'random', size: 1024, ratios: { encryptedVsPlaintext: 1.016 } },
        { kind: 'json', size: 102400, ratios: { encryptedCompressedVsPlainGzip: 1.04 } },
      ],
    },
  },
  scenarios: { data: { handshakes: { levels: [{ concurrency: 50, handshakesPerSecond: 600 }] } } },
  memory: {
    data: {
      summary: {
        a: { byStage: { load: { heapGrowthKiBPer1000Requests: 12, rssGrowthKiBPer1000Requests: 40 } } },
        b: { byStage: { load: { heapGrowthKiBPer1000Requests: 30 } } },
      },
    },
  },
  saturation: { data: { payloads: [{ size: 1024, knee: { encrypted: { knee: { concurrency: 32, rps: 950, p99Ms: 80 } } } }] } },
};

describe('key figures and limits', () => {
  const f = keyFigures(stages);
  it('picks the named figures from the stages; missing ones are null', () => {
    expect(f).toMatchObject({
      encryptedRps1k: 900,
      plainRps1k: 1000,
      rpsRatio1k: 0.9,
      p99Ratio1k: 1.11,
      rpsRatio1kPinned: 0.93,
      rpsRatio1kRealistic: 1.01,
      bytesRatio1kRealistic: 1.05,
      handshakesPerSecond: 600,
      handshakesVsPlain: 0.6,
      wireRatioRandom1k: 1.016,
      wireCompressedVsGzipJson100k: 1.04,
      heapGrowthKiBPer1000: 30,
      rssGrowthKiBPer1000: 40,
      kneeRps1k: 950,
      kneeConcurrency1k: 32,
    });
    expect(f.rpsRatio100kPinned).toBeNull();
    expect(keyFigures({}).rpsRatio1k).toBeNull();
  });
  it('bench/budgets.json loads and every limit names a known figure', () => {
    const b = loadBudgets();
    for (const l of b.limits) expect(Object.keys(f)).toContain(l.figure);
    for (const k of Object.keys(b.baseline.figures)) expect(Object.keys(f)).toContain(k);
    const limits = checkLimits(f, b);
    expect(limits.find((l) => l.figure === 'rpsRatio1k')?.ok).toBe(true);
    expect(limits.find((l) => l.figure === 'rpsRatio100kPinned')?.ok).toBeNull();
    expect(checkLimits({ rpsRatio1k: 0.5 }, b).find((l) => l.figure === 'rpsRatio1k')?.ok).toBe(false);
  });
  it('rejects a malformed budgets file', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ limits: [{ figure: 'x' }], baseline: {} }));
    expect(() => loadBudgets(bad)).toThrow(/min" or "max/);
  });
});

describe('baseline comparison', () => {
  const budgets = {
    limits: [],
    baseline: {
      default: { better: 'higher', tolerance: 0.15, slack: 0 },
      figures: {
        encryptedRps1k: {},
        p99Ratio1k: { better: 'lower', tolerance: 0.1 },
        heapGrowthKiBPer1000: { better: 'lower', tolerance: 0.5, slack: 64 },
        kneeRps100k: {},
      },
    },
  };
  it('fails beyond the tolerance in the bad direction only (default 15 % for throughput)', () => {
    const base = { encryptedRps1k: 1000, p99Ratio1k: 1.0, heapGrowthKiBPer1000: 0 };
    const ok = compareBaseline({ encryptedRps1k: 851, p99Ratio1k: 1.09, heapGrowthKiBPer1000: 60 }, base, budgets);
    expect(ok.filter((c) => c.ok === false)).toEqual([]);
    expect(ok.find((c) => c.figure === 'kneeRps100k')?.ok).toBeNull();
    const bad = compareBaseline({ encryptedRps1k: 849, p99Ratio1k: 1.11, heapGrowthKiBPer1000: 65 }, base, budgets);
    expect(bad.filter((c) => c.ok === false).map((c) => c.figure)).toEqual(['encryptedRps1k', 'p99Ratio1k', 'heapGrowthKiBPer1000']);
    expect(bad[0]?.change).toBe(-0.151);
    // improvements never fail
    expect(compareBaseline({ encryptedRps1k: 5000, p99Ratio1k: 0.5, heapGrowthKiBPer1000: -10 }, base, budgets).every((c) => c.ok !== false)).toBe(true);
    expect(formatBudgetReport({ limits: [], baseline: { file: 'b', commit: 'abc', date: 'd', comparison: bad } })).toMatch(/REGR encryptedRps1k/);
  });
  it('reads a summary.json, a history line and a history file (last line)', () => {
    const s = join(dir, 'summary.json');
    writeFileSync(s, JSON.stringify({ startedAt: '2026-01-01', environment: { git: { commit: 'c1' } }, figures: { encryptedRps1k: 1 } }, null, 2));
    expect(readBaselineFigures(s)).toEqual({ figures: { encryptedRps1k: 1 }, commit: 'c1', date: '2026-01-01' });
    const h = join(dir, 'h.jsonl');
    writeFileSync(
      h,
      `${JSON.stringify({ commit: 'a', figures: { encryptedRps1k: 1 } })}\n${JSON.stringify({ commit: 'b', date: 'x', figures: { encryptedRps1k: 2 } })}\n`,
    );
    expect(readBaselineFigures(h)).toEqual({ figures: { encryptedRps1k: 2 }, commit: 'b', date: 'x' });
    const none = join(dir, 'none.json');
    writeFileSync(none, '{"x":1}');
    expect(() => readBaselineFigures(none)).toThrow(/no "figures"/);
  });
  it('run-all fails its budgets only when given a baseline', () => {
    const budgetsFile = loadBudgets();
    const summary: Record<string, unknown> = { figures: { ...keyFigures(stages) } };
    expect(applyBudgets(summary, budgetsFile, null)).toBeNull();
    expect((summary.budgets as { limits: unknown[] }).limits.length).toBe(budgetsFile.limits.length);
    const base = join(dir, 'base.json');
    writeFileSync(base, JSON.stringify({ figures: { ...keyFigures(stages), encryptedRps1k: 2000 } }));
    expect(applyBudgets(summary, budgetsFile, base)).toMatch(/encryptedRps1k 2000 → 900/);
    writeFileSync(base, JSON.stringify({ figures: keyFigures(stages) }));
    expect(applyBudgets(summary, budgetsFile, base)).toBeNull();
  });
});

describe('history', () => {
  it('writes one line per run into its own file and reads them back oldest first', () => {
    const h = join(dir, 'history');
    const summary = (date: string, rps: number) => ({
      ok: true,
      startedAt: date,
      environment: {
        git: { commit: 'abcdef123456', dirty: false },
        storeKind: 'memory',
        targets: ['t'],
        options: { quick: false, kem: 'xwing' },
        cpuModel: 'cpu',
        cores: 2,
      },
      figures: { encryptedRps1k: rps },
    });
    const f2 = writeHistory(h, historyRecord({ summary: summary('2026-02-02T00:00:00.000Z', 2) }));
    writeHistory(h, historyRecord({ summary: summary('2026-01-01T00:00:00.000Z', 1) }));
    writeFileSync(join(h, 'garbage.json'), 'not json');
    const text = readFileSync(f2, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(f2).toMatch(/2026-02-02T00-00-00-000Z_abcdef1_run\.json$/);
    const all = readHistory(h);
    expect(all.map((r) => r.figures.encryptedRps1k)).toEqual([1, 2]);
    expect(all[0]).toMatchObject({ kind: 'run', commit: 'abcdef123456', store: 'memory', instances: 1, kem: 'xwing', quick: false });
    expect(readdirSync(h)).toHaveLength(3);
    expect(readHistory(join(dir, 'missing'))).toEqual([]);
    expect(historyFileName({ date: 'x', commit: null, kind: 'grid' })).toBe('x_nocommit_grid.json');
  });
});
