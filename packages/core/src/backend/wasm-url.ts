/**
 * Wasm initialisation for browsers: the bundler (Turbopack, webpack, Vite) sees
 * `new URL('…/nen_core_bg.wasm', import.meta.url)`, emits the .wasm as a static asset and rewrites
 * the URL; `init` then streams it with WebAssembly.instantiateStreaming. Fails (and 'auto' falls
 * back to @noble) under a CSP without 'wasm-unsafe-eval'.
 *
 * Pitfalls:
 *  - The `new URL('../../wasm/nen_core_bg.wasm', import.meta.url)` expression must stay literal
 *    and in this module: bundlers recognise only that form to emit the asset.
 *  - A failed load is not cached (the next call fetches again), so a transient network error
 *    can be retried.
 */
import init, * as glue from '../../wasm/nen_core.js';
import type { WasmGlue } from './wasm.js';

let ready: Promise<WasmGlue> | undefined;

export function loadWasmGlue(): Promise<WasmGlue> {
  ready ??= init({ module_or_path: new URL('../../wasm/nen_core_bg.wasm', import.meta.url) }).then(
    () => glue,
    (e: unknown) => {
      ready = undefined;
      throw e;
    },
  );
  return ready;
}
