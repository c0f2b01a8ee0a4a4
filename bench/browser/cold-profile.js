#!/usr/bin/env node
/**
 * `node bench/browser/cold-profile.js [--target URL | --server-dist DIR] [--core-dist DIR] [--runs 5]
 * [--cpu 4] [--latency 50] [--top 25] [--json] [--save DIR] [--ohttp [--entry]]`:
 * where the cold first encrypted response's time goes in real Chromium (issue 21). Each run is
 * the cold-browser stage's `nen` page (fresh context, CPU throttled and +latency via CDP, the
 * default @nen/client pinned to the target's key, one 1 KB POST), bundled without minification so
 * the V8 sampling profiler (CDP `Profiler`, 100 µs interval) names functions; the samples are
 * attributed to the bundle's modules (esbuild's `// path` comments) and to the handshake's
 * phases (the innermost phase function on each stack: key generation, encapsulation, ...).
 * Prints medians over the runs (ms of throttled main-thread time); --json prints everything;
 * --save DIR writes each run's profile (DevTools' .cpuprofile format) and the bundle there.
 * Without --target a Hono target (bench/targets/hono.mjs, `--server-dist` passed on) is started
 * on a free loopback port and stopped at the end. `--core-dist DIR` bundles another build of
 * packages/core/dist (e.g. a copy taken before a change). `--ohttp` profiles the OHTTP page instead
 * (the target's Key Config pinned by value, no handshake; `--target` the demo: the Hono target has
 * no gateway); the lazily imported OHTTP chunk is attributed like the others; `--ohttp --entry`
 * profiles the page written on `@nen/client/ohttp` (the OHTTP code in the page's chunks).
 *
 * Pitfalls: unminified code parses a little slower than what ships (the stage measures the
 * minified bundle); a sample's time is the gap to the next sample, so idle gaps count as (idle);
 * the profiler itself costs a few % at this interval. Loopback only; stops by itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleClient } from './bundle.js';
import { coldPage, launchChromium, waitForGlobal } from './chromium.js';
import { BODY_1K, COLD_ENTRY, OHTTP_ENTRY, OHTTP_GATEWAY, coldHtml, gatewayKeyConfig, preloadList, startHonoTarget, targetPin } from './cold-target.js';
import { startHarness } from './harness.js';

/** Phase functions, innermost first wins (names as in the unminified bundle). */
export const PHASES = [
  ['x25519', /^(scalarMult|montgomeryLadder|getSharedSecret|x25519PublicKey)$/],
  ['sha3/shake', /^(keccakP|keccak|shake256|sha3_256|digestInto|squeeze|absorb)$/],
  ['mlkem keygen', /^keygen$/],
  ['mlkem prepare (ek check, matrix)', /^prepare$/],
  ['mlkem encapsulate', /^encapsulate$/],
  ['mlkem decapsulate', /^decapsulate$/],
  ['handshake finish (TH, HKDF, confirm)', /^finish$/],
  ['handshake start (other)', /^clientHandshakeStart$/],
  ['session keys / seal / open', /^(SessionKeys|sealMessage|openMessage|seal|open)$/],
];

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    runs: { type: 'string', default: '5' },
    cpu: { type: 'string', default: '4' },
    latency: { type: 'string', default: '50' },
    top: { type: 'string', default: '25' },
    json: { type: 'boolean', default: false },
    save: { type: 'string' },
    'server-dist': { type: 'string' },
    'core-dist': { type: 'string' },
    ohttp: { type: 'boolean', default: false },
    entry: { type: 'boolean', default: false },
  },
});

