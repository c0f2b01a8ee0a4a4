#!/usr/bin/env node
/**
 * `node bench/browser/cold-ab.js --a <core dist> --b <core dist> [--rounds 12] [--cpu 4] [--latency 50]
 * [--target URL | --server-dist DIR] [--client-dist DIR] [--plain] [--ohttp]`: two builds of @nen/core side by side on the whole
 * cold first encrypted response in real Chromium (issue 21): the cold-browser stage's `nen` page
 * (fresh context, CPU throttled and +latency via CDP, default @nen/client pinned, one 1 KB POST)
 * bundled (minified) once per build, pages interleaved in alternating order against one target.
 * `--plain` adds the plain page (the same POST without Nen) as a third mode, for the figure
 * "over plain". `--ohttp` adds build a's bundle in OHTTP mode (issue 23: the target's X-Wing Key
 * Config pinned by value in the page, the request encapsulated to /.well-known/ohttp-gateway, no
 * handshake; needs `--target` the demo, the Hono target has no gateway), `ohttp-b` the same with
 * build b's bundle (an A/B of the OHTTP path), and `ohttp-pre`, build a's
 * with the client's lazily imported OHTTP chunk modulepreloaded too (what an app that knows it
 * uses OHTTP could list; by default a bundler does not), and `ohttp-entry`, build a's core with
 * the page written on `@nen/client/ohttp` (createOhttpClient: the OHTTP code in the page's own
 * chunk, preloaded with it), and `ohttp-entry-b`, the same with build b's core (and client, with
 * `--client-dist-b`): the A/B of the OHTTP entry page. Prints medians: navigation -> script running, handshake sent / answered, request
 * sent / answered, response read, and script running -> response read (median per page).
 *
 *   cp -r packages/core/dist packages/core/.dist-a      # before a change
 *   node bench/browser/cold-ab.js --a packages/core/.dist-a --b packages/core/dist --plain
 *
 * `--client-dist` bundles a copy of packages/client/dist (both builds use it; a copy keeps other
 * builds in a shared tree from rewriting it mid-run); `--client-dist-b` gives build b its own (an
 * A/B of a client change together with its core).
 *
 * Pitfalls: a <core dist> must sit inside packages/core (its Wasm glue imports ../../wasm); a benchmark, nothing asserted; the machine's load moves single loads by 100+ ms, so
 * compare medians of one invocation (many rounds), never figures from separate runs. Loopback
 * only; the browser, the harness and the target stop at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleClient } from './bundle.js';
import { coldLoad, interleavedLoads, launchChromium } from './chromium.js';
import { BODY_1K, COLD_ENTRY, OHTTP_ENTRY, OHTTP_GATEWAY, coldHtml, gatewayKeyConfig, preloadList, startHonoTarget, targetPin } from './cold-target.js';
import { startHarness } from './harness.js';

const PLAIN = `const cfg = globalThis.NEN_COLD;
const evaluated = performance.now();
fetch('/api/plain/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: cfg.body })
  .then(async (res) => { const text = await res.text(); globalThis.NEN_DONE = { ms: performance.now(), evaluated, timeline: [], ok: res.status === 200 && text === cfg.body }; })
  .catch((e) => { globalThis.NEN_DONE = { error: String(e) }; });
`;

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] : null;
};

/** One cold load; returns { ms, evaluated, hsSent, hsAnswered, reqSent, reqAnswered }. */
async function load(browser, url, cpu, latency) {
  const { d, hs, req } = await coldLoad(browser, url, cpu, latency);
  return { ms: d.ms, evaluated: d.evaluated, hsSent: hs?.[1], hsAnswered: hs?.[2], reqSent: req?.[1], reqAnswered: req?.[2] };
}

