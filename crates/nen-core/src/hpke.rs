//! HPKE (RFC 9180) in base mode for the Nen suites: KEM × HKDF-SHA256 (0x0001) ×
//! ChaCha20-Poly1305 (0x0003), with the post-quantum KEMs of draft-ietf-hpke-pq:
//!
//! | KEM | id | Nsk (seed) | Npk | Nenc | Nsecret |
//! |---|---|---|---|---|---|
//! | X-Wing (MLKEM768-X25519) | 0x647a | 32 | 1216 | 1120 | 32 |
//! | ML-KEM-768 | 0x0041 | 64 (`d || z`) | 1184 | 1088 | 32 |
//!
//! This module is the entry point: it re-exports its parts and implements the single-shot
//! `Seal` / `Open` of §6.1. The parts, one job each:
//!
//! | part | implements |
//! |---|---|
//! | `suite` | the KEM ids and sizes (§7.1, draft-ietf-hpke-pq), KDF / AEAD ids, suite ids (§5.1) |
//! | `keys` | §4 key pairs: `GenerateKeyPair`, `DeriveKeyPair`, (De)Serialize, `Encap` / `Decap`, `SetupBaseS` / `SetupBaseR` (§5.1.1) |
//! | `key_schedule` | §4 `LabeledExtract` / `LabeledExpand`, the §5.1 `KeySchedule` secrets, the §5.3 export derivation |
//! | `context` | the §5.1 context: §5.2 `Seal` / `Open` with `ComputeNonce` and sequence numbers, §5.3 `Export` |
//!
//! For both KEMs the KEM shared secret is used directly (no DHKEM `ExtractAndExpand`).
//!
//! Pitfalls:
//! - The sequence number only advances after a successful `Open` (§5.2); a context must not be
//!   used from two places at once.
//! - `Export` length is at most 255 × 32 = 8160 bytes (HKDF-SHA256 limit).
//! - Private keys are seeds; the expanded key material is derived once per [`PrivateKey`].
//! - Deterministic encapsulation (caller-given `ikmE`) exists only with the `hazmat` feature.

mod context;
mod key_schedule;
mod keys;
mod suite;

use crate::error::Error;

#[cfg(feature = "hazmat")]
pub use context::key_schedule_for_kem_id;
pub use context::{Context, key_schedule};
#[cfg(feature = "hazmat")]
pub use key_schedule::raw_export;
pub use key_schedule::{RawKeySchedule, labeled_expand_into, labeled_extract, raw_key_schedule};
pub use keys::{PrivateKey, PublicKey};
pub use suite::{AEAD_CHACHA20_POLY1305, KDF_HKDF_SHA256, Kem, MODE_BASE, suite_id};

/// Single-shot Seal (RFC 9180 §6.1, base mode): `(enc, ct)`.
pub fn seal(pk: &PublicKey, info: &[u8], aad: &[u8], pt: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let (enc, mut ctx) = pk.setup_base_s(info)?;
    let ct = ctx.seal(aad, pt)?;
    Ok((enc, ct))
}

/// Single-shot Open (RFC 9180 §6.1, base mode).
pub fn open(sk: &PrivateKey, enc: &[u8], info: &[u8], aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
    let mut ctx = sk.setup_base_r(enc, info)?;
    ctx.open(aad, ct)
}
