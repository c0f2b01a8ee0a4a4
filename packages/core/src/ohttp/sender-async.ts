/**
 * OHTTP's client-side SetupBaseS (RFC 9180 §5.1.1) with the KEM on the platform's WebCrypto where
 * it has ML-KEM-768 and X25519 (browsers: ../backend/webcrypto-kem.ts, detected once with the same
 * probe as the session handshake), native code instead of @noble's cold JS on a page's first
 * request (bench/README.md "Browser": ~90 ms at 4x CPU). X-Wing (draft-connolly-cfrg-xwing-kem):
 * ML-KEM-768 encapsulateBits + an X25519 ephemeral, the combiner and the key schedule in ./hpke.ts.
 *
 * Pitfalls:
 *  - Where the Wasm core is loaded (Node.js, Edge, Workers) or WebCrypto lacks the KEMs (Node 20,
 *    older browsers), and for DHKEM(X25519), this is ./hpke.ts setupBaseS: same bytes, same errors.
 *  - Encapsulation randomness is WebCrypto's own: derandomized vectors keep the sync path; the
 *    WebCrypto path is checked by the gateway opening what it sealed (sender-async.test.ts).
 *  - A bad key keeps the codes of every path: the ML-KEM modulus check on import and an X25519
 *    low-order share are NEN_CRYPTO_KEY, a wrong length NEN_CRYPTO_LENGTH. The shared secret is
 *    wiped once the context holds its key schedule.
 */
import { type WebCryptoKem, detectWebCryptoKem } from '../backend/webcrypto-kem.js';
import { wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import { wipe } from '../backend/util.js';
import { NenCryptoError } from '../errors.js';
import { HpkeContext, OHTTP_KEM, OHTTP_KEM_INFO, type OhttpKemId, setupBaseS } from './hpke.js';

let detected: Promise<WebCryptoKem | undefined> | undefined;

/** The WebCrypto KEMs of this platform (one probe per process / page), or undefined. */
export function ohttpWebCryptoKem(): Promise<WebCryptoKem | undefined> {
  detected ??= detectWebCryptoKem();
  return detected;
}

/**
 * SetupBaseS(pkR, info): on WebCrypto when the Wasm core is not loaded and the platform has the
 * KEMs, else ./hpke.ts setupBaseS. `webCrypto` is for tests (a given detection).
 */
export async function setupBaseSAsync(
  kem: OhttpKemId,
  aeadId: number,
  pkR: Uint8Array,
  info: Uint8Array,
  webCrypto: () => Promise<WebCryptoKem | undefined> = ohttpWebCryptoKem,
): Promise<{ enc: Uint8Array; ctx: HpkeContext }> {
  if (kem !== OHTTP_KEM.X25519 && !wasmGlueIfLoaded()) {
    if (pkR.length !== OHTTP_KEM_INFO[kem].publicKey) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: public key has the wrong length');
    const wc = await webCrypto();
    if (wc) {
      const { enc, sharedSecret } = await wc.encapsulate(kem, pkR);
      const ss = sharedSecret();
      try {
        return { enc, ctx: new HpkeContext(kem, aeadId, ss, info) };
      } finally {
        wipe(ss);
      }
    }
  }
  return setupBaseS(kem, aeadId, pkR, info);
}
