/**
 * Backend entry for browsers (`browser` export condition): 'auto' = @noble (pure JS, in the
 * page's JS chunk); 'wasm' on request: the .wasm is then fetched as a bundler asset and compiled
 * asynchronously, its glue in a chunk of its own (dynamic imports), so a page that never asks for
 * it never downloads it.
 *
 * Where WebCrypto has ML-KEM-768 and X25519 (Chromium 156: ./webcrypto-kem.ts), the @noble
 * backend carries them as `asyncKem` for the client handshake.
 *
 * Pitfalls:
 *  - nothing here may import ./wasm-url.js or ./wasm.js statically, or every page pays
 *    the Wasm glue (and bundlers may preload the .wasm); bench/browser/size.js fails when it does.
 */
import { createLoadBackend } from './load.js';
import { createNobleBackend } from './noble.js';
import { detectWebCryptoKem } from './webcrypto-kem.js';

export * from './types.js';
export type { BackendKind } from './load.js';

export const loadBackend = createLoadBackend({
  auto: 'noble',
  // a recipient key's ML-KEM matrix expands in a later task: for the client's ephemeral key, during
  // the handshake's round trip (the ClientHello is sent first; bench/browser/cold-ab.js)
  // with the client handshake's KEMs on WebCrypto where the browser has ML-KEM-768 and X25519
  // (./webcrypto-kem.ts: native code instead of cold JS on a page's first handshake)
  noble: async () => {
    const backend = createNobleBackend({ defer: (task) => void setTimeout(task, 0) });
    const asyncKem = await detectWebCryptoKem();
    return asyncKem ? Object.freeze({ ...backend, asyncKem }) : backend;
  },
  wasm: async () => {
    const [{ loadWasmGlue }, { createWasmBackend }] = await Promise.all([import('./wasm-url.js'), import('./wasm.js')]);
    return createWasmBackend(await loadWasmGlue());
  },
});
