#!/usr/bin/env node
/**
 * In-envelope compression, measured in ONE process (interleaved batches, medians): the level table
 * behind REQUEST_DEFLATE_LEVEL / RESPONSE_DEFLATE_LEVEL (src/protocol/compression.ts) and the A/B
 * of the client's compression on Node, Compression Streams (before) vs node:zlib (now).
 *
 * Payloads: the bench's realistic JSON (bench/lib/payloads.js), 1 KB (ECHO_1K) and 100 KB, as the
 * load stage sends them. Bytes are compared with gzip -6, what Next.js sends for the plain route;
 * "sealed" adds the 16-byte AEAD tag the envelope puts around the compressed body.
 *
 * Usage: pnpm --filter @nen/core build && node bench/compression.mjs [--quick]
 * Figures drift with machine load; compare within one run only.
 */
import zlib from 'node:zlib';
import { ECHO_1K, realisticJson } from '../../../bench/lib/payloads.js';
import {
  CLIENT_INFLATE_ERRORS,
  REQUEST_DEFLATE_LEVEL,
  RESPONSE_DEFLATE_LEVEL,
  SERVER_INFLATE_ERRORS,
  deflateRequestBody,
  inflateResponseBody,
  nodeCompression,
  streamCompression,
} from '../dist/protocol/compression.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 5 : 15;
const enc = new TextEncoder();
const PAYLOADS = { '1 KB': enc.encode(ECHO_1K), '100 KB': enc.encode(realisticJson(102400, 7)) };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f1 = (x) => x.toFixed(1);

/** Median µs per call of each case; rounds interleaved, order alternating. */
async function interleaved(cases, n) {
  const res = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let r = -1; r < ROUNDS; r++) {
    const keys = Object.keys(cases);
    if (r % 2) keys.reverse();
    for (const k of keys) {
      const f = cases[k];
      const t = performance.now();
      for (let i = 0; i < n; i++) {
        const x = f();
        if (x instanceof Promise) await x;
      }
      if (r >= 0) res[k].push(((performance.now() - t) / n) * 1000); // round -1 warms up
    }
  }
  return Object.fromEntries(Object.entries(res).map(([k, v]) => [k, median(v)]));
}

for (const [name, body] of Object.entries(PAYLOADS)) {
  const n = body.length > 10_000 ? (quick ? 40 : 100) : quick ? 500 : 2000;
  const gz = zlib.gzipSync(body, { level: 6 }).length;
  const levels = [1, 2, 3, 4, 5, 6];
  const comp = Object.fromEntries(levels.map((l) => [l, nodeCompression.deflate(body, l)]));
  const cases = { 'gzip -6': () => zlib.gzipSync(body, { level: 6 }) };
  for (const l of levels) {
    cases[`deflate ${l}`] = () => nodeCompression.deflate(body, l);
    cases[`inflate ${l}`] = () => nodeCompression.inflate(comp[l], body.length, SERVER_INFLATE_ERRORS);
  }
  const t = await interleaved(cases, n);
  console.log(`\n## ${name} realistic JSON (${body.length} B); gzip -6: ${gz} B, ${f1(t['gzip -6'])} µs`);
  console.log('| level | deflate µs | vs level 6 | inflate µs | deflate-raw B | sealed (+16) vs gzip -6 |');
  console.log('|---|---|---|---|---|---|');
  for (const l of levels) {
    const mark = (l === REQUEST_DEFLATE_LEVEL ? ' (requests)' : '') + (l === RESPONSE_DEFLATE_LEVEL ? ' (responses)' : '');
    console.log(
      `| ${l}${mark} | ${f1(t[`deflate ${l}`])} | ${(t[`deflate ${l}`] / t['deflate 6']).toFixed(2)}× | ${f1(t[`inflate ${l}`])} | ${comp[l].length} | ${((comp[l].length + 16) / gz).toFixed(3)}× |`,
    );
  }

  // Client on Node, one exchange's compression work: deflate the request, inflate the response.
  const response = nodeCompression.deflate(body, RESPONSE_DEFLATE_LEVEL);
  const ab = await interleaved(
    {
      'before: Compression Streams': async () => {
        await streamCompression.deflate(body, 6);
        await streamCompression.inflate(response, body.length, CLIENT_INFLATE_ERRORS);
      },
      'now: node:zlib': () => {
        deflateRequestBody(body);
        inflateResponseBody(response, body.length);
      },
    },
    n,
  );
  const [before, now] = Object.values(ab);
  console.log(`client per exchange (deflate request + inflate response): before ${f1(before)} µs, now ${f1(now)} µs, now/before ${(now / before).toFixed(3)}`);
}
