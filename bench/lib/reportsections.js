/**
 * The report's smaller sections (report.html): key figures against bench/budgets.json, payload
 * sizes, scenarios and server memory over time. Pitfalls: any stage may be missing or partial
 * (render nothing rather than throw); every figure charted must also be in a table.
 */
import { round } from './stats.js';
import { escapeHtml, table, chart } from './charts.js';

const MiB = 2 ** 20;

export function budgetSection(summary) {
  const out = [];
  const b = summary.budgets;
  if (b?.limits?.length) {
    out.push('<h2 id="budgets">Key figures against bench/budgets.json</h2>');
    out.push(
      table(
        ['figure', 'what', 'value', 'limit', 'target', 'verdict'],
        b.limits.map((l) => [
          l.figure,
          l.what,
          l.value,
          [l.min !== null ? `≥ ${l.min}` : '', l.max !== null ? `≤ ${l.max}` : ''].join(' '),
          l.target,
          l.ok === null ? 'n/a' : l.ok ? 'ok' : 'OVER',
        ]),
      ),
    );
  }
  if (b?.baseline) {
    out.push(`<h3>Against the baseline ${escapeHtml(b.baseline.file)} (commit ${escapeHtml(String(b.baseline.commit ?? '?').slice(0, 12))})</h3>`);
    out.push(
      table(
        ['figure', 'baseline', 'this run', 'change', 'better', 'allowed', 'verdict'],
        b.baseline.comparison.map((c) => [
          c.figure,
          c.baseline,
          c.value,
          c.change === null ? null : `${round(c.change * 100, 1)} %`,
          c.better,
          `${round(c.allowed * 100, 0)} %`,
          c.ok === null ? 'n/a' : c.ok ? 'ok' : 'REGRESSION',
        ]),
      ),
    );
  }
  return out.join('\n');
}

export function payloadSection(pay, cs) {
  const out = ['<h2 id="payload">Payload sizes: response wire bytes</h2><div class="charts">'];
  for (const kind of [...new Set(pay.cases.map((c) => c.kind))]) {
    const c = pay.cases.filter((x) => x.kind === kind);
    out.push(
      cs.add(
        chart({
          title: `Response bytes on the wire (${kind})`,
          xLabel: 'payload',
          yLabel: 'bytes',
          categorical: true,
          kind: 'bar',
          logY: true,
          x: c.map((x) => x.label),
          series: [
            { name: 'plaintext', values: c.map((x) => x.plaintextBytes) },
            { name: 'encrypted', values: c.map((x) => x.encrypted?.responseWireBytes ?? null) },
            { name: 'encrypted+compress', values: c.map((x) => x.encryptedCompressed?.responseWireBytes ?? null) },
            { name: 'plain (gzip)', values: c.map((x) => x.plain?.responseWireBytesGzip ?? null) },
          ],
        }),
      ),
    );
  }
  out.push('</div>');
  out.push(
    table(
      [
        'case',
        'plaintext B',
        'enc req B',
        'enc res B',
        'enc+compress res B',
        'plain gzip res B',
        'enc/plaintext',
        'enc/plain-gzip',
        'enc+c/plain-gzip',
        'p50/p99 enc ms',
        'p50/p99 enc+c ms',
        'p50/p99 plain ms',
      ],
      pay.cases.map((c) => [
        c.label + ' ' + c.kind,
        c.plaintextBytes,
        c.encrypted?.requestWireBytes,
        c.encrypted?.responseWireBytes,
        c.encryptedCompressed?.responseWireBytes,
        c.plain?.responseWireBytesGzip,
        c.ratios?.encryptedVsPlaintext,
        c.ratios?.encryptedVsPlainGzip,
        c.ratios?.encryptedCompressedVsPlainGzip,
        `${c.encrypted?.latencyMs?.p50} / ${c.encrypted?.latencyMs?.p99}`,
        `${c.encryptedCompressed?.latencyMs?.p50} / ${c.encryptedCompressed?.latencyMs?.p99}`,
        `${c.plain?.latencyMs?.p50} / ${c.plain?.latencyMs?.p99}`,
      ]),
    ),
  );
  return out.join('\n');
}

