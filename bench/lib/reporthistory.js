/**
 * The report's run history and environment tables (report.html, and the grid report through
 * lib/gridreport.js). Pitfalls: history records come from older runs and may lack fields; keep
 * this module free of the other report sections so the grid report need not load them.
 */
import { table, chart } from './charts.js';

export function historySection(history, cs) {
  if (!history?.length) return '';
  const x = history.map((h) => `${String(h.date ?? '').slice(0, 16)} ${String(h.commit ?? '').slice(0, 7)}`);
  const f = (k) => history.map((h) => h.figures?.[k] ?? null);
  return [
    `<h2 id="history">History (${history.length} runs, bench/results/history/)</h2><div class="charts">`,
    cs.add(
      chart({
        title: 'Ratios over runs',
        xLabel: 'run',
        yLabel: 'ratio',
        categorical: true,
        refLine: 1,
        x,
        series: [
          { name: 'enc/plain req/s 1 KB c=50', values: f('rpsRatio1k') },
          { name: 'pinned 1 KB', values: f('rpsRatio1kPinned') },
          { name: 'pinned 100 KB', values: f('rpsRatio100kPinned') },
          { name: 'handshakes vs plain', values: f('handshakesVsPlain') },
        ],
      }),
    ),
    cs.add(
      chart({
        title: 'Throughput over runs (1 KB, c=50)',
        xLabel: 'run',
        yLabel: 'req/s',
        categorical: true,
        x,
        series: [
          { name: 'encrypted', values: f('encryptedRps1k') },
          { name: 'plain', values: f('plainRps1k') },
          { name: 'handshakes/s c=50', values: f('handshakesPerSecond') },
        ],
      }),
    ),
    '</div>',
    table(
      ['date', 'commit', 'kind', 'store', 'instances', 'kem', 'enc/plain 1 KB', 'pinned 1 KB', 'handshakes/s', 'heap KiB/1000 req'],
      history.map((h) => [
        h.date,
        String(h.commit ?? '').slice(0, 10),
        h.kind,
        h.store,
        h.instances,
        h.kem,
        h.figures?.rpsRatio1k,
        h.figures?.rpsRatio1kPinned,
        h.figures?.handshakesPerSecond,
        h.figures?.heapGrowthKiBPer1000,
      ]),
    ),
  ].join('\n');
}

export function environmentTable(environment) {
  return table(
    ['environment', ''],
    [
      ['CPU', `${environment.cpuModel} × ${environment.cores}`],
      ['memory', `${environment.memoryGiB} GiB`],
      ['load average at start', (environment.loadAverageAtStart ?? []).join(' / ')],
      ['OS', environment.os],
      ['Node', environment.node],
      ['versions', JSON.stringify(environment.versions)],
      ['git', `${environment.git?.commit ?? '?'}${environment.git?.dirty ? ' (dirty)' : ''}`],
      ['targets', (environment.targets ?? []).join(', ')],
      ['store', environment.storeKind ?? 'unknown'],
      ['options', JSON.stringify(environment.options)],
    ],
  );
}
