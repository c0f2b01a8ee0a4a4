/**
 * Chart plumbing of the HTML reports: charts are drawn in the browser by uPlot (a ~50 KB charting
 * library, npm `uplot`), whose minified script and stylesheet are read from node_modules when the
 * report is generated and inlined, so the file stays self-contained (no CDN, opens from disk).
 * A report holds chart *specs* as JSON (`chart()`), and one small inline script turns each spec
 * into a uPlot instance: lines (x numeric or categorical), bars, a dashed reference line.
 *
 * Also: the page shell, HTML escaping, tables and heat-map cell colours shared by the run report
 * (lib/report.js) and the grid report (lib/gridreport.js).
 *
 * Pitfalls: all text from the target ends up in here, so it is HTML-escaped, and the JSON inside
 * <script> has every `<` written as \u003c (no `</script>` breakout); when uPlot is not installed
 * the report still renders every table and says the charts are missing.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#be185d'];

export function escapeHtml(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** JSON safe inside a <script> element. */
export function scriptJson(value) {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

let uplotCache;
/** uPlot's minified IIFE build and CSS from node_modules, or null when it is not installed. */
export function loadUplot() {
  if (uplotCache !== undefined) return uplotCache;
  try {
    const js = fs.readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
    const css = fs.readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
    const version = JSON.parse(fs.readFileSync(require.resolve('uplot/package.json'), 'utf8')).version;
    uplotCache = { js: js.replace(/<\/script/gi, '<\\/script'), css, version };
  } catch {
    uplotCache = null;
  }
  return uplotCache;
}

/**
 * A chart spec.
 * @param {object} o
 * @param {string} o.title
 * @param {string} o.xLabel
 * @param {string} o.yLabel
 * @param {Array<number|string>} o.x  x values (numbers), or category labels when `categorical`
 * @param {Array<{ name: string, values: Array<number|null> }>} o.series aligned with x
 * @param {boolean} [o.categorical] evenly spaced x labels (concurrency levels, payload cases, runs)
 * @param {'line'|'bar'} [o.kind]
 * @param {boolean} [o.logY]
 * @param {number|null} [o.refLine] dashed horizontal line (budget, ratio 1)
 */
export function chart({ title, xLabel, yLabel, x, series, categorical = false, kind = 'line', logY = false, refLine = null }) {
  const clean = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    title: String(title),
    xLabel: String(xLabel),
    yLabel: String(yLabel),
    categorical,
    kind,
    logY,
    refLine: clean(refLine),
    x: categorical ? x.map(String) : x.map(clean),
    series: series.map((s, i) => ({
      name: String(s.name),
      color: COLORS[i % COLORS.length],
      values: s.values.map(clean),
    })),
  };
}

/** The browser-side renderer: spec → uPlot. Kept small; runs once per chart. */
const RENDER_SCRIPT = `
(function () {
  var specs = JSON.parse(document.getElementById('nen-charts').textContent);
  document.querySelectorAll('[data-chart]').forEach(function (el) {
    var s = specs[Number(el.getAttribute('data-chart'))];
    if (!s || typeof uPlot === 'undefined') return;
    var xs = s.categorical ? s.x.map(function (_, i) { return i; }) : s.x;
    var data = [xs].concat(s.series.map(function (se) { return se.values; }));
    var n = s.series.length, w = 0.8 / Math.max(n, 1);
    if (s.kind === 'bar') {
      // grouped bars: series k of category i sits at i + (k - (n - 1) / 2) * w, null elsewhere
      var bx = [];
      xs.forEach(function (i) { for (var k = 0; k < n; k++) bx.push(i + (k - (n - 1) / 2) * w); });
      data = [bx].concat(s.series.map(function (se, k) { return bx.map(function (_, j) { return j % n === k ? se.values[Math.floor(j / n)] : null; }); }));
    }
    var series = [{ label: s.xLabel, value: function (u, v) { return v == null ? '-' : s.categorical ? s.x[Math.round(v)] : v; } }].concat(s.series.map(function (se) {
      var o = { label: se.name, stroke: se.color, width: 2, points: { show: true, size: 6 }, spanGaps: false };
      if (s.kind === 'bar') { o.fill = se.color + '99'; o.paths = uPlot.paths.bars({ size: [0.9, 40], align: 0 }); o.points = { show: false }; }
      return o;
    }));
    if (s.refLine != null) { data.push(data[0].map(function () { return s.refLine; })); series.push({ label: 'reference', stroke: '#9ca3af', dash: [6, 4], width: 1, points: { show: false } }); }
    var axes = [
      { label: s.xLabel, splits: s.categorical ? function () { return xs; } : undefined, values: s.categorical ? function (u, v) { return v.map(function (i) { return s.x[i] == null ? '' : s.x[i]; }); } : undefined,
        rotate: s.categorical && s.x.some(function (l) { return String(l).length > 8; }) ? -25 : 0, size: s.categorical && s.x.some(function (l) { return String(l).length > 8; }) ? 90 : 50 },
      { label: s.yLabel, size: 64 }
    ];
    var scales = { x: { time: false }, y: s.logY ? { distr: 3 } : { range: function (u, min, max) { return [Math.min(0, min), max > 0 ? max * 1.08 : 1]; } } };
    if (s.categorical) scales.x.range = function () { return [-0.5, xs.length - 0.5]; };
    new uPlot({ title: s.title, width: 640, height: 300, series: series, axes: axes, scales: scales, legend: { live: true } }, data, el);
  });
})();`;

