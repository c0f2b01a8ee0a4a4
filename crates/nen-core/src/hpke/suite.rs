//! The HPKE suite identifiers of Nen (RFC 9180 §5.1, §7; draft-ietf-hpke-pq): the KEMs
//! (X-Wing 0x647a, ML-KEM-768 0x0041) with their sizes Nsk / Npk / Nenc, the KDF id of
//! HKDF-SHA256 and the AEAD id of ChaCha20-Poly1305, and the suite ids that domain-separate
//! every labeled derivation.
//!
//! Pitfalls:
//! - Two suite ids exist: `"KEM" || I2OSP(kem_id, 2)` inside the KEM (`DeriveKeyPair`) and
//!   `"HPKE" || kem_id || kdf_id || aead_id` for the key schedule; mixing them up still "works"
//!   but breaks interop with every vector.
//! - KEM ids arrive from the wire as numbers: unknown ids are [`Error::UnsupportedKem`], never
//!   a default.

use crate::error::Error;
use crate::{mlkem768, xwing};

/// KDF id of HKDF-SHA256 (RFC 9180 §7.2).
pub const KDF_HKDF_SHA256: u16 = 0x0001;
/// AEAD id of ChaCha20-Poly1305 (RFC 9180 §7.3).
pub const AEAD_CHACHA20_POLY1305: u16 = 0x0003;
/// HPKE mode_base (RFC 9180 §5).
pub const MODE_BASE: u8 = 0x00;

/// The KEMs Nen supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kem {
    /// X-Wing (MLKEM768-X25519), 0x647a. The default.
    XWing,
    /// ML-KEM-768, 0x0041.
    MlKem768,
}

impl Kem {
    /// KEM id of X-Wing.
    pub const XWING_ID: u16 = 0x647a;
    /// KEM id of ML-KEM-768.
    pub const MLKEM768_ID: u16 = 0x0041;

    /// From the HPKE KEM id.
    pub const fn from_id(id: u16) -> Result<Self, Error> {
        match id {
            Self::XWING_ID => Ok(Kem::XWing),
            Self::MLKEM768_ID => Ok(Kem::MlKem768),
            other => Err(Error::UnsupportedKem(other)),
        }
    }

    /// The HPKE KEM id.
    pub const fn id(self) -> u16 {
        match self {
            Kem::XWing => Self::XWING_ID,
            Kem::MlKem768 => Self::MLKEM768_ID,
        }
    }

    /// Npk.
    pub const fn public_key_len(self) -> usize {
        match self {
            Kem::XWing => xwing::PUBLIC_KEY_LEN,
            Kem::MlKem768 => mlkem768::ENCAPSULATION_KEY_LEN,
        }
    }

    /// Nsk (the seed form).
    pub const fn private_key_len(self) -> usize {
        match self {
            Kem::XWing => xwing::SEED_LEN,
            Kem::MlKem768 => mlkem768::SEED_LEN,
        }
    }

    /// Nenc.
    pub const fn enc_len(self) -> usize {
        match self {
            Kem::XWing => xwing::CIPHERTEXT_LEN,
            Kem::MlKem768 => mlkem768::CIPHERTEXT_LEN,
        }
    }

    /// Length of the encapsulation randomness `ikmE` for the derandomized entry point.
    pub const fn encaps_randomness_len(self) -> usize {
        match self {
            Kem::XWing => xwing::ENCAPS_RANDOMNESS_LEN,
            Kem::MlKem768 => mlkem768::ENCAPS_RANDOMNESS_LEN,
        }
    }

    /// The KEM suite id `"KEM" || I2OSP(kem_id, 2)`.
    pub(super) fn kem_suite_id(self) -> [u8; 5] {
        let id = self.id().to_be_bytes();
        [b'K', b'E', b'M', id[0], id[1]]
    }

    /// The HPKE suite id of `kem` × HKDF-SHA256 × ChaCha20-Poly1305.
    pub fn suite_id(self) -> [u8; 10] {
        suite_id(self.id(), KDF_HKDF_SHA256, AEAD_CHACHA20_POLY1305)
    }
}

/// HPKE suite id `"HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)`.
pub fn suite_id(kem_id: u16, kdf_id: u16, aead_id: u16) -> [u8; 10] {
    let (k, f, a) = (kem_id.to_be_bytes(), kdf_id.to_be_bytes(), aead_id.to_be_bytes());
    [b'H', b'P', b'K', b'E', k[0], k[1], f[0], f[1], a[0], a[1]]
}
