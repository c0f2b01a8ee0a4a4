/**
 * The run report (report.html): self-contained HTML whose charts uPlot draws (inlined by
 * lib/charts.js): throughput and p99 vs concurrency per mode, the encrypted/plain ratios, the
 * load variants (1 KB / 100 KB, compression off / realistic, shared / pinned cores) with their
 * bytes, wire bytes per payload size, handshakes, the saturation ramp with its knee, server memory
 * over time, the browser weight and cold first response (lib/browserreport.js), and the run
 * history; plus the key figures against bench/budgets.json, the regression table and the
 * environment. The page opens with all its charts (lib/charts.js gallery); the tables follow.
 * Every figure charted is also in a table.
 */
import { round } from './stats.js';
import { escapeHtml, table, page, createChartSet, chart, stripEmpty } from './charts.js';
import { browserSection } from './browserreport.js';
import { ohttpSection } from './ohttpreport.js';
import { variantCharts } from './variantcharts.js';
import { memoryAttributionSection } from './memoryreport.js';

export { escapeHtml } from './charts.js';

const MiB = 2 ** 20;
const lat = (l) => (l ? `${l.p50} / ${l.p90} / ${l.p99} / ${l.max}` : null);

function budgetSection(summary) {
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

function loadSection(load, cs) {
  const out = [];
  const lv = load.levels ?? [];
  if (lv.length) {
    const x = lv.map((l) => l.concurrency);
    out.push(`<h2 id="load">Load levels (POST echo, ${escapeHtml(load.bodyBytes ?? 1024)} B JSON, interleaved)</h2><div class="charts">`);
    out.push(
      cs.add(
        chart({
          title: 'Throughput vs concurrency',
          xLabel: 'concurrency',
          yLabel: 'req/s',
          categorical: true,
          x,
          series: [
            { name: 'encrypted', values: lv.map((l) => l.encrypted.rps) },
            { name: 'plain', values: lv.map((l) => l.plain.rps) },
          ],
        }),
      ),
    );
    out.push(
      cs.add(
        chart({
          title: 'p99 latency vs concurrency',
          xLabel: 'concurrency',
          yLabel: 'ms',
          categorical: true,
          x,
          series: [
            { name: 'encrypted', values: lv.map((l) => l.encrypted.latencyMs.p99) },
            { name: 'plain', values: lv.map((l) => l.plain.latencyMs.p99) },
          ],
        }),
      ),
    );
    out.push(
      cs.add(
        chart({
          title: 'Overhead ratio encrypted / plain',
          xLabel: 'concurrency',
          yLabel: 'ratio',
          categorical: true,
          refLine: 1,
          x,
          series: [
            { name: 'throughput ratio', values: lv.map((l) => l.ratio.rps) },
            { name: 'p99 ratio', values: lv.map((l) => l.ratio.p99) },
            { name: 'server CPU/req ratio', values: lv.map((l) => l.ratio.serverCpuPerRequest ?? null) },
          ],
        }),
      ),
    );
    out.push('</div>');
    out.push(
      table(
        [
          'concurrency',
          'enc req/s',
          'plain req/s',
          'ratio',
          'enc p50/p90/p99/max ms',
          'plain p50/p90/p99/max ms',
          'p99 ratio',
          'errors enc/plain',
          'client CPU enc/plain',
          'server CPU ms/req enc/plain (ratio)',
        ],
        lv.map((l) => [
          l.concurrency,
          l.encrypted.rps,
          l.plain.rps,
          l.ratio.rps,
          lat(l.encrypted.latencyMs),
          lat(l.plain.latencyMs),
          l.ratio.p99,
          `${l.encrypted.errors} / ${l.plain.errors}`,
          `${l.encrypted.client.cpuShareOfMachine} / ${l.plain.client.cpuShareOfMachine}`,
          l.encrypted.server ? `${l.encrypted.server.cpuMsPerRequest} / ${l.plain.server?.cpuMsPerRequest} (${l.ratio.serverCpuPerRequest})` : null,
        ]),
      ),
    );
  }
  const vs = load.variants ?? [];
  if (vs.length) {
    out.push('<h3 id="variants">Variants: payload × compression × cores</h3>');
    out.push(
      '<p>compression off: no Accept-Encoding, no in-envelope compression. realistic: Next.js gzip on, Accept-Encoding sent as a browser does, the encrypted client with in-envelope compression. pinned: the server (all its threads) on core 0, the bench on core 1 (taskset), when the target is local.</p><div class="charts">',
    );
    const x = vs.map((v) => v.id);
    out.push(
      cs.add(
        chart({
          title: 'encrypted / plain per variant',
          xLabel: 'variant',
          yLabel: 'ratio',
          categorical: true,
          kind: 'bar',
          refLine: 1,
          x,
          series: [
            { name: 'req/s ratio', values: vs.map((v) => v.ratio.rps) },
            { name: 'server CPU/req ratio', values: vs.map((v) => v.ratio.serverCpuPerRequest) },
            { name: 'response bytes ratio', values: vs.map((v) => v.bytes?.responseRatio ?? null) },
          ],
        }),
      ),
    );
    out.push(variantCharts(vs, cs));
    out.push('</div>');
    out.push(
      table(
        [
          'variant',
          'size',
          'c',
          'compression',
          'cores',
          'enc req/s',
          'plain req/s',
          'ratio',
          'p99 enc/plain ms',
          'server CPU ms/req enc/plain',
          'resp bytes enc/plain',
          'bytes ratio',
          'compression enc / plain',
          'errors',
        ],
        vs.map((v) => [
          v.id,
          v.size,
          v.concurrency,
          v.compression,
          v.cores,
          v.encrypted.rps,
          v.plain.rps,
          v.ratio.rps,
          `${v.encrypted.latencyMs.p99} / ${v.plain.latencyMs.p99}`,
          v.encrypted.server ? `${v.encrypted.server.cpuMsPerRequest} / ${v.plain.server?.cpuMsPerRequest}` : null,
          v.bytes ? `${v.bytes.encryptedResponse} / ${v.bytes.plainResponse}` : null,
          v.bytes?.responseRatio,
          v.bytes ? `${v.bytes.encryptedCompressionRatio ?? '–'} / ${v.bytes.plainCompressionRatio ?? '–'}` : null,
          `${v.encrypted.errors} / ${v.plain.errors}`,
        ]),
      ),
    );
    if (vs.some((v) => v.note))
      out.push(
        `<p>${vs
          .filter((v) => v.note)
          .map((v) => `${escapeHtml(v.id)}: ${escapeHtml(v.note)}`)
          .join('<br>')}</p>`,
      );
  }
  const ma = load.memoryAttribution;
  if (ma?.windows?.length) {
    out.push('<h3 id="memory-attribution">Memory growth by mode (plain-only and encrypted-only windows)</h3>');
    out.push(
      table(
        ['window', 'requests', 'seconds', 'RSS start → end MiB', 'heap start → end MiB', 'RSS KiB / 1000 req', 'heap KiB / 1000 req'],
        ma.windows.map((w) => [
          w.mode,
          w.requests,
          w.seconds,
          `${w.rssStartMiB} → ${w.rssEndMiB}`,
          `${w.heapStartMiB} → ${w.heapEndMiB}`,
          w.rssGrowthKiBPer1000Requests,
          w.heapGrowthKiBPer1000Requests,
        ]),
      ),
    );
  }
  return out.join('\n');
}

function payloadSection(pay, cs) {
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

function scenarioSection(sc, cs) {
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

function memorySection(mem, cs) {
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

/**
 * Build the report from the stage results (any may be missing).
 * @param {{ environment: object, stages: Record<string, any>, summary: object, history?: object[] }} run
 */
export function renderReport({ environment, stages, summary, history = [] }) {
  // the report opens with its charts (grouped, in this order); the tables follow
  const cs = createChartSet({ gallery: true, order: ['load', 'payload', 'memory', 'browser', 'ohttp', 'scenarios', 'saturation', 'history'] });
  const sections = [budgetSection(summary)];
  const reg = stages.regression?.data;
  if (reg?.checks) {
    sections.push(`<h2 id="regression">Regression suite: ${reg.passed}/${reg.checks.length} passed</h2>`);
    sections.push(
      table(
        ['property', 'check', 'expected', 'actual', 'result'],
        reg.checks.map((c) => [c.property, c.name, c.expected, c.actual, c.pass ? 'PASS' : 'FAIL']),
      ),
    );
  }
  const add = (anchor, title, html) => {
    cs.group(title, anchor);
    sections.push(html());
  };
  if (stages.load?.data) add('load', 'Throughput, latency and server CPU: encrypted vs plain', () => loadSection(stages.load.data, cs));
  if (stages.payload?.data?.cases?.length) add('payload', 'Payload sizes', () => payloadSection(stages.payload.data, cs));
  if (stages.scenarios?.data) add('scenarios', 'Scenarios', () => scenarioSection(stages.scenarios.data, cs));
  if (stages['cold-browser']?.data?.modes) add('browser', 'Browser weight and cold first response', () => browserSection(stages['cold-browser'].data, cs));
  if (stages.ohttp?.data?.coldMs) add('ohttp', 'Oblivious HTTP: cold first request, throughput, server CPU', () => ohttpSection(stages.ohttp.data, cs));
  if (stages.saturation?.data) add('saturation', 'Saturation', () => saturationSection(stages.saturation.data, cs));
  if (stages.memory?.data?.samples?.length) add('memory', 'Server memory over time', () => memorySection(stages.memory.data, cs));
  if (stages['memory-attribution']?.data?.runs) sections.push(memoryAttributionSection(stages['memory-attribution'].data));
  add('history', 'History', () => historySection(history, cs));
  const body = `<p><strong>Overall: ${summary.ok ? 'all stages passed' : `stopped at stage ${escapeHtml(summary.failedStage ?? '?')}`}</strong> — ${escapeHtml(summary.startedAt)} … ${escapeHtml(summary.finishedAt)}</p>
${cs.gallery()}
${environmentTable(environment)}
${stripEmpty(sections.filter(Boolean).join('\n'))}`;
  return page({ title: 'Nen bench report', note: environment.scope, body, charts: cs.charts });
}
