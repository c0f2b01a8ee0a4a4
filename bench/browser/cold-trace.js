#!/usr/bin/env node
/**
 * `node bench/browser/cold-trace.js [--target URL | --server-dist DIR] [--core-dist DIR]
 * [--client-dist DIR] [--runs 5] [--cpu 4] [--latency 50] [--interval 50] [--top 12] [--save DIR]
 * [--unminified] [--hint] [--layout split|onefile|hub] [--json]`: the cold session page's main thread per phase (issue 21), from a CDP
 * trace and a CPU profile taken together. Each run is the cold-browser stage's `nen` page (fresh
 * context, 4x CPU, +50 ms RTT, the default @nen/client pinned, one 1 KB POST), bundled with
 * whitespace and syntax minified but names kept (`--unminified`: not minified at all), its static
 * chunks modulepreloaded as the stage does (`--hint`: every chunk opens with V8's explicit compile
 * hint `//# allFunctionsCalledOnLoad`, as ./cold-floor.js measures it; `--layout onefile | hub`:
 * the page's code in one file or the entry + one shared chunk, as cold-floor.js `--onefile` /
 * `--hub`). The phases are the page's own marks (ms from
 * navigation): scripts loaded, module evaluated, handshake sent / answered, request sent /
 * answered, response read. Per phase it prints medians over the runs of: the main thread's time by
 * trace event (self time: parse / compile per script, module evaluation, GC, microtasks, timers,
 * idle = no event), the number of tasks and microtask checkpoints (the await / task hops between
 * the ServerHello and the request), and the CPU profile's self time by function and by script.
 *
 * Pitfalls: the trace (categories below) and the sampling profiler cost throttled CPU themselves,
 * so absolute phases run later than in the stage; compare phases and builds within one run. The
 * page's marks are aligned on the trace through `performance.mark('nen-evaluated')` (the trace's
 * clock and the profile's are the same TimeTicks). Loopback only; the browser, harness and target
 * stop at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleClient } from './bundle.js';
import { coldPage, launchChromium, waitForGlobal } from './chromium.js';
import { HINT } from './cold-floor.js';
import { BODY_1K, COLD_ENTRY, coldHtml, preloadList, startHonoTarget, targetPin } from './cold-target.js';
import { startHarness } from './harness.js';

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'disabled-by-default-v8.gc',
  'blink.user_timing',
];

/** The stage's page, plus a trace mark at evaluation and the scripts' arrival. */
const ENTRY = COLD_ENTRY.replace(
  'const evaluated = performance.now();',
  "const evaluated = performance.now(); performance.mark('nen-evaluated'); const scripts = Math.max(...performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')).map((e) => e.responseEnd));",
).replace('globalThis.NEN_DONE = { ms', 'globalThis.NEN_DONE = { scripts, ms');
if (ENTRY === COLD_ENTRY) throw new Error('cold-trace: COLD_ENTRY changed shape');

const PHASES = ['scripts loaded', 'module evaluated', 'handshake sent', 'handshake answered', 'request sent', 'request answered', 'response read'];

/** Groups of trace events (self time), first match wins. */
const GROUPS = [
  ['GC', /GC|Scavenge|MarkCompact|Sweep|Marking|Heap|Finalize/],
  ['parse / compile', /Compile|Parse|compile|parse|Deserializ/],
  ['module evaluation', /evaluateModule|EvaluateScript/],
  ['microtasks', /Microtask/],
  ['JS call / timer / event', /FunctionCall|v8\.run|callFunction|TimerFire|EventDispatch|V8\.Execute|v8\.execute/],
  ['network / loader', /Resource|Loader|Fetch|Network|Url|URL/],
];

function options() {
  return parseArgs({
    options: {
      target: { type: 'string' },
      'server-dist': { type: 'string' },
      'core-dist': { type: 'string' },
      'client-dist': { type: 'string' },
      runs: { type: 'string', default: '5' },
      cpu: { type: 'string', default: '4' },
      latency: { type: 'string', default: '50' },
      interval: { type: 'string', default: '50' },
      top: { type: 'string', default: '12' },
      save: { type: 'string' },
      unminified: { type: 'boolean', default: false },
      hint: { type: 'boolean', default: false },
      layout: { type: 'string', default: 'split' },
      json: { type: 'boolean', default: false },
    },
  }).values;
}

/** Tracing.start .. Tracing.end on a page's CDP session; resolves to the events. */
async function startTrace(cdp) {
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    return events;
  };
}

