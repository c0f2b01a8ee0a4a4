/**
 * Wasm initialisation for servers (Node.js route handlers under Turbopack and webpack, Edge
 * routes, vitest, plain Node): synchronous `initSync` from the .wasm bytes embedded (base64) in a
 * JS module, so no file system, fetch or bundler asset handling is needed (CONVENTIONS.md
 * "Wasm packaging": `--target nodejs` and `fetch(file://)` fail under `next build`).
 */
import * as glue from '../../wasm/nen_core.js';
import { wasmBytes } from '../../wasm/nen_core_bytes.js';
import type { WasmGlue } from './wasm.js';

let ready = false;

/** Initialises the Wasm once (synchronously) and returns the glue module. */
export function loadWasmGlue(): WasmGlue {
  if (!ready) {
    glue.initSync({ module: wasmBytes });
    ready = true;
  }
  return glue;
}
