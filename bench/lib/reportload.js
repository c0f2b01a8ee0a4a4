/**
 * The report's throughput section (report.html): throughput, p99 and server CPU vs concurrency
 * per mode, the encrypted/plain ratios and the load variants (lib/variantcharts.js), each chart
 * with its table. Pitfalls: modes missing from a run are skipped, never charted as zero; every
 * figure charted must also be in a table.
 */
import { escapeHtml, table, chart } from './charts.js';
import { variantCharts } from './variantcharts.js';

const lat = (l) => (l ? `${l.p50} / ${l.p90} / ${l.p99} / ${l.max}` : null);

/** The section's HTML: the levels, the variants and the memory attribution, each only when the run has it. */
export function loadSection(load, cs) {
  const out = [];
  const lv = load.levels ?? [];
  if (lv.length) out.push(levelsPart(lv, load.bodyBytes, cs));
  const vs = load.variants ?? [];
  if (vs.length) out.push(variantsPart(vs, cs));
  const ma = load.memoryAttribution;
  if (ma?.windows?.length) out.push(memoryAttributionPart(ma.windows));
  return out.join('\n');
}

/** Throughput, p99 and the encrypted/plain ratios per concurrency level: three charts and their table. */
function levelsPart(lv, bodyBytes, cs) {
  const out = [];
  const x = lv.map((l) => l.concurrency);
  out.push(`<h2 id="load">Load levels (POST echo, ${escapeHtml(bodyBytes ?? 1024)} B JSON, interleaved)</h2><div class="charts">`);
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
  return out.join('\n');
}

/** The load variants (payload x compression x cores): the ratio chart, the per-variant charts, the table and notes. */
function variantsPart(vs, cs) {
  const out = [];
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
  return out.join('\n');
}

/** Memory growth per plain-only and encrypted-only window (memory-attribution.js). */
function memoryAttributionPart(windows) {
  const out = [];
  out.push('<h3 id="memory-attribution">Memory growth by mode (plain-only and encrypted-only windows)</h3>');
  out.push(
    table(
      ['window', 'requests', 'seconds', 'RSS start → end MiB', 'heap start → end MiB', 'RSS KiB / 1000 req', 'heap KiB / 1000 req'],
      windows.map((w) => [
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
  return out.join('\n');
}
