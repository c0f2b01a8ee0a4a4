#!/usr/bin/env node
/**
 * `node bench/browser/handshake-ab.js --a <core dist dir> --b <core dist dir> [--cpu 4] [--rounds 20]`:
 * two builds of @nen/core's @noble backend side by side in real Chromium, for the cold first
 * handshake of a page (what a browser pays before its first encrypted response): each round opens
 * a fresh context per build (interleaved, alternating order), CPU throttled via CDP, and times the
 * client's crypto of one pinned X-Wing handshake: key generation (createRecipientKey), the
 * encapsulation to the server key (setupBaseSExport) and the decapsulation of the reply
 * (setupBaseRExport; the reply itself, made in the page, is not counted). Medians per build.
 * An older build: `git worktree add /tmp/old <commit> && (cd /tmp/old && pnpm install && pnpm
 * --filter @nen/core build)`, then `--a /tmp/old/packages/core/dist`. Loopback only; stops by itself.
 *
 * Pitfall: the dist dirs are bundled with esbuild resolving @noble/* from packages/core's
 * node_modules, so both builds run the same @noble versions: only Nen's code differs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { benchDir } from '../lib/env.js';
import { coldPage, launchChromium } from './chromium.js';
import { startHarness } from './harness.js';

const CORE = path.resolve(benchDir, '../packages/core');

const entry = (dist) => `import { createNobleBackend } from '${dist}/backend/noble.js';
import { KEM_ID } from '${dist}/backend/types.js';
globalThis.run = () => {
  const t0 = performance.now();
  const b = createNobleBackend();
  const info = new Uint8Array(4), ctx = new Uint8Array(3);
  const eph = b.createRecipientKey(KEM_ID.XWING, crypto.getRandomValues(new Uint8Array(32)));
  const t1 = performance.now();
  b.setupBaseSExport(KEM_ID.XWING, globalThis.SERVER_PK, info, ctx, 32);
  const t2 = performance.now();
  const reply = b.setupBaseSExport(KEM_ID.XWING, eph.publicKey, info, ctx, 32);
  const t3 = performance.now();
  eph.setupBaseRExport(reply.enc, info, ctx, 32);
  const t4 = performance.now();
  eph.dispose();
  return { keygen: t1 - t0, encaps: t2 - t1, decaps: t4 - t3, client: t4 - t0 - (t3 - t2) };
};`;

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

export async function compareBuilds({ a, b, cpu = 4, rounds = 20 }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nen-hs-ab-'));
  const builds = { a: path.resolve(a), b: path.resolve(b) };
  for (const [name, dist] of Object.entries(builds)) {
    await build({
      stdin: { contents: entry(dist), resolveDir: CORE, loader: 'js' },
      bundle: true,
      format: 'esm',
      minify: true,
      platform: 'browser',
      outfile: path.join(dir, `${name}.js`),
      nodePaths: [path.join(CORE, 'node_modules')],
      logLevel: 'error',
    });
  }
  const { createNobleBackend } = await import(path.join(builds.b, 'backend/noble.js'));
  const { KEM_ID } = await import(path.join(builds.b, 'backend/types.js'));
  const pk = Array.from(createNobleBackend().generateKeyPair(KEM_ID.XWING).publicKey);
  const page = (n) =>
    `<!doctype html><script>globalThis.SERVER_PK=new Uint8Array(${JSON.stringify(pk)})</script><script type="module" src="/${n}.js"></script>`;
  const harness = await startHarness({ dir, pages: { '/a': page('a'), '/b': page('b') }, target: 'http://127.0.0.1:9' });
  const browser = await launchChromium();
  const res = { a: [], b: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const n of r % 2 ? ['a', 'b'] : ['b', 'a']) {
        const p = await coldPage(browser, { cpuRate: cpu, latencyMs: 0 });
        try {
          await p.page.goto(`${harness.origin}/${n}`, { timeout: 30_000 });
          await p.page.waitForFunction(() => typeof globalThis.run === 'function', undefined, { timeout: 30_000 });
          res[n].push(await p.page.evaluate(() => globalThis.run()));
        } finally {
          await p.close();
        }
      }
    }
  } finally {
    await browser.close();
    await harness.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const out = {};
  for (const n of ['a', 'b']) {
    out[n] = { dist: builds[n] };
    for (const k of ['keygen', 'encaps', 'decaps', 'client']) out[n][k] = Math.round(median(res[n].map((x) => x[k])) * 10) / 10;
  }
  return { cpu, rounds, ...out };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { a: { type: 'string' }, b: { type: 'string' }, cpu: { type: 'string', default: '4' }, rounds: { type: 'string', default: '20' } },
  });
  if (!values.a || !values.b) {
    console.error('usage: node bench/browser/handshake-ab.js --a <core dist dir> --b <core dist dir> [--cpu 4] [--rounds 20]');
    process.exit(2);
  }
  const r = await compareBuilds({ a: values.a, b: values.b, cpu: Number(values.cpu), rounds: Number(values.rounds) });
  console.log(`cold first handshake, client crypto, @noble, ${r.cpu}x CPU, median of ${r.rounds} fresh pages each (ms)`);
  for (const n of ['a', 'b'])
    console.log(`  ${n}: keygen ${r[n].keygen}  encaps ${r[n].encaps}  decaps ${r[n].decaps}  client total ${r[n].client}   (${r[n].dist})`);
}
