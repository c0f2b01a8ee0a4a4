#!/usr/bin/env node
/**
 * `node bench/browser/cold-marks.js [--build <core dist>:<client dist>]... [--rounds 12] [--cpu 4]
 * [--latency 50] [--target URL | --server-dist DIR]`: the cold session page's first encrypted
 * response step by step (issue 21). Each build's dists are copied and instrumented with
 * `performance.mark` at each step of the client's path (createNenClient, prepare, the backend's
 * probes, the X-Wing seed's SHAKE256, the handshake's KEM calls, its fetch / body read / finish, the
 * epoch keys, sealing, the request's fetch), bundled as the cold-browser stage bundles (minified),
 * and loaded cold (fresh context, 4x CPU, +50 ms RTT via CDP) interleaved in alternating order. It
 * prints, per mark, the median time from navigation and the median of the per-page differences to
 * the mark before (robust to the machine's load, which moves whole pages by 100+ ms), then per-page
 * medians of evaluated -> read and ServerHello answered -> request sent. Default build: the
 * workspace's packages/core/dist and packages/client/dist.
 *
 * Pitfalls: the marks are inserted by text anchors in the built JS; a build whose code moved fails
 * with the anchor's name (update MARKS). A <core dist> copy is placed inside packages/core (its Wasm
 * glue imports ../../wasm) and removed at the end, as are the bundles. A benchmark: nothing asserted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchDir } from '../lib/env.js';
import { bundleClient } from './bundle.js';
import { coldLoad, launchChromium } from './chromium.js';
import { BODY_1K, COLD_ENTRY, coldHtml, preloadList, startHonoTarget, targetPin } from './cold-target.js';
import { startHarness } from './harness.js';

const CORE = path.resolve(benchDir, '../packages/core');
const CLIENT = path.resolve(benchDir, '../packages/client');
const m = (name) => `performance.mark('${name}');`;

/** [file in the dist, anchor (string or RegExp), replacement (function of the match)] per mark. */
const MARKS = {
  client: [
    ['client.js', 'const cfg = resolveConfig(options);', (a) => `${m('create')} ${a} ${m('config')}`],
    ['client.js', 'const p = prepare(cfg.resolveUrl, input, init);', (a) => `${m('request')} ${a} ${m('prepared')}`],
    ['session.js', 'const be = await this.backend();', (a) => `${a} ${m('backend loaded')}`],
    ['session.js', 'const url = cfg.resolveUrl(', (a) => `${m('hs started')} ${a}`],
    [
      'session.js',
      /buf = (new Uint8Array\(await res\.arrayBuffer\(\)\)|await readBodyLimited\([^;]*\));/,
      (a) => `${m('hs fetch resolved')} ${a} ${m('hs body read')}`,
    ],
    ['session.js', 'const r = await st.finish(buf);', (a) => `${m('hs checked')} ${a} ${m('hs finished')}`],
    ['session.js', 'await SessionKeys.create(be, r.secret, 0);', (a) => `${a} ${m('epoch keys')}`],
    ['exchange.js', /async function sendWith\([^)]*\) \{/, (a) => `${a} ${m('sendWith')}`],
    ['exchange.js', 'const headers = new Headers(p.headers);', (a) => `${m('sealed')} ${a}`],
    ['exchange.js', 'res = await cfg.fetch(sealed.url, init);', (a) => `${m('req fetch')} ${a} ${m('req fetch resolved')}`],
    ['exchange.js', 'sealed = responseRecord(head, res.headers, body);', (a) => `${m('res body read')} ${a}`],
    ['exchange.js', 'const opening = openResponse(x, head, res.status, sealed);', (a) => `${m('res open')} ${a}`],
    ['exchange.js', 'return appResponse(head.nullBody ? null : plain, res, head.contentType);', (a) => `${m('res opened')} ${a}`],
  ],
  core: [
    ['backend/index.browser.js', 'const symP = detectWebCryptoSymmetric();', (a) => `${m('probes')} ${a}`],
    ['backend/index.browser.js', 'const asyncKem = await probe;', (a) => `${a} ${m('probes done')}`],
    ['backend/webcrypto-kem.js', 'const expanded = shake256(privateKey, { dkLen: 96 });', (a) => `${m('seed SHAKE256')} ${a} ${m('seed expanded')}`],
    ['protocol/handshake-async.js', 'const [ephR, staticR] = await Promise.allSettled', (a) => `${m('KEM calls issued')} ${a}`],
    ['protocol/handshake-async.js', 'const hello = encodeClientHelloFor(', (a) => `${m('KEMs done')} ${a}`],
    ['protocol/handshake-async.js', 'const p = { hello, serverHelloBytes', (a) => `${m('hs exported')} ${a}`],
  ],
};

