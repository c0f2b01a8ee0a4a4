/**
 * Backend entry point for Node.js (the package's `default` export condition): Wasm initialised
 * synchronously from embedded bytes, plus the node:crypto fast path.
 */
import { createLoadBackend } from './load.js';

export * from './types.js';
export type { BackendKind } from './load.js';

/** Loads (once per kind) the crypto backend: 'auto' = node:crypto + Wasm, else @noble. */
export const loadBackend = createLoadBackend({
  wasm: async () => {
    throw new Error('wasm backend not built yet');
  },
});
