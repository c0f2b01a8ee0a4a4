/**
 * Wasm initialisation for Cloudflare Workers (`workerd` export condition): workerd forbids
 * compiling WebAssembly from bytes at run time ("Wasm code generation disallowed by embedder"),
 * so the `.wasm` file is imported as a module, which Workers compile at deploy time (wrangler's
 * default rule for `*.wasm`: CompiledWasm); `initSync` then instantiates the WebAssembly.Module.
 *
 * Pitfall: a bundler that targets `workerd` must treat `*.wasm` imports as Wasm modules
 * (wrangler does by default; plain esbuild needs them marked external and listed as Wasm modules
 * in the workerd config, as packages/server/test/workers/harness.ts does).
 */
import * as glue from '../../wasm/nen_core.js';
import wasmModule from '../../wasm/nen_core_bg.wasm';
import type { Backend } from './types.js';
import { createWasmBackend, type WasmGlue } from './wasm.js';

let ready = false;

export function loadWasmGlue(): WasmGlue {
  if (!ready) {
    glue.initSync({ module: wasmModule });
    ready = true;
  }
  return glue;
}

/** The Wasm backend on the precompiled module: the 'wasm' loader of the workerd entry. */
export function loadModuleWasmBackend(): Backend {
  return createWasmBackend(loadWasmGlue());
}
