/**
 * The report's saturation section (report.html): the ramp of offered load against achieved
 * throughput and latency per mode, with its knee. Pitfalls: a ramp may stop early (errors or
 * time budget), so steps differ per mode; every figure charted must also be in a table.
 */
import { escapeHtml, table, chart } from './charts.js';

export function saturationSection(sat, cs) {
  const out = [
    `<h2 id="saturation">Saturation search (p99 budget ${escapeHtml(sat.budgetP99Ms)} ms, ${escapeHtml(sat.routing ?? '')})</h2><div class="charts">`,
  ];
  for (const p of sat.payloads ?? []) {
    const x = p.steps.map((s) => s.concurrency);
    out.push(
      cs.add(
        chart({
          title: `Throughput vs concurrency, ${p.label}`,
          xLabel: 'concurrency',
          yLabel: 'req/s',
          categorical: true,
          x,
          series: [
            { name: 'encrypted', values: p.steps.map((s) => s.encrypted.rps) },
            { name: 'plain', values: p.steps.map((s) => s.plain.rps) },
          ],
        }),
      ),
    );
    out.push(
      cs.add(
        chart({
          title: `p99 vs concurrency, ${p.label}`,
          xLabel: 'concurrency',
          yLabel: 'ms',
          categorical: true,
          refLine: sat.budgetP99Ms,
          x,
          series: [
            { name: 'encrypted', values: p.steps.map((s) => s.encrypted.p99Ms) },
            { name: 'plain', values: p.steps.map((s) => s.plain.p99Ms) },
          ],
        }),
      ),
    );
  }
  out.push('</div>');
  out.push(
    table(
      [
        'payload',
        'mode',
        'knee c',
        'req/s at knee',
        'p99 at knee ms',
        'peak req/s in budget',
        'broke at',
        'server CPU ms/req at knee',
        'Redis cmds (EVALSHA) / req at knee',
        'Redis CPU µs/req',
      ],
      (sat.payloads ?? []).flatMap((p) =>
        ['encrypted', 'plain'].map((m) => {
          const k = p.knee[m];
          const a = p.atKnee?.[m];
          return [
            p.label,
            m,
            k.knee?.concurrency ?? 'none',
            k.knee?.rps,
            k.knee?.p99Ms,
            k.peakInBudget?.rps,
            k.brokeAt ? `c=${k.brokeAt.concurrency}: ${k.brokeAt.reason}` : 'not reached (ramp ended)',
            a?.serverCpuMsPerRequest,
            a?.redisCommandsPerRequest != null ? `${a.redisCommandsPerRequest} (${a.redisEvalshaPerRequest})` : null,
            a?.redisCpuUsPerRequest,
          ];
        }),
      ),
    ),
  );
  const h = sat.handshakes;
  if (h)
    out.push(
      table(
        [
          'handshakes c',
          'handshakes/s',
          'p50 / p99 ms',
          'errors',
          'server CPU ms/handshake',
          'Redis cmds (EVALSHA) / handshake',
          'Redis CPU µs/handshake',
          'Redis bytes/session',
          'heap bytes/session (memory store, approx.)',
        ],
        [
          [
            h.concurrency,
            h.handshakesPerSecond,
            `${h.p50Ms} / ${h.p99Ms}`,
            h.errors,
            h.serverCpuMsPerHandshake,
            h.redisCommandsPerHandshake != null ? `${h.redisCommandsPerHandshake} (${h.redisEvalshaPerHandshake})` : null,
            h.redisCpuUsPerHandshake,
            h.redisBytesPerSession,
            h.heapBytesPerSession,
          ],
        ],
      ),
    );
  return out.join('\n');
}
