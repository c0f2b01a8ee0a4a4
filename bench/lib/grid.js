/**
 * The scale grid (`scripts/main.sh --grid`): instances × KEM × store × payload. main.sh starts
 * each server set and runs the saturation stage into `<grid>/cells/<label>/<timestamp>/`, or
 * writes `<grid>/cells/<label>/not-run.json` with the reason when the set cannot start; this
 * module reads those back into one table of cells (`collectGrid`), derives the scaling figures
 * (`scaling`: per-instance throughput relative to one instance, Redis cost per request) and
 * formats the console table.
 *
 * Every grid position appears exactly once: run, failed (the stage failed; figures kept) or not
 * run (with the reason). Payload is the innermost axis, measured inside one cell run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ratio, round } from './stats.js';
import { formatColumns } from './table.js';

/** Terminal colour codes (ESC [ … m) in a captured log. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

export const GRID_AXES = { instances: [1, 2, 4], kem: ['xwing', 'mlkem768'], store: ['memory', 'redis', 'cluster'], payload: [1024, 102400] };

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** "store=redis,kem=xwing,instances=2" → object */
export function parseLabel(label) {
  const o = {};
  for (const part of label.split(',')) {
    const [k, v] = part.split('=');
    if (k && v !== undefined) o[k] = v;
  }
  return { store: o.store ?? null, kem: o.kem ?? null, instances: o.instances ? Number(o.instances) : null };
}

/** One cell directory → cell records (one per payload). */
export function readCell(dir) {
  const id = parseLabel(path.basename(dir));
  const notRunFile = path.join(dir, 'not-run.json');
  if (fs.existsSync(notRunFile)) {
    const nr = readJson(notRunFile);
    return [{ ...id, status: 'not run', reason: nr.reason ?? 'unknown', payloads: null }];
  }
  const runs = fs
    .readdirSync(dir)
    .filter((d) => d !== 'latest' && d !== 'history' && fs.existsSync(path.join(dir, d, 'saturation.json')))
    .sort();
  const exitCode = fs.existsSync(path.join(dir, 'exit-code')) ? Number(fs.readFileSync(path.join(dir, 'exit-code'), 'utf8').trim()) : null;
  if (!runs.length) {
    // the bench's own last words (stderr, kept by main.sh) say why, e.g. an unreachable target
    let why = '';
    try {
      why =
        fs
          .readFileSync(path.join(dir, 'bench-stderr.log'), 'utf8')
          .split('\n')
          .map((l) => l.replace(ANSI, '').trim())
          .filter((l) => l && !l.startsWith('[bench'))
          .pop() ?? '';
    } catch {
      /* no log */
    }
    return [
      {
        ...id,
        status: 'not run',
        reason: `the bench wrote no saturation result (exit code ${exitCode ?? '?'})${why ? `: ${why.slice(0, 240)}` : ''}`,
        payloads: null,
      },
    ];
  }
  const st = readJson(path.join(dir, runs[runs.length - 1], 'saturation.json'));
  const d = st.data ?? {};
  return [
    {
      ...id,
      status: st.ok ? 'ok' : 'failed',
      reason: st.ok ? null : (st.error ?? 'stage failed'),
      routing: d.routing ?? null,
      budgetP99Ms: d.budgetP99Ms ?? null,
      handshakes: d.handshakes ?? null,
      memory: d.memory ?? null,
      environment: st.environment
        ? { commit: st.environment.git?.commit ?? null, cpu: `${st.environment.cpuModel} x ${st.environment.cores}`, node: st.environment.node }
        : null,
      payloads: (d.payloads ?? []).map((p) => ({
        size: p.size,
        label: p.label,
        knee: p.knee?.encrypted?.knee ?? null,
        brokeAt: p.knee?.encrypted?.brokeAt ?? null,
        plainKnee: p.knee?.plain?.knee ?? null,
        atKnee: p.atKnee ?? null,
        maxErrors: Math.max(0, ...(p.steps ?? []).map((s) => s.encrypted.errors + s.plain.errors)),
        steps: p.steps ?? [],
      })),
    },
  ];
}

