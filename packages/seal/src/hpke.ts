/**
 * HPKE (RFC 9180) base-mode single-shot SealBase / OpenBase with the X-Wing KEM (MLKEM768-X25519,
 * HPKE KEM 0x647a, draft-ietf-hpke-pq / draft-connolly-cfrg-xwing-kem), HKDF-SHA256 (0x0001) and
 * ChaCha20-Poly1305 (0x0003): exactly what the age `mlkem768x25519` stanza uses.
 *
 * Why here and not in @nen/core: the core Backend exposes HPKE through the secret-export
 * interface only (RFC 9180 §5.3); age needs the AEAD context (key, base_nonce, seq 0). The key
 * schedule runs on the Backend's HKDF and AEAD; the KEM is built from ML-KEM-768 (./mlkem.ts:
 * node:crypto where OpenSSL ≥ 3.5 has it, else @noble/post-quantum) and X25519 (./x25519.ts),
 * like @nen/core's @noble backend (a test checks both give the same public key for a seed).
 *
 * Pitfalls:
 *  - An all-zero X25519 shared secret (low-order share) is rejected: age requires it
 *    (CCTV hybrid_low_order / hybrid_identity), even though X-Wing itself does not check.
 *  - ML-KEM decapsulation never fails (implicit rejection); a wrong enc shows up as an AEAD
 *    failure of the body, which age treats as "not for this identity".
 *  - The expanded key (ML-KEM dk, X25519 scalar) is computed once per identity and kept.
 */
import type { Backend } from '@nen/core';
import { concatBytes, u16, utf8 } from './bytes.js';
import { MLKEM } from './mlkem.js';
import { LowOrderError, X25519 } from './x25519.js';

export { LowOrderError };
import { shake256 } from '@noble/hashes/sha3.js';

export const XWING_KEM_ID = 0x647a;
export const XWING_SEED_LENGTH = 32;
export const XWING_PUBLIC_KEY_LENGTH = 1216;
export const XWING_ENC_LENGTH = 1120;
const MLKEM_EK = 1184;
const MLKEM_CT = 1088;
const XWING_LABEL = utf8('\\.//^\\');
const HPKE_V1 = utf8('HPKE-v1');
const SUITE_ID = concatBytes(utf8('HPKE'), u16(XWING_KEM_ID), u16(0x0001), u16(0x0003));
const EMPTY = new Uint8Array(0);

export interface XWingKey {
  readonly publicKey: Uint8Array;
  /** ML-KEM-768 Decaps with the expanded key prepared once. */
  readonly decapM: (ct: Uint8Array) => Uint8Array;
  /** X25519(skX, ·), with the scalar prepared once. */
  readonly dhX: (publicKey: Uint8Array) => Uint8Array;
  readonly pkX: Uint8Array;
}

/** Expands a 32-byte X-Wing seed: SHAKE256(seed, 96) → ML-KEM d||z (64) and the X25519 scalar. */
export function expandXWing(seed: Uint8Array): XWingKey {
  const expanded = shake256(seed, { dkLen: 96 });
  const { publicKey: ekM, decapsulate: decapM } = MLKEM.fromSeed(expanded.subarray(0, 64));
  const skX = expanded.slice(64, 96);
  expanded.fill(0);
  const pkX = X25519.publicKey(skX);
  const dhX = X25519.bind(skX);
  skX.fill(0);
  return { publicKey: concatBytes(ekM, pkX), decapM, dhX, pkX };
}

function combine(ssM: Uint8Array, ssX: Uint8Array, ctX: Uint8Array, pkX: Uint8Array): Uint8Array {
  return MLKEM.sha3_256(ssM, ssX, ctX, pkX, XWING_LABEL);
}

