//! ML-KEM-768 (FIPS 203, parameter set ML-KEM-768: k = 3, η1 = η2 = 2, du = 10, dv = 4),
//! backed by Cryspen's formally verified `libcrux-ml-kem` (portable code; in Wasm it is
//! ~2.5x faster than RustCrypto `ml-kem`, see the crate README).
//!
//! Sizes: encapsulation key `ek` 1184 bytes, decapsulation key `dk` 2400 bytes (the "expanded"
//! form of FIPS 203 §7.1), ciphertext 1088 bytes, shared secret 32 bytes, seed `d || z` 64 bytes.
//!
//! Pitfalls:
//! - Decapsulation never fails on a wrong ciphertext: FIPS 203 §6.3 implicit rejection returns a
//!   pseudorandom key `J(z || c)` instead, so authenticity must come from a later key
//!   confirmation / AEAD check.
//! - Encapsulation keys from the wire MUST pass the modulus check (FIPS 203 §7.2: every
//!   12-bit coefficient < q = 3329); [`EncapsulationKey::from_bytes`] enforces it.
//! - Decapsulation keys are held unpacked (libcrux `portable::unpacked`: `Â` expanded once per
//!   key, ~7.7 KB); libcrux gives that form no `Zeroize`, so [`DecapsulationKey`]'s `Drop`
//!   overwrites it in place with the zero key (no `unsafe`).
//! - Expanded decapsulation keys from outside MUST pass the hash check (§7.3:
//!   `H(ek) == dk[768k+32 .. 768k+64]`); only the `hazmat` loader accepts that form at all.
//!   The HPKE private key is the 64-byte seed, from which `dk` is re-derived (no check needed).
//! - Deterministic entry points (caller-given `d, z, m`) exist only with the `hazmat` feature.

#[cfg(feature = "hazmat")]
use libcrux_ml_kem::mlkem768::MlKem768PrivateKey;
use libcrux_ml_kem::mlkem768::portable::unpacked::{self, MlKem768KeyPairUnpacked};
use libcrux_ml_kem::mlkem768::{self, MlKem768Ciphertext, MlKem768PublicKey};
#[cfg(feature = "hazmat")]
use zeroize::Zeroize;

use crate::error::{Error, fill_random};
use crate::secret::SecretBytes;

/// Encapsulation key length `384k + 32`.
pub const ENCAPSULATION_KEY_LEN: usize = 1184;
/// Decapsulation key length `768k + 96` (expanded form).
pub const DECAPSULATION_KEY_LEN: usize = 2400;
/// Ciphertext length `32(du k + dv)`.
pub const CIPHERTEXT_LEN: usize = 1088;
/// Shared secret length.
pub const SHARED_SECRET_LEN: usize = 32;
/// Key generation seed `d || z` length.
pub const SEED_LEN: usize = 64;
/// Encapsulation randomness `m` length.
pub const ENCAPS_RANDOMNESS_LEN: usize = 32;

/// A validated ML-KEM-768 encapsulation key (passed the FIPS 203 §7.2 modulus check).
#[derive(Clone)]
pub struct EncapsulationKey(MlKem768PublicKey);

impl core::fmt::Debug for EncapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("mlkem768::EncapsulationKey(1184 bytes)")
    }
}

impl EncapsulationKey {
    /// Parses and validates `ek` (length, then modulus check).
    pub fn from_bytes(ek: &[u8]) -> Result<Self, Error> {
        Error::check_len("ML-KEM-768 encapsulation key", ENCAPSULATION_KEY_LEN, ek.len())?;
        let pk = MlKem768PublicKey::try_from(ek).map_err(|_| Error::InvalidLength {
            what: "ML-KEM-768 encapsulation key",
            expected: ENCAPSULATION_KEY_LEN,
            actual: ek.len(),
            at_most: false,
        })?;
        if !mlkem768::validate_public_key(&pk) {
            return Err(Error::InvalidKey("ML-KEM-768 encapsulation key fails the modulus check (FIPS 203 §7.2)"));
        }
        Ok(Self(pk))
    }

