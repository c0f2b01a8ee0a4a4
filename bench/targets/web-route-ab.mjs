#!/usr/bin/env node
/**
 * `node bench/targets/web-route-ab.mjs --a <dist> --b <dist> [--size 102400] [--rounds 15] [--batch 200] [--chunk 65536]`:
 * a `withNen` Web route's per-request CPU in ONE process, two builds of @nen/server side by side,
 * shaped as `next start` hands an App Router handler its request: an undici Request whose body is
 * a ReadableStream of `--chunk`-byte chunks (Node's socket reads: a 100 KB body arrives as two or
 * more) with its Content-Length, run inside an AsyncLocalStorage context (Next's), and the answer
 * read through its body's reader (as Next pipes it to the socket). Per build: the sealed echo (the
 * demo's `echoNen`: the parsed body returned as the value) and the plain route (apps/demo
 * readBodyLikeNen: `arrayBuffer()`, TextDecoder, JSON.parse, then `Response.json`), batches
 * interleaved in rotated order; prints CPU µs per request (process.cpuUsage, medians over rounds)
 * and Nen's added cost (median of the per-round differences).
 * What it leaves out, the same for both sides: Next itself (routing, its Request/Response
 * adaptation) and the sockets, so read it next to `bench/profile-requests.js --pin`.
 *
 *   cp -r packages/server/dist packages/server/.dist-a   # the build before a change
 *   node bench/targets/web-route-ab.mjs --a packages/server/.dist-a --b packages/server/dist
 *
 * Pitfalls: a <dist> must sit inside packages/server (its imports resolve from there, so both use
 * the one @nen/core of this tree, which also seals the requests before each batch); sequential
 * requests; each side's first answer is checked (200, no nen-error); a batch's GC can land in the next.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as core from '@nen/core';
import { benchSession } from '../../packages/server/bench/bench-session.mjs';
import { ECHO_1K, realisticJson } from '../lib/payloads.js';
import { measureSlots, median } from './cpu-slots.mjs';

const { values: v } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    size: { type: 'string' },
    rounds: { type: 'string' },
    batch: { type: 'string' },
    chunk: { type: 'string' },
  },
  strict: true,
});
if (!v.a || !v.b) throw new Error('web-route-ab: give --a <dist> and --b <dist>');
const size = Number(v.size ?? 102400);
const rounds = Number(v.rounds ?? 15);
const batch = Number(v.batch ?? (size > 10_000 ? 200 : 1000));
const CHUNK = Number(v.chunk ?? 65536);
const body = new TextEncoder().encode(size === 1024 ? ECHO_1K : realisticJson(size, 7));
const { formatRequestHeader, requestAad, sealMessage } = core;

/** An undici Request as Next's Node server makes it: a stream body in socket-sized chunks, with Content-Length. */
function request(headers, payload) {
  const stream = new ReadableStream({
    start(c) {
      for (let o = 0; o < payload.length; o += CHUNK) c.enqueue(payload.subarray(o, o + CHUNK));
      c.close();
    },
  });
  return new Request('http://127.0.0.1/api/echo', {
    method: 'POST',
    headers: { ...headers, 'content-length': String(payload.length) },
    body: stream,
    duplex: 'half',
  });
}

/** The answer read as Next pipes it: through its body's reader. */
async function drain(res) {
  if (!res.body) return 0;
  const reader = res.body.getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return n;
    n += value.byteLength;
  }
}

/** apps/demo/app/api/plain/echo: readBodyLikeNen, then echo's Response.json. */
async function plainRoute(req) {
  const bytes = new Uint8Array(await req.arrayBuffer());
  const value = JSON.parse(new TextDecoder().decode(bytes));
  return Response.json(value, { headers: { 'content-type': req.headers.get('content-type') } });
}

async function side(name, dist) {
  const server = await import(pathToFileURL(path.resolve(dist, 'index.js')).href);
  const { nen, r, keys } = await benchSession(server, core);
  // apps/demo/lib/echo.ts echoNen: a JSON body is returned as the value, withNen seals it as JSON
  const sealedRoute = nen.withNen(async (req, _ctx, parsed) => (req.headers.get('content-type') === 'application/json' ? parsed : null), {
    compress: true,
  });
  let seq = 1n;
  const sealedRequest = () => {
    const meta = { sessionId: r.sessionId, epoch: 0, seq: seq++, timestamp: Date.now(), flags: 0 };
    const sealed = sealMessage(keys.c2s, keys.c2sIv, meta.seq, requestAad(meta, 'POST', '/api/echo', 'application/json'), body);
    return request({ nen: formatRequestHeader(meta), 'nen-type': 'application/json', 'content-type': 'application/nen' }, sealed);
  };
  const plainRequest = () => request({ 'content-type': 'application/json' }, body);
  const run = (route) => async (req) => {
    const res = await route(req, {});
    if (res.status !== 200 || res.headers.has('nen-error')) throw new Error(`web-route-ab: ${name} answered ${res.status} ${res.headers.get('nen-error')}`);
    return drain(res);
  };
  return { name, nen, modes: { plain: [plainRequest, run(plainRoute)], encrypted: [sealedRequest, run(sealedRoute)] } };
}

const als = new AsyncLocalStorage();
await als.run({}, async () => {
  const sides = [await side('A', v.a), await side('B', v.b)];
  for (const s of sides) for (const [make, go] of Object.values(s.modes)) for (let i = 0; i < 100; i++) await go(make()); // JIT warm-up

  const slots = await measureSlots(sides, rounds, batch);
  console.log(
    `withNen Web route in process (as under next start), ${body.length} B JSON echo in ${CHUNK} B chunks, node ${process.versions.node}, ${rounds} rounds × ${batch}, CPU µs per request (medians)\n`,
  );
  console.log('| slot | µs/request |\n|---|---|');
  for (const s of slots) console.log(`| ${s.key} | ${median(s.us).toFixed(1)} |`);
  const added = (n) => median(slots.find((s) => s.key === `${n} encrypted`).us.map((e, i) => e - slots.find((s) => s.key === `${n} plain`).us[i]));
  console.log(`\nNen adds (median of per-round differences): A +${added('A').toFixed(1)} µs, B +${added('B').toFixed(1)} µs`);
  await Promise.all(sides.map((s) => s.nen.close()));
});
