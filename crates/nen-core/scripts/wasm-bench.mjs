// Measures the built Wasm (packages/core/wasm-hazmat or $NEN_WASM_DIR, from packages/core/scripts/build-wasm.sh) in Node
// against @noble/post-quantum (the pure-JS fallback backend, pinned in packages/core/package.json),
// for the crate README. Medians of 15 batches. Usage: node crates/nen-core/scripts/wasm-bench.mjs
// The full JS-side comparison (Wasm vs @noble vs node:crypto) is bench/'s job.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hpkeOps, loadBuild } from './wasm-ops.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const imp = (p) => import(pathToFileURL(join(root, p)).href);
// NEN_WASM_DIR: compare another build (e.g. without simd128) with the same script.
// Default: the test-only build with the hazmat_* exports the ML-KEM rows call (the shipped
// packages/core/wasm has none since they were split off).
const wasmDir = process.env.NEN_WASM_DIR ?? join(root, 'packages/core/wasm-hazmat');
const { w, bytes: wasmBytes } = await loadBuild(wasmDir);
const { ml_kem768 } = await imp('packages/core/node_modules/@noble/post-quantum/ml-kem.js');
const { ml_kem768_x25519 } = await imp('packages/core/node_modules/@noble/post-quantum/hybrid.js');

function bench(name, n, f) {
  for (let i = 0; i < Math.min(n, 30); i++) f();
  const per = [];
  for (let b = 0; b < 15; b++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    per.push(((performance.now() - t) * 1000) / n);
  }
  per.sort((a, b) => a - b);
  const med = per[7];
  console.log(`${name.padEnd(52)} ${med.toFixed(1).padStart(9)} µs`);
  return med;
}

console.log(`Node ${process.version}, ${process.arch}; wasm ${wasmBytes.length} bytes`);

// ML-KEM-768 primitives (hazmat exports: encaps includes the modulus check like noble's).
const seed = randomBytes(64);
const kp = w.hazmat_mlkem768_keygen_seed(seed);
const ek = kp.public_key, dk = kp.private_key;
kp.free();
const se = w.hazmat_mlkem768_encaps(ek, randomBytes(32));
const c = se.enc;
se.free();
const r = {};
r.wk = bench('wasm  ML-KEM-768 keygen (seed)', 200, () => w.hazmat_mlkem768_keygen_seed(seed).free());
r.we = bench('wasm  ML-KEM-768 encaps (+ modulus check)', 200, () => w.hazmat_mlkem768_encaps(ek, randomBytes(32)).free());
r.wd = bench('wasm  ML-KEM-768 decaps (+ dk hash check)', 200, () => w.hazmat_mlkem768_decaps(dk, c));
const nk = ml_kem768.keygen(seed);
const nc = ml_kem768.encapsulate(nk.publicKey).cipherText;
r.nk = bench('noble ML-KEM-768 keygen', 50, () => ml_kem768.keygen(seed));
r.ne = bench('noble ML-KEM-768 encaps', 50, () => ml_kem768.encapsulate(nk.publicKey));
r.nd = bench('noble ML-KEM-768 decaps', 50, () => ml_kem768.decapsulate(nc, nk.secretKey));
console.log(`=> Wasm/noble speed-up: keygen ${(r.nk / r.wk).toFixed(1)}x, encaps ${(r.ne / r.we).toFixed(1)}x, decaps ${(r.nd / r.wd).toFixed(1)}x`);

// HPKE through the public Wasm API.
for (const { name, ops, free } of hpkeOps(w)) {
  for (const [op, f] of ops) bench(`wasm  HPKE ${name} ${op}`, 100, f);
  free();
}
const xk = ml_kem768_x25519.keygen();
const xe = ml_kem768_x25519.encapsulate(xk.publicKey);
bench('noble X-Wing encaps', 30, () => ml_kem768_x25519.encapsulate(xk.publicKey));
bench('noble X-Wing decaps', 30, () => ml_kem768_x25519.decapsulate(xe.cipherText, xk.secretKey));

const a = new w.Aead(randomBytes(32));
const nonce = new Uint8Array(12), aad = new Uint8Array(32);
for (const size of [1024, 16384, 1 << 20]) {
  const pt = randomBytes(size);
  const us = bench(`wasm  ChaCha20-Poly1305 seal+open ${size / 1024} KB`, Math.max(4, Math.min(2000, (32 << 20) / size)), () => a.open(nonce, aad, a.seal(nonce, aad, pt)));
  console.log(`${''.padEnd(52)} ${(size / us).toFixed(0).padStart(9)} MB/s`);
}
a.free();
