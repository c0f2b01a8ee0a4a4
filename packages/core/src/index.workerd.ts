/**
 * @nen/core for Cloudflare Workers (`workerd` condition): ./public.ts plus `loadBackend` with Wasm from the `.wasm` module.
 * Pitfall: the bundler must ship `wasm/nen_core_bg.wasm` as a Wasm module (wrangler's default
 * `*.wasm` rule does; docs/runtimes.md), else 'auto' falls back to @noble with one warning.
 */
export { loadBackend } from './backend/index.workerd.js';
export type { BackendKind } from './backend/index.workerd.js';
export * from './public.js';
export * from './ohttp/index.js';
