/**
 * The age `mlkem768x25519` stanza's HPKE (RFC 9180) suite: X-Wing (MLKEM768-X25519, HPKE KEM
 * 0x647a, draft-ietf-hpke-pq), HKDF-SHA256 (0x0001), ChaCha20-Poly1305 (0x0003), base mode,
 * single-shot SealBase / OpenBase with aad = "" — exactly @nen/core's Backend.sealBase /
 * HpkeRecipientKey.openBase (Wasm, node:crypto + Wasm, or @noble), so nothing of HPKE is
 * re-implemented here.
 *
 * Pitfalls:
 *  - An all-zero X25519 shared secret (low-order share) must be refused (age: CCTV
 *    hybrid_low_order / hybrid_identity): every backend reports it as NEN_CRYPTO_KEY.
 *  - ML-KEM decapsulation never fails (implicit rejection): a wrong enc is an AEAD failure
 *    (NEN_CRYPTO_AEAD), which age treats as "not for this identity".
 *  - Recipient keys hold the expanded X-Wing key in the backend (Wasm memory): one per identity
 *    and backend, created on first use and disposed with the identity.
 */
import { KEM_ID, NenCryptoError, type Backend, type HpkeRecipientKey, type HpkeSealed } from '@nen/core';
import { LowOrderError } from './x25519.js';

export { LowOrderError };

export const XWING_KEM_ID = KEM_ID.XWING;
export const XWING_SEED_LENGTH = 32;
export const XWING_PUBLIC_KEY_LENGTH = 1216;
export const XWING_ENC_LENGTH = 1120;
const EMPTY = new Uint8Array(0);

/** SealBase(pkR, info, aad = "", pt) (RFC 9180 §6.1). */
export function sealXWing(b: Backend, publicKey: Uint8Array, info: Uint8Array, pt: Uint8Array): HpkeSealed {
  return b.sealBase(KEM_ID.XWING, publicKey, info, EMPTY, pt);
}

/** OpenBase(enc, skR, info, aad = "", ct): the plaintext, or null when the AEAD rejects it; LowOrderError on an all-zero X25519 secret. */
export function openXWing(key: HpkeRecipientKey, enc: Uint8Array, info: Uint8Array, ct: Uint8Array): Uint8Array | null {
  try {
    return key.openBase(enc, info, EMPTY, ct);
  } catch (e) {
    if (e instanceof NenCryptoError && e.code === 'NEN_CRYPTO_AEAD') return null;
    if (e instanceof NenCryptoError && e.code === 'NEN_CRYPTO_KEY') throw new LowOrderError('X25519 all-zero shared secret');
    throw e;
  }
}
