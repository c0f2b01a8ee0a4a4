#!/usr/bin/env node
/**
 * Client + server per-request CPU in ONE process, no network: `createNenClient` whose `fetch` hands
 * each Request straight to this package's `withNen` handler (the demo's echo: reads the content
 * type, returns the parsed 1 KB JSON body as a value) and the session routes. What it measures is
 * everything both ends of Nen do per request (seal, open, commit, seal, open, and the Request /
 * Response objects around them), without sockets or Next.js.
 *
 *   node bench/client-roundtrip.mjs [requests]                          (wall and CPU µs per request)
 *   node --cpu-prof --cpu-prof-dir=/tmp/p bench/client-roundtrip.mjs   (then ../../bench/profile-summary.js)
 *
 * Pitfall: one process does both ends, so the figure is their sum; the machine is noisy, so to
 * compare two builds run each several times, alternating, and compare medians.
 */
import { createNenClient } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { createNen, memoryStore } from '../dist/index.js';
import { benchNen } from './bench-session.mjs';

const N = Number(process.argv[2] ?? 10_000);
const nen = benchNen({ createNen, memoryStore }, { toBase64Url });
const pin = (await nen.publicKeys())[0].pin;
const echo = nen.withNen(async (req, _ctx, body) => (req.headers.get('content-type') === 'application/json' ? body : null));
const fetch = (url, init) => (String(url).includes('/api/nen/') ? nen.routes.POST(new Request(url, init)) : echo(new Request(url, init), {}));
const client = createNenClient({ baseUrl: 'http://127.0.0.1', fetch, serverKey: pin, sessionPath: '/api/nen' });
const body = JSON.stringify({ data: 'x'.repeat(1012) });
const one = async () => {
  const r = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (r.status !== 200) throw new Error(`status ${r.status}`);
  await r.json();
};
for (let i = 0; i < 2000; i++) await one(); // warm-up
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) await one();
const c = process.cpuUsage(c0);
console.log(
  `client + server, 1 KB JSON: ${(((performance.now() - t0) * 1000) / N).toFixed(1)} µs wall, ${((c.user + c.system) / N).toFixed(1)} µs CPU per request`,
);
await client.terminate().catch(() => undefined);
await nen.close();
