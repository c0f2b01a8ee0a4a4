//! wasm-bindgen bindings: the JavaScript API of `@nen/core`'s Wasm backend.
//!
//! Classes `Aead`, `RecipientKey`, `SenderKey`, `KeyPair`, `SenderExport`; functions `generate_key_pair`,
//! `derive_key_pair`, `setup_base_s_export`, `setup_base_s_export_x25519`, `seal_base`,
//! `seal_base_x25519`, `sha256`, `hmac_sha256`, `hkdf_extract`,
//! `hkdf_expand`; `hazmat_*` functions (deterministic, vectors only) when built with the
//! `hazmat` feature. See the crate README for the signatures. This module holds the shared
//! conversions (errors, KEM ids, lengths) and re-exports its parts, one job each:
//!
//! | part | binds |
//! |---|---|
//! | `primitives` | `Aead` (RFC 8439), `sha256`, `hmac_sha256`, `hkdf_extract` / `hkdf_expand` (RFC 5869) |
//! | `keys` | the key objects `RecipientKey` (SetupBaseR + Export, OpenBase) and `SenderKey` (SealBase), RFC 9180 §5.1.1, §6.1 |
//! | `kem` | their raw KEM methods (`RecipientKey.decap`, `SenderKey.encap`, RFC 9180 §4) for OHTTP |
//! | `results` | the result classes `KeyPair` and `SenderExport` |
//! | `functions` | `generate_key_pair` / `derive_key_pair`, SetupBaseS + Export, single-shot SealBase |
//! | `hazmat` | deterministic `hazmat_*` entry points (FIPS 203 internals, caller-given `ikmE`) |
//!
//! Pitfalls:
//! - Every error is a `JsError` whose message starts with the stable code:
//!   `"NEN_CRYPTO_LENGTH: nen: X-Wing public key must be 1216 bytes (got 12)"`.
//! - JS must call `free()` on every class instance (the TS wrapper's `dispose()`); Rust drops the
//!   value, which zeroizes its secrets. Getters return copies.
//! - KEM ids and lengths arrive as JS numbers (`u32` here) and are range-checked, never truncated.
//! - Single-shot SealBase (RFC 9180 §6.1) returns `enc || ct` in one buffer (no result object
//!   to free); the caller splits it at the KEM's Nenc.

use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::hpke::Kem;

mod functions;
#[cfg(feature = "hazmat")]
mod hazmat;
mod kem;
mod keys;
mod primitives;
mod results;

pub use functions::{
    derive_key_pair, generate_key_pair, seal_base, seal_base_x25519, setup_base_s_export, setup_base_s_export_x25519,
};
#[cfg(feature = "hazmat")]
pub use hazmat::{
    hazmat_mlkem768_decaps, hazmat_mlkem768_encaps, hazmat_mlkem768_keygen, hazmat_mlkem768_keygen_seed,
    hazmat_seal_base_derand, hazmat_setup_base_s_export_derand,
};
pub use keys::{RecipientKey, SenderKey};
pub use primitives::{WasmAead, hkdf_expand, hkdf_extract, hmac_sha256, sha256};
pub use results::{KeyPair, SenderExport};

fn js(e: Error) -> JsError {
    JsError::new(&e.coded_message())
}

fn kem(id: u32) -> Result<Kem, JsError> {
    let id16 = u16::try_from(id).map_err(|_| js(Error::UnsupportedKem(u16::MAX)))?;
    Kem::from_id(id16).map_err(js)
}

fn len(length: u32) -> usize {
    // u32 always fits usize on wasm32 and 64-bit hosts; the callee bounds-checks it.
    usize::try_from(length).unwrap_or(usize::MAX)
}

fn enc_then_ct(enc: Vec<u8>, ct: Vec<u8>) -> Vec<u8> {
    let mut out = enc;
    out.extend_from_slice(&ct);
    out
}
