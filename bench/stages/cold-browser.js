/**
 * Stage `cold-browser`: the cold first encrypted response in real Chromium (Debian
 * /usr/bin/chromium via playwright-core), with 4x CPU throttling and 50 ms added round-trip
 * latency (CDP), against the same request in plain; plus the browser weight the page paid.
 *
 * Each load is a fresh browser context (no HTTP cache, no code cache) opening a page served by
 * bench/browser/harness.js on 127.0.0.1, which forwards /api/* to the target (same origin for
 * both modes); the bundle's static chunks are <link rel="modulepreload">ed, as a framework lists
 * a page's chunks (no import waterfall). Modes, interleaved per round:
 *  - plain: a 0.4 KB script POSTs the 1 KB JSON to /api/plain/echo;
 *  - nen: the @nen/client bundle (default configuration: 'auto' = @noble), pinned to the key from
 *    GET /api/nen/keys, POSTs the same JSON to /api/echo (handshake first: one more round trip);
 *  - nen-wasm: the same with `backend: 'wasm'` (the .wasm fetched and compiled first: the
 *    browser default before issue 21);
 *  - nen-ohttp: the page of an app that picks OHTTP mode (issue 23): the same POST through
 *    `@nen/client/ohttp` (createOhttpClient; its own bundle, the OHTTP code in the page's chunks,
 *    preloaded with them), the gateway's X-Wing Key Config pinned by value in the page (as an app
 *    ships it: nothing fetched before the request), the request encapsulated and POSTed to
 *    /.well-known/ohttp-gateway (no handshake). Skipped when the target serves no
 *    `application/ohttp-keys` there (data.ohttpSkipped).
 * The figure is the time from navigation start to the response body read (performance.now()
 * in the page), median over the rounds; the target (issue 21) is nen <= plain + 1 RTT + 15 ms.
 * Bytes: encoded (on-the-wire, gzip) bytes of the page's script and Wasm responses (CDP
 * Network.loadingFinished), and the esbuild weight from bench/browser/bundle.js.
 * Then the AI stream through the browser client on a warm session (../browser/stream.js):
 * tokens/s and first token vs plain, default and Wasm backends.
 *
 * Pitfalls: bounded (rounds x modes loads, 30 s each at most; each stream run 60 s at most); the
 * pages and their server are on 127.0.0.1; the browser and the harness are closed in `finally`.
 * A target without a published pin is skipped (data.skipped): the default client pins.
 */
import { bundleClient } from '../browser/bundle.js';
import { coldPage, launchChromium, waitForGlobal } from '../browser/chromium.js';
import { OHTTP_GATEWAY as GATEWAY, gatewayKeyConfig, preloadList } from '../browser/cold-target.js';
import { startHarness } from '../browser/harness.js';
import { STREAM_ENTRY, measureStreams } from '../browser/stream.js';
import { ECHO_1K } from '../lib/payloads.js';
import { round } from '../lib/stats.js';
import { serverPin } from './load-variants.js';
import fs from 'node:fs';

export const CPU_RATE = 4;
export const LATENCY_MS = 50;
export const BUDGET_MS = 15;
const MODES = ['plain', 'nen', 'nen-wasm', 'nen-ohttp'];

const TIMELINE = `const timeline = () => performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, Math.round(e.startTime), Math.round(e.responseEnd)]);`;

const NEN_ENTRY = `
import { createNenClient } from '@nen/client';
const evaluated = performance.now();
const cfg = globalThis.NEN_COLD;
${TIMELINE}
(async () => {
  try {
    const client = createNenClient({ serverKey: cfg.pin, ...(cfg.backend ? { backend: cfg.backend } : {}) });
    const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: cfg.body });
    const text = await res.text();
    globalThis.NEN_DONE = { ms: performance.now(), evaluated, timeline: timeline(), ok: res.status === 200 && text === cfg.body, status: res.status };
  } catch (e) {
    globalThis.NEN_DONE = { error: String(e && e.code ? e.code + ': ' + e.message : e) };
  }
})();
`;

/** nen-ohttp's page: NEN_ENTRY on `@nen/client/ohttp` (the OHTTP code statically in the page). */
const OHTTP_ENTRY = NEN_ENTRY.replace("import { createNenClient } from '@nen/client';", "import { createOhttpClient } from '@nen/client/ohttp';").replace(
  'createNenClient({ serverKey: cfg.pin, ...(cfg.backend ? { backend: cfg.backend } : {}) })',
  'createOhttpClient({ relay: cfg.relay, keyConfig: cfg.keyConfig })',
);

