#!/usr/bin/env node
/**
 * A profiling driver for the server's hot paths: N in-process `withNen` requests (1 KB JSON echo)
 * and M handshake-route calls against this package's dist/, nothing else. Run it under the V8
 * profiler and summarise with the repository's bench/profile-summary.js:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile-withnen.mjs [requests] [handshakes] [--handler demo]
 *   node ../../bench/profile-summary.js /tmp/prof/*.cpuprofile --top 30
 */
import * as core from '@nen/core';
import { createNen, memoryStore } from '../dist/index.js';
import { benchSession } from './bench-session.mjs';

const { clientHandshakeStart, formatRequestHeader, requestAad, sealMessage } = core;

const N = Number(process.argv[2] ?? 20_000);
const H = Number(process.argv[3] ?? 1_000);
const { backend, nen, pin, r, keys } = await benchSession({ createNen, memoryStore }, core);
// --handler demo: the demo's echo route (reads the content type, returns the parsed body as a value)
const demo = process.argv.includes('--handler') && process.argv[process.argv.indexOf('--handler') + 1] === 'demo';
const wrapped = nen.withNen(
  demo ? async (req, _ctx, body) => (req.headers.get('content-type') === 'application/json' ? body : null) : async (_req, _ctx, body) => Response.json(body),
);
const json = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(1012) }));
let seq = 1n;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const meta = { sessionId: r.sessionId, epoch: 0, seq: seq++, timestamp: Date.now(), flags: 0 };
  const sealed = sealMessage(keys.c2s, keys.c2sIv, meta.seq, requestAad(meta, 'POST', '/api/echo', 'application/json'), json);
  const res = await wrapped(
    new Request('http://127.0.0.1/api/echo', {
      method: 'POST',
      headers: { nen: formatRequestHeader(meta), 'nen-type': 'application/json', 'content-type': 'application/nen' },
      body: sealed,
    }),
    {},
  );
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  await res.arrayBuffer();
}
const t1 = performance.now();
const hellos = Array.from({ length: Math.min(H, 200) }, () => clientHandshakeStart(backend, { pin }).hello);
for (let i = 0; i < H; i++) {
  const res = await nen.routes.POST(
    new Request('http://127.0.0.1/api/nen/handshake', {
      method: 'POST',
      headers: { 'content-type': 'application/nen-handshake' },
      body: hellos[i % hellos.length],
    }),
  );
  if (res.status !== 200) throw new Error(`handshake ${res.status}`);
  await res.arrayBuffer();
}
const t2 = performance.now();
console.log(
  `withNen 1 KB: ${(((t1 - t0) * 1000) / N).toFixed(1)} µs/request (incl. client sealing); handshake route: ${(((t2 - t1) * 1000) / H).toFixed(1)} µs`,
);
keys.dispose();
await nen.close();
