/**
 * Whether the OHTTP sender runs its KEM on WebCrypto: the platform's WebCrypto KEMs
 * (../backend/webcrypto-kem.ts, one probe per process / page) where the Wasm core is not loaded
 * and the KEM is X-Wing or ML-KEM-768 (DHKEM(X25519) keeps ./hpke.ts). Shared by the WebCrypto
 * path (./sender-async.ts) and the fallback's SetupBaseS (./setup-async.ts).
 *
 * Pitfall: pkR's length is checked first (NEN_CRYPTO_LENGTH), as on every other path.
 */
import { type WebCryptoKem, detectWebCryptoKem } from '../backend/webcrypto-kem.js';
import { wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import { NenCryptoError } from '../errors.js';
import { OHTTP_KEM, OHTTP_KEM_INFO, type OhttpKemId } from './suites.js';

let detected: Promise<WebCryptoKem | undefined> | undefined;

/** The WebCrypto KEMs of this platform (one probe per process / page), or undefined. */
export function ohttpWebCryptoKem(): Promise<WebCryptoKem | undefined> {
  detected ??= detectWebCryptoKem();
  return detected;
}

/**
 * Whether `kem` may run on WebCrypto here: not DHKEM(X25519), and no Wasm core loaded (Node.js,
 * Edge, Workers take ./hpke.ts). Synchronous, so callers skip every WebCrypto probe where it is
 * false (on Node 24 the ChaCha20-Poly1305 probe printed an ExperimentalWarning per process).
 */
export function kemOnWebCrypto(kem: OhttpKemId): boolean {
  return kem !== OHTTP_KEM.X25519 && !wasmGlueIfLoaded();
}

/** The WebCrypto KEMs when they are to be used for `kem` (checks pkR's length first), else undefined. */
export async function nativeKem(kem: OhttpKemId, pkR: Uint8Array, webCrypto: () => Promise<WebCryptoKem | undefined>): Promise<WebCryptoKem | undefined> {
  if (!kemOnWebCrypto(kem)) return undefined;
  if (pkR.length !== OHTTP_KEM_INFO[kem].publicKey) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: public key has the wrong length');
  return webCrypto();
}