/** The element a chart is drawn into. */
export function chartSlot(index, spec) {
  return `<div class="chart" data-chart="${index}" aria-label="${escapeHtml(spec.title)}"></div>`;
}

export function table(headers, rows, { cellStyle } = {}) {
  return `<table><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (r, ri) => `<tr>${r.map((c, ci) => `<td${cellStyle?.(ri, ci, c) ? ` style="${cellStyle(ri, ci, c)}"` : ''}>${escapeHtml(c ?? '–')}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
}

/** Heat-map background for v in [lo, hi]: red (low) → yellow → green (high); grey when missing. */
export function heatColor(v, lo, hi) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '#e5e7eb';
  const t = hi > lo ? Math.max(0, Math.min(1, (v - lo) / (hi - lo))) : 1;
  const hue = Math.round(t * 120); // 0 red, 60 yellow, 120 green
  return `hsl(${hue} 70% 78%)`;
}

/**
 * The HTML page: `body` is HTML with chart slots; `charts` the specs they refer to (by index).
 */
export function page({ title, note, body, charts }) {
  const lib = loadUplot();
  const missing = lib ? '' : '<p class="note">uPlot is not installed (pnpm install in bench/): charts are omitted, every figure is in the tables.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${lib?.css ?? ''}</style>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#111;max-width:1400px}table{border-collapse:collapse;margin:8px 0 20px}th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:right}th{background:#f3f4f6}td:first-child,th:first-child{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{min-width:640px;min-height:300px}.note{background:#fef9c3;padding:8px 12px;border-radius:4px}pre{background:#f9fafb;padding:8px;overflow:auto;max-height:480px}.bad{color:#b91c1c;font-weight:600}.good{color:#15803d}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
${note ? `<p class="note">${escapeHtml(note)}</p>` : ''}
${missing}
${body}
<script type="application/json" id="nen-charts">${scriptJson(charts)}</script>
${lib ? `<script>/* uPlot ${escapeHtml(lib.version)} (MIT), inlined */\n${lib.js}</script>\n<script>${RENDER_SCRIPT}</script>` : ''}
<noscript><p class="note">Charts need JavaScript; every figure is also in the tables.</p></noscript>
</body></html>
`;
}

/**
 * Collects chart specs and hands out slots, so a report body can interleave charts and tables.
 * With `gallery: true` the slots are not returned in place but gathered per group (`group()`),
 * and `gallery()` renders them all at the top of the page, groups in the given `order` (the run
 * report opens with its charts; the tables follow). `stripEmpty()` then removes the sections'
 * chart wrappers left empty.
 */
export function createChartSet({ gallery = false, order = [] } = {}) {
  const charts = [];
  const groups = [];
  let current = null;
  return {
    charts,
    group(title, anchor) {
      current = { title, anchor, slots: [] };
      groups.push(current);
    },
    add(spec) {
      charts.push(spec);
      const slot = chartSlot(charts.length - 1, spec);
      if (!gallery) return slot;
      if (!current) this.group('Charts', 'charts');
      current.slots.push(slot);
      return '';
    },
    gallery() {
      const rank = (g) => (order.includes(g.anchor) ? order.indexOf(g.anchor) : order.length);
      const shown = groups.filter((g) => g.slots.length).sort((a, b) => rank(a) - rank(b));
      if (!shown.length) return '';
      return [
        `<nav>charts: ${shown.map((g) => `<a href="#chart-${escapeHtml(g.anchor)}">${escapeHtml(g.title)}</a>`).join(' · ')} — tables follow the charts</nav>`,
        ...shown.map(
          (g) =>
            `<h3 id="chart-${escapeHtml(g.anchor)}">${escapeHtml(g.title)} <a href="#${escapeHtml(g.anchor)}">(tables)</a></h3><div class="charts">${g.slots.join('')}</div>`,
        ),
      ].join('\n');
    },
  };
}

/** Removes chart wrappers a gallery left empty. */
export function stripEmpty(html) {
  return html.replace(/<div class="charts">\s*<\/div>/g, '');
}
