/**
 * Backend entry for browsers (`browser` export condition): the .wasm is fetched as a bundler
 * asset and compiled asynchronously ('auto' = wasm, @noble if Wasm is blocked, e.g. by CSP).
 */
import { createLoadBackend } from './load.js';

export * from './types.js';
export type { BackendKind } from './load.js';

export const loadBackend = createLoadBackend({
  wasm: async () => {
    const [{ loadWasmGlue }, { createWasmBackend }] = await Promise.all([import('./wasm-url.js'), import('./wasm.js')]);
    return createWasmBackend(await loadWasmGlue());
  },
});