/** Line number (0-based) -> module path, from esbuild's unminified `// path` comments. */
function moduleMap(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = [];
  let cur = '(entry)';
  for (const l of lines) {
    const m = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(l);
    if (m) cur = m[1].replace(/^.*node_modules\//, '').replace(/^\.\.\/(\.\.\/)*/, '');
    at.push(cur);
  }
  return at;
}

/** Self time per module and per function, and time per phase (innermost phase on the stack). */
function attribute(profile, modules) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const mods = {};
  const fns = {};
  const phases = {};
  const segments = []; // [label, startMs, ms] of consecutive samples with the same phase
  let t = 0;
  const add = (o, k, v) => {
    o[k] = (o[k] ?? 0) + v;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const n = byId.get(profile.samples[i]);
    const f = n.callFrame;
    const bundled = f.url.endsWith('/entry.js') || /\/chunk-[^/]+\.js$/.test(f.url);
    const mod = bundled ? (modules[f.url]?.[f.lineNumber] ?? '?') : f.url ? 'other script' : f.functionName || '(native)';
    add(mods, mod, dt);
    add(fns, `${f.functionName || '(anonymous)'} ${bundled ? mod : ''}`.trim(), dt);
    let phase = null;
    for (let id = n.id; id !== undefined && !phase; id = parent.get(id)) {
      const name = byId.get(id).callFrame.functionName;
      phase = PHASES.find(([, re]) => re.test(name))?.[0] ?? null;
    }
    const label = phase ?? (mod.startsWith('(') ? mod : 'other JS');
    add(phases, label, dt);
    const last = segments.at(-1);
    if (last?.[0] === label) last[2] += dt;
    else segments.push([label, t, dt]);
    t += dt;
  }
  return { mods, fns, phases, segments };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

async function main() {
  // bundled before the target starts: a failed build must not leave the target running
  const entry = values.ohttp && values.entry ? OHTTP_ENTRY : COLD_ENTRY;
  const bundle = await bundleClient({ entry, minify: false, coreDist: values['core-dist'] });
  const target = values.target ? { url: values.target, stop: () => {} } : await startHonoTarget({ serverDist: values['server-dist'] });
  let browser;
  let harness;
  const runs = [];
  try {
    browser = await launchChromium();
    const pin = await targetPin(target);
    const modules = {};
    const preload = preloadList(bundle);
    const keyConfig = values.ohttp ? await gatewayKeyConfig(target.url) : null;
    if (values.ohttp && !keyConfig) throw new Error(`--ohttp: ${target.url} serves no application/ohttp-keys at ${OHTTP_GATEWAY}`);
    const html = coldHtml(keyConfig ? { body: BODY_1K, keyConfig, relay: OHTTP_GATEWAY } : { body: BODY_1K, pin }, 'entry.js', preload);
    harness = await startHarness({ dir: bundle.dir, pages: { '/nen': html }, target: target.url });
    if (values.save) fs.cpSync(bundle.dir, path.join(values.save, 'bundle'), { recursive: true });
    for (const f of bundle.files) if (f.name.endsWith('.js')) modules[`${harness.origin}/${f.name}`] = moduleMap(path.join(bundle.dir, f.name));
    for (let r = 0; r < Number(values.runs); r++) {
      const p = await coldPage(browser, { cpuRate: Number(values.cpu), latencyMs: Number(values.latency) });
      try {
        await p.cdp.send('Profiler.enable');
        await p.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await p.cdp.send('Profiler.start');
        await p.page.goto(`${harness.origin}/nen`, { timeout: 30_000 });
        const done = await waitForGlobal(p, 'NEN_DONE', 30_000);
        const { profile } = await p.cdp.send('Profiler.stop');
        if (done.error || !done.ok) throw new Error(`load failed: ${done.error ?? 'wrong echo'}`);
        if (values.save) fs.writeFileSync(path.join(values.save, `run-${r}.cpuprofile`), JSON.stringify(profile));
        runs.push({ ms: done.ms, evaluated: done.evaluated, ...attribute(profile, modules) });
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
  const med = (key) => {
    const names = new Set(runs.flatMap((r) => Object.keys(r[key])));
    return [...names].map((k) => [k, median(runs.map((r) => r[key][k] ?? 0))]).sort((a, b) => b[1] - a[1]);
  };
  const out = {
    cpu: Number(values.cpu),
    latency: Number(values.latency),
    runs: runs.length,
    doneMs: median(runs.map((r) => r.ms)),
    evaluatedMs: median(runs.map((r) => r.evaluated)),
    phases: med('phases'),
    modules: med('mods'),
    functions: med('fns').slice(0, Number(values.top)),
  };
  if (values.json) return console.log(JSON.stringify({ ...out, raw: runs }, null, 2));
  const fmt = (rows) =>
    rows
      .filter(([, v]) => v >= 0.5)
      .map(([k, v]) => `  ${v.toFixed(1).padStart(7)}  ${k}`)
      .join('\n');
  console.log(`cold first encrypted response, ${out.cpu}x CPU, +${out.latency} ms RTT, median of ${out.runs} cold pages (ms)`);
  console.log(`  navigation -> script running ${out.evaluatedMs.toFixed(1)}, -> response read ${out.doneMs.toFixed(1)}`);
  console.log(`by phase (innermost phase function on the stack):\n${fmt(out.phases)}`);
  console.log(`by module (self time):\n${fmt(out.modules)}`);
  console.log(`top functions (self time):\n${fmt(out.functions)}`);
  const first = runs.find((r) => r.ms === out.doneMs) ?? runs[0];
  const segs = [];
  for (const [k, s0, d] of first.segments) {
    const last = segs.at(-1);
    if (last && (d < 2 || last[0] === k)) last[2] = s0 + d - last[1];
    else segs.push([k, s0, d]);
  }
  // the first sample in the entry module is the page's `evaluated` (performance.now()): align on it
  const offset = first.evaluated - (first.segments.find(([k]) => k === '(entry)')?.[1] ?? 0);
  for (const s of segs) s[1] += offset;
  console.log(
    `timeline of the median run (ms from navigation, aligned on the entry's first sample; response read at ${first.ms.toFixed(0)}; runs under 2 ms merged into the one before):\n${segs.map(([k, s0, d]) => `  ${s0.toFixed(0).padStart(5)} +${d.toFixed(1).padStart(6)}  ${k}`).join('\n')}`,
  );
}

await main();
