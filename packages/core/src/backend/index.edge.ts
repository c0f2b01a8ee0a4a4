/**
 * Backend entry for Edge runtimes (`edge-light`, `workerd` export conditions): Wasm initialised
 * synchronously from embedded bytes; no node:crypto ('auto' = wasm, 'node' is unsupported).
 */
import { createLoadBackend } from './load.js';

export * from './types.js';
export type { BackendKind } from './load.js';

export const loadBackend = createLoadBackend({
  wasm: async () => (await import('./wasm-embedded.js')).loadEmbeddedWasmBackend(),
});
