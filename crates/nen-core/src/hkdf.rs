//! HKDF with SHA-256 (RFC 5869): Extract (§2.2) and Expand (§2.3), from RustCrypto `hkdf`.
//!
//! Pitfalls: an empty salt is the same as a salt of 32 zero bytes (§2.2); Expand's output is
//! at most 255 × 32 = 8160 bytes (§2.3) and its PRK must be at least 32 bytes (HashLen) —
//! both are checked and reported as [`Error::InvalidLength`], never truncated.

use crate::error::Error;
use crate::sha256::SHA256_LEN;

type Hkdf = hkdf::Hkdf<sha2::Sha256>;

/// The largest HKDF-SHA256 output, 255 × HashLen (RFC 5869 §2.3).
pub const HKDF_SHA256_MAX_OUTPUT: usize = 255 * SHA256_LEN;

/// HKDF-Extract(salt, IKM) → PRK (32 bytes).
pub fn hkdf_extract(salt: &[u8], ikm: &[u8]) -> [u8; SHA256_LEN] {
    let (prk, _) = Hkdf::extract(Some(salt), ikm);
    prk.into()
}

/// HKDF-Expand(PRK, info, L) into `okm` (L = `okm.len()`).
pub fn hkdf_expand_into(prk: &[u8], info: &[&[u8]], okm: &mut [u8]) -> Result<(), Error> {
    Error::check_max("HKDF-Expand output length", HKDF_SHA256_MAX_OUTPUT, okm.len())?;
    if prk.len() < SHA256_LEN {
        return Err(Error::InvalidLength {
            what: "HKDF PRK (at least)",
            expected: SHA256_LEN,
            actual: prk.len(),
            at_most: false,
        });
    }
    let hk = Hkdf::from_prk(prk).map_err(|_| Error::InvalidLength {
        what: "HKDF PRK (at least)",
        expected: SHA256_LEN,
        actual: prk.len(),
        at_most: false,
    })?;
    hk.expand_multi_info(info, okm).map_err(|_| Error::InvalidLength {
        what: "HKDF-Expand output length",
        expected: HKDF_SHA256_MAX_OUTPUT,
        actual: okm.len(),
        at_most: true,
    })
}

/// HKDF-Expand(PRK, info, L) → L bytes.
pub fn hkdf_expand(prk: &[u8], info: &[u8], length: usize) -> Result<Vec<u8>, Error> {
    Error::check_max("HKDF-Expand output length", HKDF_SHA256_MAX_OUTPUT, length)?;
    let mut okm = vec![0u8; length];
    hkdf_expand_into(prk, &[info], &mut okm)?;
    Ok(okm)
}