const PLAIN_SCRIPT = `const cfg = globalThis.NEN_COLD;
const evaluated = performance.now();
${TIMELINE}
fetch('/api/plain/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: cfg.body })
  .then(async (res) => { const text = await res.text(); globalThis.NEN_DONE = { ms: performance.now(), evaluated, timeline: timeline(), ok: res.status === 200 && text === cfg.body, status: res.status }; })
  .catch((e) => { globalThis.NEN_DONE = { error: String(e) }; });
`;

const html = (cfg, src, preload = []) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>nen cold</title>${preload.map((f) => `<link rel="modulepreload" href="/${f}">`).join('')}<script>globalThis.NEN_COLD=${JSON.stringify(cfg).replace(/</g, '\\u003c')}</script><script type="module" src="${src}"></script></head><body></body></html>`;

/** One cold load: fresh context, throttled, until the page reports; returns ms and wire bytes. */
async function coldLoad(browser, url) {
  const p = await coldPage(browser, { cpuRate: CPU_RATE, latencyMs: LATENCY_MS });
  const types = new Map();
  const bytes = { script: 0, wasm: 0, total: 0 };
  p.cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.response.url.endsWith('.wasm') ? 'wasm' : e.type === 'Script' ? 'script' : 'other'));
  p.cdp.on('Network.loadingFinished', (e) => {
    const t = types.get(e.requestId);
    bytes.total += e.encodedDataLength;
    if (t === 'script' || t === 'wasm') bytes[t] += e.encodedDataLength;
  });
  try {
    await p.page.goto(url, { timeout: 30_000 });
    const done = await waitForGlobal(p, 'NEN_DONE', 30_000); // not waitForFunction: its injected script lands in the timing
    await new Promise((r) => setTimeout(r, 50)); // the last loadingFinished events
    return { ...done, bytes };
  } finally {
    await p.close();
  }
}

/**
 * Where one load's time went (ms from navigation start): scripts downloaded, script running,
 * then for each API request its start and end (the handshake, if any, then the request).
 */
function phasesOf(load) {
  const tl = load.timeline ?? [];
  const scripts = tl.filter(([p]) => p.endsWith('.js'));
  const wasm = tl.find(([p]) => p.endsWith('.wasm'));
  const hs = tl.find(([p]) => p.startsWith('/api/nen/'));
  const req = tl.find(([p]) => (p.startsWith('/api/') && !p.startsWith('/api/nen/')) || p === GATEWAY);
  return {
    scriptsLoaded: scripts.length ? Math.max(...scripts.map((x) => x[2])) : null,
    evaluated: load.evaluated,
    wasmLoaded: wasm ? wasm[2] : null,
    handshakeSent: hs ? hs[1] : null,
    handshakeAnswered: hs ? hs[2] : null,
    requestSent: req ? req[1] : null,
    requestAnswered: req ? req[2] : null,
    done: load.ms,
  };
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] : null;
};

function medianPhases(list) {
  const out = {};
  for (const k of Object.keys(list[0] ?? {})) {
    const m = median(list.map((p) => p[k]));
    out[k] = m === null ? null : round(m, 1);
  }
  return out;
}

/** The warm AI stream in the browser, default (@noble) and Wasm backends (../browser/stream.js). */
async function browserStreams(ctx, browser, pin) {
  const b = await bundleClient({ entry: STREAM_ENTRY });
  const h = await startHarness({
    dir: b.dir,
    pages: { '/stream': '<!doctype html><meta charset="utf-8"><script type="module" src="/entry.js"></script>' },
    target: ctx.targets[0],
  });
  const page = await browser.newPage();
  try {
    await page.goto(`${h.origin}/stream`, { timeout: 30_000 });
    await page.waitForFunction(() => typeof globalThis.runStream === 'function', undefined, { timeout: 30_000 });
    return await measureStreams(page, { pin, tokens: 1000, iterations: ctx.options.quick ? 2 : 8 });
  } finally {
    await page.close();
    await h.close();
    fs.rmSync(b.dir, { recursive: true, force: true });
  }
}

export async function run(ctx) {
  const rounds = ctx.options.quick ? 2 : 8;
  const pin = await serverPin(ctx);
  // as the handshake variants of the load stage: a target without a published pin is skipped
  if (!pin) return { ok: true, failure: null, data: { skipped: 'the target publishes no pin at GET /api/nen/keys (the default client pins)' } };
  ctx.progress?.detail('bundling @nen/client for the browser');
  const bundle = await bundleClient({ entry: NEN_ENTRY });
  const ohttpBundle = await bundleClient({ entry: OHTTP_ENTRY, outdir: `${bundle.dir}/ohttp` });
  // the weight figures: the default entry (what bench/browser/size.js checks), and the same with
  // the Wasm loaded before the first response (backend: 'wasm')
  const weighed = await bundleClient();
  const wasmPaid = await bundleClient({ lazyOnFirstRequest: ['wasm'] });
  for (const b of [weighed, wasmPaid]) fs.rmSync(b.dir, { recursive: true, force: true });
  fs.writeFileSync(`${bundle.dir}/plain.js`, PLAIN_SCRIPT);
  const body = ECHO_1K;
  // the chunks the entry imports statically are preloaded, as a framework's page lists them
  const preload = preloadList(bundle);
  const ohttpPreload = preloadList(ohttpBundle, 'ohttp/');
  const keyConfig = await gatewayKeyConfig(ctx.targets[0]);
  const modeList = keyConfig ? MODES : MODES.filter((m) => m !== 'nen-ohttp');
  const pages = {
    '/plain': html({ body }, '/plain.js'),
    '/nen': html({ body, pin }, '/entry.js', preload),
    '/nen-wasm': html({ body, pin, backend: 'wasm' }, '/entry.js', preload),
    '/nen-ohttp': html({ body, keyConfig, relay: GATEWAY }, '/ohttp/entry.js', ohttpPreload),
  };
  const harness = await startHarness({ dir: bundle.dir, pages, target: ctx.targets[0] });
  const browser = await launchChromium();
  const loads = Object.fromEntries(modeList.map((m) => [m, []]));
  let stream = null;
  const errors = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const order = modeList.map((_, i) => modeList[(i + r) % modeList.length]);
      for (const mode of order) {
        ctx.progress?.detail(`cold-browser round ${r + 1}/${rounds} ${mode}`);
        const res = await coldLoad(browser, `${harness.origin}/${mode}`);
        if (res.error || !res.ok) errors.push({ mode, round: r, error: res.error ?? `status ${res.status}` });
        else loads[mode].push(res);
      }
    }
    ctx.progress?.detail('cold-browser: AI stream through the browser client');
    stream = await browserStreams(ctx, browser, pin);
  } finally {
    await browser.close();
    await harness.close();
    fs.rmSync(bundle.dir, { recursive: true, force: true });
  }
  const modes = {};
  for (const m of modeList) {
    const xs = loads[m];
    modes[m] = {
      loads: xs.length,
      medianMs: round(median(xs.map((x) => x.ms)), 1),
      minMs: xs.length ? round(Math.min(...xs.map((x) => x.ms)), 1) : null,
      maxMs: xs.length ? round(Math.max(...xs.map((x) => x.ms)), 1) : null,
      scriptBytes: median(xs.map((x) => x.bytes.script)),
      wasmBytes: median(xs.map((x) => x.bytes.wasm)),
      totalBytes: median(xs.map((x) => x.bytes.total)),
      /** median time the page's script started running (after its download and compile) */
      evaluatedMs: round(median(xs.map((x) => x.evaluated)), 1),
      /** medians of each phase boundary (phasesOf), ms from navigation start */
      phases: medianPhases(xs.map(phasesOf)),
      samplesMs: xs.map((x) => round(x.ms, 1)),
      /** per load: [path, startTime, responseEnd] of each resource (ms from navigation start) */
      timelines: xs.map((x) => x.timeline),
    };
  }
  const plain = modes.plain.medianMs;
  const targetMs = plain === null ? null : round(plain + LATENCY_MS + BUDGET_MS, 1);
  const extra = (m) => (plain === null || !modes[m] || modes[m].medianMs === null ? null : round(modes[m].medianMs - plain, 1));
  const data = {
    conditions: { cpuThrottling: CPU_RATE, addedRttMs: LATENCY_MS, rounds, body: '1 KB JSON echo', chromium: '/usr/bin/chromium', freshContextPerLoad: true },
    modes,
    extraMs: { nen: extra('nen'), 'nen-wasm': extra('nen-wasm'), 'nen-ohttp': extra('nen-ohttp') },
    ...(keyConfig ? {} : { ohttpSkipped: `the target serves no application/ohttp-keys at ${GATEWAY}` }),
    target: {
      rule: `nen <= plain + ${LATENCY_MS} ms (1 RTT) + ${BUDGET_MS} ms`,
      targetMs,
      met: modes.nen.medianMs !== null && targetMs !== null && modes.nen.medianMs <= targetMs,
    },
    weight: {
      method: 'esbuild bundle of the client browser entry (conditions browser/import/default, minified), gzip -9 per output',
      defaultInitial: weighed.initial,
      defaultLazy: weighed.lazy,
      wasmBackendInitial: wasmPaid.initial,
      /** the nen-ohttp page (`@nen/client/ohttp`): what an OHTTP-mode page pays before its first response */
      ohttpPageInitial: ohttpBundle.initial,
      files: weighed.files.map(({ inputs, ...f }) => f),
    },
    stream,
    errors,
  };
  const ok = errors.length === 0;
  return { ok, failure: ok ? null : `cold-browser: ${errors.length} failed loads (${errors[0]?.mode}: ${errors[0]?.error})`, data };
}
