#!/usr/bin/env node
/**
 * `node bench/browser/cold-floor.js [--rounds 12] [--cpu 4] [--latency 50] [--target URL |
 * --server-dist DIR] [--core-dist D --client-dist D] [--hints] [--onefile] [--hub] [--only m1,m2] [--json]`: the floor of the cold
 * session page (issue 21), like with like. Pages, each a fresh context (4x CPU, +50 ms RTT via
 * CDP), interleaved in alternating order against one target, all same-origin through the harness:
 *  - `plain`: the cold-browser stage's plain page (a 0.4 KB module POSTs the 1 KB JSON);
 *  - `plain2`: the same, after a first POST of a handshake-sized body (1,250 B) to the same echo:
 *    what one more round trip costs on this harness;
 *  - `load`: the @nen/client bundle of the stage's page (same chunks, same modulepreloads)
 *    imported and evaluated, `createNenClient` referenced, then the plain POST (no Nen call);
 *  - `load2`: `load` with plain2's two POSTs: "a page that loads the bundle and makes two fetches"
 *    (the floor for session mode without any crypto or client code run);
 *  - `nen`: the stage's session page (the real thing);
 *  - with `--hints`, `load-hint` / `nen-hint`: the same bundles with `//# allFunctionsCalledOnLoad`
 *    as the first line of every chunk (V8's explicit compile hints: eager compilation while the
 *    script streams in, off the main thread), and `nen-hintown`: the hint on Nen's own chunks only
 *    (not on the chunk whose largest input is @noble's), `nen-hintnoble`: on that chunk only;
 *  - with `--onefile`, `load1` / `nen1`: the same pages with the same code in one file (every
 *    dynamic import left unbundled: no chunk shared with a lazy one; the Chromium path reaches none),
 *    and `load1pre` / `nen1pre`: the one file also listed as a modulepreload;
 *  - with `--hub`, `nenhub`: the nen page bundled with ./bundle.js `hub` (the app's entry + one
 *    shared chunk: what a library whose lazy parts import the page's code from one module gives).
 * `--only` keeps the named pages (and plain).
 * Prints medians (ms from navigation) of script running and response read, the median over plain
 * and the median of the per-round differences to plain (paired: robust to the load's drift), and per page the resources' timeline (a chunk discovered late shows as a start after the
 * entry's end). Pitfalls: a benchmark, nothing asserted; compare rows of one invocation only (the
 * machine's load moves whole pages by 100+ ms); the browser, harness and target stop at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleClient } from './bundle.js';
import { coldPage, interleavedLoads, launchChromium, waitForGlobal } from './chromium.js';
import { BODY_1K, COLD_ENTRY, coldHtml, preloadList, startHonoTarget, targetPin } from './cold-target.js';
import { startHarness } from './harness.js';

export const HINT = '//# allFunctionsCalledOnLoad\n';
const HS_BODY = JSON.stringify({ data: 'h'.repeat(1236) }); // 1,250 B: a ClientHello's size class

const TIMELINE = `const timeline = () => performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, Math.round(e.startTime), Math.round(e.responseEnd)]);`;
const post = (body) => `fetch('/api/plain/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${body} })`;
const plainBody = (two) => `const cfg = globalThis.NEN_COLD;
const evaluated = performance.now();
${TIMELINE}
(async () => {
  try {
    ${two ? `await (await ${post('cfg.hs')}).text();` : ''}
    const res = await ${post('cfg.body')};
    const text = await res.text();
    globalThis.NEN_DONE = { ms: performance.now(), evaluated, timeline: timeline(), ok: res.status === 200 && text === cfg.body };
  } catch (e) { globalThis.NEN_DONE = { error: String(e) }; }
})();
`;
/** The bundle imported and evaluated, nothing of it called. */
const loadEntry = (two) => `import { createNenClient } from '@nen/client';\nglobalThis.NEN_KEEP = createNenClient;\n${plainBody(two)}`;
const nenEntry = COLD_ENTRY.replace(/const timeline = [^\n]*\n/, `${TIMELINE}\n`);

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] : null;
};

