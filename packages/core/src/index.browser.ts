/**
 * @nen/core for browsers (`browser` condition): ./public.ts plus the browser `loadBackend` (the `.wasm` asset).
 * Pitfall: nothing on this entry's static import graph may reach the Wasm glue or @noble's KEMs, or
 * every page pays them (./backend/index.browser.ts; bench/browser/size.js fails on the Wasm).
 */
export { loadBackend } from './backend/index.browser.js';
export type { BackendKind } from './backend/index.browser.js';
export * from './public.js';
