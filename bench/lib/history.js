/**
 * Run history: one file per run in `<results root>/history/`, holding one JSON line (commit, date,
 * store, instances, KEM, the key figures of lib/budgets.js). With the default results root that is
 * bench/results/history/, which git tracks (the rest of bench/results/ is ignored): commit the new
 * line with the change it measured, and regressions stay visible over time. One file per run, not
 * one shared file, so two branches never conflict on it.
 *
 * Written for full runs and grid runs; --quick runs (smoke tests) and partial runs (an --only that
 * leaves out a default stage) are not recorded unless --history is given (kind 'quick' / 'partial').
 */
import fs from 'node:fs';
import path from 'node:path';

export const HISTORY_SCHEMA = 1;

/** The one-line record of a run. */
export function historyRecord({ summary, kind = 'run' }) {
  const env = summary.environment ?? {};
  return {
    schema: HISTORY_SCHEMA,
    kind,
    date: summary.startedAt,
    commit: env.git?.commit ?? null,
    dirty: env.git?.dirty ?? null,
    ok: summary.ok,
    quick: Boolean(env.options?.quick),
    store: env.storeKind ?? null,
    instances: env.targets?.length ?? null,
    kem: env.options?.kem ?? null,
    cpu: `${env.cpuModel ?? '?'} x ${env.cores ?? '?'}`,
    figures: summary.figures ?? {},
  };
}

export function historyFileName(record) {
  const ts = String(record.date ?? new Date().toISOString()).replace(/[:.]/g, '-');
  return `${ts}_${record.commit ? String(record.commit).slice(0, 7) : 'nocommit'}_${record.kind}.json`;
}

/** Write the record as one line into `dir` (created); returns the file path. */
export function writeHistory(dir, record) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, historyFileName(record));
  fs.writeFileSync(file, JSON.stringify(record) + '\n');
  return file;
}

/** Every record in `dir`, oldest first; unreadable lines are skipped (never fatal). */
export function readHistory(dir, { limit = 500 } = {}) {
  let names;
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const out = [];
  for (const n of names.slice(-limit)) {
    try {
      const line = fs
        .readFileSync(path.join(dir, n), 'utf8')
        .split('\n')
        .find((l) => l.trim());
      const r = JSON.parse(line);
      if (r && r.schema === HISTORY_SCHEMA) out.push(r);
    } catch {
      /* skip */
    }
  }
  return out.sort((a, b) => String(a.date).localeCompare(String(b.date)));
}
