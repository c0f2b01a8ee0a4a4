//! HPKE key pairs (RFC 9180 §4, §5.1.1; draft-ietf-hpke-pq): `GenerateKeyPair` and
//! `DeriveKeyPair` for a [`Kem`], the recipient [`PrivateKey`] (seed form, key material expanded
//! once) and the validated recipient [`PublicKey`], with `Encap` / `Decap` and `SetupBaseS` /
//! `SetupBaseR`; X-Wing variants that take the X25519 half computed by the caller.
//!
//! Pitfalls:
//! - `DeriveKeyPair` is the draft-ietf-hpke-pq SHAKE256 `LabeledDerive` under the KEM suite id
//!   `"KEM" || I2OSP(kem_id, 2)`, not RFC 9180's DHKEM `LabeledExpand`.
//! - Public keys are validated on parse (length; ML-KEM modulus check); a private key's seed and
//!   expanded key zeroize on drop and never print.
//! - Deterministic encapsulation (caller-given `ikmE`) exists only with the `hazmat` feature.

use super::context::{Context, key_schedule};
use super::suite::Kem;
use crate::error::{Error, fill_random};
use crate::secret::SecretBytes;
use crate::{mlkem768, xwing};
use zeroize::Zeroizing;

impl Kem {
    /// DeriveKeyPair(ikm) (draft-ietf-hpke-pq): the private key seed
    /// `SHAKE256(ikm || "HPKE-v1" || suite_id || I2OSP(13, 2) || "DeriveKeyPair" || I2OSP(Nsk, 2))`.
    pub fn derive_key_pair(self, ikm: &[u8]) -> PrivateKey {
        let sid = self.kem_suite_id();
        let label = b"DeriveKeyPair";
        let nsk = self.private_key_len();
        let mut input = Zeroizing::new(Vec::with_capacity(ikm.len() + 7 + sid.len() + 2 + label.len() + 2));
        input.extend_from_slice(ikm);
        input.extend_from_slice(b"HPKE-v1");
        input.extend_from_slice(&sid);
        input.extend_from_slice(&(label.len() as u16).to_be_bytes());
        input.extend_from_slice(label);
        input.extend_from_slice(&(nsk as u16).to_be_bytes());
        match self {
            Kem::XWing => {
                let mut seed = SecretBytes::<{ xwing::SEED_LEN }>::zero();
                libcrux_sha3::shake256_ema(seed.as_mut(), &input);
                PrivateKey::XWing(Box::new(xwing::DecapsulationKey::from_seed(seed.as_bytes())))
            }
            Kem::MlKem768 => {
                let mut seed = SecretBytes::<{ mlkem768::SEED_LEN }>::zero();
                libcrux_sha3::shake256_ema(seed.as_mut(), &input);
                PrivateKey::from_mlkem_seed(seed)
            }
        }
    }

    /// GenerateKeyPair() from the system CSPRNG.
    pub fn generate_key_pair(self) -> Result<PrivateKey, Error> {
        match self {
            Kem::XWing => Ok(PrivateKey::XWing(Box::new(xwing::DecapsulationKey::generate()?))),
            Kem::MlKem768 => {
                let mut seed = SecretBytes::<{ mlkem768::SEED_LEN }>::zero();
                fill_random(seed.as_mut())?;
                Ok(PrivateKey::from_mlkem_seed(seed))
            }
        }
    }
}

/// An HPKE recipient private key (seed form) with its expanded key material. Zeroized on drop.
pub enum PrivateKey {
    /// X-Wing.
    XWing(Box<xwing::DecapsulationKey>),
    /// ML-KEM-768: the seed `d || z`, the expanded `dk` and `ek`.
    MlKem768 {
        /// `d || z`.
        seed: SecretBytes<{ mlkem768::SEED_LEN }>,
        /// Expanded decapsulation key.
        dk: Box<mlkem768::DecapsulationKey>,
        /// Encapsulation key.
        ek: Box<mlkem768::EncapsulationKey>,
    },
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "hpke::PrivateKey({:?}, hidden)", self.kem())
    }
}

impl PrivateKey {
    fn from_mlkem_seed(seed: SecretBytes<{ mlkem768::SEED_LEN }>) -> Self {
        let (dk, ek) = mlkem768::DecapsulationKey::from_seed(seed.as_bytes());
        PrivateKey::MlKem768 { seed, dk: Box::new(dk), ek: Box::new(ek) }
    }

