//! The raw KEM of the Wasm key objects (RFC 9180 §4 `Encap` / `Decap`, see [`crate::kem`]):
//! `RecipientKey.decap(enc)` with the private key expanded once inside Wasm, and
//! `SenderKey.encap()` on a public key parsed (and validated) once. For `@nen/core`'s Oblivious
//! HTTP, whose HPKE key schedule (AES-GCM suites, RFC 9458 `info`) runs in JavaScript.
//!
//! Pitfalls:
//! - `encap()` returns `shared_secret (32) || enc` in one buffer (no result object to free).
//! - The returned shared secrets are copies in JavaScript memory: the caller wipes them.

use wasm_bindgen::prelude::*;

use super::{RecipientKey, SenderKey, js};

#[wasm_bindgen]
impl RecipientKey {
    /// Decap(enc, skR): the 32-byte KEM shared secret (secret; the caller wipes it). Wrong `enc`
    /// length `NEN_CRYPTO_LENGTH`, an X-Wing low-order X25519 share `NEN_CRYPTO_KEY`.
    pub fn decap(&self, enc: &[u8]) -> Result<Vec<u8>, JsError> {
        Ok(crate::kem::decap(&self.key, enc).map_err(js)?.to_vec())
    }
}

#[wasm_bindgen]
impl SenderKey {
    /// Encap(pkR) with fresh randomness: `shared_secret (32) || enc` (secret prefix).
    pub fn encap(&self) -> Result<Vec<u8>, JsError> {
        Ok(crate::kem::encap(&self.pk).map_err(js)?.to_vec())
    }
}
