/**
 * HPKE (RFC 9180) base mode key schedule and secret export, over any HKDF-SHA256 provider.
 *
 * Implements:
 *  - §4   LabeledExtract / LabeledExpand with the "HPKE-v1" prefix and a suite_id;
 *  - §5.1 KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = ""):
 *         key, base_nonce, exporter_secret;
 *  - §5.3 Export(exporter_context, L) = LabeledExpand(exporter_secret, "sec", exporter_context, L);
 *  - draft-ietf-hpke-pq: the one-stage SHAKE256 LabeledDerive used by DeriveKeyPair of the
 *    ML-KEM and X-Wing KEMs (suite_id = "KEM" || I2OSP(kem_id, 2)).
 *
 * Pitfalls:
 *  - suite_id covers the KEM, KDF and AEAD ids: the same shared secret exports different values
 *    under a different AEAD id, so the export-only use here still binds AEAD 0x0003.
 *  - Export L is at most 255 * Nh (8160 for HKDF-SHA256); LabeledExpand encodes L in 2 bytes.
 *  - Nen uses the export interface only; the HPKE AEAD context (Seal/Open with a sequence
 *    number) is not exposed, the protocol derives its own directional keys from exports.
 */
import { shake256 } from '@noble/hashes/sha3.js';
import { NenCryptoError } from '../errors.js';
import { concatBytes as concat, u16 as i2osp2, utf8 } from '../protocol/bytes.js';
import { wipe, HKDF_SHA256_MAX_OUTPUT } from './util.js';

/** HPKE KDF id of HKDF-SHA256 (RFC 9180 §7.2). */
export const KDF_HKDF_SHA256 = 0x0001;
/** HPKE AEAD id of ChaCha20-Poly1305 (RFC 9180 §7.3). */
export const AEAD_CHACHA20POLY1305 = 0x0003;
/** RFC 9180 §5: mode_base. */
export const MODE_BASE = 0x00;

const HPKE_V1 = utf8('HPKE-v1');

/** The two HKDF halves a backend supplies (RFC 5869 §2.2, §2.3). */
export interface HkdfSha256 {
  extract(salt: Uint8Array, ikm: Uint8Array): Uint8Array;
  expand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array;
}

/** suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2) (RFC 9180 §5.1). */
export function hpkeSuiteId(kemId: number, kdfId = KDF_HKDF_SHA256, aeadId = AEAD_CHACHA20POLY1305): Uint8Array {
  return concat(utf8('HPKE'), i2osp2(kemId), i2osp2(kdfId), i2osp2(aeadId));
}

/** suite_id = "KEM" || I2OSP(kem_id, 2) (RFC 9180 §4.1, used inside the KEM). */
export function kemSuiteId(kemId: number): Uint8Array {
  return concat(utf8('KEM'), i2osp2(kemId));
}

export function labeledExtract(h: HkdfSha256, suiteId: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array): Uint8Array {
  const labeledIkm = concat(HPKE_V1, suiteId, utf8(label), ikm);
  try {
    return h.extract(salt, labeledIkm);
  } finally {
    wipe(labeledIkm);
  }
}

export function labeledExpand(h: HkdfSha256, suiteId: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number): Uint8Array {
  if (!Number.isInteger(length) || length < 0 || length > HKDF_SHA256_MAX_OUTPUT) {
    throw new NenCryptoError('NEN_CRYPTO_LENGTH', `nen: HPKE output length must be in 0..${HKDF_SHA256_MAX_OUTPUT}`);
  }
  const labeledInfo = concat(i2osp2(length), HPKE_V1, suiteId, utf8(label), info);
  return h.expand(prk, labeledInfo, length);
}

/**
 * draft-ietf-hpke-pq LabeledDerive for the one-stage SHAKE256 KDF:
 * SHAKE256(ikm || "HPKE-v1" || suite_id || I2OSP(len(label), 2) || label || I2OSP(L, 2) || context, L).
 */
export function labeledDeriveShake256(suiteId: Uint8Array, ikm: Uint8Array, label: string, context: Uint8Array, length: number): Uint8Array {
  const l = utf8(label);
  return shake256
    .create({ dkLen: length })
    .update(ikm)
    .update(HPKE_V1)
    .update(suiteId)
    .update(i2osp2(l.length))
    .update(l)
    .update(i2osp2(length))
    .update(context)
    .digest();
}

export interface KeyScheduleResult {
  readonly key: Uint8Array;
  readonly baseNonce: Uint8Array;
  readonly exporterSecret: Uint8Array;
}

/**
 * RFC 9180 §5.1 KeySchedule for mode_base with a two-stage KDF (HKDF-SHA256, Nh = 32).
 * nk / nn are the AEAD's key and nonce sizes (ChaCha20-Poly1305: 32 / 12; AES-128-GCM: 16 / 12).
 */
export function keyScheduleBase(h: HkdfSha256, suiteId: Uint8Array, sharedSecret: Uint8Array, info: Uint8Array, nk = 32, nn = 12): KeyScheduleResult {
  const empty = new Uint8Array(0);
  const pskIdHash = labeledExtract(h, suiteId, empty, 'psk_id_hash', empty);
  const infoHash = labeledExtract(h, suiteId, empty, 'info_hash', info);
  const ksContext = concat(new Uint8Array([MODE_BASE]), pskIdHash, infoHash);
  const secret = labeledExtract(h, suiteId, sharedSecret, 'secret', empty);
  try {
    return {
      key: labeledExpand(h, suiteId, secret, 'key', ksContext, nk),
      baseNonce: labeledExpand(h, suiteId, secret, 'base_nonce', ksContext, nn),
      exporterSecret: labeledExpand(h, suiteId, secret, 'exp', ksContext, 32),
    };
  } finally {
    wipe(secret);
  }
}

/** RFC 9180 §5.3 Export(exporter_context, L). */
export function hpkeExport(h: HkdfSha256, suiteId: Uint8Array, exporterSecret: Uint8Array, exporterContext: Uint8Array, length: number): Uint8Array {
  return labeledExpand(h, suiteId, exporterSecret, 'sec', exporterContext, length);
}

/** Key schedule followed by one Export, wiping the intermediate secrets (the Nen use of HPKE). */
export function keyScheduleExport(
  h: HkdfSha256,
  kemId: number,
  sharedSecret: Uint8Array,
  info: Uint8Array,
  exporterContext: Uint8Array,
  length: number,
): Uint8Array {
  const suiteId = hpkeSuiteId(kemId);
  const ks = keyScheduleBase(h, suiteId, sharedSecret, info);
  try {
    return hpkeExport(h, suiteId, ks.exporterSecret, exporterContext, length);
  } finally {
    wipe(ks.key, ks.baseNonce, ks.exporterSecret);
  }
}
