/**
 * The Wasm glue for synchronous callers that cannot await a backend (the OHTTP HPKE in
 * ../ohttp/hpke.ts): the first glue a Wasm backend was created on (./wasm.ts records it), or the
 * one a runtime entry's loader brings in the background (./index.ts, ./index.edge.ts,
 * ./index.workerd.ts register theirs; the browser entry registers none, so browser pages never
 * fetch the .wasm for OHTTP and keep @noble).
 *
 * Pitfalls:
 *  - `wasmGlueIfLoaded()` never loads: until a backend or the background load has finished,
 *    callers take their pure-JS path (same bytes, slower). `loadWasmGlueInBackground()` starts
 *    the load once; a failed load is remembered (no retry storm) and leaves callers on @noble.
 *  - This module imports only types: importing it never pulls the glue or the .wasm into a chunk.
 */
import type * as Glue from '../../wasm/nen_core.js';

type WasmGlue = typeof Glue;

let glue: WasmGlue | undefined;
let loader: (() => Promise<WasmGlue>) | undefined;
let started: Promise<WasmGlue | undefined> | undefined;

/** Records an initialised glue (the first one wins: one Wasm instance per process). */
export function setLoadedWasmGlue(g: WasmGlue): void {
  glue ??= g;
}

/** The initialised glue, if a backend or the background load has brought it. */
export function wasmGlueIfLoaded(): WasmGlue | undefined {
  return glue;
}

/** How this runtime loads the glue (registered by the runtime's backend entry). */
export function setWasmGlueLoader(load: () => Promise<WasmGlue>): void {
  loader ??= load;
}

/** Starts loading the glue once (no-op without a registered loader); resolves undefined on failure. */
export function loadWasmGlueInBackground(): Promise<WasmGlue | undefined> {
  if (glue) return Promise.resolve(glue);
  if (!loader) return Promise.resolve(undefined);
  started ??= loader().then(
    (g) => {
      setLoadedWasmGlue(g);
      return glue;
    },
    () => undefined,
  );
  return started;
}