function instrument(dir, marks) {
  for (const [file, anchor, repl] of marks) {
    const f = path.join(dir, file);
    const src = fs.readFileSync(f, 'utf8');
    const hit = typeof anchor === 'string' ? (src.includes(anchor) ? anchor : null) : (anchor.exec(src)?.[0] ?? null);
    if (!hit) throw new Error(`cold-marks: anchor not found in ${file}: ${anchor}`);
    fs.writeFileSync(f, src.replace(hit, repl(hit)));
  }
}

const ENTRY = COLD_ENTRY.replace(
  'globalThis.NEN_DONE = { ms',
  "globalThis.NEN_DONE = { marks: performance.getEntriesByType('mark').map((e) => [e.name, e.startTime]), ms",
);

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] : Number.NaN;
};

/** One cold page: the marks plus the page's own phases, ms from navigation. */
async function load(browser, url, cpu, latency) {
  const { d, hs, req } = await coldLoad(browser, url, cpu, latency);
  const extra = { evaluated: d.evaluated, 'HS sent': hs?.[1], 'HS answered': hs?.[2], 'REQ sent': req?.[1], 'REQ answered': req?.[2], read: d.ms };
  return { ...Object.fromEntries(d.marks), ...extra };
}

function report(builds, res) {
  const keys = [...new Set(res.flatMap((rs) => rs.flatMap((x) => Object.keys(x))))];
  const order = keys
    .map((k) => [k, median(res[0].map((x) => x[k]))])
    .sort((a, b) => a[1] - b[1])
    .map(([k]) => k);
  console.log(`${'mark'.padEnd(20)} ${builds.map((_, i) => `build ${i}: at (+step)`.padEnd(24)).join(' ')}`);
  for (let j = 0; j < order.length; j++) {
    const k = order[j];
    const cell = (rs) =>
      `${median(rs.map((x) => x[k]))
        .toFixed(1)
        .padStart(7)} (+${j ? median(rs.map((x) => x[k] - x[order[j - 1]])).toFixed(1) : '-'})`;
    console.log(`${k.padEnd(20)} ${res.map((rs) => cell(rs).padEnd(24)).join(' ')}`);
  }
  const per = (a, b) => res.map((rs) => median(rs.map((x) => x[b] - x[a])).toFixed(1)).join(' / ');
  console.log(`per page: evaluated -> read ${per('evaluated', 'read')}; HS answered -> REQ sent ${per('HS answered', 'REQ sent')} ms`);
  builds.forEach((b, i) => console.log(`build ${i}: ${b.core} : ${b.client}`));
}

async function main() {
  const { values: v } = parseArgs({
    options: {
      build: { type: 'string', multiple: true },
      rounds: { type: 'string', default: '12' },
      cpu: { type: 'string', default: '4' },
      latency: { type: 'string', default: '50' },
      target: { type: 'string' },
      'server-dist': { type: 'string' },
    },
  });
  const builds = (v.build ?? [`${CORE}/dist:${CLIENT}/dist`]).map((s) => {
    const [core, client] = s.split(':');
    return { core: path.resolve(core), client: path.resolve(client) };
  });
  const temp = [];
  const bundles = [];
  let target;
  let browser;
  const harnesses = [];
  try {
    for (const [i, b] of builds.entries()) {
      const core = fs.mkdtempSync(path.join(CORE, `.marks-${i}-`));
      const client = fs.mkdtempSync(path.join(os.tmpdir(), 'nen-marks-client-'));
      temp.push(core, client);
      fs.cpSync(b.core, core, { recursive: true });
      fs.cpSync(b.client, client, { recursive: true });
      instrument(core, MARKS.core);
      instrument(client, MARKS.client);
      bundles.push(await bundleClient({ entry: ENTRY, coreDist: core, clientDist: client }));
    }
    target = v.target ? { url: v.target, stop: () => {} } : await startHonoTarget({ serverDist: v['server-dist'] });
    const pin = await targetPin(target);
    browser = await launchChromium();
    for (const b of bundles) {
      const preload = preloadList(b);
      harnesses.push(await startHarness({ dir: b.dir, pages: { '/nen': coldHtml({ body: BODY_1K, pin }, 'entry.js', preload) }, target: target.url }));
    }
    const res = builds.map(() => []);
    for (let r = 0; r < Number(v.rounds); r++) {
      const idx = builds.map((_, i) => (r % 2 ? builds.length - 1 - i : i));
      for (const i of idx) res[i].push(await load(browser, `${harnesses[i].origin}/nen`, Number(v.cpu), Number(v.latency)));
    }
    report(builds, res);
  } finally {
    await browser?.close();
    for (const h of harnesses) await h.close();
    target?.stop();
    for (const d of [...temp, ...bundles.map((b) => b.dir)]) fs.rmSync(d, { recursive: true, force: true });
  }
}

await main();
