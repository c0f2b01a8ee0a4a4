//! The HPKE key schedule's derivations (RFC 9180 §4, §5.1, §5.3) with HKDF-SHA256:
//! `LabeledExtract` / `LabeledExpand` with the `"HPKE-v1"` prefix, the mode_base `KeySchedule`
//! secrets (key, base_nonce, exporter_secret) for any suite id, and the §5.3 export derivation;
//! [`raw_key_schedule`] for suites whose AEAD runs elsewhere (OHTTP's AES-GCM in `@nen/core`).
//!
//! Pitfalls:
//! - `LabeledExpand` and `Export` lengths are at most 255 × 32 = 8160 bytes (HKDF-SHA256 limit):
//!   longer requests are an error, never a truncated output.
//! - mode_base only: the PSK and its id are empty; `psk_id_hash` and `info_hash` are still hashed.
//! - The intermediate `secret` zeroizes on drop; the returned secrets are the caller's to wipe.

use crate::aead::NONCE_LEN;
use crate::error::Error;
use crate::hkdf::{HKDF_SHA256_MAX_OUTPUT, hkdf_expand_into};
use crate::secret::SecretBytes;
use crate::sha256::{SHA256_LEN, hmac_sha256_parts};
use zeroize::Zeroizing;

use super::suite::MODE_BASE;

/// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm).
pub fn labeled_extract(suite_id: &[u8], salt: &[u8], label: &[u8], ikm: &[u8]) -> [u8; SHA256_LEN] {
    // HKDF-Extract(salt, IKM) = HMAC-SHA256(salt, IKM) (RFC 5869 §2.2).
    hmac_sha256_parts(salt, &[b"HPKE-v1", suite_id, label, ikm])
}

/// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L).
pub fn labeled_expand_into(
    suite_id: &[u8],
    prk: &[u8],
    label: &[u8],
    info: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    Error::check_max("HPKE LabeledExpand length", HKDF_SHA256_MAX_OUTPUT, out.len())?;
    let l = (out.len() as u16).to_be_bytes();
    hkdf_expand_into(prk, &[&l, b"HPKE-v1", suite_id, label, info], out)
}

/// The KeySchedule of RFC 9180 §5.1 for mode_base with HKDF-SHA256, any suite id: fills `key`
/// (Nk = `key.len()`) and returns `(base_nonce, exporter_secret)`.
pub(super) fn key_schedule_secrets(
    suite_id: &[u8; 10],
    shared_secret: &[u8],
    info: &[u8],
    key: &mut [u8],
) -> Result<([u8; NONCE_LEN], SecretBytes<SHA256_LEN>), Error> {
    let psk_id_hash = labeled_extract(suite_id, b"", b"psk_id_hash", b"");
    let info_hash = labeled_extract(suite_id, b"", b"info_hash", info);
    let mut ks_context = [0u8; 1 + 2 * SHA256_LEN];
    ks_context[0] = MODE_BASE;
    ks_context[1..33].copy_from_slice(&psk_id_hash);
    ks_context[33..].copy_from_slice(&info_hash);
    // secret = LabeledExtract(shared_secret, "secret", psk = "").
    let secret = SecretBytes::new(labeled_extract(suite_id, shared_secret, b"secret", b""));
    labeled_expand_into(suite_id, secret.as_bytes(), b"key", &ks_context, key)?;
    let mut base_nonce = [0u8; NONCE_LEN];
    labeled_expand_into(suite_id, secret.as_bytes(), b"base_nonce", &ks_context, &mut base_nonce)?;
    let mut exporter_secret = SecretBytes::<SHA256_LEN>::zero();
    labeled_expand_into(suite_id, secret.as_bytes(), b"exp", &ks_context, exporter_secret.as_mut())?;
    Ok((base_nonce, exporter_secret))
}

/// Export from an exporter secret: LabeledExpand(exporter_secret, "sec", exporter_context, L).
pub(super) fn export_from_secret(
    suite_id: &[u8; 10],
    exporter_secret: &[u8],
    exporter_context: &[u8],
    length: usize,
) -> Result<Vec<u8>, Error> {
    Error::check_max("HPKE export length", HKDF_SHA256_MAX_OUTPUT, length)?;
    let mut out = vec![0u8; length];
    labeled_expand_into(suite_id, exporter_secret, b"sec", exporter_context, &mut out)?;
    Ok(out)
}

/// `(key, base_nonce, exporter_secret)` from [`raw_key_schedule`].
pub type RawKeySchedule = (Zeroizing<Vec<u8>>, [u8; NONCE_LEN], SecretBytes<SHA256_LEN>);

/// The key schedule for any suite with HKDF-SHA256 whose AEAD runs elsewhere (OHTTP's AES-GCM
/// suites in `@nen/core`, through [`crate::kem`]; the ML-KEM-768 × AES-128-GCM entry of
/// hpke-pq.json): returns `(key of nk bytes, base_nonce, exporter_secret)`.
pub fn raw_key_schedule(
    suite_id: &[u8; 10],
    shared_secret: &[u8],
    info: &[u8],
    nk: usize,
) -> Result<RawKeySchedule, Error> {
    let mut key = Zeroizing::new(vec![0u8; nk]);
    let (nonce, exp) = key_schedule_secrets(suite_id, shared_secret, info, &mut key)?;
    Ok((key, nonce, exp))
}

/// Export(exporter_context, L) from a raw exporter secret and suite id. Tests only.
#[cfg(feature = "hazmat")]
pub fn raw_export(
    suite_id: &[u8; 10],
    exporter_secret: &[u8],
    exporter_context: &[u8],
    length: usize,
) -> Result<Vec<u8>, Error> {
    export_from_secret(suite_id, exporter_secret, exporter_context, length)
}
