//! The HPKE context of RFC 9180 §5.1 for the Nen suites (KEM × HKDF-SHA256 × ChaCha20-Poly1305):
//! `KeySchedule` into a [`Context`], whose §5.2 `Seal` / `Open` derive each nonce with
//! `ComputeNonce(seq)` and whose §5.3 `Export` derives secrets from the exporter secret.
//!
//! Pitfalls:
//! - The sequence number only advances after a successful `Seal` / `Open` (§5.2); at 2^64 − 1
//!   the context refuses (`MessageLimitReached`) instead of reusing a nonce. A context must not
//!   be used from two places at once.
//! - The key, base nonce and exporter secret zeroize on drop and never print.

use crate::aead::{self, Aead, NONCE_LEN};
use crate::error::Error;
use crate::secret::SecretBytes;
use crate::sha256::SHA256_LEN;
use zeroize::Zeroize;

use super::key_schedule::{export_from_secret, key_schedule_secrets};
use super::suite::Kem;
#[cfg(feature = "hazmat")]
use super::suite::{AEAD_CHACHA20_POLY1305, KDF_HKDF_SHA256, suite_id};

/// The HPKE context of RFC 9180 §5.1: AEAD key, base nonce, sequence number, exporter secret.
pub struct Context {
    aead: Aead,
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    key: SecretBytes<{ aead::KEY_LEN }>,
    base_nonce: [u8; NONCE_LEN],
    exporter_secret: SecretBytes<SHA256_LEN>,
    seq: u64,
    suite_id: [u8; 10],
}

impl core::fmt::Debug for Context {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "hpke::Context(seq {}, keys hidden)", self.seq)
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        self.base_nonce.zeroize();
    }
}

fn context_for_suite(suite_id: [u8; 10], shared_secret: &[u8], info: &[u8]) -> Result<Context, Error> {
    let mut key = SecretBytes::<{ aead::KEY_LEN }>::zero();
    let (base_nonce, exporter_secret) = key_schedule_secrets(&suite_id, shared_secret, info, key.as_mut())?;
    Ok(Context { aead: Aead::new(key.as_bytes())?, key, base_nonce, exporter_secret, seq: 0, suite_id })
}

/// KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = "") (RFC 9180 §5.1) for
/// `kem` × HKDF-SHA256 × ChaCha20-Poly1305.
pub fn key_schedule(kem: Kem, shared_secret: &[u8], info: &[u8]) -> Result<Context, Error> {
    context_for_suite(kem.suite_id(), shared_secret, info)
}

/// The key schedule for any KEM id with HKDF-SHA256 × ChaCha20-Poly1305 (the RFC 9180 DHKEM
/// vectors drive it with a test-side DHKEM(X25519)). Tests only.
#[cfg(feature = "hazmat")]
pub fn key_schedule_for_kem_id(kem_id: u16, shared_secret: &[u8], info: &[u8]) -> Result<Context, Error> {
    context_for_suite(suite_id(kem_id, KDF_HKDF_SHA256, AEAD_CHACHA20_POLY1305), shared_secret, info)
}

impl Context {
    /// Export(exporter_context, L) (RFC 9180 §5.3), L ≤ 8160.
    pub fn export(&self, exporter_context: &[u8], length: usize) -> Result<Vec<u8>, Error> {
        export_from_secret(&self.suite_id, self.exporter_secret.as_bytes(), exporter_context, length)
    }

    fn next_nonce(&self) -> Result<[u8; NONCE_LEN], Error> {
        if self.seq == u64::MAX {
            return Err(Error::MessageLimitReached);
        }
        Ok(aead::nonce_for(&self.base_nonce, self.seq))
    }

    /// ContextS.Seal(aad, pt) (RFC 9180 §5.2).
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        let nonce = self.next_nonce()?;
        let ct = self.aead.seal(&nonce, aad, pt)?;
        self.seq += 1;
        Ok(ct)
    }

    /// ContextR.Open(aad, ct) (RFC 9180 §5.2); the sequence number advances only on success.
    pub fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        let nonce = self.next_nonce()?;
        let pt = self.aead.open(&nonce, aad, ct)?;
        self.seq += 1;
        Ok(pt)
    }

    /// The AEAD key (tests compare it with vectors).
    #[cfg(feature = "hazmat")]
    pub fn key(&self) -> &[u8; aead::KEY_LEN] {
        self.key.as_bytes()
    }

    /// The base nonce (tests compare it with vectors).
    #[cfg(feature = "hazmat")]
    pub fn base_nonce(&self) -> &[u8; NONCE_LEN] {
        &self.base_nonce
    }

    /// The exporter secret (tests compare it with vectors).
    #[cfg(feature = "hazmat")]
    pub fn exporter_secret(&self) -> &[u8; SHA256_LEN] {
        self.exporter_secret.as_bytes()
    }
}
