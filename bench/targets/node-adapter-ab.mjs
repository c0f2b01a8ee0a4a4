#!/usr/bin/env node
/**
 * `node bench/targets/node-adapter-ab.mjs --a <dist> --b <dist> [--size 1024] [--rounds 15] [--batch 1000]`:
 * the node:http adapter's per-request CPU in ONE process, two builds of @nen/server side by side,
 * without sockets or a load generator: each request is a real `http.IncomingMessage` (fed as Node's
 * HTTP parser feeds it: the handler is called, then the body is pushed in chunks of at most 64 KiB
 * and ended) answered into a real `http.ServerResponse` with no socket (its output is buffered and
 * dropped). Per build: the sealed echo (`toNodeHandler(withNen(echo, { compress, lazyJson }))`, as
 * bench/targets/node-http.mjs) and the plain Web echo (the same `echo()` Web handler, its Response
 * read back, `writeHead` + `end`: NEN_BENCH_PLAIN_ECHO=web there), batches interleaved in rotated
 * order; prints CPU µs per request (process.cpuUsage, medians over rounds) and Nen's added cost.
 * What it leaves out, the same for both sides: the socket writes and the HTTP parser (a sealed
 * request's larger head is parsed there), so read it next to `hono-ab.mjs --target node-http`.
 *
 *   cp -r packages/server/dist packages/server/.dist-a   # the build before a change
 *   node bench/targets/node-adapter-ab.mjs --a packages/server/.dist-a --b packages/server/dist
 *
 * Pitfalls: a <dist> must sit inside packages/server (its imports resolve from there, so both use
 * the one @nen/core of this tree, as does the sealing of the requests, done before each batch);
 * sequential requests (no concurrency); each side's first answer is checked (200, sealed length).
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as core from '@nen/core';
import { benchSession } from '../../packages/server/bench/bench-session.mjs';
import { ECHO_1K, realisticJson } from '../lib/payloads.js';
import { measureSlots, median } from './cpu-slots.mjs';

const { values: v } = parseArgs({
  options: { a: { type: 'string' }, b: { type: 'string' }, size: { type: 'string' }, rounds: { type: 'string' }, batch: { type: 'string' } },
  strict: true,
});
if (!v.a || !v.b) throw new Error('node-adapter-ab: give --a <dist> and --b <dist>');
const size = Number(v.size ?? 1024);
const rounds = Number(v.rounds ?? 15);
const batch = Number(v.batch ?? (size > 10_000 ? 300 : 1000));
const body = new TextEncoder().encode(size === 1024 ? ECHO_1K : realisticJson(size, 7));
const CHUNK = 64 * 1024;
const socket = new Socket();
const { formatRequestHeader, requestAad, sealMessage } = core;

/** The echo as a Web handler (bench/targets/node-http.mjs). */
function echo(bytes, contentType) {
  if (bytes.byteLength === 0) return new Response(null, { status: 204 });
  return new Response(bytes, { headers: { 'content-type': contentType ?? 'application/octet-stream' } });
}

/** NEN_BENCH_PLAIN_ECHO=web of node-http.mjs: read the body, echo() it, read its Response back, write. */
function plainWebEcho(req, res) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const r = echo(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), req.headers['content-type']);
      const reader = r.body.getReader();
      const out = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        out.push(value);
      }
      const bytes = out.length === 1 ? out[0] : Buffer.concat(out);
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type'), 'content-length': bytes.length }).end(bytes);
      resolve();
    });
  });
}

/** An IncomingMessage as the parser makes it; `feed()` then pushes the body and ends it. */
function incoming(rawHeaders, payload) {
  const req = new IncomingMessage(socket);
  req.method = 'POST';
  req.url = '/api/echo';
  req.httpVersion = '1.1';
  req.rawHeaders = rawHeaders;
  for (let i = 0; i < rawHeaders.length; i += 2) req.headers[rawHeaders[i].toLowerCase()] = rawHeaders[i + 1];
  const feed = () => {
    for (let o = 0; o < payload.length; o += CHUNK) req.push(payload.subarray(o, o + CHUNK));
    req.complete = true;
    req.push(null);
  };
  return { req, feed };
}

async function side(name, dist) {
  const url = (f) => pathToFileURL(path.resolve(dist, f)).href;
  const server = await import(url('index.js'));
  const { toNodeHandler } = await import(url('adapters/node-http.js'));
  const { nen, r, keys } = await benchSession(server, core);
  const sealedEcho = toNodeHandler(nen.withNen(async (req) => echo(await req.bytes(), req.headers.get('content-type')), { compress: true, lazyJson: true }));
  let seq = 1n;
  const sealedRequest = () => {
    const meta = { sessionId: r.sessionId, epoch: 0, seq: seq++, timestamp: Date.now(), flags: 0 };
    const sealed = sealMessage(keys.c2s, keys.c2sIv, meta.seq, requestAad(meta, 'POST', '/api/echo', 'application/json'), body);
    const raw = [
      'Host',
      '127.0.0.1',
      'nen',
      formatRequestHeader(meta),
      'nen-type',
      'application/json',
      'content-type',
      'application/nen',
      'content-length',
      String(sealed.length),
    ];
    return incoming(raw, Buffer.from(sealed));
  };
  const plainRequest = () => incoming(['Host', '127.0.0.1', 'content-type', 'application/json', 'content-length', String(body.length)], Buffer.from(body));
  const run = (handler) => async (x) => {
    const res = new ServerResponse(x.req);
    const done = handler(x.req, res);
    x.feed();
    await done;
    return res;
  };
  return { name, nen, modes: { plain: [plainRequest, run(plainWebEcho)], encrypted: [sealedRequest, run(sealedEcho)] } };
}

const sides = [await side('A', v.a), await side('B', v.b)];
for (const s of sides) {
  for (const [mode, [make, go]] of Object.entries(s.modes)) {
    const res = await go(make());
    const head = String(res.outputData?.[0]?.data ?? res._header ?? '');
    if (res.statusCode !== 200 || head.includes('nen-error')) throw new Error(`node-adapter-ab: ${s.name} ${mode} answered ${res.statusCode}`);
    for (let i = 0; i < 300; i++) await go(make()); // JIT warm-up
  }
}

const slots = await measureSlots(sides, rounds, batch);
console.log(`node:http adapter in process, ${body.length} B JSON echo, ${rounds} rounds × ${batch} requests, CPU µs per request (medians)\n`);
console.log('| slot | µs/request |\n|---|---|');
const m = Object.fromEntries(slots.map((s) => [s.key, median(s.us)]));
for (const s of slots) console.log(`| ${s.key} | ${m[s.key].toFixed(1)} |`);
const added = (n) => median(slots.find((s) => s.key === `${n} encrypted`).us.map((e, i) => e - slots.find((s) => s.key === `${n} plain`).us[i]));
console.log(`\nNen adds (median of per-round differences): A +${added('A').toFixed(1)} µs, B +${added('B').toFixed(1)} µs`);
await Promise.all(sides.map((s) => s.nen.close()));