    /// DeserializePrivateKey: the Nsk-byte seed for `kem`.
    pub fn from_bytes(kem: Kem, sk: &[u8]) -> Result<Self, Error> {
        match kem {
            Kem::XWing => {
                let seed: &[u8; xwing::SEED_LEN] = sk.try_into().map_err(|_| Error::InvalidLength {
                    what: "X-Wing private key",
                    expected: xwing::SEED_LEN,
                    actual: sk.len(),
                    at_most: false,
                })?;
                Ok(PrivateKey::XWing(Box::new(xwing::DecapsulationKey::from_seed(seed))))
            }
            Kem::MlKem768 => {
                Error::check_len("ML-KEM-768 private key", mlkem768::SEED_LEN, sk.len())?;
                let mut seed = SecretBytes::<{ mlkem768::SEED_LEN }>::zero();
                seed.as_mut().copy_from_slice(sk);
                Ok(Self::from_mlkem_seed(seed))
            }
        }
    }

    /// The KEM.
    pub fn kem(&self) -> Kem {
        match self {
            PrivateKey::XWing(_) => Kem::XWing,
            PrivateKey::MlKem768 { .. } => Kem::MlKem768,
        }
    }

    /// SerializePrivateKey: the seed. Secret.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        match self {
            PrivateKey::XWing(k) => Zeroizing::new(k.seed().to_vec()),
            PrivateKey::MlKem768 { seed, .. } => Zeroizing::new(seed.as_bytes().to_vec()),
        }
    }

    /// SerializePublicKey of the matching public key.
    pub fn public_key_bytes(&self) -> Vec<u8> {
        match self {
            PrivateKey::XWing(k) => k.public_key().to_bytes().to_vec(),
            PrivateKey::MlKem768 { ek, .. } => ek.as_bytes().to_vec(),
        }
    }

    /// Decap(enc, skR).
    pub fn decap(&self, enc: &[u8]) -> Result<SecretBytes<32>, Error> {
        match self {
            PrivateKey::XWing(k) => k.decapsulate(enc),
            PrivateKey::MlKem768 { dk, .. } => dk.decapsulate(enc),
        }
    }

    /// SetupBaseR(enc, skR, info).
    pub fn setup_base_r(&self, enc: &[u8], info: &[u8]) -> Result<Context, Error> {
        let ss = self.decap(enc)?;
        key_schedule(self.kem(), ss.as_bytes(), info)
    }

    /// X-Wing only: the X25519 scalar `sk_X` expanded from the seed, for a native X25519
    /// (see [`PrivateKey::setup_base_r_with_x25519`]). Secret. ML-KEM-768 keys:
    /// [`Error::UnsupportedKem`].
    pub fn xwing_x25519_secret(&self) -> Result<SecretBytes<32>, Error> {
        match self {
            PrivateKey::XWing(k) => Ok(k.x25519_secret()),
            PrivateKey::MlKem768 { .. } => Err(Error::UnsupportedKem(Kem::MLKEM768_ID)),
        }
    }

    /// X-Wing SetupBaseR(enc, skR, info) with the X25519 half computed by the caller:
    /// `ss_x = X25519(sk_X, enc[1088..1120])`. ML-KEM-768 keys: [`Error::UnsupportedKem`].
    pub fn setup_base_r_with_x25519(&self, enc: &[u8], ss_x: &[u8], info: &[u8]) -> Result<Context, Error> {
        match self {
            PrivateKey::XWing(k) => {
                let ss = k.decapsulate_with_x25519(enc, ss_x)?;
                key_schedule(Kem::XWing, ss.as_bytes(), info)
            }
            PrivateKey::MlKem768 { .. } => Err(Error::UnsupportedKem(Kem::MLKEM768_ID)),
        }
    }
}

/// An HPKE recipient public key, validated.
#[derive(Clone, Debug)]
pub enum PublicKey {
    /// X-Wing.
    XWing(Box<xwing::EncapsulationKey>),
    /// ML-KEM-768.
    MlKem768(Box<mlkem768::EncapsulationKey>),
}

impl PublicKey {
    /// DeserializePublicKey with validation (length; ML-KEM modulus check).
    pub fn from_bytes(kem: Kem, pk: &[u8]) -> Result<Self, Error> {
        match kem {
            Kem::XWing => Ok(PublicKey::XWing(Box::new(xwing::EncapsulationKey::from_bytes(pk)?))),
            Kem::MlKem768 => Ok(PublicKey::MlKem768(Box::new(mlkem768::EncapsulationKey::from_bytes(pk)?))),
        }
    }

