//! The raw HPKE KEM interface (RFC 9180 §4: `Encap(pkR)` → `(shared_secret, enc)`,
//! `Decap(enc, skR)`) of the Nen KEMs, without Nen's key schedule: for HPKE suites whose key
//! schedule runs in the caller (`@nen/core`'s Oblivious HTTP: AES-GCM AEADs, RFC 9458 `info`,
//! Export on the same context). One buffer `shared_secret (32) || enc` per encapsulation, so the
//! Wasm export hands back no object to free.
//!
//! [`setup_base_s_raw`] / [`setup_base_r_raw`] add RFC 9180 §5.1's KeySchedule (mode_base,
//! HKDF-SHA256) under the caller's suite id, in the same call: `key || base_nonce ||
//! exporter_secret`, the AEAD and Export left to the caller.
//!
//! Pitfalls:
//! - The shared secret is secret: the buffers are `Zeroizing` here, but a copy handed to
//!   JavaScript cannot be wiped by Rust (the caller wipes it after its key schedule).
//! - Decap never fails on a modified ML-KEM ciphertext (implicit rejection): a wrong `enc` shows
//!   up as an AEAD failure after the key schedule. Wrong lengths and an X-Wing low-order X25519
//!   share are errors.

use crate::error::Error;
use crate::hpke::{PrivateKey, PublicKey, raw_key_schedule};
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

/// Largest AEAD key the raw key schedule derives (AES-256-GCM, ChaCha20-Poly1305: Nk = 32).
pub const MAX_NK: usize = 32;

/// Appends KeySchedule(mode_base, shared_secret, info) under `suite_id` (10 bytes:
/// `"HPKE" || kem || kdf || aead`): `key (nk) || base_nonce (12) || exporter_secret (32)`.
fn append_key_schedule(
    out: &mut Vec<u8>,
    suite_id: &[u8],
    shared_secret: &[u8],
    info: &[u8],
    nk: usize,
) -> Result<(), Error> {
    let sid: &[u8; 10] = suite_id.try_into().map_err(|_| Error::InvalidLength {
        what: "HPKE suite id",
        expected: 10,
        actual: suite_id.len(),
        at_most: false,
    })?;
    Error::check_max("AEAD key length Nk", MAX_NK, nk)?;
    let (key, nonce, exp) = raw_key_schedule(sid, shared_secret, info, nk)?;
    out.extend_from_slice(&key);
    out.extend_from_slice(&nonce);
    out.extend_from_slice(exp.as_bytes());
    Ok(())
}

/// SetupBaseS(pkR, info) for a caller-run AEAD: `enc || key || base_nonce || exporter_secret`.
pub fn setup_base_s_raw(pk: &PublicKey, suite_id: &[u8], info: &[u8], nk: usize) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (ss, enc) = pk.encap()?;
    let mut out = Zeroizing::new(enc);
    append_key_schedule(&mut out, suite_id, ss.as_bytes(), info, nk)?;
    Ok(out)
}

/// [`setup_base_s_raw`] with caller-given `ikmE` (see [`encap_derand`]). Vectors only.
#[cfg(feature = "hazmat")]
pub fn setup_base_s_raw_derand(
    pk: &PublicKey,
    ikm_e: &[u8],
    suite_id: &[u8],
    info: &[u8],
    nk: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (ss, enc) = pk.encap_derand(ikm_e)?;
    let mut out = Zeroizing::new(enc);
    append_key_schedule(&mut out, suite_id, ss.as_bytes(), info, nk)?;
    Ok(out)
}

/// SetupBaseR(enc, skR, info) for a caller-run AEAD: `key || base_nonce || exporter_secret`.
pub fn setup_base_r_raw(
    sk: &PrivateKey,
    enc: &[u8],
    suite_id: &[u8],
    info: &[u8],
    nk: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let ss = sk.decap(enc)?;
    let mut out = Zeroizing::new(Vec::with_capacity(nk + 12 + 32));
    append_key_schedule(&mut out, suite_id, ss.as_bytes(), info, nk)?;
    Ok(out)
}