/** All cells of a grid directory, in axis order, with not-run entries for positions never tried. */
export function collectGrid(gridDir) {
  const cellsDir = path.join(gridDir, 'cells');
  const dirs = fs.existsSync(cellsDir)
    ? fs
        .readdirSync(cellsDir)
        .map((d) => path.join(cellsDir, d))
        .filter((d) => fs.statSync(d).isDirectory())
    : [];
  const cells = dirs.flatMap(readCell);
  const order = (c) => [GRID_AXES.store.indexOf(c.store), GRID_AXES.kem.indexOf(c.kem), c.instances];
  cells.sort((a, b) => {
    const x = order(a);
    const y = order(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return cells;
}

/** Payload sizes measured by any cell (the axis default when none ran). */
export function gridPayloads(cells) {
  const seen = [...new Set(cells.flatMap((c) => (c.payloads ?? []).map((p) => p.size)))].sort((a, b) => a - b);
  return seen.length ? seen : GRID_AXES.payload;
}

/** Flat rows: one per (cell, payload), not-run cells once per payload of the run. */
export function gridRows(cells, payloads = gridPayloads(cells)) {
  const rows = [];
  for (const c of cells) {
    for (const size of payloads) {
      const p = c.payloads?.find((x) => x.size === size) ?? null;
      const at = p?.atKnee;
      rows.push({
        store: c.store,
        kem: c.kem,
        instances: c.instances,
        payload: size,
        status: c.status === 'ok' || c.status === 'failed' ? (p ? c.status : 'not run') : c.status,
        reason: c.reason ?? (p ? null : 'payload not in this run'),
        kneeConcurrency: p?.knee?.concurrency ?? null,
        rps: p?.knee?.rps ?? null,
        p50Ms: at?.encrypted?.p50Ms ?? null,
        p99Ms: p?.knee?.p99Ms ?? null,
        plainRps: at?.plain?.rps ?? null,
        encPlainRatio: at?.ratio?.rps ?? null,
        serverCpuMsPerRequest: at?.encrypted?.serverCpuMsPerRequest ?? null,
        redisCommandsPerRequest: at?.encrypted?.redisCommandsPerRequest ?? null,
        redisEvalshaPerRequest: at?.encrypted?.redisEvalshaPerRequest ?? null,
        redisCpuUsPerRequest: at?.encrypted?.redisCpuUsPerRequest ?? null,
        redisScriptUsPerRequest: at?.encrypted?.redisEvalshaUsPerRequest ?? null,
        brokeAt: p?.brokeAt ? `c=${p.brokeAt.concurrency}: ${p.brokeAt.reason}` : p ? 'ramp ended in budget' : null,
        errors: p?.maxErrors ?? null,
        handshakesPerSecond: c.handshakes?.handshakesPerSecond ?? null,
        serverCpuMsPerHandshake: c.handshakes?.serverCpuMsPerHandshake ?? null,
        redisCommandsPerHandshake: c.handshakes?.redisCommandsPerHandshake ?? null,
        redisBytesPerSession: c.handshakes?.redisBytesPerSession ?? null,
        redisCpuUsPerHandshake: c.handshakes?.redisCpuUsPerHandshake ?? null,
        rssEndMiB: c.memory?.end?.rssMiB ?? null,
        heapEndMiB: c.memory?.end?.heapUsedMiB ?? null,
        routing: c.routing ?? null,
      });
    }
  }
  return rows;
}

/** Scaling: knee req/s at N instances over the same store/KEM/payload at 1 instance. */
export function scaling(rows) {
  const base = new Map(rows.filter((r) => r.instances === 1 && r.rps).map((r) => [`${r.store}|${r.kem}|${r.payload}`, r.rps]));
  const memBase = new Map(rows.filter((r) => r.store === 'memory' && r.rps).map((r) => [`${r.kem}|${r.payload}|${r.instances}`, r.rps]));
  return rows.map((r) => ({
    ...r,
    speedupVs1: ratio(r.rps, base.get(`${r.store}|${r.kem}|${r.payload}`)),
    vsMemoryStore: r.store === 'memory' ? null : ratio(r.rps, memBase.get(`${r.kem}|${r.payload}|${r.instances}`)),
  }));
}

const GRID_COLUMNS = [
  ['store', 8, (r) => r.store],
  ['kem', 9, (r) => r.kem],
  ['inst', 5, (r) => r.instances],
  ['payload', 8, (r) => (r.payload >= 1024 ? `${r.payload / 1024} KB` : r.payload)],
  ['knee c', 7, (r) => r.kneeConcurrency],
  ['req/s', 8, (r) => r.rps],
  ['p50/p99 ms', 13, (r) => (r.p50Ms !== null ? `${r.p50Ms}/${r.p99Ms}` : '–')],
  ['enc/plain', 10, (r) => r.encPlainRatio],
  ['x vs 1', 7, (r) => r.speedupVs1],
  ['srv CPU ms/req', 15, (r) => r.serverCpuMsPerRequest],
  ['redis cmd/req', 14, (r) => r.redisCommandsPerRequest],
  ['hs/s', 7, (r) => r.handshakesPerSecond],
  ['rss MiB', 8, (r) => r.rssEndMiB],
  ['status', 0, (r) => (r.status !== 'ok' ? `${r.status}: ${r.reason ?? ''}` : r.rps === null ? `ok, no knee: ${r.brokeAt}` : 'ok')],
];

export function formatGridTable(rows) {
  return formatColumns(GRID_COLUMNS, rows).join('\n');
}

/** The grid's one-line history figures (kind "grid"). */
export function gridFigures(rows) {
  const f = {};
  for (const r of rows) {
    if (r.rps === null) continue;
    const k = `${r.store}_${r.kem}_${r.instances}_${r.payload >= 1024 ? `${r.payload / 1024}k` : r.payload}`;
    f[`kneeRps_${k}`] = r.rps;
    f[`kneeC_${k}`] = r.kneeConcurrency;
  }
  f.cellsRun = new Set(rows.filter((r) => r.status !== 'not run').map((r) => `${r.store}|${r.kem}|${r.instances}`)).size;
  f.cellsNotRun = new Set(rows.filter((r) => r.status === 'not run').map((r) => `${r.store}|${r.kem}|${r.instances}`)).size;
  return f;
}

export { round };