/** X-Wing Encaps(pk): throws on an invalid ML-KEM encapsulation key (FIPS 203 §7.2). */
function encap(publicKey: Uint8Array): { ss: Uint8Array; enc: Uint8Array } {
  const ekM = publicKey.subarray(0, MLKEM_EK);
  const pkX = publicKey.subarray(MLKEM_EK);
  const m = MLKEM.encapsulate(ekM);
  const { share: ctX, shared: ssX } = X25519.ephemeral(pkX);
  const ss = combine(m.sharedSecret, ssX, ctX, pkX);
  m.sharedSecret.fill(0);
  ssX.fill(0);
  return { ss, enc: concatBytes(m.cipherText, ctX) };
}

function decap(key: XWingKey, enc: Uint8Array): Uint8Array {
  const ctX = enc.subarray(MLKEM_CT);
  const ssM = key.decapM(enc.subarray(0, MLKEM_CT));
  const ssX = key.dhX(ctX);
  const ss = combine(ssM, ssX, ctX, key.pkX);
  ssM.fill(0);
  ssX.fill(0);
  return ss;
}

function labeledExtract(b: Backend, salt: Uint8Array, label: string, ikm: Uint8Array): Uint8Array {
  return b.hkdfExtract(salt, concatBytes(HPKE_V1, SUITE_ID, utf8(label), ikm));
}

function labeledExpand(b: Backend, prk: Uint8Array, label: string, info: Uint8Array, length: number): Uint8Array {
  return b.hkdfExpand(prk, concatBytes(u16(length), HPKE_V1, SUITE_ID, utf8(label), info), length);
}

/** Per info object (callers pass module constants) and backend: the schedule context is constant. */
const contextCache = new WeakMap<Uint8Array, Map<string, Uint8Array>>();

/** RFC 9180 §5.1 key_schedule_context for mode_base, psk = psk_id = "" (cached per info). */
function scheduleContext(b: Backend, info: Uint8Array): Uint8Array {
  let byBackend = contextCache.get(info);
  if (!byBackend) contextCache.set(info, (byBackend = new Map()));
  let ctx = byBackend.get(b.name);
  if (!ctx) {
    const pskIdHash = labeledExtract(b, EMPTY, 'psk_id_hash', EMPTY);
    const infoHash = labeledExtract(b, EMPTY, 'info_hash', info);
    ctx = concatBytes(new Uint8Array([0]), pskIdHash, infoHash);
    byBackend.set(b.name, ctx);
  }
  return ctx;
}

/** KeySchedule then the AEAD with seq = 0 (nonce = base_nonce): seal or open one message. */
function withContext<T>(b: Backend, ss: Uint8Array, info: Uint8Array, f: (aead: ReturnType<Backend['createAead']>, nonce: Uint8Array) => T): T {
  const ctx = scheduleContext(b, info);
  const secret = labeledExtract(b, ss, 'secret', EMPTY);
  const key = labeledExpand(b, secret, 'key', ctx, 32);
  const nonce = labeledExpand(b, secret, 'base_nonce', ctx, 12);
  secret.fill(0);
  const aead = b.createAead(key);
  key.fill(0);
  try {
    return f(aead, nonce);
  } finally {
    aead.dispose();
  }
}

/** SealBase(pkR, info, aad = "", pt): returns enc and the ciphertext. */
export function sealBase(b: Backend, publicKey: Uint8Array, info: Uint8Array, pt: Uint8Array): { enc: Uint8Array; ct: Uint8Array } {
  const { ss, enc } = encap(publicKey);
  try {
    return { enc, ct: withContext(b, ss, info, (aead, nonce) => aead.seal(nonce, EMPTY, pt)) };
  } finally {
    ss.fill(0);
  }
}

/** OpenBase(enc, skR, info, aad = "", ct): the plaintext, or null when the AEAD rejects it. */
export function openBase(b: Backend, key: XWingKey, enc: Uint8Array, info: Uint8Array, ct: Uint8Array): Uint8Array | null {
  const ss = decap(key, enc);
  try {
    return withContext(b, ss, info, (aead, nonce) => {
      try {
        return aead.open(nonce, EMPTY, ct);
      } catch {
        return null;
      }
    });
  } finally {
    ss.fill(0);
  }
}
