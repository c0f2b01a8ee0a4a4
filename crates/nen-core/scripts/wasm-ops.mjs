// What wasm-bench.mjs and wasm-ab.mjs share: loading a wasm-bindgen `--target web` build from its
// directory (nen_core.js + nen_core_bg.wasm, initialised synchronously) and the HPKE operations
// of one build through the public Wasm API, per KEM (X-Wing, ML-KEM-768), each a closure over
// that build's own keys.
// Pitfall: every KEM's keys are Wasm objects; call its free() when done (bench scripts run many
// builds in one process).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const XWING = 0x647a;
export const MLKEM768 = 0x41;

/** Imports and initialises the build in `dir`; `bytes` is the .wasm it runs. */
export async function loadBuild(dir) {
  const w = await import(pathToFileURL(join(resolve(dir), 'nen_core.js')).href);
  const bytes = new Uint8Array(readFileSync(join(resolve(dir), 'nen_core_bg.wasm')));
  w.initSync({ module: bytes });
  return { dir, w, bytes };
}

/**
 * Per KEM: { name, ops: [[label, fn], ...], free } with generate_key_pair, RecipientKey load
 * (from the seed), setup_base_s_export and setup_base_r_export (on one fixed enc).
 */
export function hpkeOps(w) {
  const info = new Uint8Array(16);
  const ctx = new Uint8Array(8);
  return [
    ['X-Wing', XWING],
    ['ML-KEM-768', MLKEM768],
  ].map(([name, kem]) => {
    const k = w.generate_key_pair(kem);
    const rk = new w.RecipientKey(kem, k.private_key);
    const pk = rk.public_key;
    const s = w.setup_base_s_export(kem, pk, info, ctx, 32);
    const enc = s.enc;
    s.free();
    const ops = [
      ['generate_key_pair', () => w.generate_key_pair(kem).free()],
      ['RecipientKey load (seed)', () => new w.RecipientKey(kem, k.private_key).free()],
      ['setup_base_s_export', () => w.setup_base_s_export(kem, pk, info, ctx, 32).free()],
      ['setup_base_r_export', () => rk.setup_base_r_export(enc, info, ctx, 32)],
    ];
    return {
      name,
      ops,
      free: () => {
        rk.free();
        k.free();
      },
    };
  });
}
