// A/B speed of Wasm builds of nen-core side by side in one Node process, for build-profile work
// (size vs speed): each argument is a wasm-bindgen `--target web` output directory (nen_core.js +
// nen_core_bg.wasm). Every round runs one batch per build per operation, interleaved, so load on
// a shared machine hits all builds alike; prints per-op best batches and each build's median ratio to
// the first. Public API only (no hazmat exports needed).
// Usage: node crates/nen-core/scripts/wasm-ab.mjs <dirA> <dirB> [...] [--rounds N]
// Pitfall: a benchmark, not a test; on a loaded 2-core VM only the interleaved ratios mean much.
// Modules in one process interfere (byte-identical ones share V8's compiled code; ML-KEM S/R of
// builds with the same code section read 4-20 % apart): for ML-KEM, also run one dir per process,
// alternated, and compare medians (wasm-ab-procs.mjs; crates/nen-core/README.md "Wasm size").
import { randomBytes } from 'node:crypto';
import { hpkeOps, loadBuild } from './wasm-ops.mjs';

const args = process.argv.slice(2);
const ri = args.indexOf('--rounds');
const rounds = ri >= 0 ? Number(args.splice(ri, 2)[1]) : 21;
const builds = [];
for (const dir of args) builds.push(await loadBuild(dir));
if (builds.length < 1) throw new Error('usage: wasm-ab.mjs <dir> [<dir> ...]');

const pt16 = randomBytes(16384);
const nonce = new Uint8Array(12);
const aad = new Uint8Array(32);
const COUNT = { generate_key_pair: 20, 'RecipientKey load (seed)': 20, setup_base_s_export: 20, setup_base_r_export: 20 };

// Per build: the operations, each a closure over that build's own keys (freed with the process).
function ops(w) {
  const o = {};
  for (const { name, ops: kemOps } of hpkeOps(w)) for (const [op, f] of kemOps) o[`${name} ${op}`] = [COUNT[op], f];
  const a = new w.Aead(randomBytes(32));
  o['ChaCha20-Poly1305 seal+open 16 KB'] = [10, () => a.open(nonce, aad, a.seal(nonce, aad, pt16))];
  o['sha256 16 KB'] = [20, () => w.sha256(pt16)];
  return o;
}

const table = builds.map((b) => ops(b.w));
const names = Object.keys(table[0]);
const per = builds.map(() => Object.fromEntries(names.map((n) => [n, []])));
for (const t of table) for (const n of names) for (let i = 0; i < 5; i++) t[n][1]();
for (let r = 0; r < rounds; r++) {
  for (const n of names) {
    // Each round starts with the next build: a fixed order made the first builds read 5-15 %
    // slower on ML-KEM (measured with byte-identical modules), a bias rotation removes.
    for (let j = 0; j < builds.length; j++) {
      const b = (j + r) % builds.length;
      const [count, f] = table[b][n];
      const t0 = performance.now();
      for (let i = 0; i < count; i++) f();
      per[b][n].push(((performance.now() - t0) * 1000) / count);
    }
  }
}
// The minimum over rounds: on a loaded machine, preemption only ever adds time to a batch.
const best = (xs) => Math.min(...xs);
console.log(`Node ${process.version}; ${rounds} interleaved rounds; µs per op (best batch), ratio to the first build`);
console.log(builds.map((b, i) => `  [${i}] ${b.dir}: ${b.bytes.length} B`).join('\n'));
for (const n of names) {
  const base = best(per[0][n]);
  const cells = per.map((p) => {
    const m = best(p[n]);
    return `${m.toFixed(1).padStart(8)} (${(m / base).toFixed(2)})`;
  });
  console.log(`${n.padEnd(36)} ${cells.join(' ')}`);
}
