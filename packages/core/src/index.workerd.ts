/** @nen/core for Cloudflare Workers (`workerd` condition): ./public.ts plus `loadBackend` with Wasm from the `.wasm` module. */
export { loadBackend } from './backend/index.workerd.js';
export type { BackendKind } from './backend/index.workerd.js';
export * from './public.js';
export * from './ohttp/index.js';
