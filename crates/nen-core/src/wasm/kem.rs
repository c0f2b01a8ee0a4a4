//! The raw KEM of the Wasm key objects (RFC 9180 §4 `Encap` / `Decap`, see [`crate::kem`]):
//! `RecipientKey.decap(enc)` with the private key expanded once inside Wasm, and
//! `SenderKey.encap()` on a public key parsed (and validated) once. For `@nen/core`'s Oblivious
//! HTTP, whose AEADs (AES-GCM suites too) and Export run in JavaScript: `setup_base_r_raw` /
//! `setup_base_s_raw` add the RFC 9180 KeySchedule under OHTTP's suite id in the same call.
//!
//! Pitfalls:
//! - `encap()` returns `shared_secret (32) || enc` in one buffer (no result object to free).
//! - The returned shared secrets are copies in JavaScript memory: the caller wipes them.

use wasm_bindgen::prelude::*;

use super::{RecipientKey, SenderKey, js, len};

#[wasm_bindgen]
impl RecipientKey {
    /// Decap(enc, skR): the 32-byte KEM shared secret (secret; the caller wipes it). Wrong `enc`
    /// length `NEN_CRYPTO_LENGTH`, an X-Wing low-order X25519 share `NEN_CRYPTO_KEY`.
    pub fn decap(&self, enc: &[u8]) -> Result<Vec<u8>, JsError> {
        Ok(crate::kem::decap(&self.key, enc).map_err(js)?.to_vec())
    }

    /// SetupBaseR(enc, skR, info) with RFC 9180's KeySchedule under `suite_id` (10 bytes) and
    /// Nk = `nk` (≤ 32): `key || base_nonce (12) || exporter_secret (32)` (secret).
    pub fn setup_base_r_raw(&self, enc: &[u8], suite_id: &[u8], info: &[u8], nk: u32) -> Result<Vec<u8>, JsError> {
        Ok(crate::kem::setup_base_r_raw(&self.key, enc, suite_id, info, len(nk)).map_err(js)?.to_vec())
    }
}

#[wasm_bindgen]
impl SenderKey {
    /// Encap(pkR) with fresh randomness: `shared_secret (32) || enc` (secret prefix).
    pub fn encap(&self) -> Result<Vec<u8>, JsError> {
        Ok(crate::kem::encap(&self.pk).map_err(js)?.to_vec())
    }

    /// SetupBaseS(pkR, info) with RFC 9180's KeySchedule under `suite_id` and Nk = `nk`:
    /// `enc || key || base_nonce (12) || exporter_secret (32)` (secret after enc).
    pub fn setup_base_s_raw(&self, suite_id: &[u8], info: &[u8], nk: u32) -> Result<Vec<u8>, JsError> {
        Ok(crate::kem::setup_base_s_raw(&self.pk, suite_id, info, len(nk)).map_err(js)?.to_vec())
    }
}
