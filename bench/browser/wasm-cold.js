#!/usr/bin/env node
/**
 * `node bench/browser/wasm-cold.js <dir> <dir> [...] [--runs N] [--cpu 4] [--latency 50]`: Wasm
 * builds of nen-core side by side on cold Chromium pages (build-profile work, issue 21). Each
 * <dir> is a wasm-bindgen `--target web` output (nen_core.js + nen_core_bg.wasm, e.g.
 * packages/core/wasm or a trial build). Per page: fetch + streaming compile (`init()` with the
 * URL) from navigation, then one X-Wing client handshake's crypto on the cold module (ephemeral
 * RecipientKey from a seed, SetupBaseS to a server key, SetupBaseR of a 1120-byte enc). Pages
 * alternate between builds; medians printed. Loopback only; stops by itself.
 *
 * Pitfalls: a benchmark, nothing asserted; bandwidth is unlimited (a larger module costs more on
 * a real link: add size / bandwidth); the first-call figures scatter widely on a loaded machine,
 * so compare medians of many runs from one invocation.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { coldPage, launchChromium } from './chromium.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '15' }, cpu: { type: 'string', default: '4' }, latency: { type: 'string', default: '50' } },
});
const dirs = positionals.map((d) => path.resolve(d));
if (dirs.length === 0) throw new Error('usage: wasm-cold.js <dir> [<dir> ...] [--runs N]');
for (const d of dirs) if (!fs.existsSync(path.join(d, 'nen_core_bg.wasm'))) throw new Error(`${d}: no nen_core_bg.wasm`);

const page = (i) => `<!doctype html><script type="module">
import init, * as w from '/v${i}/nen_core.js';
await init({ module_or_path: '/v${i}/nen_core_bg.wasm' });
const ready = performance.now();
const server = w.generate_key_pair(0x647a);
const spk = server.public_key;
server.free();
const t0 = performance.now();
const rk = new w.RecipientKey(0x647a, crypto.getRandomValues(new Uint8Array(32)));
w.setup_base_s_export(0x647a, spk, new Uint8Array(8), new Uint8Array(8), 32).free();
rk.setup_base_r_export(crypto.getRandomValues(new Uint8Array(1120)), new Uint8Array(8), new Uint8Array(8), 32);
rk.free();
const crypto_ = performance.now() - t0;
window.result = { ready, crypto: crypto_, done: ready + crypto_ };
</script>`;

const server = http.createServer((req, res) => {
  const m = /^\/(?:(\d+)\.html|v(\d+)\/(nen_core\.js|nen_core_bg\.wasm))$/.exec((req.url ?? '').split('?')[0]);
  if (m?.[1] !== undefined && Number(m[1]) < dirs.length) {
    res.setHeader('content-type', 'text/html');
    res.end(page(Number(m[1])));
  } else if (m?.[2] !== undefined && Number(m[2]) < dirs.length) {
    res.setHeader('content-type', m[3].endsWith('.wasm') ? 'application/wasm' : 'text/javascript');
    res.end(fs.readFileSync(path.join(dirs[Number(m[2])], m[3])));
  } else {
    res.statusCode = 404;
    res.end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();

const results = dirs.map(() => []);
const browser = await launchChromium();
try {
  for (let r = 0; r < Number(values.runs); r++) {
    for (let i = 0; i < dirs.length; i++) {
      const p = await coldPage(browser, { cpuRate: Number(values.cpu), latencyMs: Number(values.latency) });
      try {
        await p.page.goto(`http://127.0.0.1:${port}/${i}.html`);
        await p.page.waitForFunction(() => globalThis.result, null, { timeout: 30_000 });
        results[i].push(await p.page.evaluate(() => globalThis.result));
      } finally {
        await p.close();
      }
    }
  }
} finally {
  await browser.close();
  server.close();
}

const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`Chromium, cold pages, ${values.cpu}x CPU, +${values.latency} ms per request, ${values.runs} runs each (medians, ms)`);
for (let i = 0; i < dirs.length; i++) {
  const r = results[i];
  const size = fs.statSync(path.join(dirs[i], 'nen_core_bg.wasm')).size;
  const cells = [med(r.map((x) => x.ready)), med(r.map((x) => x.crypto)), med(r.map((x) => x.done))].map((x) => x.toFixed(1).padStart(7));
  console.log(`${dirs[i]} (${size} B): navigation -> module ready ${cells[0]}, handshake crypto ${cells[1]}, navigation -> done ${cells[2]}`);
}