export function scenarioSection(sc, cs) {
  const out = ['<h2 id="scenarios">Scenarios</h2>'];
  const hs = sc.handshakes?.levels ?? [];
  if (hs.length)
    out.push(
      `<div class="charts">${cs.add(chart({ title: 'Concurrent handshakes', xLabel: 'concurrency', yLabel: 'handshakes/s', categorical: true, x: hs.map((l) => l.concurrency), series: [{ name: 'handshakes/s', values: hs.map((l) => l.handshakesPerSecond) }] }))}</div>`,
    );
  const rows = [];
  for (const l of hs)
    rows.push([`handshakes c=${l.concurrency}`, `${l.handshakesPerSecond}/s`, `p50 ${l.latencyMs.p50} / p99 ${l.latencyMs.p99} ms`, l.errors]);
  if (sc.rotation && !sc.rotation.error)
    rows.push([
      'rotate() under load (c=' + sc.rotation.concurrency + ')',
      `${sc.rotation.rotations} rotations`,
      `rotate p50 ${sc.rotation.rotateLatencyMs.p50} / p99 ${sc.rotation.rotateLatencyMs.p99} ms; request p99 during/baseline ${sc.rotation.p99DuringVsBaseline}`,
      sc.rotation.errors,
    ]);
  if (sc.longLived && !sc.longLived.error)
    rows.push([
      `long-lived session (${sc.longLived.requests} requests)`,
      `drift ${sc.longLived.drift}`,
      `first decile p50 ${sc.longLived.firstDecileMedianMs} ms, last ${sc.longLived.lastDecileMedianMs} ms`,
      sc.longLived.errors,
    ]);
  if (sc.multiUser && !sc.multiUser.error)
    rows.push([
      `multi-user CRUD burst (${sc.multiUser.users} users)`,
      `${sc.multiUser.seconds} s`,
      Object.entries(sc.multiUser.latencyMs)
        .map(([k, v]) => `${k} p50 ${v.p50}`)
        .join(', '),
      sc.multiUser.errors,
    ]);
  if (sc.churn && !sc.churn.error)
    rows.push([
      `session churn (c=${sc.churn.concurrency})`,
      `${sc.churn.cyclesPerSecond} cycles/s`,
      `p50 ${sc.churn.latencyMs.p50} / p99 ${sc.churn.latencyMs.p99} ms`,
      sc.churn.errors,
    ]);
  if (sc.streaming && !sc.streaming.error)
    rows.push([
      `streaming (${sc.streaming.recordsPerStream} records × ${sc.streaming.runs})`,
      `${sc.streaming.recordsPerSecond.p50} records/s (p50)`,
      `time to first record p50 ${sc.streaming.timeToFirstRecordMs.p50} ms`,
      sc.streaming.errors,
    ]);
  out.push(table(['scenario', 'rate', 'latency', 'errors'], rows));
  out.push(`<details><summary>all scenario figures (JSON)</summary><pre>${escapeHtml(JSON.stringify(sc, null, 2))}</pre></details>`);
  return out.join('\n');
}

export function memorySection(mem, cs) {
  const targets = [...new Set(mem.samples.map((s) => s.target))];
  const xs = [...new Set(mem.samples.map((s) => s.t))].sort((a, b) => a - b);
  const series = (field) =>
    targets.map((t) => {
      const by = new Map(mem.samples.filter((s) => s.target === t && typeof s[field] === 'number').map((s) => [s.t, round(s[field] / MiB, 1)]));
      return { name: `${field} ${t}`, values: xs.map((x) => by.get(x) ?? null) };
    });
  const stages = [];
  for (const s of mem.samples) if (s.stage && !stages.some((x) => x.stage === s.stage)) stages.push({ stage: s.stage, t: s.t });
  return [
    '<h2 id="memory">Server memory over the run</h2><div class="charts">',
    cs.add(chart({ title: 'Server RSS over time', xLabel: 'seconds', yLabel: 'MiB', x: xs, series: series('rss') })),
    cs.add(chart({ title: 'Server heap used over time', xLabel: 'seconds', yLabel: 'MiB', x: xs, series: series('heapUsed') })),
    '</div>',
    `<p>stage starts: ${stages.map((s) => `${escapeHtml(s.stage)} at ${escapeHtml(s.t)} s`).join(', ')}</p>`,
    `<pre>${escapeHtml(JSON.stringify(mem.summary, null, 2))}</pre>`,
  ].join('\n');
}
