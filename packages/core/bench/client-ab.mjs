#!/usr/bin/env node
/**
 * A/B of the whole Node client (`nen.fetch` with `compress: true`) of a baseline build against this
 * checkout's, in ONE process, both talking to one in-process @nen/server (this checkout's build,
 * memory store, `withNen(..., { compress: true })` echo): per-request wall time of the bench's
 * realistic JSON, 1 KB and 100 KB, interleaved rounds, medians. The server is the same code for
 * both sides, so the difference is the client's.
 *
 * Usage: node bench/client-ab.mjs <baseline @nen/client dist/index.js>
 * (a baseline: `git archive <rev> packages/core packages/client tsconfig.base.json | tar -x -C /tmp/base`,
 * copy this checkout's packages/core/{dist,wasm,wasm-hazmat} over, run tsc -p tsconfig.build.json in
 * both, and link base/packages/client/node_modules/@nen/core to base's core.)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ECHO_1K, realisticJson } from '../../../bench/lib/payloads.js';
import * as core from '../dist/index.js';

const here = (p) => resolve(import.meta.dirname, p);
const imp = (p) => import(pathToFileURL(p).href);
const [base, cur, server] = await Promise.all([
  imp(resolve(process.argv[2])),
  imp(here('../../client/dist/index.js')),
  imp(here('../../server/dist/index.js')),
]);
const nen = server.createNen({
  store: server.memoryStore({ shared: false }),
  serverKeys: `k1:${core.toBase64Url(new Uint8Array(32).fill(5))}`,
  logger: () => {},
  handshakeRateLimit: 0,
});
const echo = nen.withNen(async (_req, _ctx, body) => body, { compress: true });
const fetchIn = async (input, init) => {
  const req = new Request(input, init);
  const path = new URL(req.url).pathname;
  return path.startsWith('/api/nen') ? nen.routes[req.method](req) : echo(req, {});
};
const pin = (await nen.publicKeys())[0].pin;
const clients = {
  before: base.createNenClient({ serverKey: pin, baseUrl: 'http://127.0.0.1', fetch: fetchIn, compress: true }),
  now: cur.createNenClient({ serverKey: pin, baseUrl: 'http://127.0.0.1', fetch: fetchIn, compress: true }),
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, body] of [
  ['1 KB', ECHO_1K],
  ['100 KB', realisticJson(102400, 7)],
]) {
  const n = body.length > 10_000 ? 40 : 400;
  const res = { before: [], now: [] };
  for (let r = -1; r < 15; r++) {
    const ks = r % 2 ? ['now', 'before'] : ['before', 'now'];
    for (const k of ks) {
      const c = clients[k];
      const t = performance.now();
      for (let i = 0; i < n; i++) {
        const out = await (await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
        if (out.length !== body.length) throw new Error('echo mismatch');
      }
      if (r >= 0) res[k].push(((performance.now() - t) / n) * 1000);
    }
  }
  const b = median(res.before),
    a = median(res.now);
  console.log(
    `${name}: client+server per request, before (Compression Streams) ${b.toFixed(0)} µs, now (node:zlib) ${a.toFixed(0)} µs, now/before ${(a / b).toFixed(3)}, saved ${(b - a).toFixed(0)} µs`,
  );
}
