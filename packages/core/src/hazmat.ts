/**
 * Test-only access to the deterministic ("hazmat") entry points of the Wasm core, for the
 * known-answer vectors (derandomized HPKE SetupBaseS, ML-KEM-768 KeyGen_internal / Encaps with a
 * caller-given m / Decaps with an expanded key) and the crypto bench's raw KEM rows.
 *
 * Pitfalls: these entry points exist only in a SEPARATE Wasm build, `wasm-hazmat/` (crate feature
 * `hazmat`, made by scripts/build-wasm.sh next to the shipped `wasm/`, which is built without it).
 * This module, dist/hazmat.*, and wasm-hazmat/ are never published (package.json `files`), and it
 * is Node-only (reads the .wasm file). Production code must never choose its own KEM randomness.
 */
import { readFileSync } from 'node:fs';
import * as glue from '../wasm-hazmat/nen_core.js';
import type { HpkeSealed, HpkeSenderExport, KemId } from './backend/types.js';
import { callWasm, senderExport, splitSealed } from './backend/wasm.js';

let ready = false;
function loadHazmatGlue(): typeof glue {
  if (!ready) {
    glue.initSync({ module: readFileSync(new URL('../wasm-hazmat/nen_core_bg.wasm', import.meta.url)) });
    ready = true;
  }
  return glue;
}

export interface Hazmat {
  setupBaseSExportDerand(kem: KemId, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number, ikmE: Uint8Array): HpkeSenderExport;
  /** Single-shot SealBase (RFC 9180 §6.1) with caller-given ikmE. */
  sealBaseDerand(kem: KemId, publicKey: Uint8Array, info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, ikmE: Uint8Array): HpkeSealed;
  /** FIPS 203 ML-KEM.KeyGen_internal(d, z): ek (1184) and dk (2400). */
  mlkem768Keygen(d: Uint8Array, z: Uint8Array): { ek: Uint8Array; dk: Uint8Array };
  /** Wycheproof keygen-from-seed: seed = d || z (64 bytes). */
  mlkem768KeygenSeed(seed: Uint8Array): { ek: Uint8Array; dk: Uint8Array };
  /** ML-KEM.Encaps_internal(ek, m): c and K. Invalid ek → NEN_CRYPTO_KEY. */
  mlkem768Encaps(ek: Uint8Array, m: Uint8Array): { c: Uint8Array; k: Uint8Array };
  /** ML-KEM.Decaps(dk, c) with the 2400-byte expanded dk. */
  mlkem768Decaps(dk: Uint8Array, c: Uint8Array): Uint8Array;
}

export function hazmat(): Hazmat {
  const g = loadHazmatGlue();
  const kp = (o: { public_key: Uint8Array; private_key: Uint8Array; free(): void }) => {
    try {
      return { ek: o.public_key, dk: o.private_key };
    } finally {
      o.free();
    }
  };
  return {
    setupBaseSExportDerand: (kem, pk, info, ctx, length, ikmE) =>
      senderExport(callWasm(() => g.hazmat_setup_base_s_export_derand(kem, pk, info, ctx, length, ikmE))),
    sealBaseDerand: (kem, pk, info, aad, pt, ikmE) =>
      splitSealed(
        kem,
        callWasm(() => g.hazmat_seal_base_derand(kem, pk, info, aad, pt, ikmE)),
      ),
    mlkem768Keygen: (d, z) => kp(callWasm(() => g.hazmat_mlkem768_keygen(d, z))),
    mlkem768KeygenSeed: (seed) => kp(callWasm(() => g.hazmat_mlkem768_keygen_seed(seed))),
    mlkem768Encaps: (ek, m) => {
      const r = senderExport(callWasm(() => g.hazmat_mlkem768_encaps(ek, m)));
      return { c: r.enc, k: r.exported };
    },
    mlkem768Decaps: (dk, c) => callWasm(() => g.hazmat_mlkem768_decaps(dk, c)),
  };
}
