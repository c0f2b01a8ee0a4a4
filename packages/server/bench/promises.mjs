#!/usr/bin/env node
/**
 * A deterministic cost metric for the per-request path: promises created (async_hooks `init` events
 * of type PROMISE) per in-process 1 KB JSON request through `withNen`, inside an
 * AsyncLocalStorage.run context as under `next start` (where every promise also runs the ALS hooks:
 * promiseInitHook, _propagate), next to a plain handler (`await request.json()`, `Response.json`).
 * Also heap bytes allocated per request: the largest heapUsed growth over small batches (200
 * requests, a few MB: a batch without a scavenge shows the whole allocation, one with a GC shows
 * less, so the maximum over 15 batches is taken). Approximate, unlike the promise counts.
 *
 * Usage: node bench/promises.mjs [--requests 2000] [--dist <dir of a built @nen/server>] [--trace]
 * (--trace: where the encrypted path's promises are created, by call site, for 100 requests)
 *
 * Counted per request: building the sealed Request (client side, synchronous), the route handler
 * call, and reading the Response body (`arrayBuffer()`), split into "handler" and "+ body read".
 * Pitfall: counts depend on the Node version (undici's body mixins); compare within one Node.
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchSession, echoBench } from './bench-session.mjs';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const N = Number(arg('--requests') ?? 2000);
const dir = resolve(arg('--dist') ?? join(import.meta.dirname, '..'));
const load = (file) => import(pathToFileURL(join(dir, file)).href);
const { createNen, memoryStore } = await load('dist/index.js');
const core = await load('node_modules/@nen/core/dist/index.js');
const session = await benchSession({ createNen, memoryStore }, core);
const { nen, keys } = session;
const { demo, plain, encryptedRequest, plainRequest } = echoBench(core, session);

let promises = 0;
const sites = process.argv.includes('--trace') ? new Map() : null;
const hook = createHook({
  init(_id, type) {
    if (type !== 'PROMISE') return;
    promises++;
    if (sites) {
      const at = new Error().stack
        .split('\n')
        .slice(5, 9)
        .map((l) => l.trim().replace(/\(.*\/(packages|node_modules)\//, '($1/'))
        .join(' < ');
      sites.set(at, (sites.get(at) ?? 0) + 1);
    }
  },
});
const als = new AsyncLocalStorage();

/** Promises per request (handler call; handler + body read). */
async function measure(makeRequest, handler, n) {
  let inHandler = 0;
  let total = 0;
  await als.run({ request: true }, async () => {
    for (let i = 0; i < n; i++) {
      const req = makeRequest();
      const p0 = promises;
      const res = await handler(req, {});
      const p1 = promises;
      await res.arrayBuffer();
      inHandler += p1 - p0;
      total += promises - p0;
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    }
  });
  return { handler: inHandler / n, total: total / n };
}

/** Heap bytes per request (handler + body read; requests built beforehand): max heapUsed growth over batches. */
async function allocated(makeRequest, handler, batch = 200, batches = 15) {
  let best = 0;
  await als.run({ request: true }, async () => {
    for (let b = 0; b < batches; b++) {
      const reqs = Array.from({ length: batch }, makeRequest);
      const h0 = process.memoryUsage().heapUsed;
      for (const req of reqs) await (await handler(req, {})).arrayBuffer();
      best = Math.max(best, process.memoryUsage().heapUsed - h0);
    }
  });
  return best / batch;
}

// warm up both paths (JIT, caches), then count with the hook enabled
await measure(encryptedRequest, demo, 500);
await measure(plainRequest, plain, 500);
if (sites) {
  hook.enable();
  await measure(encryptedRequest, demo, 100);
  hook.disable();
  for (const [at, n] of [...sites].sort((a, b) => b[1] - a[1])) console.log(`${(n / 100).toFixed(2)}  ${at}`);
  process.exit(0);
}
hook.enable();
const enc = await measure(encryptedRequest, demo, N);
const pl = await measure(plainRequest, plain, N);
hook.disable();
const heapEnc = await allocated(encryptedRequest, demo);
const heapPl = await allocated(plainRequest, plain);
const f = (x) => x.toFixed(2);
console.log(`${dir}: promises per request (inside AsyncLocalStorage.run, ${N} requests)`);
console.log(`  encrypted (withNen, demo handler): handler ${f(enc.handler)}, + body read ${f(enc.total)}`);
console.log(`  plain (await request.json(), Response.json): handler ${f(pl.handler)}, + body read ${f(pl.total)}`);
console.log(`  heap allocated per request (approximate; request building excluded): encrypted ${heapEnc.toFixed(0)} B, plain ${heapPl.toFixed(0)} B`);
keys.dispose();
await nen.close();
