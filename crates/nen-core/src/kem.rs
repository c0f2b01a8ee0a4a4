//! The raw HPKE KEM interface (RFC 9180 §4: `Encap(pkR)` → `(shared_secret, enc)`,
//! `Decap(enc, skR)`) of the Nen KEMs, without Nen's key schedule: for HPKE suites whose key
//! schedule runs in the caller (`@nen/core`'s Oblivious HTTP: AES-GCM AEADs, RFC 9458 `info`,
//! Export on the same context). One buffer `shared_secret (32) || enc` per encapsulation, so the
//! Wasm export hands back no object to free.
//!
//! Pitfalls:
//! - The shared secret is secret: the buffers are `Zeroizing` here, but a copy handed to
//!   JavaScript cannot be wiped by Rust (the caller wipes it after its key schedule).
//! - Decap never fails on a modified ML-KEM ciphertext (implicit rejection): a wrong `enc` shows
//!   up as an AEAD failure after the key schedule. Wrong lengths and an X-Wing low-order X25519
//!   share are errors.

use crate::error::Error;
use crate::hpke::{PrivateKey, PublicKey};
use crate::secret::SecretBytes;
use zeroize::Zeroizing;

/// Length of every Nen KEM shared secret (X-Wing and ML-KEM-768: Nsecret = 32).
pub const SHARED_SECRET_LEN: usize = 32;

fn secret_then_enc(ss: &SecretBytes<SHARED_SECRET_LEN>, enc: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(SHARED_SECRET_LEN + enc.len()));
    out.extend_from_slice(ss.as_bytes());
    out.extend_from_slice(enc);
    out
}

/// Encap(pkR) with fresh randomness: `shared_secret || enc`.
pub fn encap(pk: &PublicKey) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (ss, enc) = pk.encap()?;
    Ok(secret_then_enc(&ss, &enc))
}

/// Encap(pkR) with caller-given `ikmE` (X-Wing `m || ek_X`, 64 bytes; ML-KEM-768 `m`, 32 bytes):
/// `shared_secret || enc`. Vectors only.
#[cfg(feature = "hazmat")]
pub fn encap_derand(pk: &PublicKey, ikm_e: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (ss, enc) = pk.encap_derand(ikm_e)?;
    Ok(secret_then_enc(&ss, &enc))
}

/// Decap(enc, skR): the 32-byte shared secret.
pub fn decap(sk: &PrivateKey, enc: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    Ok(Zeroizing::new(sk.decap(enc)?.as_bytes().to_vec()))
}
