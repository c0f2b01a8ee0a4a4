#!/usr/bin/env node
/**
 * Where a sealed request's heap allocation goes: V8's sampling heap profiler over N in-process 1 KB
 * JSON requests through `withNen` (the demo's echo handler, as in promises.mjs), counting objects
 * that were already collected too (`includeObjectsCollectedByMajorGC/MinorGC`), so the figures are
 * bytes allocated per request by function (self), not what is still live. `--mode plain` runs the
 * plain handler (`await request.json()`, `Response.json`) for comparison; `--mode handshake` the
 * handshake route (`nen.routes.POST`, pinned X-Wing ClientHellos made beforehand).
 *
 * Usage: node bench/alloc-sites.mjs [--mode encrypted|plain|handshake] [--requests 5000] [--top 30] [--callers]
 * (`--callers`: a builtin's bytes, e.g. `subarray` or `Map`, are listed under the JS function calling it)
 *
 * Pitfalls: sampled (every 128 bytes), so small sites are approximate; V8 charges inlined callees
 * to their caller (an async function's own line often holds its inlined helpers' objects); the
 * requests are built before sampling, so request building on the client side is excluded.
 */
import { Session } from 'node:inspector/promises';
import * as core from '@nen/core';
import { createNen, memoryStore } from '../dist/index.js';
import { benchSession, echoBench } from './bench-session.mjs';

const arg = (name, d) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : d);
const mode = arg('--mode', 'encrypted');
const N = Number(arg('--requests', 5000));
const TOP = Number(arg('--top', 30));
const { clientHandshakeStart } = core;
const bench = await benchSession({ createNen, memoryStore }, core);
const { backend, nen, pin } = bench;
const { demo, plain, encryptedRequest, plainRequest } = echoBench(core, bench);

const hellos = Array.from({ length: 64 }, () => {
  const st = clientHandshakeStart(backend, { pin });
  st.dispose();
  return st.hello;
});
let h = 0;
const handshakeRequest = () =>
  new Request('http://127.0.0.1/api/nen/handshake', {
    method: 'POST',
    headers: { 'content-type': 'application/nen-handshake' },
    body: hellos[h++ & 63],
  });

const modes = { plain: [plainRequest, plain], encrypted: [encryptedRequest, demo], handshake: [handshakeRequest, (q) => nen.routes.POST(q)] };
if (!Object.hasOwn(modes, mode)) throw new Error('alloc-sites: --mode encrypted|plain|handshake');
const [make, handler] = modes[mode];
for (let i = 0; i < 2000; i++) await (await handler(make(), {})).arrayBuffer();
const requests = Array.from({ length: N }, make);

const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
for (const q of requests) await (await handler(q, {})).arrayBuffer();
const { profile } = await session.post('HeapProfiler.stopSampling');
session.disconnect();

const bySite = new Map();
let total = 0;
const siteOf = (f) => {
  const where = f.url.replace(/^.*\/(packages|node_modules)\//, '$1/').replace(/^node:internal\//, 'node:');
  return `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
};
// --callers: a builtin's allocation (subarray, slice, Map, push: no script) is named with its caller's site.
const callers = process.argv.includes('--callers');
const stack = [[profile.head, '']];
while (stack.length > 0) {
  const [n, parent] = stack.pop();
  const own = siteOf(n.callFrame);
  const site = callers && n.callFrame.url === '' && parent ? `${own.replace(/ :0$/, '')} <- ${parent}` : own;
  total += n.selfSize;
  if (n.selfSize > 0) bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
  for (const c of n.children) stack.push([c, n.callFrame.url === '' ? parent : own]);
}
console.log(`${mode}: ${(total / N).toFixed(0)} B allocated per request (${N} requests, sampled)`);
const groups = new Map();
for (const [site, b] of bySite) {
  const g = /packages\/server\/dist\//.test(site)
    ? '@nen/server'
    : /packages\/core\/dist\//.test(site)
      ? '@nen/core'
      : /node:(deps\/undici|webstreams)/.test(site)
        ? 'undici + web streams'
        : /bench\/(alloc-sites|bench-session)/.test(site)
          ? 'this script (handler, loop)'
          : 'other (V8 builtins, Node)';
  groups.set(g, (groups.get(g) ?? 0) + b);
}
console.log([...groups].map(([g, b]) => `${g} ${(b / N).toFixed(0)} B`).join(', '));
for (const [site, b] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${(b / N).toFixed(0).padStart(7)}  ${site}`);
