/**
 * Backend entry for Edge runtimes (`edge-light` and `worker` export conditions, through
 * ../index.edge.ts): Wasm initialised synchronously from embedded bytes; no node:crypto ('auto' =
 * wasm, 'node' is unsupported).
 *
 * Pitfalls:
 *  - Workers (workerd) refuse to compile Wasm from bytes at run time: they resolve `workerd`
 *    (./index.workerd.ts) before `worker`; this entry must not be forced on them.
 *  - The Wasm glue is imported dynamically, on the first loadBackend or OHTTP KEM use: the
 *    embedded .wasm bytes are decoded then, not when this module is evaluated.
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