    /// The 1184 encoded bytes.
    pub fn as_bytes(&self) -> &[u8; ENCAPSULATION_KEY_LEN] {
        self.0.as_slice()
    }

    /// ML-KEM.Encaps (FIPS 203 Algorithm 20) with fresh randomness.
    pub fn encapsulate(&self) -> Result<([u8; CIPHERTEXT_LEN], SecretBytes<SHARED_SECRET_LEN>), Error> {
        let mut m = SecretBytes::<ENCAPS_RANDOMNESS_LEN>::zero();
        fill_random(m.as_mut())?;
        Ok(self.encapsulate_internal(m.as_bytes()))
    }

    /// ML-KEM.Encaps_internal (FIPS 203 Algorithm 17) with caller-given `m`.
    // One shared body for its callers, not a copy inlined in each (Wasm size: README "Wasm size").
    #[inline(never)]
    pub(crate) fn encapsulate_internal(
        &self,
        m: &[u8; ENCAPS_RANDOMNESS_LEN],
    ) -> ([u8; CIPHERTEXT_LEN], SecretBytes<SHARED_SECRET_LEN>) {
        let (ct, ss) = mlkem768::encapsulate(&self.0, *m);
        (*ct.as_slice(), SecretBytes::new(ss))
    }

    /// Deterministic encapsulation with caller-given `m` (tests and vectors only).
    #[cfg(feature = "hazmat")]
    pub fn encapsulate_derand(
        &self,
        m: &[u8],
    ) -> Result<([u8; CIPHERTEXT_LEN], SecretBytes<SHARED_SECRET_LEN>), Error> {
        let m: &[u8; ENCAPS_RANDOMNESS_LEN] = m.try_into().map_err(|_| Error::InvalidLength {
            what: "ML-KEM-768 encapsulation randomness m",
            expected: ENCAPS_RANDOMNESS_LEN,
            actual: m.len(),
            at_most: false,
        })?;
        Ok(self.encapsulate_internal(m))
    }
}

/// An ML-KEM-768 decapsulation key, held in libcrux's *unpacked* form: the NTT-domain secret
/// vector, `t̂`, the matrix `Â` sampled once from `ρ`, `H(ek)` and `z`, so decapsulation skips
/// re-deriving `Â` (≈ 30 % of a packed decapsulation). Zeroized on drop (see [`Drop`] below).
pub struct DecapsulationKey {
    kp: Box<MlKem768KeyPairUnpacked>,
    ek: EncapsulationKey,
}

impl core::fmt::Debug for DecapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("mlkem768::DecapsulationKey(hidden)")
    }
}

impl Drop for DecapsulationKey {
    /// libcrux's unpacked key exposes no `Zeroize` and its fields are crate-private, so the key
    /// is overwritten in place (it lives in one heap box, never moved) with the all-zero key,
    /// and `black_box` keeps that store from being removed as dead.
    fn drop(&mut self) {
        *self.kp = unpacked::init_key_pair();
        core::hint::black_box(&*self.kp);
    }
}

impl zeroize::ZeroizeOnDrop for DecapsulationKey {}

impl DecapsulationKey {
    /// ML-KEM.KeyGen_internal(d, z) (FIPS 203 Algorithm 16) from the 64-byte seed `d || z`.
    pub fn from_seed(seed: &[u8; SEED_LEN]) -> (Self, EncapsulationKey) {
        let mut kp = Box::new(unpacked::init_key_pair());
        unpacked::generate_key_pair_mut(*seed, &mut kp);
        let ek = EncapsulationKey(unpacked::key_pair_serialized_public_key(&kp));
        (Self { kp, ek: ek.clone() }, ek)
    }

