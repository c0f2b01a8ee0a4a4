//! SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104, FIPS 198-1), from RustCrypto `sha2`/`hmac`.
//!
//! Pitfalls: compare MACs in constant time (use [`hmac_sha256_verify`], never `==` on tags);
//! HMAC keys longer than the 64-byte block are hashed first, so a 65-byte key and its SHA-256
//! are the same key (RFC 2104 §2) — derive keys, never pass user-chosen strings as keys.

use hmac::{KeyInit, Mac};
use sha2::Digest;

/// SHA-256 digest length in bytes.
pub const SHA256_LEN: usize = 32;

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// SHA-256(data).
pub fn sha256(data: &[u8]) -> [u8; SHA256_LEN] {
    sha2::Sha256::digest(data).into()
}

/// HMAC-SHA256(key, data). Any key length is accepted (RFC 2104).
pub fn hmac_sha256(key: &[u8], data: &[u8]) -> [u8; SHA256_LEN] {
    hmac_sha256_parts(key, &[data])
}

/// HMAC-SHA256(key, `parts[0] || parts[1] || ...`), without concatenating the parts.
pub fn hmac_sha256_parts(key: &[u8], parts: &[&[u8]]) -> [u8; SHA256_LEN] {
    // `new_from_slice` accepts keys of any length for HMAC; the error branch is unreachable
    // but handled without panicking by falling back to the hashed-key form RFC 2104 specifies.
    let mut mac = match HmacSha256::new_from_slice(key) {
        Ok(m) => m,
        Err(_) => {
            let mut block = [0u8; 64];
            block[..SHA256_LEN].copy_from_slice(&sha256(key));
            HmacSha256::new(&block.into())
        }
    };
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

/// Constant-time check that `tag` is HMAC-SHA256(key, data).
pub fn hmac_sha256_verify(key: &[u8], data: &[u8], tag: &[u8]) -> bool {
    let mut mac = match HmacSha256::new_from_slice(key) {
        Ok(m) => m,
        Err(_) => return false,
    };
    mac.update(data);
    mac.verify_slice(tag).is_ok()
}
