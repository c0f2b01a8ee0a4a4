/**
 * Self-contained HTML report: inline SVG charts drawn here (no CDN, no script, opens from disk):
 * throughput and p99 latency vs concurrency for both modes, the encrypted/plain overhead ratio,
 * wire bytes per payload size, server memory over time; plus the regression table and the
 * environment. All text is HTML-escaped (error messages from the target end up in here).
 */
import { round } from './stats.js';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'];

export function escapeHtml(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function niceMax(v) {
  if (!(v > 0)) return 1;
  const e = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * e >= v) return m * e;
  return 10 * e;
}

function fmt(v) {
  if (Math.abs(v) >= 1e6) return `${round(v / 1e6, 1)}M`;
  if (Math.abs(v) >= 1e4) return `${round(v / 1e3, 0)}k`;
  if (Math.abs(v) >= 1e3) return `${round(v / 1e3, 1)}k`;
  return String(round(v, 2));
}

/**
 * Line chart. series: [{ name, points: [[x, y], ...] }]. `categorical` spaces x values evenly
 * (concurrency levels), otherwise x is linear.
 */
export function lineChart({ title, xLabel, yLabel, series, categorical = false, width = 640, height = 320, yMin = 0, refLine = null, markers = [] }) {
  const m = { l: 60, r: 20, t: 46, b: 46 };
  const w = width - m.l - m.r;
  const h = height - m.t - m.b;
  const all = series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const xs = [...new Set(all.map((p) => p[0]))].sort((a, b) => a - b);
  let yMax = niceMax(Math.max(...all.map((p) => p[1]), refLine ?? 0, 0));
  const xMin = categorical ? 0 : Math.min(...xs, 0);
  const xMax = categorical ? Math.max(xs.length - 1, 1) : niceMax(Math.max(...xs, 1));
  const X = (x) => m.l + ((categorical ? xs.indexOf(x) : x) - xMin) / (xMax - xMin || 1) * w;
  const Y = (y) => m.t + h - ((y - yMin) / (yMax - yMin || 1)) * h;
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}">`);
  parts.push(`<text x="${width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="600">${escapeHtml(title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const v = yMin + ((yMax - yMin) * i) / 4;
    const y = Y(v);
    parts.push(`<line x1="${m.l}" x2="${m.l + w}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${m.l - 6}" y="${y + 4}" text-anchor="end" font-size="11">${fmt(v)}</text>`);
  }
  const ticks = categorical ? xs : Array.from({ length: 6 }, (_, i) => xMin + ((xMax - xMin) * i) / 5);
  for (const t of ticks) parts.push(`<text x="${X(t)}" y="${m.t + h + 16}" text-anchor="middle" font-size="11">${fmt(t)}</text>`);
  parts.push(`<line x1="${m.l}" x2="${m.l + w}" y1="${m.t + h}" y2="${m.t + h}" stroke="#6b7280"/>`);
  parts.push(`<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${m.t + h}" stroke="#6b7280"/>`);
  parts.push(`<text x="${m.l + w / 2}" y="${height - 8}" text-anchor="middle" font-size="12">${escapeHtml(xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${m.t + h / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escapeHtml(yLabel)}</text>`);
  for (const mk of markers) {
    if (!Number.isFinite(mk.x)) continue;
    const x = round(X(mk.x), 1);
    parts.push(`<line class="marker" x1="${x}" x2="${x}" y1="${m.t}" y2="${m.t + h}" stroke="#d1d5db" stroke-dasharray="2 3"/><text x="${x + 3}" y="${m.t + h - 4}" font-size="10" fill="#6b7280">${escapeHtml(mk.label)}</text>`);
  }
  if (refLine !== null) parts.push(`<line x1="${m.l}" x2="${m.l + w}" y1="${Y(refLine)}" y2="${Y(refLine)}" stroke="#9ca3af" stroke-dasharray="4 4"/>`);
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length];
    const pts = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (pts.length) parts.push(`<polyline class="series" fill="none" stroke="${c}" stroke-width="2" points="${pts.map(([x, y]) => `${round(X(x), 1)},${round(Y(y), 1)}`).join(' ')}"/>`);
    for (const [x, y] of pts) parts.push(`<circle cx="${round(X(x), 1)}" cy="${round(Y(y), 1)}" r="3" fill="${c}"><title>${escapeHtml(`${s.name}: ${fmt(x)} → ${fmt(y)}`)}</title></circle>`);
    parts.push(`<rect x="${m.l + 10 + i * 140}" y="26" width="10" height="10" fill="${c}"/><text x="${m.l + 24 + i * 140}" y="35" font-size="11">${escapeHtml(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

/** Grouped bar chart. categories: labels; series: [{ name, values: number[] }] aligned with categories. */
export function barChart({ title, yLabel, categories, series, width = 640, height = 320, log = false }) {
  const m = { l: 60, r: 20, t: 46, b: 46 };
  const w = width - m.l - m.r;
  const h = height - m.t - m.b;
  const vals = series.flatMap((s) => s.values).filter((v) => Number.isFinite(v) && v > 0);
  const T = (v) => (log ? Math.log10(Math.max(v, 1)) : v);
  const yMax = log ? Math.ceil(Math.log10(Math.max(...vals, 10))) : niceMax(Math.max(...vals, 0));
  const Y = (v) => m.t + h - (T(v) / (yMax || 1)) * h;
  const groupW = w / Math.max(categories.length, 1);
  const barW = (groupW * 0.8) / Math.max(series.length, 1);
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}">`);
  parts.push(`<text x="${width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="600">${escapeHtml(title)}</text>`);
  const tickCount = log ? Math.max(1, yMax) : 4;
  for (let i = 0; i <= tickCount; i++) {
    const tv = (yMax * i) / tickCount;
    const y = m.t + h - (tv / (yMax || 1)) * h;
    parts.push(`<line x1="${m.l}" x2="${m.l + w}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${m.l - 6}" y="${y + 4}" text-anchor="end" font-size="11">${fmt(log ? 10 ** tv : tv)}</text>`);
  }
  categories.forEach((c, ci) => {
    parts.push(`<text x="${m.l + groupW * ci + groupW / 2}" y="${m.t + h + 16}" text-anchor="middle" font-size="11">${escapeHtml(c)}</text>`);
    series.forEach((s, si) => {
      const v = s.values[ci];
      if (!Number.isFinite(v) || v <= 0) return;
      const x = m.l + groupW * ci + groupW * 0.1 + barW * si;
      const y = Y(v);
      parts.push(`<rect class="bar" x="${round(x, 1)}" y="${round(y, 1)}" width="${round(barW - 1, 1)}" height="${round(m.t + h - y, 1)}" fill="${COLORS[si % COLORS.length]}"><title>${escapeHtml(`${s.name} ${c}: ${fmt(v)}`)}</title></rect>`);
    });
  });
  series.forEach((s, i) => parts.push(`<rect x="${m.l + 10 + i * 140}" y="26" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/><text x="${m.l + 24 + i * 140}" y="35" font-size="11">${escapeHtml(s.name)}</text>`));
  parts.push(`<line x1="${m.l}" x2="${m.l + w}" y1="${m.t + h}" y2="${m.t + h}" stroke="#6b7280"/>`);
  parts.push(`<text transform="translate(14 ${m.t + h / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escapeHtml(yLabel + (log ? ' (log)' : ''))}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

function table(headers, rows) {
  return `<table><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c ?? '–')}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/**
 * Build the report from the stage results (any may be missing).
 * @param {{ environment: object, stages: Record<string, any>, summary: object }} run
 */
