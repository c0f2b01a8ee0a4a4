/**
 * Backend entry for Cloudflare Workers (`workerd` export condition): Wasm from the `.wasm` module
 * (./wasm-module.ts; workerd cannot compile embedded bytes); no node:crypto ('auto' = wasm, @noble
 * if the module cannot be instantiated).
 */
import { createLoadBackend } from './load.js';

export * from './types.js';
export type { BackendKind } from './load.js';

export const loadBackend = createLoadBackend({
  wasm: async () => (await import('./wasm-module.js')).loadModuleWasmBackend(),
});
