//! Bindings of the symmetric primitives: `Aead` (ChaCha20-Poly1305, RFC 8439) as a key object,
//! and the stateless `sha256` (FIPS 180-4), `hmac_sha256` (RFC 2104), `hkdf_extract` /
//! `hkdf_expand` (RFC 5869) functions.
//!
//! Pitfalls:
//! - `Aead.open` fails with `NEN_CRYPTO_AEAD` on a bad tag and returns no partial plaintext.
//! - `hkdf_extract` returns the PRK as a copy in JavaScript memory and wipes the Wasm copy; the
//!   caller wipes its own.

use wasm_bindgen::prelude::*;
use zeroize::Zeroize;

use super::{js, len};

/// A ChaCha20-Poly1305 key in Wasm memory (RFC 8439).
#[wasm_bindgen(js_name = Aead)]
pub struct WasmAead(crate::aead::Aead);

#[wasm_bindgen(js_class = Aead)]
impl WasmAead {
    /// A key object from 32 bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(key: &[u8]) -> Result<WasmAead, JsError> {
        crate::aead::Aead::new(key).map(WasmAead).map_err(js)
    }

    /// Returns `ciphertext || tag`.
    pub fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, JsError> {
        self.0.seal(nonce, aad, plaintext).map_err(js)
    }

    /// Opens `ciphertext || tag`; `NEN_CRYPTO_AEAD` when the tag does not verify.
    pub fn open(&self, nonce: &[u8], aad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, JsError> {
        self.0.open(nonce, aad, ciphertext).map_err(js)
    }
}

/// SHA-256(data).
#[wasm_bindgen]
pub fn sha256(data: &[u8]) -> Vec<u8> {
    crate::sha256::sha256(data).to_vec()
}

/// HMAC-SHA256(key, data).
#[wasm_bindgen]
pub fn hmac_sha256(key: &[u8], data: &[u8]) -> Vec<u8> {
    crate::sha256::hmac_sha256(key, data).to_vec()
}

/// HKDF-Extract(salt, ikm) (RFC 5869).
#[wasm_bindgen]
pub fn hkdf_extract(salt: &[u8], ikm: &[u8]) -> Vec<u8> {
    let mut prk = crate::hkdf::hkdf_extract(salt, ikm);
    let out = prk.to_vec();
    prk.zeroize();
    out
}

/// HKDF-Expand(prk, info, length) (RFC 5869); prk ≥ 32 bytes, length ≤ 8160.
#[wasm_bindgen]
pub fn hkdf_expand(prk: &[u8], info: &[u8], length: u32) -> Result<Vec<u8>, JsError> {
    crate::hkdf::hkdf_expand(prk, info, len(length)).map_err(js)
}
