/**
 * Backend entry for Node.js (the package's `default` export condition): Wasm initialised
 * synchronously from embedded bytes, plus the node:crypto fast path ('auto' = node).
 *
 * Pitfalls:
 *  - 'auto' still needs the Wasm: the node backend is built on the Wasm one (ML-KEM-768, X-Wing's
 *    ML-KEM half, HPKE, small messages) and takes from node:crypto only the AEAD, the hashes and
 *    X-Wing's X25519 half (./node.ts); if the Wasm cannot load, 'auto' falls back to @noble.
 *  - Both are imported dynamically on the first loadBackend: importing @nen/core decodes no Wasm;
 *    the first call pays for it.
 */
import { createLoadBackend } from './load.js';
import { setWasmGlueLoader } from './wasm-loaded.js';

export * from './types.js';
export type { BackendKind } from './load.js';

/** Loads (once per kind) a crypto backend. 'auto' = node:crypto + Wasm, `@noble` if Wasm fails. */
export const loadBackend = createLoadBackend({
  wasm: async () => (await import('./wasm-embedded.js')).loadEmbeddedWasmBackend(),
  node: async (wasm) => (await import('./node.js')).createNodeBackend(wasm),
});

/** The OHTTP HPKE's Wasm KEM (./wasm-loaded.ts): the same glue, loaded on first use. */
setWasmGlueLoader(async () => (await import('./wasm-embedded.js')).loadWasmGlue());
