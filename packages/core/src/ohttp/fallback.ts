/**
 * The OHTTP client's fallback path in one module, for the dynamic imports of ./sender-async.ts
 * and ./client-entry.ts: SetupBaseS onto ./hpke.ts's context (./setup-async.ts: @noble AES-GCM,
 * ChaCha20-Poly1305, ML-KEM, X25519, HKDF, or the Wasm core where loaded), ./encapsulation.ts's
 * request sealing and ./chunked.ts's streamed requests. Taken only where WebCrypto lacks the KEMs
 * or the suite's AEAD (Firefox, Safari, Node 20), where the Wasm core is loaded, or for a stream.
 *
 * Pitfalls:
 *  - One dynamic entry, not one per module: esbuild puts the modules a page shares with its lazy
 *    entries in one chunk per combination of entries; with hpke / encapsulation / chunked as three
 *    entries the OHTTP page had 10 initial files (a second wave of requests on HTTP/1.1's six
 *    connections, +30-50 ms in cold-ab.js's "script"), with this one 7 (size.js).
 *  - Nothing imported from here may import ./sender-async.ts (an import cycle through the dynamic
 *    import): the shared detection is ./native-kem.ts.
 */
export { setupBaseSAsync } from './setup-async.js';
export { setupBaseS } from './hpke.js'; // ./sender-async.ts's synchronous path, where no WebCrypto step applies
export { sealRequest } from './encapsulation.js';
export { encapsulateChunkedRequestAsync } from './chunked.js';
