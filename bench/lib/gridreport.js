/**
 * The grid report (report.html of `scripts/main.sh --grid`): one heat map per payload (a coloured
 * table: rows store × KEM, columns instances, the colour scaled from the lowest to the highest knee
 * req/s of that payload; not-run cells grey with their reason), the knee throughput per instance
 * count as uPlot charts, the full cell table, and the run history.
 */
import { escapeHtml, table, page, createChartSet, chart, heatColor } from './charts.js';
import { historySection } from './reporthistory.js';
import { GRID_AXES } from './grid.js';

function heatMap(rows, size) {
  const rs = rows.filter((r) => r.payload === size);
  const instances = [...new Set(rs.map((r) => r.instances))].sort((a, b) => a - b);
  const vals = rs.map((r) => r.rps).filter((v) => typeof v === 'number');
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  const keys = [...new Set(rs.map((r) => `${r.store}|${r.kem}`))];
  const head = `<tr><th>store / KEM</th>${instances.map((n) => `<th>${n} instance${n > 1 ? 's' : ''}</th>`).join('')}</tr>`;
  const body = keys.map((k) => {
    const [store, kem] = k.split('|');
    const cells = instances.map((n) => {
      const r = rs.find((x) => x.store === store && x.kem === kem && x.instances === n);
      if (!r) return '<td style="background:#e5e7eb">–</td>';
      if (r.rps === null)
        return `<td style="background:#e5e7eb" title="${escapeHtml(r.reason ?? '')}">${escapeHtml(r.status)}<br><small>${escapeHtml(r.reason ?? '')}</small></td>`;
      return `<td style="background:${heatColor(r.rps, lo, hi)}" title="${escapeHtml(`knee c=${r.kneeConcurrency}, p99 ${r.p99Ms} ms`)}"><strong>${escapeHtml(r.rps)}</strong> req/s<br><small>c=${escapeHtml(r.kneeConcurrency)}, p99 ${escapeHtml(r.p99Ms)} ms${r.speedupVs1 !== null ? `, ×${escapeHtml(r.speedupVs1)} vs 1` : ''}${r.status === 'failed' ? ' (stage failed)' : ''}</small></td>`;
    });
    return `<tr><td>${escapeHtml(store)} / ${escapeHtml(kem)}</td>${cells.join('')}</tr>`;
  });
  return `<table class="heat"><thead>${head}</thead><tbody>${body.join('')}</tbody></table>`;
}

export function renderGridReport({ rows, meta, history = [] }) {
  const cs = createChartSet();
  const out = [];
  out.push(`<p>${escapeHtml(meta.description ?? '')}</p>`);
  for (const size of GRID_AXES.payload) {
    if (!rows.some((r) => r.payload === size)) continue;
    out.push(`<h2>Knee throughput (encrypted, p99 ≤ ${escapeHtml(meta.budgetP99Ms ?? 100)} ms), ${size / 1024} KB</h2>`);
    out.push(heatMap(rows, size));
    const keys = [...new Set(rows.filter((r) => r.payload === size).map((r) => `${r.store}|${r.kem}`))];
    const instances = [...new Set(rows.map((r) => r.instances))].sort((a, b) => a - b);
    out.push(
      `<div class="charts">${cs.add(
        chart({
          title: `Knee req/s vs instances, ${size / 1024} KB`,
          xLabel: 'instances',
          yLabel: 'req/s',
          categorical: true,
          x: instances,
          series: keys.map((k) => ({
            name: k.replace('|', ' / '),
            values: instances.map((n) => rows.find((r) => r.payload === size && `${r.store}|${r.kem}` === k && r.instances === n)?.rps ?? null),
          })),
        }),
      )}</div>`,
    );
  }
  out.push('<h2>All cells</h2>');
  out.push(
    table(
      [
        'store',
        'KEM',
        'instances',
        'payload',
        'status',
        'knee c',
        'req/s',
        'p50 / p99 ms',
        'enc/plain req/s',
        '× vs 1 instance',
        'vs memory store',
        'server CPU ms/req',
        'Redis cmds/req (EVALSHA)',
        'Redis CPU µs/req (script µs)',
        'handshakes/s',
        'server CPU ms/handshake',
        'Redis cmds/handshake',
        'Redis B/session',
        'RSS end MiB (sum)',
        'broke at',
        'routing',
      ],
      rows.map((r) => [
        r.store,
        r.kem,
        r.instances,
        `${r.payload / 1024} KB`,
        r.status === 'ok' ? 'ok' : `${r.status}: ${r.reason ?? ''}`,
        r.kneeConcurrency,
        r.rps,
        r.p50Ms !== null ? `${r.p50Ms} / ${r.p99Ms}` : null,
        r.encPlainRatio,
        r.speedupVs1,
        r.vsMemoryStore,
        r.serverCpuMsPerRequest,
        r.redisCommandsPerRequest !== null ? `${r.redisCommandsPerRequest} (${r.redisEvalshaPerRequest})` : null,
        r.redisCpuUsPerRequest !== null ? `${r.redisCpuUsPerRequest} (${r.redisScriptUsPerRequest})` : null,
        r.handshakesPerSecond,
        r.serverCpuMsPerHandshake,
        r.redisCommandsPerHandshake,
        r.redisBytesPerSession,
        r.rssEndMiB,
        r.brokeAt,
        r.routing,
      ]),
    ),
  );
  out.push(
    historySection(
      history.filter((h) => h.kind !== 'grid'),
      cs,
    ),
  );
  out.push(`<pre>${escapeHtml(JSON.stringify(meta, null, 2))}</pre>`);
  return page({ title: 'Nen bench: scale grid', note: meta.scope, body: out.join('\n'), charts: cs.charts });
}
