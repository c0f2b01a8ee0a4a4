/**
 * Backend entry for Cloudflare Workers (`workerd` export condition): Wasm from the `.wasm` module
 * (./wasm-module.ts; workerd cannot compile embedded bytes); no node:crypto ('auto' = wasm, @noble
 * if the module cannot be instantiated).
 *
 * Pitfalls:
 *  - The `.wasm` is a module import that wrangler / workerd bundle as a WebAssembly.Module; a
 *    bundler that inlines it as bytes breaks the entry (workerd will not compile bytes).
 *  - The glue is imported dynamically, on the first loadBackend or OHTTP KEM use.
 */
import { createLoadBackend } from './load.js';
import { setWasmGlueLoader } from './wasm-loaded.js';

export * from './types.js';
export type { BackendKind } from './load.js';

export const loadBackend = createLoadBackend({
  wasm: async () => (await import('./wasm-module.js')).loadModuleWasmBackend(),
});

/** The OHTTP HPKE's Wasm KEM (./wasm-loaded.ts): the same glue, loaded on first use. */
setWasmGlueLoader(async () => (await import('./wasm-module.js')).loadWasmGlue());
