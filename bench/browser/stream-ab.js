#!/usr/bin/env node
/**
 * `node bench/browser/stream-ab.js --target URL --a <core dist> --b <core dist> [--client-a DIR]
 * [--client-b DIR] [--runs 6] [--iterations 8] [--tokens 1000] [--backend noble]`: two builds of
 * @nen/core (and @nen/client) side by side on the warm AI stream in real Chromium (issue 21), the
 * cold-browser stage's stream page (./stream.js: one warm session, the demo's `/api/chat` read
 * through `stream()` vs `/api/chat/plain`, interleaved per iteration) bundled once per build.
 * Runs alternate a, b, b, a, ... in one browser, each build on its own page and page server; per
 * run the 1-minute load average is printed with the figures (tokens/s ratio, whole-stream ratio,
 * first token over plain), then medians per build.
 *
 * Pitfalls: `--target` must be the demo (`next start`): the Hono target has no /api/chat; a
 * <core dist> must sit inside packages/core (its Wasm glue imports ../../wasm); the plain stream
 * is gzipped by Next (zlib batches tokens), so its tokens/s swings with the machine's load: compare
 * the two builds' ratios within one invocation, never across runs. Loopback only; the browser and
 * the page servers stop at the end; each stream run is bounded (60 s, ./stream.js).
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { bundleClient } from './bundle.js';
import { launchChromium } from './chromium.js';
import { startHarness } from './harness.js';
import { STREAM_ENTRY, measureStreams } from './stream.js';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    a: { type: 'string' },
    b: { type: 'string' },
    'client-a': { type: 'string' },
    'client-b': { type: 'string' },
    runs: { type: 'string', default: '6' },
    iterations: { type: 'string', default: '8' },
    tokens: { type: 'string', default: '1000' },
    backend: { type: 'string', default: 'noble' },
  },
});
if (!values.target || !values.a || !values.b) {
  console.error('usage: stream-ab.js --target URL --a <core dist> --b <core dist> [--client-a DIR] [--client-b DIR] [--runs 6]');
  process.exit(2);
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] : null;
};
const PAGE = '<!doctype html><meta charset="utf-8"><script type="module" src="/entry.js"></script>';

const pin = (await (await fetch(`${values.target}/api/nen/keys`)).json()).keys[0].pin;
const builds = {
  a: { coreDist: values.a, clientDist: values['client-a'] },
  b: { coreDist: values.b, clientDist: values['client-b'] },
};
const opened = [];
let browser;
try {
  browser = await launchChromium();
  for (const [name, dists] of Object.entries(builds)) {
    const bundle = await bundleClient({ entry: STREAM_ENTRY, ...dists });
    const h = await startHarness({ dir: bundle.dir, pages: { '/stream': PAGE }, target: values.target });
    const page = await browser.newPage();
    opened.push({ name, bundle, h, page });
    await page.goto(`${h.origin}/stream`, { timeout: 30_000 });
    await page.waitForFunction(() => typeof globalThis.runStream === 'function', undefined, { timeout: 30_000 });
  }
  const cfg = { pin, tokens: Number(values.tokens), iterations: Number(values.iterations), backends: [values.backend] };
  const rows = { a: [], b: [] };
  const runs = Number(values.runs);
  for (let i = 0; i < runs; i++) {
    const order = i % 2 ? ['b', 'a'] : ['a', 'b'];
    for (const name of order) {
      const { page } = opened.find((o) => o.name === name);
      const r = (await measureStreams(page, cfg))[values.backend];
      const load = os.loadavg()[0].toFixed(1);
      rows[name].push(r);
      console.log(
        `run ${i + 1} ${name}: tokens/s ${r.nen.tokensPerSecond} vs plain ${r.plain.tokensPerSecond} = ${r.tokensPerSecondRatio}x, ` +
          `whole stream ${r.wholeStreamRatio}x, first token +${r.ttftOverPlainMs} ms (plain ${r.plain.ttftMs}), load ${load}`,
      );
    }
  }
  for (const name of ['a', 'b']) {
    const m = (f) => median(rows[name].map(f));
    const ratios = rows[name].map((r) => r.tokensPerSecondRatio).filter((x) => x !== null);
    console.log(
      `${name} (${builds[name].coreDist}): median tokens/s ratio ${m((r) => r.tokensPerSecondRatio)}x (runs ${Math.min(...ratios)}..${Math.max(...ratios)}x), ` +
        `whole stream ${m((r) => r.wholeStreamRatio)}x, ` +
        `first token +${m((r) => r.ttftOverPlainMs)} ms, nen ${m((r) => r.nen.tokensPerSecond)} / plain ${m((r) => r.plain.tokensPerSecond)} tokens/s`,
    );
  }
} finally {
  for (const o of opened) {
    await o.page.close().catch(() => {});
    await o.h.close();
    fs.rmSync(o.bundle.dir, { recursive: true, force: true });
  }
  await browser?.close();
}
