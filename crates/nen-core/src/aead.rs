//! ChaCha20-Poly1305 AEAD (RFC 8439 §2.8) with caller-given 96-bit nonces, from RustCrypto
//! `chacha20poly1305`, plus the RFC 9180 §5.2 nonce derivation [`nonce_for`].
//!
//! Pitfalls:
//! - A nonce must never repeat under a key: a repeat leaks the XOR of the plaintexts and lets an
//!   attacker forge tags. Derive nonces from a counter ([`nonce_for`]), never at random.
//! - `open` releases nothing unless the tag verifies (the tag is checked in constant time before
//!   any plaintext is returned; on failure the decrypted buffer is wiped).
//! - Output is `ciphertext || tag` (16 bytes); inputs shorter than the tag are rejected.
//! - The RFC 8439 limit is 2^38 - 64 bytes of plaintext per (key, nonce); Wasm memory is far
//!   smaller, so it is not reachable here.

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce, Tag};
use zeroize::Zeroize;

use crate::error::Error;

/// Key length (RFC 8439 §2.8).
pub const KEY_LEN: usize = 32;
/// Nonce length (RFC 8439 §2.8).
pub const NONCE_LEN: usize = 12;
/// Tag length (RFC 8439 §2.8).
pub const TAG_LEN: usize = 16;

/// RFC 9180 §5.2 `ComputeNonce(seq)`: `base_nonce XOR I2OSP(seq, Nn)` — the sequence number
/// big-endian in the last 8 bytes (the first 4 bytes of the 12-byte nonce are never touched).
pub fn nonce_for(base_nonce: &[u8; NONCE_LEN], seq: u64) -> [u8; NONCE_LEN] {
    let mut n = *base_nonce;
    for (b, s) in n[NONCE_LEN - 8..].iter_mut().zip(seq.to_be_bytes()) {
        *b ^= s;
    }
    n
}

/// A ChaCha20-Poly1305 key. Zeroized on drop (the cipher state zeroizes itself).
pub struct Aead {
    cipher: ChaCha20Poly1305,
}

impl core::fmt::Debug for Aead {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Aead(ChaCha20-Poly1305, key hidden)")
    }
}

impl zeroize::ZeroizeOnDrop for Aead {}

impl Aead {
    /// A key object from 32 key bytes (copied; the caller may wipe its copy).
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Error::check_len("ChaCha20-Poly1305 key", KEY_LEN, key.len())?;
        let k = Key::try_from(key).map_err(|_| Error::InvalidLength {
            what: "ChaCha20-Poly1305 key",
            expected: KEY_LEN,
            actual: key.len(),
            at_most: false,
        })?;
        let cipher = ChaCha20Poly1305::new(&k);
        let mut k = k;
        k.as_mut_slice().zeroize();
        Ok(Self { cipher })
    }

    fn nonce(nonce: &[u8]) -> Result<Nonce, Error> {
        Nonce::try_from(nonce).map_err(|_| Error::InvalidLength {
            what: "ChaCha20-Poly1305 nonce",
            expected: NONCE_LEN,
            actual: nonce.len(),
            at_most: false,
        })
    }

    /// Seal: returns `ciphertext || tag`.
    pub fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let n = Self::nonce(nonce)?;
        let mut out = Vec::with_capacity(plaintext.len() + TAG_LEN);
        out.extend_from_slice(plaintext);
        let tag = self.cipher.encrypt_inout_detached(&n, aad, out.as_mut_slice().into()).map_err(|_| {
            Error::InvalidLength {
                what: "ChaCha20-Poly1305 plaintext",
                expected: usize::MAX,
                actual: plaintext.len(),
                at_most: true,
            }
        })?;
        out.extend_from_slice(&tag);
        Ok(out)
    }

    /// Open `ciphertext || tag`; [`Error::Authentication`] when the tag does not verify.
    pub fn open(&self, nonce: &[u8], aad: &[u8], ciphertext_and_tag: &[u8]) -> Result<Vec<u8>, Error> {
        let n = Self::nonce(nonce)?;
        if ciphertext_and_tag.len() < TAG_LEN {
            return Err(Error::InvalidLength {
                what: "ChaCha20-Poly1305 ciphertext (at least the tag)",
                expected: TAG_LEN,
                actual: ciphertext_and_tag.len(),
                at_most: false,
            });
        }
        let (ct, tag) = ciphertext_and_tag.split_at(ciphertext_and_tag.len() - TAG_LEN);
        let tag = Tag::try_from(tag).map_err(|_| Error::Authentication)?;
        let mut out = ct.to_vec();
        match self.cipher.decrypt_inout_detached(&n, aad, out.as_mut_slice().into(), &tag) {
            Ok(()) => Ok(out),
            Err(_) => {
                out.zeroize();
                Err(Error::Authentication)
            }
        }
    }
}
