/**
 * The KEMs of the @noble backend (./noble.ts), on @noble/post-quantum and @noble/curves:
 *  - ML-KEM-768 (FIPS 203) as HPKE KEM 0x0041: private key = the seed d || z;
 *  - X-Wing / MLKEM768-X25519 (draft-connolly-cfrg-xwing-kem, HPKE KEM 0x647a): seed expanded
 *    with SHAKE256(seed, 96) into the ML-KEM seed and the X25519 scalar; enc = ct_M || ct_X;
 *    ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || "\.//^\").
 *
 * Pitfalls:
 *  - Decapsulation never fails on a wrong ML-KEM ciphertext (implicit rejection, FIPS 203 §6.3).
 *  - The encapsulation key is checked (FIPS 203 §7.2 modulus check) before use: NEN_CRYPTO_KEY;
 *    a prepared key (`ml_kem768.prepare`) was checked when it was prepared.
 *  - X25519 low-order points are rejected by noble (all-zero shared secret): NEN_CRYPTO_KEY.
 *  - X25519 is ./x25519-noble.ts: noble's Montgomery ladder without ed25519's fixed-base Edwards
 *    path, whose precomputed table cost 20-170 ms at 1x CPU on a cold page (the browser's first
 *    handshake) and whose point code ~6.7 KB gzip of the page's bundle. Public keys are
 *    X25519(sk, 9) through the ladder (RFC 7748 §6.1); same bytes (RFC 7748 vectors, cross-tested
 *    against @noble/curves' x25519 and the Wasm; the X-Wing / HPKE vectors run on every backend).
 *  - The sizes and the X-Wing combiner are ./xwing.ts (shared with ./webcrypto-kem.ts, which a
 *    browser page loads without this module's ML-KEM / X25519 code).
 */
import { x25519 } from './x25519-noble.js';
import { shake256 } from '@noble/hashes/sha3.js';
import { ml_kem768, type KEMPrepared } from '@noble/post-quantum/ml-kem.js';
import { concatBytes as concat } from '../protocol/bytes.js';
import { KEM_ID, type KemId } from './types.js';
import { assertKem, assertLength, kemSizes, wipe } from './util.js';
import { MLKEM768_CT, MLKEM768_EK, keyError, xwingCombine } from './xwing.js';

export { MLKEM768_CT, MLKEM768_EK, keyError, xwingCombine };

/** A KEM key expanded from its seed once, kept for repeated decapsulation. */
export interface ExpandedKey {
  publicKey: Uint8Array;
  /** ML-KEM-768 decapsulation key (2400 bytes, FIPS 203 dk). */
  dkM: Uint8Array;
  /** X-Wing only: the X25519 scalar and public key. */
  skX?: Uint8Array;
  pkX?: Uint8Array;
}

export function expandKey(kem: KemId, privateKey: Uint8Array): ExpandedKey {
  if (kem === KEM_ID.MLKEM768) {
    const { publicKey, secretKey } = ml_kem768.keygen(privateKey);
    return { publicKey, dkM: secretKey };
  }
  const expanded = shake256(privateKey, { dkLen: 96 });
  try {
    const { publicKey: ekM, secretKey: dkM } = ml_kem768.keygen(expanded.subarray(0, 64));
    const skX = expanded.slice(64, 96);
    const pkX = x25519.getPublicKey(skX);
    return { publicKey: concat(ekM, pkX), dkM, skX, pkX };
  } finally {
    wipe(expanded);
  }
}

/**
 * Encap(pkR) of the KEM, with caller-given randomness: ML-KEM m (32 bytes); X-Wing m || eskX (64).
 * Exposed to tests (hazmat, derandomized HPKE vectors); production callers pass fresh randomness.
 */
export function encapDerand(kem: KemId, publicKey: Uint8Array, randomness: Uint8Array, prepared?: KEMPrepared): { sharedSecret: Uint8Array; enc: Uint8Array } {
  assertKem(kem);
  assertLength(publicKey, kemSizes(kem).publicKey, 'public key');
  const encapM = (ek: Uint8Array, m: Uint8Array) => (prepared ? prepared.encapsulate(m) : ml_kem768.encapsulate(ek, m));
  if (kem === KEM_ID.MLKEM768) {
    assertLength(randomness, 32, 'encapsulation randomness');
    let r: { cipherText: Uint8Array; sharedSecret: Uint8Array };
    try {
      r = encapM(publicKey, randomness);
    } catch (e) {
      throw keyError('ML-KEM-768 encapsulation key', e);
    }
    return { sharedSecret: r.sharedSecret, enc: r.cipherText };
  }
  assertLength(randomness, 64, 'encapsulation randomness');
  const ekM = publicKey.subarray(0, MLKEM768_EK);
  const pkX = publicKey.subarray(MLKEM768_EK);
  const eskX = randomness.subarray(32, 64);
  let m: { cipherText: Uint8Array; sharedSecret: Uint8Array };
  let ssX: Uint8Array;
  try {
    m = encapM(ekM, randomness.subarray(0, 32));
  } catch (e) {
    throw keyError('ML-KEM-768 encapsulation key', e);
  }
  try {
    ssX = x25519.getSharedSecret(eskX, pkX);
  } catch (e) {
    wipe(m.sharedSecret);
    throw keyError('X25519 public key', e);
  }
  const ctX = x25519.getPublicKey(eskX);
  try {
    return { sharedSecret: xwingCombine(m.sharedSecret, ssX, ctX, pkX), enc: concat(m.cipherText, ctX) };
  } finally {
    wipe(m.sharedSecret, ssX);
  }
}

export function decap(kem: KemId, key: ExpandedKey, prepared: KEMPrepared | undefined, enc: Uint8Array): Uint8Array {
  if (kem === KEM_ID.MLKEM768) {
    return prepared ? prepared.decapsulate(enc, key.dkM) : ml_kem768.decapsulate(enc, key.dkM);
  }
  const ctM = enc.subarray(0, MLKEM768_CT);
  const ctX = enc.subarray(MLKEM768_CT);
  const ssM = prepared ? prepared.decapsulate(ctM, key.dkM) : ml_kem768.decapsulate(ctM, key.dkM);
  let ssX: Uint8Array;
  try {
    ssX = x25519.getSharedSecret(key.skX as Uint8Array, ctX);
  } catch (e) {
    wipe(ssM);
    throw keyError('X25519 share in enc', e);
  }
  try {
    return xwingCombine(ssM, ssX, ctX, key.pkX as Uint8Array);
  } finally {
    wipe(ssM, ssX);
  }
}
