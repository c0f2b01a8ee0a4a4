#!/usr/bin/env node
/**
 * `node bench/grid.js GRID_DIR [--no-history]`: assemble a grid run of `scripts/main.sh --grid`
 * (cells under GRID_DIR/cells/) into GRID_DIR/grid.json and GRID_DIR/report.html (heat maps,
 * charts), print the cell table, and append the grid's one-line record to bench/results/history/.
 * Exit code 0 when every cell ran and passed, 1 when a cell failed or was not run (the report is
 * written either way), 2 on bad usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { collectGrid, gridRows, scaling, formatGridTable, gridFigures } from './lib/grid.js';
import { renderGridReport } from './lib/gridreport.js';
import { writeHistory, readHistory, HISTORY_SCHEMA } from './lib/history.js';
import { benchDir } from './lib/env.js';
import { SCOPE_NOTE } from './lib/env.js';

export function assemble(gridDir, { history = true, historyDir = path.join(path.dirname(path.resolve(gridDir)), 'history') } = {}) {
  const cells = collectGrid(gridDir);
  const rows = scaling(gridRows(cells));
  const first = cells.find((c) => c.environment);
  const meta = {
    description:
      'Each cell: the demo app (`next start`) on loopback, N instances, one KEM key, the session store; the saturation stage ramps the concurrency (encrypted and plain interleaved) until the encrypted p99 exceeds the budget or errors appear. Memory store with several instances: each client keeps to one instance (sticky); Redis / Cluster: round-robin over the instances.',
    budgetP99Ms: cells.find((c) => c.budgetP99Ms)?.budgetP99Ms ?? null,
    commit: first?.environment?.commit ?? null,
    cpu: first?.environment?.cpu ?? null,
    node: first?.environment?.node ?? null,
    cells: cells.length,
    scope: SCOPE_NOTE,
  };
  fs.writeFileSync(path.join(gridDir, 'grid.json'), JSON.stringify({ meta, cells, rows }, null, 2) + '\n');
  let historyFile = null;
  if (history) {
    historyFile = writeHistory(historyDir, {
      schema: HISTORY_SCHEMA,
      kind: 'grid',
      date: new Date().toISOString(),
      commit: meta.commit,
      dirty: null,
      ok: rows.every((r) => r.status === 'ok'),
      quick: false,
      store: 'grid',
      instances: null,
      kem: null,
      cpu: meta.cpu,
      figures: gridFigures(rows),
    });
  }
  fs.writeFileSync(path.join(gridDir, 'report.html'), renderGridReport({ rows, meta, history: readHistory(historyDir) }));
  return { cells, rows, meta, historyFile };
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invokedDirectly) {
  let args;
  try {
    args = parseArgs({ args: process.argv.slice(2), options: { 'no-history': { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (e) {
    console.error(String(e?.message ?? e));
    process.exit(2);
  }
  const dir = args.positionals[0];
  if (!dir || !fs.existsSync(path.join(dir, 'cells'))) {
    console.error('usage: node bench/grid.js GRID_DIR [--no-history]   (GRID_DIR/cells/ from scripts/main.sh --grid)');
    process.exit(2);
  }
  const { rows, historyFile } = assemble(dir, { history: !args.values['no-history'], historyDir: path.join(benchDir, 'results', 'history') });
  console.log(formatGridTable(rows));
  console.log(`\ngrid:    ${path.join(dir, 'grid.json')}\nreport:  ${path.join(dir, 'report.html')}${historyFile ? `\nhistory: ${historyFile}` : ''}`);
  process.exitCode = rows.every((r) => r.status === 'ok') ? 0 : 1;
}
