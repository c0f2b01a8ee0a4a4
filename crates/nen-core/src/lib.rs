//! Nen crypto core: the small set of primitives the Nen protocol is built from, checked against
//! published vectors, for native Rust and (through the `wasm` module, wasm32 only) for JavaScript via wasm-bindgen.
//!
//! | module | standard |
//! |---|---|
//! | [`mlkem768`] | FIPS 203 ML-KEM-768 (libcrux-ml-kem) |
//! | [`xwing`] | X-Wing / MLKEM768-X25519 (draft-connolly-cfrg-xwing-kem, HPKE KEM 0x647a) |
//! | [`hpke`] | RFC 9180 base mode + draft-ietf-hpke-pq KEMs, HKDF-SHA256, ChaCha20-Poly1305 |
//! | [`kem`] | RFC 9180 §4 raw Encap / Decap (for key schedules run by the caller: OHTTP) |
//! | [`hkdf`] | RFC 5869 HKDF-SHA256 |
//! | [`sha256`] | FIPS 180-4 SHA-256, RFC 2104 HMAC-SHA256 |
//! | [`aead`] | RFC 8439 ChaCha20-Poly1305, RFC 9180 §5.2 nonces |
//!
//! Every failure is an [`Error`] with a stable code; secrets zeroize on drop and never print.
//! Deterministic entry points (caller-given randomness) exist only with the `hazmat` feature.
//!
//! Pitfalls:
//!  - `hazmat` is for tests and the test-only Wasm build (packages/core/wasm-hazmat); a shipped
//!    build never enables it: a caller-chosen seed is a caller-chosen key.
//!  - The `wasm` module compiles on wasm32 only, so lint both targets (scripts/test.sh runs clippy twice);
//!    code behind `cfg(target_arch)` is otherwise never checked.
//!  - ML-KEM comes from the vendored libcrux (crates/vendor: the crates.io package plus an
//!    attribute-only inline patch, `derive.sh --check`); do not edit it by hand.

pub mod aead;
pub mod error;
pub mod hkdf;
pub mod hpke;
pub mod kem;
pub mod mlkem768;
mod random;
pub mod secret;
pub mod sha256;
pub mod xwing;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::Error;