    /// ML-KEM.KeyGen (FIPS 203 Algorithm 19) with fresh randomness; returns the seed too.
    pub fn generate() -> Result<(Self, EncapsulationKey, SecretBytes<SEED_LEN>), Error> {
        let mut seed = SecretBytes::<SEED_LEN>::zero();
        fill_random(seed.as_mut())?;
        let (dk, ek) = Self::from_seed(seed.as_bytes());
        Ok((dk, ek, seed))
    }

    /// ML-KEM.Decaps (FIPS 203 Algorithm 21). Wrong ciphertext length is an error; a wrong
    /// ciphertext of the right length yields the implicit-rejection key.
    // One shared body for its callers, not a copy inlined in each (Wasm size: README "Wasm size").
    #[inline(never)]
    pub fn decapsulate(&self, c: &[u8]) -> Result<SecretBytes<SHARED_SECRET_LEN>, Error> {
        Error::check_len("ML-KEM-768 ciphertext", CIPHERTEXT_LEN, c.len())?;
        let ct = MlKem768Ciphertext::try_from(c).map_err(|_| Error::InvalidLength {
            what: "ML-KEM-768 ciphertext",
            expected: CIPHERTEXT_LEN,
            actual: c.len(),
            at_most: false,
        })?;
        Ok(SecretBytes::new(unpacked::decapsulate(&self.kp, &ct)))
    }

    /// The matching encapsulation key (bytes 1152..2336 of the expanded `dk`).
    pub fn encapsulation_key_bytes(&self) -> &[u8] {
        self.ek.as_bytes()
    }

    /// Loads an expanded 2400-byte `dk` from outside: length check and the FIPS 203 §7.3 hash
    /// check `H(ek) == h` (tests and vectors only; Nen keys travel as seeds).
    #[cfg(feature = "hazmat")]
    pub fn from_expanded_bytes(dk: &[u8]) -> Result<Self, Error> {
        Error::check_len("ML-KEM-768 decapsulation key", DECAPSULATION_KEY_LEN, dk.len())?;
        let mut sk = MlKem768PrivateKey::try_from(dk).map_err(|_| Error::InvalidLength {
            what: "ML-KEM-768 decapsulation key",
            expected: DECAPSULATION_KEY_LEN,
            actual: dk.len(),
            at_most: false,
        })?;
        let valid = mlkem768::validate_private_key(&sk, &MlKem768Ciphertext::default());
        let result = if valid {
            let mut kp = Box::new(unpacked::init_key_pair());
            unpacked::key_pair_from_private_mut(&sk, &mut kp);
            let ek = EncapsulationKey(unpacked::key_pair_serialized_public_key(&kp));
            Ok(Self { kp, ek })
        } else {
            Err(Error::InvalidKey("ML-KEM-768 decapsulation key fails the hash check (FIPS 203 §7.3)"))
        };
        sk[..DECAPSULATION_KEY_LEN].zeroize();
        result
    }

    /// The expanded 2400-byte `dk` `s || ek || H(ek) || z` (tests and vectors only). Secret.
    #[cfg(feature = "hazmat")]
    pub fn expanded_bytes(&self) -> zeroize::Zeroizing<[u8; DECAPSULATION_KEY_LEN]> {
        let mut sk = unpacked::key_pair_serialized_private_key(&self.kp);
        let out = zeroize::Zeroizing::new(*sk.as_slice());
        sk[..DECAPSULATION_KEY_LEN].zeroize();
        out
    }
}

/// ML-KEM.KeyGen_internal(d, z) with caller-given `d` and `z` (tests and vectors only).
#[cfg(feature = "hazmat")]
pub fn keygen_derand(d: &[u8], z: &[u8]) -> Result<(DecapsulationKey, EncapsulationKey), Error> {
    Error::check_len("ML-KEM-768 seed d", 32, d.len())?;
    Error::check_len("ML-KEM-768 seed z", 32, z.len())?;
    let mut seed = SecretBytes::<SEED_LEN>::zero();
    seed.as_mut()[..32].copy_from_slice(d);
    seed.as_mut()[32..].copy_from_slice(z);
    Ok(DecapsulationKey::from_seed(seed.as_bytes()))
}
