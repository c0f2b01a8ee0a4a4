/**
 * The report's "Memory attribution by mode" section, from the dedicated run of
 * bench/memory-attribution.js (results/memory-attribution.json): per run (default glibc, then
 * MALLOC_ARENA_MAX=2) and mode, the change of RSS and of each part (JS heap, external and
 * ArrayBuffers, Wasm memory, glibc arenas, other anonymous memory) over that mode's windows, and
 * the verdict the target asks for: encrypted RSS growth ≤ plain RSS growth for the same number
 * of requests in the same run, from the sums and, robust to window noise, from the windows'
 * median change and the trend of their levels (./windowstats.js).
 *
 * Pitfall: the file is from its own run (its date and command are shown), not from this bench run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { escapeHtml, table } from './charts.js';
import { robustVerdict } from './windowstats.js';

const MiB = 2 ** 20;
const mib = (b) => (typeof b === 'number' ? (b / MiB).toFixed(1) : '–');

/** The last dedicated attribution run (results/memory-attribution.json), or null. */
export function readMemoryAttribution(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  } catch {
    return null;
  }
}

/** Encrypted vs plain RSS growth of one run: { plain, encrypted, ok } in MiB, or null. */
export function attributionVerdict(run) {
  const p = run.modes?.plain;
  const e = run.modes?.encrypted;
  if (!p || !e || p.requests !== e.requests) return null;
  // 1 MiB of slack: page-granular RSS on a shared machine
  return { requests: e.requests, plainMiB: p.delta.rss / MiB, encryptedMiB: e.delta.rss / MiB, ok: e.delta.rss <= p.delta.rss + MiB };
}

/** The section's HTML: how the run was made, the sums per mode, the per-window statistics and the verdicts. */
export function memoryAttributionSection(ma) {
  const runs = ma.runs ?? [];
  const out = [`<h2 id="memory-attribution">Memory attribution by mode</h2>`];
  out.push(
    `<p>From a dedicated run (${escapeHtml(ma.generatedAt)}, ${escapeHtml(ma.node)}, ${escapeHtml(ma.seconds)} s): <code>${escapeHtml(ma.command)}</code>. ` +
      'One fresh demo server (<code>next start</code>) per run, warmed up, then windows of one mode each (plain and encrypted alternating); ' +
      "each figure is the change in MiB over that mode's windows. <em>Wasm</em> is the committed Wasm linear memory, " +
      '<em>glibc arenas</em> the malloc heap (main + thread arenas) from /proc/&lt;pid&gt;/smaps, <em>other anon</em> the remaining ' +
      'anonymous memory (mostly the V8 heap pages); the <em>after GC</em> columns are measured after a full collection in the server ' +
      '(live memory, not garbage waiting for the collector).</p>',
  );
  out.push(sumsTable(runs), ...windowStatsPart(runs), ...verdictsPart(runs));
  if (ma.notes?.length) out.push(`<ul>${ma.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`);
  return out.join('\n');
}

/** Per run and mode: the change of RSS and of each part over that mode's windows (sums). */
function sumsTable(runs) {
  const rows = [];
  for (const r of runs)
    for (const [mode, m] of Object.entries(r.modes ?? {})) {
      const d = m.delta;
      rows.push([
        r.label,
        mode,
        m.requests,
        Math.round(m.requests / m.seconds),
        mib(d.rss),
        mib(d.heapUsed),
        mib(d.heapTotal),
        mib(d.external),
        mib(d.arrayBuffers),
        mib(d.wasmCommitted),
        mib(d.mallocArenas),
        mib(d.otherAnon),
        mib(d.gcRss),
        mib(d.gcHeapUsed),
        mib(d.gcHeapTotal),
      ]);
    }
  return table(
    [
      'run',
      'mode',
      'requests',
      'req/s',
      'RSS',
      'heapUsed',
      'heapTotal',
      'external',
      'arrayBuffers',
      'Wasm',
      'glibc arenas',
      'other anon',
      'RSS after GC',
      'heapUsed after GC',
      'heapTotal after GC',
    ],
    rows,
  );
}

/** Each window on its own: median and spread of the changes, the median level and the trend per 100k requests. */
function windowStatsPart(runs) {
  const statRows = [];
  for (const r of runs)
    for (const [mode, m] of Object.entries(r.modes ?? {})) {
      const st = m.stats?.rss;
      if (!st) continue;
      const ht = m.stats.heapTotal;
      statRows.push([
        r.label,
        mode,
        st.windows,
        `${mib(st.medianDelta)} (${mib(st.minDelta)}..${mib(st.maxDelta)})`,
        mib(st.medianLevel),
        mib(st.trendPer100k),
        `${mib(ht?.medianDelta)} (${mib(ht?.minDelta)}..${mib(ht?.maxDelta)})`,
        mib(m.stats.gcHeapUsed?.trendPer100k),
      ]);
    }
  if (!statRows.length) return [];
  return [
    "<p>Each window on its own (a window's change depends on the one before it: V8 sizes its heap by the allocation rate): " +
      "the median and spread of the windows' changes, the median level they end at, and the <em>trend</em>: the least-squares " +
      "slope of those levels over the mode's requests, per 100,000 requests (what accumulates, as opposed to a working-set step between modes).</p>",
    table(
      [
        'run',
        'mode',
        'windows',
        'RSS change per window: median (min..max)',
        'RSS level: median',
        'RSS trend per 100k',
        'heapTotal change: median (min..max)',
        'live heap trend per 100k',
      ],
      statRows,
    ),
  ];
}

/** The target's verdicts per run: robust (trend) first, then from the sums. */
function verdictsPart(runs) {
  const out = [];
  const robust = runs.map((r) => [r.label, robustVerdict(r)]).filter(([, v]) => v);
  if (robust.length)
    out.push(
      `<p>${robust
        .map(
          ([label, v]) =>
            `${escapeHtml(label)}, accumulation (robust to window noise): over ${v.requests} requests per mode the RSS trend is ${v.encryptedTrendMiB.toFixed(1)} MiB encrypted vs ${v.plainTrendMiB.toFixed(1)} MiB plain: ${v.ok ? 'encrypted ≤ plain (target met)' : 'encrypted &gt; plain (target missed)'}; working-set step (median level, encrypted − plain) ${v.stepMiB.toFixed(1)} MiB, median window change ${v.encryptedMedianMiB.toFixed(1)} vs ${v.plainMedianMiB.toFixed(1)} MiB`,
        )
        .join('<br>')}</p>`,
    );
  const verdicts = runs.map((r) => [r.label, attributionVerdict(r)]).filter(([, v]) => v);
  if (verdicts.length)
    out.push(
      `<p>${verdicts
        .map(
          ([label, v]) =>
            `${escapeHtml(label)}: ${v.requests} encrypted requests grew RSS by ${v.encryptedMiB.toFixed(1)} MiB, as many plain ones by ${v.plainMiB.toFixed(1)} MiB: ${v.ok ? 'encrypted ≤ plain (target met)' : 'encrypted &gt; plain (target missed)'}`,
        )
        .join('<br>')}</p>`,
    );
  return out;
}
