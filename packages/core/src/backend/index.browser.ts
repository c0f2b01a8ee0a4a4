/**
 * Backend entry for browsers (`browser` export condition): 'auto' = @noble (pure JS, in the
 * page's JS chunk); 'wasm' on request: the .wasm is then fetched as a bundler asset and compiled
 * asynchronously, its glue in a chunk of its own (dynamic imports), so a page that never asks for
 * it never downloads it.
 *
 * Pitfall: nothing here may import ./wasm-url.js or ./wasm.js statically, or every page pays
 * the Wasm glue (and bundlers may preload the .wasm); bench/browser/size.js fails when it does.
 */
import { createLoadBackend } from './load.js';

export * from './types.js';
export type { BackendKind } from './load.js';

export const loadBackend = createLoadBackend({
  auto: 'noble',
  wasm: async () => {
    const [{ loadWasmGlue }, { createWasmBackend }] = await Promise.all([import('./wasm-url.js'), import('./wasm.js')]);
    return createWasmBackend(await loadWasmGlue());
  },
});
