/** @nen/core for Edge runtimes (`edge-light` / `worker` conditions): ./public.ts plus `loadBackend` with Wasm from embedded bytes. */
export { loadBackend } from './backend/index.edge.js';
export type { BackendKind } from './backend/index.edge.js';
export * from './public.js';
export * from './ohttp/index.js';
