/**
 * @nen/core for Edge runtimes (`edge-light` / `worker` conditions): ./public.ts plus `loadBackend` with Wasm from embedded bytes.
 * Pitfall: workerd refuses to compile Wasm from bytes at run time; Workers resolve the `workerd`
 * condition (./index.workerd.ts) first, so this entry must not be forced on them.
 */
export { loadBackend } from './backend/index.edge.js';
export type { BackendKind } from './backend/index.edge.js';
export * from './public.js';
export * from './ohttp/index.js';
