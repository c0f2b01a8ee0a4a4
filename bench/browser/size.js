#!/usr/bin/env node
/**
 * `node bench/browser/size.js [--budget FILE] [--json]`: the browser weight check of the suite
 * (scripts/test.sh). Bundles @nen/client's browser entry the way a page pays it (./bundle.js),
 * prints the weight of every output (raw and gzip, initial or lazy, the largest inputs), and
 * exits 1 when the initial gzip bytes exceed the budget (./size-budget.json) or when the default
 * path reaches the .wasm. A browser without WebCrypto's ML-KEM-768 (Firefox / Safari) also loads
 * the lazy @noble KEM chunk (`noble-*.js`, from @nen/core's browser backend) before its first
 * response: that weight is printed and held to the same budget. Also prints, without a budget, the
 * initial weight of an OHTTP-mode page (one importing `@nen/client/ohttp`). Needs the built
 * packages (`pnpm turbo run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleClient } from './bundle.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const BUDGET_FILE = path.join(here, 'size-budget.json');

/** The lazy chunk a browser without WebCrypto's KEMs loads before its first response (core's backend/noble.js). */
export const KEM_FALLBACK_CHUNK = 'noble-';

/** A page that picks OHTTP mode: the factory of the `@nen/client/ohttp` entry (the OHTTP code statically in the page). */
const OHTTP_PAGE_ENTRY = "import { createOhttpClient } from '@nen/client/ohttp';\nglobalThis.createOhttpClient = createOhttpClient;\n";

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

/** Measures and checks; returns { ok, weight, budget, lines }. */
export async function checkSize({ budgetFile = BUDGET_FILE } = {}) {
  const budget = JSON.parse(fs.readFileSync(budgetFile, 'utf8'));
  const b = await bundleClient();
  fs.rmSync(b.dir, { recursive: true, force: true });
  const lines = ['browser weight of @nen/client (esbuild, conditions browser/import/default, minified, gzip -9):'];
  for (const f of [...b.files].sort((x, y) => Number(y.initial) - Number(x.initial) || y.gzip - x.gzip)) {
    const top = f.inputs.map((i) => `${i.name} ${kb(i.bytes)}`).join(', ');
    lines.push(`  ${f.initial ? 'initial' : 'lazy   '}  ${f.name.padEnd(26)} ${kb(f.bytes).padStart(9)} raw ${kb(f.gzip).padStart(9)} gzip  ${top}`);
  }
  lines.push(`  before the first encrypted response: ${kb(b.initial.gzip)} gzip (${kb(b.initial.bytes)} raw); budget ${kb(budget.initialGzipBytes)}`);
  const f = await bundleClient({ lazyOnFirstRequest: [KEM_FALLBACK_CHUNK] });
  fs.rmSync(f.dir, { recursive: true, force: true });
  lines.push(`  a browser without WebCrypto ML-KEM (Firefox / Safari; + the @noble KEM chunk): ${kb(f.initial.gzip)} gzip (${kb(f.initial.bytes)} raw)`);
  lines.push(`  loaded only on request (backend: 'wasm'): ${kb(b.lazy.gzip)} gzip`);
  const o = await bundleClient({ entry: OHTTP_PAGE_ENTRY });
  fs.rmSync(o.dir, { recursive: true, force: true });
  lines.push(`  an OHTTP-mode page (@nen/client/ohttp, no budget): ${kb(o.initial.gzip)} gzip (${kb(o.initial.bytes)} raw) before its first response`);
  const problems = [];
  if (b.initial.gzip > budget.initialGzipBytes) problems.push(`initial ${b.initial.gzip} B gzip > budget ${budget.initialGzipBytes} B`);
  if (f.initial.gzip > budget.initialGzipBytes) problems.push(`without WebCrypto ML-KEM ${f.initial.gzip} B gzip > budget ${budget.initialGzipBytes} B`);
  if (b.files.some((f) => f.initial && f.name.endsWith('.wasm'))) problems.push('the default path loads the .wasm');
  const weight = { initial: b.initial, lazy: b.lazy, kemFallback: f.initial, ohttpPage: o.initial, files: b.files.map(({ inputs, ...f }) => f) };
  return { ok: problems.length === 0, problems, weight, budget, lines };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { budget: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const r = await checkSize({ budgetFile: values.budget ?? BUDGET_FILE });
  console.log(values.json ? JSON.stringify(r.weight, null, 2) : r.lines.join('\n'));
  if (!r.ok) {
    console.error(`browser weight check FAILED: ${r.problems.join('; ')}`);
    process.exitCode = 1;
  }
}
