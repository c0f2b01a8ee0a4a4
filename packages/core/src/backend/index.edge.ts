/**
 * Backend entry for Edge runtimes (`edge-light`, `workerd` export conditions): Wasm initialised
 * synchronously from embedded bytes; no node:crypto ('auto' = wasm, 'node' is unsupported).
 */
import { createLoadBackend } from './load.js';
import { setWasmGlueLoader } from './wasm-loaded.js';

export * from './types.js';
export type { BackendKind } from './load.js';

export const loadBackend = createLoadBackend({
  wasm: async () => (await import('./wasm-embedded.js')).loadEmbeddedWasmBackend(),
});

/** The OHTTP HPKE's Wasm KEM (./wasm-loaded.ts): the same glue, loaded on first use. */
setWasmGlueLoader(async () => (await import('./wasm-embedded.js')).loadWasmGlue());
