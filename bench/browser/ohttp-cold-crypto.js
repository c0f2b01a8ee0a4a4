#!/usr/bin/env node
/**
 * `node bench/browser/ohttp-cold-crypto.js --a <core dist> --b <core dist> [--rounds 12] [--cpu 4]`:
 * the browser OHTTP client's own crypto on a cold page, two builds of @nen/core side by side
 * (issue 23): a fresh context per load (CPU throttled via CDP, no network in the timing) imports
 * `@nen/core/ohttp`, times `encapsulateRequestAsync` of a 1 KB Binary HTTP request to an X-Wing
 * Key Config (everything the page does between "script running" and "request sent" that is
 * crypto), lets the gateway code open it and seal a 1 KB answer (untimed), then times
 * `openResponse`. Builds interleaved in alternating order; prints medians (ms, throttled).
 *
 * Pitfalls: the gateway's decapsulation runs in the page between the two timings, so code it
 * shares with the client's opening (@noble HKDF, AEAD) is warm by then: `open` is a lower bound
 * for a path on @noble. A benchmark, nothing asserted; compare builds within one invocation only.
 * Loopback only; the browser and the page server stop at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleClient } from './bundle.js';
import { coldPage, launchChromium, waitForGlobal } from './chromium.js';
import { startHarness } from './harness.js';

const ENTRY = `
import { OhttpGatewayKeys, decapsulateRequest, encapsulateRequestAsync, encodeBhttpRequest, encodeBhttpResponse } from '@nen/core/ohttp';
(async () => {
  try {
    const keys = OhttpGatewayKeys.parse(globalThis.NEN_COLD.key);
    const [config] = keys.configs();
    const body = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(1000) }));
    const req = encodeBhttpRequest({ method: 'POST', scheme: 'https', authority: 'example.com', path: '/api/echo', headers: [['content-type', 'application/json']], content: body, trailers: [] });
    const t0 = performance.now();
    const e = await encapsulateRequestAsync(config, req);
    const t1 = performance.now();
    const d = decapsulateRequest(keys, e.encapsulatedRequest);
    const wire = d.sealResponse(encodeBhttpResponse({ informational: [], status: 200, headers: [['content-type', 'application/json']], content: body, trailers: [] }));
    const t2 = performance.now();
    const answer = await e.openResponse(wire);
    const t3 = performance.now();
    globalThis.NEN_DONE = { encap: t1 - t0, open: t3 - t2, ok: answer.length > body.length };
  } catch (e) {
    globalThis.NEN_DONE = { error: String(e && e.code ? e.code + ': ' + e.message : e) };
  }
})();
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

export async function compareColdCrypto({ a, b, rounds = 12, cpu = 4, key }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nen-ohttp-crypto-'));
  const builds = { a: path.resolve(a), b: path.resolve(b) };
  const res = { a: [], b: [] };
  let browser;
  let harness;
  try {
    const pages = {};
    for (const [n, coreDist] of Object.entries(builds)) {
      await bundleClient({ entry: ENTRY, outdir: path.join(dir, n), coreDist });
      pages[`/${n}`] = `<!doctype html><script>globalThis.NEN_COLD=${JSON.stringify({ key })}</script><script type="module" src="/${n}/entry.js"></script>`;
    }
    harness = await startHarness({ dir, pages, target: 'http://127.0.0.1:9' });
    browser = await launchChromium();
    for (let r = 0; r < rounds; r++) {
      for (const n of r % 2 ? ['b', 'a'] : ['a', 'b']) {
        const p = await coldPage(browser, { cpuRate: cpu, latencyMs: 0 });
        try {
          await p.page.goto(`${harness.origin}/${n}`, { timeout: 30_000 });
          const d = await waitForGlobal(p, 'NEN_DONE', 30_000);
          if (d.error || !d.ok) throw new Error(`build ${n}: ${d.error ?? 'wrong answer'}`);
          res[n].push(d);
        } finally {
          await p.close();
        }
      }
    }
  } finally {
    await browser?.close();
    await harness?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const out = { cpu, rounds };
  for (const n of ['a', 'b']) out[n] = { dist: builds[n], encapMs: median(res[n].map((x) => x.encap)), openMs: median(res[n].map((x) => x.open)) };
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: v } = parseArgs({
    options: { a: { type: 'string' }, b: { type: 'string' }, rounds: { type: 'string', default: '12' }, cpu: { type: 'string', default: '4' } },
  });
  if (!v.a || !v.b) {
    console.error('usage: node bench/browser/ohttp-cold-crypto.js --a <core dist> --b <core dist> [--rounds 12] [--cpu 4]');
    process.exit(2);
  }
  const { generateOhttpKey, OHTTP_KEM } = await import(path.resolve(v.a, 'ohttp/index.js'));
  const r = await compareColdCrypto({ a: v.a, b: v.b, rounds: Number(v.rounds), cpu: Number(v.cpu), key: generateOhttpKey(1, OHTTP_KEM.XWING) });
  console.log(`OHTTP client crypto on a cold page, ${r.cpu}x CPU, medians of ${r.rounds} loads each (ms)`);
  for (const n of ['a', 'b']) console.log(`  ${n}: encapsulateRequestAsync ${r[n].encapMs.toFixed(1)}, openResponse ${r[n].openMs.toFixed(1)}   ${r[n].dist}`);
}