    /// The KEM.
    pub fn kem(&self) -> Kem {
        match self {
            PublicKey::XWing(_) => Kem::XWing,
            PublicKey::MlKem768(_) => Kem::MlKem768,
        }
    }

    /// Encap(pkR) with fresh randomness → (shared_secret, enc).
    pub fn encap(&self) -> Result<(SecretBytes<32>, Vec<u8>), Error> {
        let mut r = SecretBytes::<{ xwing::ENCAPS_RANDOMNESS_LEN }>::zero();
        let n = self.kem().encaps_randomness_len();
        fill_random(&mut r.as_mut()[..n])?;
        self.encap_internal(&r.as_bytes()[..n])
    }

    fn encap_internal(&self, ikm_e: &[u8]) -> Result<(SecretBytes<32>, Vec<u8>), Error> {
        match self {
            PublicKey::XWing(pk) => {
                let eseed: &[u8; xwing::ENCAPS_RANDOMNESS_LEN] =
                    ikm_e.try_into().map_err(|_| Error::InvalidLength {
                        what: "X-Wing encapsulation randomness ikmE",
                        expected: xwing::ENCAPS_RANDOMNESS_LEN,
                        actual: ikm_e.len(),
                        at_most: false,
                    })?;
                let (ct, ss) = pk.encapsulate_internal(eseed)?;
                Ok((ss, ct.to_vec()))
            }
            PublicKey::MlKem768(pk) => {
                let m: &[u8; mlkem768::ENCAPS_RANDOMNESS_LEN] = ikm_e.try_into().map_err(|_| Error::InvalidLength {
                    what: "ML-KEM-768 encapsulation randomness ikmE",
                    expected: mlkem768::ENCAPS_RANDOMNESS_LEN,
                    actual: ikm_e.len(),
                    at_most: false,
                })?;
                let (ct, ss) = pk.encapsulate_internal(m);
                Ok((ss, ct.to_vec()))
            }
        }
    }

    /// Deterministic Encap with caller-given randomness: X-Wing `m || ek_X` (64 bytes),
    /// ML-KEM-768 `m` (32 bytes) — the `ikmE` of the draft-ietf-hpke-pq vectors. Tests only.
    #[cfg(feature = "hazmat")]
    pub fn encap_derand(&self, ikm_e: &[u8]) -> Result<(SecretBytes<32>, Vec<u8>), Error> {
        self.encap_internal(ikm_e)
    }

    /// SetupBaseS(pkR, info) → (enc, context).
    pub fn setup_base_s(&self, info: &[u8]) -> Result<(Vec<u8>, Context), Error> {
        let (ss, enc) = self.encap()?;
        Ok((enc, key_schedule(self.kem(), ss.as_bytes(), info)?))
    }

    /// X-Wing SetupBaseS(pkR, info) with the X25519 half computed by the caller: for a fresh
    /// ephemeral X25519 scalar `ek_X`, `ct_x = X25519(ek_X, 9)` and `ss_x = X25519(ek_X, pk_X)`
    /// (`pk_X` = the last 32 bytes of pkR). ML-KEM-768 keys: [`Error::UnsupportedKem`].
    pub fn setup_base_s_with_x25519(&self, ct_x: &[u8], ss_x: &[u8], info: &[u8]) -> Result<(Vec<u8>, Context), Error> {
        match self {
            PublicKey::XWing(pk) => {
                let (ct, ss) = pk.encapsulate_with_x25519(ct_x, ss_x)?;
                Ok((ct.to_vec(), key_schedule(Kem::XWing, ss.as_bytes(), info)?))
            }
            PublicKey::MlKem768(_) => Err(Error::UnsupportedKem(Kem::MLKEM768_ID)),
        }
    }

    /// SetupBaseS with caller-given `ikmE` (tests only).
    #[cfg(feature = "hazmat")]
    pub fn setup_base_s_derand(&self, info: &[u8], ikm_e: &[u8]) -> Result<(Vec<u8>, Context), Error> {
        let (ss, enc) = self.encap_internal(ikm_e)?;
        Ok((enc, key_schedule(self.kem(), ss.as_bytes(), info)?))
    }
}