/** The main thread's events as [name, ts, end] (B/E pairs joined), sorted by start then longest first. */
function mainThreadSpans(events) {
  const mark = events.find((e) => e.name === 'nen-evaluated');
  if (!mark) throw new Error('cold-trace: no nen-evaluated mark in the trace');
  const mine = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid);
  const spans = [];
  const open = [];
  for (const e of mine) {
    if (e.ph === 'X') spans.push([e.name, e.ts, e.ts + (e.dur ?? 0), e]);
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) spans.push([b.name, b.ts, e.ts, b]);
    }
  }
  spans.sort((a, b) => a[1] - b[1] || b[2] - a[2]);
  return { mark, spans };
}

/** Self-time segments [name, start, end] of nested spans (a child's time is not its parent's). */
function selfSegments(spans) {
  const out = [];
  const stack = [];
  const close = (upTo) => {
    while (stack.length && stack.at(-1).end <= upTo) {
      const s = stack.pop();
      if (s.cursor < s.end) out.push([s.name, s.cursor, s.end, s.ev]);
      if (stack.length) stack.at(-1).cursor = Math.max(stack.at(-1).cursor, s.end);
    }
  };
  for (const [name, ts, end, ev] of spans) {
    close(ts);
    const top = stack.at(-1);
    if (top && ts > top.cursor) out.push([top.name, top.cursor, ts, top.ev]);
    if (top) top.cursor = Math.max(top.cursor, Math.min(end, top.end));
    stack.push({ name, end: top ? Math.min(end, top.end) : end, cursor: ts, ev });
  }
  close(Number.POSITIVE_INFINITY);
  return out;
}

const scriptOf = (ev) => {
  const u = ev?.args?.data?.url ?? ev?.args?.fileName ?? ev?.args?.data?.fileName ?? ev?.args?.url;
  return typeof u === 'string' && u ? ` ${u.replace(/^https?:\/\/[^/]+\//, '')}` : '';
};

/** Adds v (ms) at o[phase][key]. */
const add = (o, phase, key, v) => {
  o[phase] ??= {};
  o[phase][key] = (o[phase][key] ?? 0) + v;
};

/** Splits [s, e) over the phase windows; calls f(phase, ms) for each overlap. */
function overPhases(bounds, s, e, f) {
  for (let i = 0; i < bounds.length - 1; i++) {
    const a = Math.max(s, bounds[i]);
    const b = Math.min(e, bounds[i + 1]);
    if (b > a) f(PHASES[i], (b - a) / 1000);
  }
}

