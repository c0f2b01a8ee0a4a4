/**
 * The OHTTP client's response Extract on a cold path (issue 23, the cold request): RFC 9458 §4.4's
 * HKDF-Extract(salt = enc || response_nonce, secret) with the 1,152-byte X-Wing salt hashed first
 * in OpenSSL (./node-sha256.ts nodeSha256Of2, what the gateway's hot path does) vs handed joined to
 * the Wasm's HMAC (which hashes a key longer than its block itself: the same PRK, RFC 2104 §2),
 * each call after IDLE_MS (20) of sleep, as a new client's one answer comes after a round trip.
 * Variants alternated per round (order flipped every round); medians in µs; checks the PRKs match.
 * Run: `node bench/ohttp/response-extract-cold.mjs` (env N rounds, default 150). In process, no I/O.
 * Pitfall: the machine's load moves both variants; compare them within one run.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../packages/core/dist/');
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
await (await load('index.js')).loadBackend();
const { hkdf } = await load('ohttp/hpke.js');
const { nodeSha256Of2 } = await load('ohttp/node-sha256.js');
const { concatBytes } = await load('protocol/bytes.js');
const N = Number(process.env.N ?? 150);
const IDLE_MS = Number(process.env.IDLE_MS ?? 20);
const enc = crypto.getRandomValues(new Uint8Array(1120));
const secret = crypto.getRandomValues(new Uint8Array(32));
const variants = {
  'OpenSSL SHA-256 + Wasm Extract': (n) => hkdf.extract(nodeSha256Of2(enc, n), secret),
  'joined salt, Wasm Extract': (n) => hkdf.extract(concatBytes(enc, n), secret),
};
const names = Object.keys(variants);
const same = Buffer.from(variants[names[0]](new Uint8Array(32))).equals(Buffer.from(variants[names[1]](new Uint8Array(32))));
if (!same) throw new Error('the two Extracts differ');
const times = Object.fromEntries(names.map((k) => [k, []]));
for (let i = 0; i < N; i++) {
  for (const k of i % 2 ? names : [...names].reverse()) {
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const nonce = crypto.getRandomValues(new Uint8Array(32));
    const t = performance.now();
    variants[k](nonce);
    times[k].push((performance.now() - t) * 1000);
  }
}
const med = (x) => [...x].sort((a, b) => a - b)[x.length >> 1];
console.log(
  `${process.version}, load ${os.loadavg()[0].toFixed(1)}, N=${N}, ${IDLE_MS} ms idle before each: ${names.map((k) => `${k} ${med(times[k]).toFixed(1)} µs`).join(', ')}`,
);
