#!/usr/bin/env node
/**
 * Where node:crypto's ChaCha20-Poly1305 overtakes the Wasm's, per message size: what sets
 * `SMALL_MESSAGE` in src/backend/node.ts (below it the node backend hands seal/open to the Wasm).
 * One `createCipheriv` / `createDecipheriv` per message as node.ts makes them (ciphertext and tag
 * joined on seal) against the Wasm backend's Aead, CPU µs per call, the median of 5 rounds; and
 * the node backend itself ('auto'), i.e. whichever side its threshold picks.
 *
 * Usage: pnpm --filter @nen/core build && taskset -c 1 node bench/aead-crossover.mjs [sizes,comma,separated] [calls]
 *   (run it on each Node major you ship for: the per-call setup differs with the OpenSSL version)
 *
 * Pitfall: in-process and single-threaded; pin it to a core and compare sizes within one run.
 */
import { createCipheriv, createDecipheriv, createSecretKey } from 'node:crypto';
import { loadBackend } from '../dist/index.js';
import { SMALL_MESSAGE } from '../dist/backend/node.js';

const sizes = (process.argv[2] ?? '1024,2048,3072,4096,6144,8192,16384').split(',').map(Number);
const N = Number(process.argv[3] ?? 20_000);
const key = new Uint8Array(32).fill(3);
const nonce = new Uint8Array(12).fill(1);
const aad = new Uint8Array(60).fill(2);
// as src/backend/node.ts: a KeyObject (a byte key costs Node 24 two caught TypeErrors per call)
const keyObject = createSecretKey(key);
const wasm = (await loadBackend('wasm')).createAead(key);
const auto = (await loadBackend('auto')).createAead(key);
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

function nodeSeal(pt) {
  const c = createCipheriv('chacha20-poly1305', keyObject, nonce, { authTagLength: 16 });
  c.setAAD(aad, { plaintextLength: pt.length });
  const body = c.update(pt);
  const fin = c.final();
  return Buffer.concat([body, fin, c.getAuthTag()], pt.length + 16);
}

function nodeOpen(ct) {
  const n = ct.length - 16;
  const d = createDecipheriv('chacha20-poly1305', keyObject, nonce, { authTagLength: 16 });
  d.setAAD(aad, { plaintextLength: n });
  d.setAuthTag(ct.subarray(n));
  const body = d.update(ct.subarray(0, n));
  d.final();
  return body;
}

console.log(`node ${process.versions.node}, OpenSSL ${process.versions.openssl}, SMALL_MESSAGE ${SMALL_MESSAGE}; CPU µs per call, median of 5 rounds × ${N}`);
console.log('| bytes | Wasm seal | node:crypto seal | Wasm open | node:crypto open | backend seal+open |');
console.log('|---|---|---|---|---|---|');
for (const size of sizes) {
  const pt = new Uint8Array(size).fill(5);
  const ct = wasm.seal(nonce, aad, pt);
  const cases = [
    () => wasm.seal(nonce, aad, pt),
    () => nodeSeal(pt),
    () => wasm.open(nonce, aad, ct),
    () => nodeOpen(ct),
    () => auto.open(nonce, aad, auto.seal(nonce, aad, pt)),
  ];
  const runs = cases.map(() => []);
  for (let round = 0; round < 5; round++) {
    cases.forEach((f, i) => {
      for (let k = 0; k < 500; k++) f();
      const t0 = cpuUs();
      for (let k = 0; k < N; k++) f();
      runs[i].push((cpuUs() - t0) / N);
    });
  }
  const med = (a) => a.sort((x, y) => x - y)[2].toFixed(2);
  console.log(`| ${size} | ${runs.map(med).join(' | ')} |`);
}
wasm.dispose();
auto.dispose();
