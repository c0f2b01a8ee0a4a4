/**
 * Wasm initialisation for servers (Node.js route handlers under Turbopack and webpack, Edge
 * routes, vitest, plain Node): synchronous `initSync` from the .wasm bytes embedded (base64) in a
 * JS module, so no file system, fetch or bundler asset handling is needed (CONVENTIONS.md
 * "Wasm packaging": `--target nodejs` and `fetch(file://)` fail under `next build`).
 *
 * Pitfalls:
 *  - The bytes module is a base64 string a third larger than the .wasm, decoded when it is first
 *    imported: only the server entries reach this module, and only through a dynamic import
 *    (./index.ts, ./index.edge.ts), so a browser bundle never carries it.
 *  - One instance per module graph: `initSync` runs once; memory freed by the backend's objects is
 *    reused, never returned (wasmMemoryByteLength is for the leak tests).
 */
import * as glue from '../../wasm/nen_core.js';
import { wasmBytes } from '../../wasm/nen_core_bytes.js';
import type { Backend } from './types.js';
import { createWasmBackend, type WasmGlue } from './wasm.js';

let instance: glue.InitOutput | undefined;

/** Initialises the Wasm once (synchronously) and returns the glue module. */
export function loadWasmGlue(): WasmGlue {
  instance ??= glue.initSync({ module: wasmBytes });
  return glue;
}

/** The Wasm backend on the embedded bytes: the 'wasm' loader of the Node and Edge entries. */
export function loadEmbeddedWasmBackend(): Backend {
  return createWasmBackend(loadWasmGlue());
}

/** The Wasm linear memory size in bytes (tests: proves disposed objects are freed). */
export function wasmMemoryByteLength(): number {
  loadWasmGlue();
  return (instance as glue.InitOutput).memory.buffer.byteLength;
}
