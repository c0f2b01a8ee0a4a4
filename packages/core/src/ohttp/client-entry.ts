/**
 * `@nen/core/ohttp/client`: what an OHTTP client (the browser's `@nen/client/ohttp` page) runs,
 * without the gateway or the @noble fallbacks in its static import graph: media types, key
 * config parsing (./key-config-codec.ts), Binary HTTP (./bhttp.ts), the request's encapsulation
 * on WebCrypto (./sender-async.ts) and the Wasm KEM's readiness. ./hpke.ts (@noble AES-GCM,
 * ChaCha20-Poly1305, ML-KEM, X25519, HKDF) and ./chunked.ts come with ./fallback.ts, imported
 * dynamically only where WebCrypto lacks an algorithm or a streamed (chunked) answer is asked
 * for: on a cold Chromium page their import-time tables (AES T-tables, ML-KEM zetas, GHASH) cost
 * ~30 ms of script evaluation at 4x CPU that a WebCrypto page never uses (issue 23: the OHTTP
 * entry page 41.0 -> 29.6 KB gzip, 108.3 -> 75.1 KB raw; bench/README.md "Browser").
 *
 * Pitfalls:
 *  - Nothing here may import ./hpke.ts, ./encapsulation.ts, ./chunked.ts or ./key-config.ts
 *    statically (bench/browser/size.js prints the OHTTP page's initial inputs).
 *  - Same functions as `@nen/core/ohttp` (re-exported, not copies), except that
 *    encapsulateChunkedRequestAsync resolves after ./fallback.ts's one dynamic import (shared with
 *    ./sender-async.ts: one promise per page, not an import() per streamed request).
 */
import type { ChunkedClientEncapsulation } from './chunked.js';
import type { OhttpKeyConfig, SymmetricSuite } from './key-config-codec.js';
import { loadFallback } from './sender-async.js';

export { OHTTP_AEAD, OHTTP_KDF, OHTTP_KEM, OHTTP_KEM_INFO } from './suites.js';
export type { OhttpKemId } from './suites.js';
export { encodeKeyConfig, parseKeyConfig, encodeKeyConfigs, parseKeyConfigs } from './key-config-codec.js';
export type { OhttpKeyConfig, SymmetricSuite } from './key-config-codec.js';
export { encodeBhttpRequest, decodeBhttpResponse } from './bhttp.js';
export type { FieldLine, BhttpRequest, BhttpResponse, BhttpLimits } from './bhttp.js';
export { OHTTP_MEDIA } from './request-header.js';
export { encapsulateRequestAsync } from './sender-async.js';
export type { AsyncClientEncapsulation } from './sender-async.js';
export { ohttpKemReady } from './kem-wasm.js';
export type { ChunkedClientEncapsulation } from './chunked.js';

/** ./chunked.ts encapsulateChunkedRequestAsync, imported on the first streamed request. */
export async function encapsulateChunkedRequestAsync(
  config: OhttpKeyConfig,
  opts: { readonly suite?: SymmetricSuite } = {},
): Promise<ChunkedClientEncapsulation> {
  const { encapsulateChunkedRequestAsync: chunked } = await loadFallback();
  return chunked(config, opts);
}