async function load(browser, url, cpu, latency) {
  const p = await coldPage(browser, { cpuRate: cpu, latencyMs: latency });
  try {
    await p.page.goto(url, { timeout: 30_000 });
    const d = await waitForGlobal(p, 'NEN_DONE', 30_000);
    if (d.error || !d.ok) throw new Error(`cold load of ${url} failed: ${d.error ?? 'wrong echo'}`);
    return d;
  } finally {
    await p.close();
  }
}

/** Copies a bundle dir with the compile hint prepended to every .js file (or those `pick` accepts). */
function hinted(src, dst, pick = () => true) {
  fs.cpSync(src, dst, { recursive: true });
  for (const f of fs.readdirSync(dst)) if (f.endsWith('.js') && pick(f)) fs.writeFileSync(path.join(dst, f), HINT + fs.readFileSync(path.join(dst, f), 'utf8'));
}

export async function measureFloor({
  rounds = 12,
  cpu = 4,
  latency = 50,
  target,
  serverDist,
  coreDist,
  clientDist,
  hints = false,
  onefile = false,
  hub = false,
  only,
}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nen-cold-floor-'));
  const t = target ? { url: target, stop: () => {} } : await startHonoTarget({ serverDist });
  let browser;
  let harness;
  const res = {};
  const oneFile = {};
  try {
    const pin = await targetPin(t);
    const cfg = { body: BODY_1K, hs: HS_BODY, pin };
    const pages = {};
    const bundles = { load: loadEntry(false), load2: loadEntry(true), nen: nenEntry };
    for (const [n, entry] of Object.entries(bundles)) {
      const b = await bundleClient({ entry, outdir: path.join(dir, n), coreDist, clientDist });
      const pre = (d) => preloadList(b, `${d}/`);
      pages[`/${n}`] = coldHtml(cfg, `${n}/entry.js`, pre(n));
      if (hints && n !== 'load2') {
        hinted(path.join(dir, n), path.join(dir, `${n}-hint`));
        pages[`/${n}-hint`] = coldHtml(cfg, `${n}-hint/entry.js`, pre(`${n}-hint`));
      }
      if (onefile && n !== 'load2') {
        const one = await bundleClient({ entry, outdir: path.join(dir, `${n}1`), coreDist, clientDist, lazyExternal: true });
        pages[`/${n}1`] = coldHtml(cfg, `${n}1/entry.js`, []);
        // the same file also listed as <link rel="modulepreload"> (how the split pages list chunks)
        pages[`/${n}1pre`] = coldHtml(cfg, `${n}1/entry.js`, [`${n}1/entry.js`]);
        oneFile[`${n}1`] = { files: one.files.filter((f) => f.initial).length, ...one.initial };
      }
      if (hub && n === 'nen') {
        const h = await bundleClient({ entry, outdir: path.join(dir, 'nenhub'), coreDist, clientDist, hub: true });
        const preH = preloadList(h, 'nenhub/');
        pages['/nenhub'] = coldHtml(cfg, 'nenhub/entry.js', preH);
        oneFile.nenhub = { files: h.files.filter((f) => f.initial).length, ...h.initial };
      }
      if (hints && n === 'nen') {
        // the hint on Nen's own chunks only (not the one whose largest input is @noble's)
        const noble = new Set(b.files.filter((f) => f.inputs[0]?.name.startsWith('@noble/')).map((f) => f.name));
        hinted(path.join(dir, n), path.join(dir, 'nen-hintown'), (f) => !noble.has(f));
        pages['/nen-hintown'] = coldHtml(cfg, 'nen-hintown/entry.js', pre('nen-hintown'));
        hinted(path.join(dir, n), path.join(dir, 'nen-hintnoble'), (f) => noble.has(f));
        pages['/nen-hintnoble'] = coldHtml(cfg, 'nen-hintnoble/entry.js', pre('nen-hintnoble'));
      }
    }
    fs.writeFileSync(path.join(dir, 'plain.js'), plainBody(false));
    fs.writeFileSync(path.join(dir, 'plain2.js'), plainBody(true));
    pages['/plain'] = coldHtml(cfg, 'plain.js');
    pages['/plain2'] = coldHtml(cfg, 'plain2.js');
    for (const m of [
      'plain',
      'plain2',
      'load',
      'load2',
      'nen',
      'load-hint',
      'nen-hint',
      'nen-hintown',
      'nen-hintnoble',
      'load1',
      'nen1',
      'load1pre',
      'nen1pre',
      'nenhub',
    ])
      if (pages[`/${m}`] && (!only || m === 'plain' || only.includes(m))) res[m] = [];
    harness = await startHarness({ dir, pages, target: t.url });
    browser = await launchChromium();
    await interleavedLoads(res, rounds, (m) => load(browser, `${harness.origin}/${m}`, cpu, latency), { alternate: true });
  } finally {
    await browser?.close();
    await harness?.close();
    t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const out = { cpu, latency, rounds, oneFile, modes: {} };
  for (const [m, xs] of Object.entries(res)) {
    const scripts = xs.map((d) => d.timeline.filter(([u]) => u.endsWith('.js')));
    out.modes[m] = {
      evaluated: median(xs.map((d) => d.evaluated)),
      ms: median(xs.map((d) => d.ms)),
      scriptToRead: median(xs.map((d) => d.ms - d.evaluated)),
      scriptsEnd: median(scripts.map((s) => Math.max(...s.map((x) => x[2])))),
      lastScriptStart: median(scripts.map((s) => Math.max(...s.map((x) => x[1])))),
      scripts: scripts[0]?.length ?? 0,
      /** median over rounds of (this page - the same round's plain page): robust to load drift */
      overPlainPaired: median(xs.map((d, i) => d.ms - res.plain[i].ms)),
      timeline: xs[0]?.timeline,
    };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: v } = parseArgs({
    options: {
      rounds: { type: 'string', default: '12' },
      cpu: { type: 'string', default: '4' },
      latency: { type: 'string', default: '50' },
      target: { type: 'string' },
      'server-dist': { type: 'string' },
      'core-dist': { type: 'string' },
      'client-dist': { type: 'string' },
      hints: { type: 'boolean', default: false },
      onefile: { type: 'boolean', default: false },
      hub: { type: 'boolean', default: false },
      only: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const r = await measureFloor({
    rounds: Number(v.rounds),
    cpu: Number(v.cpu),
    latency: Number(v.latency),
    target: v.target,
    serverDist: v['server-dist'],
    coreDist: v['core-dist'],
    clientDist: v['client-dist'],
    hints: v.hints,
    onefile: v.onefile,
    hub: v.hub,
    only: v.only?.split(','),
  });
  if (v.json) console.log(JSON.stringify(r, null, 2));
  else {
    const f = (x) => (x === null ? '-' : x.toFixed(0)).padStart(6);
    const plain = r.modes.plain.ms;
    console.log(`cold floor, ${r.cpu}x CPU, +${r.latency} ms RTT, medians of ${r.rounds} cold pages (ms from navigation)`);
    console.log('              scripts  last script start  scripts end  script running  response read  script->read  over plain (paired)');
    for (const [m, x] of Object.entries(r.modes))
      console.log(
        `  ${m.padEnd(10)} ${String(x.scripts).padStart(4)}   ${f(x.lastScriptStart)}             ${f(x.scriptsEnd)}       ${f(x.evaluated)}          ${f(x.ms)}        ${f(x.scriptToRead)}     +${(x.ms - plain).toFixed(0)} (+${x.overPlainPaired.toFixed(0)})`,
      );
    if (v.onefile || v.hub) console.log(`  one-file bundles: ${JSON.stringify(r.oneFile)}`);
    for (const m of ['plain', 'load', 'nen'].filter((m) => r.modes[m])) console.log(`  ${m} timeline (one page): ${JSON.stringify(r.modes[m].timeline)}`);
  }
}