export async function compareCold({ a, b, rounds = 12, cpu = 4, latency = 50, target, serverDist, clientDist, clientDistB, plain = false, ohttp = false }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nen-cold-ab-'));
  const t = target ? { url: target, stop: () => {} } : await startHonoTarget({ serverDist });
  let browser;
  let harness;
  const builds = { a: path.resolve(a), b: path.resolve(b) };
  const res = {
    a: [],
    b: [],
    ...(plain ? { plain: [] } : {}),
    ...(ohttp ? { ohttp: [], 'ohttp-b': [], 'ohttp-pre': [], 'ohttp-entry': [], 'ohttp-entry-b': [] } : {}),
  };
  try {
    const pin = await targetPin(t);
    const pages = {};
    const preloads = {};
    let lazyOhttp = [];
    for (const [n, dist] of Object.entries(builds)) {
      const bundle = await bundleClient({
        entry: COLD_ENTRY,
        outdir: path.join(dir, n),
        coreDist: dist,
        clientDist: n === 'b' && clientDistB ? clientDistB : clientDist,
      });
      if (n === 'a') lazyOhttp = bundle.files.filter((f) => !f.initial && f.inputs.some((i) => i.name.includes('/ohttp/'))).map((f) => `a/${f.name}`);
      preloads[n] = preloadList(bundle, `${n}/`);
      pages[`/${n}`] = coldHtml({ body: BODY_1K, pin }, `${n}/entry.js`, preloads[n]);
    }
    if (ohttp) {
      const keyConfig = await gatewayKeyConfig(t.url);
      if (!keyConfig) throw new Error(`--ohttp: ${t.url} serves no application/ohttp-keys at ${OHTTP_GATEWAY} (give --target the demo)`);
      pages['/ohttp'] = coldHtml({ body: BODY_1K, keyConfig, relay: OHTTP_GATEWAY }, 'a/entry.js', preloads.a);
      pages['/ohttp-b'] = coldHtml({ body: BODY_1K, keyConfig, relay: OHTTP_GATEWAY }, 'b/entry.js', preloads.b);
      pages['/ohttp-pre'] = coldHtml({ body: BODY_1K, keyConfig, relay: OHTTP_GATEWAY }, 'a/entry.js', [...preloads.a, ...lazyOhttp]);
      for (const [m, n, coreDist, cd] of [
        ['ohttp-entry', 'e', builds.a, clientDist],
        ['ohttp-entry-b', 'eb', builds.b, clientDistB ?? clientDist],
      ]) {
        const e = await bundleClient({ entry: OHTTP_ENTRY, outdir: path.join(dir, n), coreDist, clientDist: cd });
        const preloadE = preloadList(e, `${n}/`);
        pages[`/${m}`] = coldHtml({ body: BODY_1K, keyConfig, relay: OHTTP_GATEWAY }, `${n}/entry.js`, preloadE);
      }
    }
    fs.writeFileSync(path.join(dir, 'plain.js'), PLAIN);
    pages['/plain'] = coldHtml({ body: BODY_1K }, 'plain.js');
    harness = await startHarness({ dir, pages, target: t.url });
    browser = await launchChromium();
    await interleavedLoads(res, rounds, (m) => load(browser, `${harness.origin}/${m}`, cpu, latency));
  } finally {
    await browser?.close();
    await harness?.close();
    t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const out = { cpu, latency, rounds };
  for (const [m, xs] of Object.entries(res)) {
    out[m] = { dist: builds[m] ?? (m.endsWith('-b') ? builds.b : m.startsWith('ohttp') ? builds.a : null) };
    for (const k of ['evaluated', 'hsSent', 'hsAnswered', 'reqSent', 'reqAnswered', 'ms']) out[m][k] = median(xs.map((x) => x[k]));
    out[m].scriptToRead = median(xs.map((x) => x.ms - x.evaluated)); // per page: less noisy than a difference of medians
    out[m].samples = xs.map((x) => Math.round(x.ms));
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: v } = parseArgs({
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      rounds: { type: 'string', default: '12' },
      cpu: { type: 'string', default: '4' },
      latency: { type: 'string', default: '50' },
      target: { type: 'string' },
      'server-dist': { type: 'string' },
      'client-dist': { type: 'string' },
      'client-dist-b': { type: 'string' },
      plain: { type: 'boolean', default: false },
      ohttp: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (!v.a || !v.b) {
    console.error('usage: node bench/browser/cold-ab.js --a <core dist> --b <core dist> [--rounds 12] [--plain]');
    process.exit(2);
  }
  const r = await compareCold({
    ...v,
    rounds: Number(v.rounds),
    cpu: Number(v.cpu),
    latency: Number(v.latency),
    serverDist: v['server-dist'],
    clientDist: v['client-dist'],
    clientDistB: v['client-dist-b'],
  });
  if (v.json) console.log(JSON.stringify(r, null, 2));
  else {
    const f = (x) => (x === null ? '-' : x.toFixed(0)).padStart(6);
    console.log(`cold first encrypted response, ${r.cpu}x CPU, +${r.latency} ms RTT, medians of ${r.rounds} cold pages each (ms from navigation)`);
    console.log('                script  hs sent  hs answered  req sent  req answered  response read  script->read   (dist)');
    for (const m of ['plain', 'a', 'b', 'ohttp', 'ohttp-b', 'ohttp-pre', 'ohttp-entry', 'ohttp-entry-b'].filter((m) => r[m]))
      console.log(
        `  ${m.padEnd(13)} ${f(r[m].evaluated)}   ${f(r[m].hsSent)}       ${f(r[m].hsAnswered)}    ${f(r[m].reqSent)}        ${f(r[m].reqAnswered)}         ${f(r[m].ms)}        ${f(r[m].scriptToRead)}   ${r[m].dist ?? ''}`,
      );
    if (r.plain)
      for (const m of ['a', 'b', 'ohttp', 'ohttp-b', 'ohttp-pre', 'ohttp-entry', 'ohttp-entry-b'].filter((m) => r[m]))
        console.log(`  ${m} over plain: +${(r[m].ms - r.plain.ms).toFixed(0)} ms (target: +${r.latency + 15})`);
  }
}
