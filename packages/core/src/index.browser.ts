/** @nen/core for browsers (`browser` condition): ./public.ts plus the browser `loadBackend` (the `.wasm` asset). */
export { loadBackend } from './backend/index.browser.js';
export type { BackendKind } from './backend/index.browser.js';
export * from './public.js';