export function renderReport({ environment, stages, summary }) {
  const sections = [];
  const reg = stages.regression?.data;
  if (reg?.checks) {
    sections.push(`<h2 id="regression">Regression suite: ${reg.passed}/${reg.checks.length} passed</h2>`);
    sections.push(table(['property', 'check', 'expected', 'actual', 'result'], reg.checks.map((c) => [c.property, c.name, c.expected, c.actual, c.pass ? 'PASS' : 'FAIL'])));
  }
  const load = stages.load?.data;
  if (load?.levels?.length) {
    const lv = load.levels;
    const pts = (mode, f) => lv.map((l) => [l.concurrency, f(l[mode])]);
    sections.push('<h2 id="load">Load levels (POST echo, 1 KB JSON, interleaved)</h2>');
    sections.push('<div class="charts">');
    sections.push(lineChart({ title: 'Throughput vs concurrency', xLabel: 'concurrency', yLabel: 'req/s', categorical: true, series: [{ name: 'encrypted', points: pts('encrypted', (m) => m.rps) }, { name: 'plain', points: pts('plain', (m) => m.rps) }] }));
    sections.push(lineChart({ title: 'p99 latency vs concurrency', xLabel: 'concurrency', yLabel: 'ms', categorical: true, series: [{ name: 'encrypted', points: pts('encrypted', (m) => m.latencyMs.p99) }, { name: 'plain', points: pts('plain', (m) => m.latencyMs.p99) }] }));
    sections.push(lineChart({ title: 'Overhead ratio encrypted / plain', xLabel: 'concurrency', yLabel: 'ratio', categorical: true, refLine: 1, series: [{ name: 'throughput ratio', points: lv.map((l) => [l.concurrency, l.ratio.rps]) }, { name: 'p99 ratio', points: lv.map((l) => [l.concurrency, l.ratio.p99]) }, ...(lv.some((l) => l.ratio.serverCpuPerRequest) ? [{ name: 'server CPU/req ratio', points: lv.map((l) => [l.concurrency, l.ratio.serverCpuPerRequest]) }] : [])] }));
    sections.push('</div>');
    sections.push(table(['concurrency', 'enc req/s', 'plain req/s', 'ratio', 'enc p50/p90/p99/max ms', 'plain p50/p90/p99/max ms', 'p99 ratio', 'errors enc/plain', 'client CPU enc/plain', 'server CPU ms/req enc/plain (ratio)'], lv.map((l) => [
      l.concurrency, l.encrypted.rps, l.plain.rps, l.ratio.rps,
      `${l.encrypted.latencyMs.p50} / ${l.encrypted.latencyMs.p90} / ${l.encrypted.latencyMs.p99} / ${l.encrypted.latencyMs.max}`,
      `${l.plain.latencyMs.p50} / ${l.plain.latencyMs.p90} / ${l.plain.latencyMs.p99} / ${l.plain.latencyMs.max}`,
      l.ratio.p99, `${l.encrypted.errors} / ${l.plain.errors}`, `${l.encrypted.client.cpuShareOfMachine} / ${l.plain.client.cpuShareOfMachine}`,
      l.encrypted.server ? `${l.encrypted.server.cpuMsPerRequest} / ${l.plain.server?.cpuMsPerRequest} (${l.ratio.serverCpuPerRequest})` : null,
    ])));
  }
  const pay = stages.payload?.data;
  if (pay?.cases?.length) {
    sections.push('<h2 id="payload">Payload sizes: response wire bytes</h2><div class="charts">');
    for (const kind of [...new Set(pay.cases.map((c) => c.kind))]) {
      const cs = pay.cases.filter((c) => c.kind === kind);
      sections.push(barChart({
        title: `Response bytes on the wire (${kind})`, yLabel: 'bytes', log: true, categories: cs.map((c) => c.label),
        series: [
          { name: 'plaintext', values: cs.map((c) => c.plaintextBytes) },
          { name: 'encrypted', values: cs.map((c) => c.encrypted?.responseWireBytes) },
          { name: 'encrypted+compress', values: cs.map((c) => c.encryptedCompressed?.responseWireBytes) },
          { name: 'plain (gzip)', values: cs.map((c) => c.plain?.responseWireBytesGzip) },
        ],
      }));
    }
    sections.push('</div>');
    sections.push(table(['case', 'plaintext B', 'enc req B', 'enc res B', 'enc+compress res B', 'plain gzip res B', 'enc/plaintext', 'enc/plain-gzip', 'enc+c/plain-gzip', 'p50/p99 enc ms', 'p50/p99 enc+c ms', 'p50/p99 plain ms'], pay.cases.map((c) => [
      c.label + ' ' + c.kind, c.plaintextBytes, c.encrypted?.requestWireBytes, c.encrypted?.responseWireBytes, c.encryptedCompressed?.responseWireBytes, c.plain?.responseWireBytesGzip,
      c.ratios?.encryptedVsPlaintext, c.ratios?.encryptedVsPlainGzip, c.ratios?.encryptedCompressedVsPlainGzip,
      `${c.encrypted?.latencyMs?.p50} / ${c.encrypted?.latencyMs?.p99}`, `${c.encryptedCompressed?.latencyMs?.p50} / ${c.encryptedCompressed?.latencyMs?.p99}`, `${c.plain?.latencyMs?.p50} / ${c.plain?.latencyMs?.p99}`,
    ])));
  }
  const sc = stages.scenarios?.data;
  if (sc) {
    sections.push('<h2 id="scenarios">Scenarios</h2>');
    const hs = sc.handshakes?.levels ?? [];
    if (hs.length) {
      sections.push('<div class="charts">');
      sections.push(lineChart({ title: 'Concurrent handshakes', xLabel: 'concurrency', yLabel: 'handshakes/s', categorical: true, series: [{ name: 'handshakes/s', points: hs.map((l) => [l.concurrency, l.handshakesPerSecond]) }] }));
      sections.push('</div>');
    }
    const rows = [];
    for (const l of hs) rows.push([`handshakes c=${l.concurrency}`, `${l.handshakesPerSecond}/s`, `p50 ${l.latencyMs.p50} / p99 ${l.latencyMs.p99} ms`, l.errors]);
    if (sc.rotation && !sc.rotation.error) rows.push(['rotate() under load (c=' + sc.rotation.concurrency + ')', `${sc.rotation.rotations} rotations`, `rotate p50 ${sc.rotation.rotateLatencyMs.p50} / p99 ${sc.rotation.rotateLatencyMs.p99} ms; request p99 during/baseline ${sc.rotation.p99DuringVsBaseline}`, sc.rotation.errors]);
    if (sc.longLived && !sc.longLived.error) rows.push([`long-lived session (${sc.longLived.requests} requests)`, `drift ${sc.longLived.drift}`, `first decile p50 ${sc.longLived.firstDecileMedianMs} ms, last ${sc.longLived.lastDecileMedianMs} ms`, sc.longLived.errors]);
    if (sc.multiUser && !sc.multiUser.error) rows.push([`multi-user CRUD burst (${sc.multiUser.users} users)`, `${sc.multiUser.seconds} s`, Object.entries(sc.multiUser.latencyMs).map(([k, v]) => `${k} p50 ${v.p50}`).join(', '), sc.multiUser.errors]);
    if (sc.churn && !sc.churn.error) rows.push([`session churn (c=${sc.churn.concurrency})`, `${sc.churn.cyclesPerSecond} cycles/s`, `p50 ${sc.churn.latencyMs.p50} / p99 ${sc.churn.latencyMs.p99} ms`, sc.churn.errors]);
    if (sc.streaming && !sc.streaming.error) rows.push([`streaming (${sc.streaming.recordsPerStream} records × ${sc.streaming.runs})`, `${sc.streaming.recordsPerSecond.p50} records/s (p50)`, `time to first record p50 ${sc.streaming.timeToFirstRecordMs.p50} ms`, sc.streaming.errors]);
    sections.push(table(['scenario', 'rate', 'latency', 'errors'], rows));
    sections.push(`<details><summary>all scenario figures (JSON)</summary><pre>${escapeHtml(JSON.stringify(sc, null, 2))}</pre></details>`);
  }
  const mem = stages.memory?.data;
  if (mem?.samples?.length) {
    const targets = [...new Set(mem.samples.map((s) => s.target))];
    sections.push('<h2 id="memory">Server memory over the run</h2><div class="charts">');
    const markers = [];
    for (const smp of mem.samples) if (smp.stage && !markers.some((mk) => mk.label === smp.stage)) markers.push({ x: smp.t, label: smp.stage });
    sections.push(lineChart({ markers, title: 'Server RSS over time', xLabel: 'seconds', yLabel: 'MiB', series: targets.map((t) => ({ name: `rss ${t}`, points: mem.samples.filter((s) => s.target === t).map((s) => [s.t, s.rss / 2 ** 20]) })) }));
    sections.push(lineChart({ markers, title: 'Server heap used over time', xLabel: 'seconds', yLabel: 'MiB', series: targets.map((t) => ({ name: `heap ${t}`, points: mem.samples.filter((s) => s.target === t && typeof s.heapUsed === 'number').map((s) => [s.t, s.heapUsed / 2 ** 20]) })) }));
    sections.push('</div>');
    sections.push(`<pre>${escapeHtml(JSON.stringify(mem.summary, null, 2))}</pre>`);
  }
  const envRows = [
    ['CPU', `${environment.cpuModel} × ${environment.cores}`], ['memory', `${environment.memoryGiB} GiB`], ['load average at start', (environment.loadAverageAtStart ?? []).join(' / ')], ['OS', environment.os], ['Node', environment.node],
    ['versions', JSON.stringify(environment.versions)], ['git', `${environment.git?.commit ?? '?'}${environment.git?.dirty ? ' (dirty)' : ''}`],
    ['targets', environment.targets.join(', ')], ['store', environment.storeKind ?? 'unknown'], ['options', JSON.stringify(environment.options)],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Nen bench report</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#111;max-width:1400px}table{border-collapse:collapse;margin:8px 0 20px}th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:right}th{background:#f3f4f6}td:first-child,th:first-child{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:12px}.note{background:#fef9c3;padding:8px 12px;border-radius:4px}pre{background:#f9fafb;padding:8px;overflow:auto;max-height:480px}</style>
</head><body>
<h1>Nen bench report</h1>
<p class="note">${escapeHtml(environment.scope)}</p>
<p><strong>Overall: ${summary.ok ? 'all stages passed' : `stopped at stage ${escapeHtml(summary.failedStage ?? '?')}`}</strong> — ${escapeHtml(summary.startedAt)} … ${escapeHtml(summary.finishedAt)}</p>
${table(['environment', ''], envRows)}
${sections.join('\n')}
</body></html>
`;
}
