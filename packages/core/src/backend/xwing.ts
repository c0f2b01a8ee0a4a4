/**
 * What the X-Wing KEM (draft-connolly-cfrg-xwing-kem, HPKE KEM 0x647a) shares between its
 * implementations on @noble (./noble-kem.ts) and on WebCrypto (./webcrypto-kem.ts): the ML-KEM-768
 * sizes (FIPS 203), the combiner ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || "\.//^\") (§5.3)
 * and the key error every backend throws.
 *
 * Pitfall: this module must not import ML-KEM or X25519 code: a browser page with WebCrypto's
 * KEMs loads it in its initial chunk, and the @noble KEMs only on request (./index.browser.ts).
 */
import { sha3_256 } from '@noble/hashes/sha3.js';
import { NenCryptoError } from '../errors.js';
import { utf8 } from '../protocol/bytes.js';

export const MLKEM768_EK = 1184;
export const MLKEM768_CT = 1088;
/** The X-Wing combiner label "\.//^\" (draft-connolly-cfrg-xwing-kem §5.3). */
const XWING_LABEL = utf8('\\.//^\\');

export function xwingCombine(ssM: Uint8Array, ssX: Uint8Array, ctX: Uint8Array, pkX: Uint8Array): Uint8Array {
  return sha3_256.create().update(ssM).update(ssX).update(ctX).update(pkX).update(XWING_LABEL).digest();
}

export function keyError(what: string, cause: unknown): NenCryptoError {
  return new NenCryptoError('NEN_CRYPTO_KEY', `nen: invalid ${what}`, { cause });
}
