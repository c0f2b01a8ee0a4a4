#!/usr/bin/env node
/**
 * `node bench/browser/crypto-speed.js [--cpu 1,4] [--rounds N]`: the client's crypto in real
 * Chromium, @noble (pure JS) vs Wasm, to decide where the browser's lazily loaded Wasm wins:
 *  - load: `loadBackend(kind)`, for Wasm the fetch + compile of the .wasm (loopback);
 *  - handshake: one client handshake's crypto (X-Wing key expansion, SetupBaseS to the pinned
 *    key, SetupBaseR of the server's reply) plus the server's SetupBaseS that makes the reply;
 *    `encaps`: one SetupBaseS alone;
 *  - ChaCha20-Poly1305 seal + open of 64 B (one streamed token's record), 1 KB, 100 KB, 1 MB.
 * Median of N rounds per figure, CPU throttled via CDP per run. Prints a table and writes
 * bench/results/browser-crypto.json. Loopback only; stops by itself.
 *
 * Pitfall: the first operations of each backend run cold (JIT, Wasm tier-up) and are reported
 * separately (`first`) from the warmed medians: a page's first request pays the cold figure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchDir } from '../lib/env.js';
import { bundleClient } from './bundle.js';
import { coldPage, launchChromium } from './chromium.js';
import { startHarness } from './harness.js';

const ENTRY = `
import { loadBackend, KEM_ID } from '@nen/core';
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
function time(fn, rounds) {
  const t0 = performance.now(); fn(); const first = performance.now() - t0;
  const xs = [];
  for (let i = 0; i < rounds; i++) { const t = performance.now(); fn(); xs.push(performance.now() - t); }
  return { first, median: med(xs) };
}
globalThis.runCrypto = async (kind, rounds) => {
  const t0 = performance.now();
  const b = await loadBackend(kind);
  const load = performance.now() - t0;
  const info = new TextEncoder().encode('info'), ctx = new TextEncoder().encode('ctx');
  const server = b.generateKeyPair(KEM_ID.XWING);
  const out = { backend: b.name, loadMs: load };
  out.handshake = time(() => {
    const eph = b.createRecipientKey(KEM_ID.XWING, b.randomBytes(32));
    b.setupBaseSExport(KEM_ID.XWING, server.publicKey, info, ctx, 32);
    const reply = b.setupBaseSExport(KEM_ID.XWING, eph.publicKey, info, ctx, 32);
    eph.setupBaseRExport(reply.enc, info, ctx, 32);
    eph.dispose();
  }, rounds);
  out.encapsulate = time(() => b.setupBaseSExport(KEM_ID.XWING, server.publicKey, info, ctx, 32), rounds);
  const aead = b.createAead(b.randomBytes(32));
  const nonce = new Uint8Array(12), aad = new Uint8Array(40);
  for (const size of [64, 1024, 102400, 1048576]) {
    const pt = new Uint8Array(size).fill(7);
    out['aead' + size] = time(() => aead.open(nonce, aad, aead.seal(nonce, aad, pt)), size > 200000 ? Math.max(3, rounds >> 2) : rounds);
  }
  aead.dispose();
  return out;
};
`;

const PAGE = '<!doctype html><meta charset="utf-8"><title>nen crypto</title><script type="module" src="/entry.js"></script>';

export async function measureCrypto({ cpuRates = [1, 4], rounds = 15 } = {}) {
  const bundle = await bundleClient({ entry: ENTRY });
  const harness = await startHarness({ dir: bundle.dir, pages: { '/': PAGE }, target: 'http://127.0.0.1:9' });
  const browser = await launchChromium();
  const rows = [];
  try {
    for (const cpuRate of cpuRates) {
      for (const kind of ['noble', 'wasm']) {
        const p = await coldPage(browser, { cpuRate, latencyMs: 0 });
        try {
          await p.page.goto(`${harness.origin}/`);
          await p.page.waitForFunction(() => typeof globalThis.runCrypto === 'function', undefined, { timeout: 60_000 });
          const r = await p.page.evaluate(([k, n]) => globalThis.runCrypto(k, n), [kind, rounds]);
          rows.push({ cpuRate, ...r });
        } finally {
          await p.close();
        }
      }
    }
  } finally {
    await browser.close();
    await harness.close();
    fs.rmSync(bundle.dir, { recursive: true, force: true });
  }
  return rows;
}

const f = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

export function formatCrypto(rows) {
  const lines = ['cpu  backend  load ms  handshake ms (first/median)  encaps ms  64 B seal+open  1 KB seal+open  100 KB  1 MB'];
  for (const r of rows) {
    lines.push(
      `${r.cpuRate}x   ${r.backend.padEnd(7)}  ${f(r.loadMs).padStart(7)}  ${`${f(r.handshake.first)} / ${f(r.handshake.median)}`.padStart(27)}  ${f(r.encapsulate.median).padStart(9)}  ${f(r.aead64.median).padStart(14)}  ${`${f(r.aead1024.first)} / ${f(r.aead1024.median)}`.padStart(14)}  ${f(r.aead102400.median).padStart(6)}  ${f(r.aead1048576.median).padStart(5)}`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { cpu: { type: 'string', default: '1,4' }, rounds: { type: 'string', default: '15' } } });
  const rows = await measureCrypto({ cpuRates: values.cpu.split(',').map(Number), rounds: Number(values.rounds) });
  console.log(formatCrypto(rows));
  const out = path.join(benchDir, 'results', 'browser-crypto.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2)}\n`);
  console.log(`\n${out}`);
}