/** One run's per-phase tables from its trace, the profile and the page's marks. */
export function analyse(events, profile, done) {
  const { mark, spans } = mainThreadSpans(events);
  const nav = mark.ts - done.evaluated * 1000;
  const hs = done.timeline.find(([u]) => u.startsWith('/api/nen/'));
  const req = done.timeline.find(([u]) => !u.startsWith('/api/nen/'));
  const marks = [0, done.scripts, done.evaluated, hs[1], hs[2], req[1], req[2], done.ms];
  const bounds = marks.map((m) => nav + m * 1000);
  const events_ = {};
  const groups = {};
  const counts = {};
  const busy = {};
  for (const [name, s, e, ev] of selfSegments(spans)) {
    const label = /compile|parse/i.test(name) || name === 'v8.evaluateModule' ? `${name}${scriptOf(ev)}` : name;
    const group = GROUPS.find(([, re]) => re.test(name))?.[0] ?? 'other';
    overPhases(bounds, s, e, (p, ms) => {
      add(events_, p, label, ms);
      add(groups, p, group, ms);
      add(busy, p, 'busy', ms);
    });
  }
  for (const [name, s] of spans) {
    const i = bounds.findIndex((b, j) => j > 0 && s < b);
    if (i < 1 || s < bounds[0]) continue;
    if (/RunTask$/.test(name)) add(counts, PHASES[i - 1], 'tasks', 1);
    if (name === 'RunMicrotasks' || name === 'v8.runMicrotasks') add(counts, PHASES[i - 1], 'microtask checkpoints', 1);
  }
  for (let i = 0; i < PHASES.length; i++) {
    const dur = (bounds[i + 1] - bounds[i]) / 1000;
    add(groups, PHASES[i], '(no event: idle)', Math.max(0, dur - (busy[PHASES[i]]?.busy ?? 0)));
  }
  const fns = {};
  const scripts = {};
  if (profile) {
    let t = profile.startTime;
    const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    for (let i = 0; i < profile.samples.length; i++) {
      t += profile.timeDeltas[i];
      const dt = profile.timeDeltas[i + 1] ?? 0;
      const f = byId.get(profile.samples[i]);
      const file = f.url ? f.url.replace(/^https?:\/\/[^/]+\//, '') : '';
      overPhases(bounds, t, t + dt, (p, ms) => {
        add(fns, p, `${f.functionName || '(anonymous)'}${file ? ` ${file}` : ''}`, ms);
        add(scripts, p, file || f.functionName || '(native)', ms);
      });
    }
  }
  return { marks, events: events_, groups, counts, fns, scripts };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

/** Medians over runs of runs[i][key][phase][name] (0 where a run has none). */
function medianTable(runs, key, phase) {
  const names = new Set(runs.flatMap((r) => Object.keys(r[key][phase] ?? {})));
  return [...names].map((n) => [n, median(runs.map((r) => r[key][phase]?.[n] ?? 0))]).sort((a, b) => b[1] - a[1]);
}

function report(runs, top) {
  const lines = [];
  const marks = PHASES.map((_, i) => median(runs.map((r) => r.marks[i + 1])));
  lines.push(`cold session page, median of ${runs.length} runs; marks (ms from navigation): ${PHASES.map((p, i) => `${p} ${marks[i].toFixed(1)}`).join(', ')}`);
  const fmt = (rows, n = top) =>
    rows
      .filter(([, v]) => v >= 0.3)
      .slice(0, n)
      .map(([k, v]) => `      ${v.toFixed(1).padStart(6)}  ${k}`)
      .join('\n');
  for (let i = 0; i < PHASES.length; i++) {
    const p = PHASES[i];
    const dur = median(runs.map((r) => r.marks[i + 1] - r.marks[i]));
    const c = (k) => median(runs.map((r) => r.counts[p]?.[k] ?? 0));
    lines.push(
      `\n== ${i ? PHASES[i - 1] : 'navigation'} -> ${p}: ${dur.toFixed(1)} ms; ${c('tasks')} tasks, ${c('microtask checkpoints')} microtask checkpoints`,
    );
    lines.push(`   main thread by kind:\n${fmt(medianTable(runs, 'groups', p))}`);
    lines.push(`   trace events (self):\n${fmt(medianTable(runs, 'events', p))}`);
    if (runs[0].fns[p]) {
      lines.push(`   profile by script (self):\n${fmt(medianTable(runs, 'scripts', p), 8)}`);
      lines.push(`   profile by function (self):\n${fmt(medianTable(runs, 'fns', p))}`);
    }
  }
  return lines.join('\n');
}

async function main() {
  const v = options();
  const layout = { split: {}, onefile: { lazyExternal: true }, hub: { hub: true } }[v.layout];
  if (!layout) throw new Error(`--layout: split, onefile or hub, not ${v.layout}`);
  const bundle = await bundleClient({
    entry: ENTRY,
    minify: v.unminified ? false : 'keep-names',
    coreDist: v['core-dist'],
    clientDist: v['client-dist'],
    ...layout,
  });
  if (v.hint)
    for (const f of bundle.files)
      if (f.name.endsWith('.js')) fs.writeFileSync(path.join(bundle.dir, f.name), HINT + fs.readFileSync(path.join(bundle.dir, f.name), 'utf8'));
  const target = v.target ? { url: v.target, stop: () => {} } : await startHonoTarget({ serverDist: v['server-dist'] });
  let browser;
  let harness;
  const runs = [];
  try {
    browser = await launchChromium();
    const pin = await targetPin(target);
    const preload = preloadList(bundle);
    harness = await startHarness({ dir: bundle.dir, pages: { '/nen': coldHtml({ body: BODY_1K, pin }, 'entry.js', preload) }, target: target.url });
    for (let r = 0; r < Number(v.runs); r++) {
      const p = await coldPage(browser, { cpuRate: Number(v.cpu), latencyMs: Number(v.latency) });
      try {
        const interval = Number(v.interval);
        if (interval > 0) {
          await p.cdp.send('Profiler.enable');
          await p.cdp.send('Profiler.setSamplingInterval', { interval });
          await p.cdp.send('Profiler.start');
        }
        const stopTrace = await startTrace(p.cdp);
        await p.page.goto(`${harness.origin}/nen`, { timeout: 30_000 });
        const done = await waitForGlobal(p, 'NEN_DONE', 30_000);
        const profile = interval > 0 ? (await p.cdp.send('Profiler.stop')).profile : null;
        const events = await stopTrace();
        if (done.error || !done.ok) throw new Error(`load failed: ${done.error ?? 'wrong echo'}`);
        if (v.save) {
          fs.mkdirSync(v.save, { recursive: true });
          fs.writeFileSync(path.join(v.save, `trace-${r}.json`), JSON.stringify({ traceEvents: events }));
          if (profile) fs.writeFileSync(path.join(v.save, `run-${r}.cpuprofile`), JSON.stringify(profile));
        }
        runs.push(analyse(events, profile, done));
      } finally {
        await p.close();
      }
    }
  } finally {
    await browser?.close();
    await harness?.close();
    target.stop();
    fs.rmSync(bundle.dir, { recursive: true, force: true });
  }
  console.log(v.json ? JSON.stringify(runs, null, 2) : report(runs, Number(v.top)));
}

await main();
