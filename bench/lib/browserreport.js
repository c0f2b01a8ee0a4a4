/**
 * The browser section of the run report (stage cold-browser): the weight a page pays for Nen
 * (gzip bytes before the first encrypted response: the default @noble client vs the Wasm
 * backend, and on request only) and the cold first response in Chromium (4x CPU, +50 ms RTT)
 * per mode against the target plain + 1 RTT + 15 ms; then the tables (per-file weights, per-mode
 * figures and samples).
 */
import { chart, escapeHtml, table } from './charts.js';

const kb = (n) => (typeof n === 'number' ? Math.round(n / 100) / 10 : null);

const SEGMENTS = [
  ['script running', (p) => p.evaluated],
  ['CPU before the first API request', (p) => (p.handshakeSent ?? p.requestSent) - p.evaluated],
  ['handshake round trip', (p) => (p.handshakeSent === null ? 0 : p.handshakeAnswered - p.handshakeSent)],
  ['CPU between', (p) => (p.handshakeSent === null ? 0 : p.requestSent - p.handshakeAnswered)],
  ['request round trip', (p) => p.requestAnswered - p.requestSent],
  ['response read', (p) => p.done - p.requestAnswered],
];

/** Where each mode's cold time went, from the median phase boundaries (ms). */
export function segmentsOf(phases) {
  if (!phases || phases.evaluated == null || phases.requestSent == null) return null;
  return SEGMENTS.map(([name, f]) => [name, Math.round(f(phases) * 10) / 10]);
}

export function browserSection(data, cs) {
  const { modes, weight, target, conditions } = data;
  const names = Object.keys(modes);
  const segs = Object.fromEntries(names.map((m) => [m, segmentsOf(modes[m].phases)]));
  const withSegs = names.filter((m) => segs[m]);
  const out = [
    `<h2 id="browser">Browser: weight and cold first response (Chromium, ${escapeHtml(conditions.cpuThrottling)}x CPU, +${escapeHtml(conditions.addedRttMs)} ms RTT, ${escapeHtml(conditions.rounds)} cold loads per mode)</h2><div class="charts">`,
    cs.add(
      chart({
        title: 'Browser weight before the first encrypted response (gzip)',
        xLabel: 'configuration',
        yLabel: 'KB gzip',
        categorical: true,
        kind: 'bar',
        refLine: 40,
        x: ['default (@noble)', "backend: 'wasm'"],
        series: [
          { name: 'bundle (esbuild)', values: [kb(weight.defaultInitial.gzip), kb(weight.wasmBackendInitial.gzip)] },
          {
            name: 'on the wire in Chromium (JS + Wasm)',
            values: [
              kb((modes.nen?.scriptBytes ?? 0) + (modes.nen?.wasmBytes ?? 0)),
              kb((modes['nen-wasm']?.scriptBytes ?? 0) + (modes['nen-wasm']?.wasmBytes ?? 0)),
            ],
          },
        ],
      }),
    ),
    cs.add(
      chart({
        title: 'Cold first response in Chromium (median, from navigation)',
        xLabel: 'mode',
        yLabel: 'ms',
        categorical: true,
        kind: 'bar',
        refLine: target.targetMs,
        x: names,
        series: [
          { name: 'response read', values: names.map((m) => modes[m].medianMs) },
          { name: 'script running', values: names.map((m) => modes[m].evaluatedMs ?? null) },
        ],
      }),
    ),
    withSegs.length
      ? cs.add(
          chart({
            title: 'Where the cold time goes (median phase boundaries)',
            xLabel: 'phase',
            yLabel: 'ms',
            categorical: true,
            kind: 'bar',
            x: SEGMENTS.map(([n]) => n),
            series: withSegs.map((m) => ({ name: m, values: segs[m].map(([, v]) => v) })),
          }),
        )
      : '',
    '</div>',
    `<p>Target: ${escapeHtml(target.rule)} = ${escapeHtml(target.targetMs)} ms: <span class="${target.met ? 'good' : 'bad'}">${target.met ? 'met' : 'not met'}</span> (nen ${escapeHtml(modes.nen?.medianMs)} ms, +${escapeHtml(data.extraMs?.nen)} ms over plain; nen-wasm +${escapeHtml(data.extraMs?.['nen-wasm'])} ms${modes['nen-ohttp'] ? `; nen-ohttp (OHTTP, key config pinned in the page, no handshake, its code loaded on the first request) +${escapeHtml(data.extraMs?.['nen-ohttp'])} ms` : ''}). Weight: ${escapeHtml(weight.method)}.</p>`,
    table(
      [
        'mode',
        'loads',
        'median ms',
        'min',
        'max',
        'script running at (median ms)',
        'script bytes (wire)',
        'wasm bytes (wire)',
        'all bytes (wire)',
        'samples ms',
      ],
      names.map((m) => {
        const v = modes[m];
        return [m, v.loads, v.medianMs, v.minMs, v.maxMs, v.evaluatedMs ?? null, v.scriptBytes, v.wasmBytes, v.totalBytes, (v.samplesMs ?? []).join(' ')];
      }),
    ),
    withSegs.length
      ? table(
          ['phase (ms)', ...withSegs],
          SEGMENTS.map(([n], i) => [n, ...withSegs.map((m) => segs[m][i][1])]),
        )
      : '',
    streamTable(data.stream),
    table(
      ['file', 'raw bytes', 'gzip bytes', 'default page loads it'],
      weight.files.map((f) => [f.name, f.bytes, f.gzip, f.initial ? 'yes' : 'no (on request)']),
    ),
  ];
  return out.join('\n');
}

/** The warm AI stream through the browser client, per backend (browser/stream.js). */
function streamTable(stream) {
  if (!stream) return '';
  const rows = Object.entries(stream).map(([backend, r]) => [
    backend,
    r.tokens,
    r.iterations,
    r.plain.tokensPerSecond,
    r.nen.tokensPerSecond,
    r.tokensPerSecondRatio,
    r.plain.ttftMs,
    r.nen.ttftMs,
    r.ttftOverPlainMs,
    r.plain.totalMs ?? null,
    r.nen.totalMs ?? null,
    r.wholeStreamRatio ?? null,
    r.plain.reads ?? null,
    r.nen.reads ?? null,
  ]);
  return `<h3>AI stream through the browser client (warm session, paced tokens; targets: tokens/s >= 0.95x plain, first token <= plain + 2 ms; the plain stream is gzipped by Next, the browser asks for it)</h3>${table(
    [
      'backend',
      'tokens',
      'iterations',
      'plain tokens/s',
      'nen tokens/s',
      'ratio',
      'plain first token ms',
      'nen first token ms',
      'nen - plain ms',
      'plain whole stream ms',
      'nen whole stream ms',
      'whole-stream ratio',
      'plain chunks read',
      'nen chunks read',
    ],
    rows,
  )}`;
}
