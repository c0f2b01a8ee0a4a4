//! HPKE (RFC 9180) in base mode for the Nen suites: KEM × HKDF-SHA256 (0x0001) ×
//! ChaCha20-Poly1305 (0x0003), with the post-quantum KEMs of draft-ietf-hpke-pq:
//!
//! | KEM | id | Nsk (seed) | Npk | Nenc | Nsecret |
//! |---|---|---|---|---|---|
//! | X-Wing (MLKEM768-X25519) | 0x647a | 32 | 1216 | 1120 | 32 |
//! | ML-KEM-768 | 0x0041 | 64 (`d || z`) | 1184 | 1088 | 32 |
//!
//! Implements: §4 `LabeledExtract` / `LabeledExpand` with the `"HPKE-v1"` prefix; the
//! draft-ietf-hpke-pq `DeriveKeyPair(ikm)` = SHAKE256 `LabeledDerive(ikm, "DeriveKeyPair", "", Nsk)`
//! with suite id `"KEM" || I2OSP(kem_id, 2)`; §5.1 `KeySchedule` (mode_base, empty PSK);
//! §5.2 `Seal`/`Open` with `ComputeNonce` and sequence numbers; §5.3 `Export`.
//! For both KEMs the KEM shared secret is used directly (no DHKEM `ExtractAndExpand`).
//!
//! Pitfalls:
//! - The sequence number only advances after a successful `Open` (§5.2); a context must not be
//!   used from two places at once.
//! - `Export` length is at most 255 × 32 = 8160 bytes (HKDF-SHA256 limit).
//! - Private keys are seeds; the expanded key material is derived once per [`PrivateKey`].
//! - Deterministic encapsulation (caller-given `ikmE`) exists only with the `hazmat` feature.

use crate::aead::{self, Aead, NONCE_LEN};
use crate::error::{Error, fill_random};
use crate::hkdf::{HKDF_SHA256_MAX_OUTPUT, hkdf_expand_into};
use crate::secret::SecretBytes;
use crate::sha256::{SHA256_LEN, hmac_sha256_parts};
use crate::{mlkem768, xwing};
use zeroize::{Zeroize, Zeroizing};

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
    fn kem_suite_id(self) -> [u8; 5] {
        let id = self.id().to_be_bytes();
        [b'K', b'E', b'M', id[0], id[1]]
    }

    /// The HPKE suite id of `kem` × HKDF-SHA256 × ChaCha20-Poly1305.
    pub fn suite_id(self) -> [u8; 10] {
        suite_id(self.id(), KDF_HKDF_SHA256, AEAD_CHACHA20_POLY1305)
    }

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

/// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm).
pub fn labeled_extract(suite_id: &[u8], salt: &[u8], label: &[u8], ikm: &[u8]) -> [u8; SHA256_LEN] {
    // HKDF-Extract(salt, IKM) = HMAC-SHA256(salt, IKM) (RFC 5869 §2.2).
    hmac_sha256_parts(salt, &[b"HPKE-v1", suite_id, label, ikm])
}

/// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L).
pub fn labeled_expand_into(
    suite_id: &[u8],
    prk: &[u8],
    label: &[u8],
    info: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    Error::check_max("HPKE LabeledExpand length", HKDF_SHA256_MAX_OUTPUT, out.len())?;
    let l = (out.len() as u16).to_be_bytes();
    hkdf_expand_into(prk, &[&l, b"HPKE-v1", suite_id, label, info], out)
}

/// The HPKE context of RFC 9180 §5.1: AEAD key, base nonce, sequence number, exporter secret.
pub struct Context {
    aead: Aead,
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    key: SecretBytes<{ aead::KEY_LEN }>,
    base_nonce: [u8; NONCE_LEN],
    exporter_secret: SecretBytes<SHA256_LEN>,
    seq: u64,
    suite_id: [u8; 10],
}

impl core::fmt::Debug for Context {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "hpke::Context(seq {}, keys hidden)", self.seq)
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        self.base_nonce.zeroize();
    }
}

/// HPKE suite id `"HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)`.
pub fn suite_id(kem_id: u16, kdf_id: u16, aead_id: u16) -> [u8; 10] {
    let (k, f, a) = (kem_id.to_be_bytes(), kdf_id.to_be_bytes(), aead_id.to_be_bytes());
    [b'H', b'P', b'K', b'E', k[0], k[1], f[0], f[1], a[0], a[1]]
}

/// The KeySchedule of RFC 9180 §5.1 for mode_base with HKDF-SHA256, any suite id: fills `key`
/// (Nk = `key.len()`) and returns `(base_nonce, exporter_secret)`.
fn key_schedule_secrets(
    suite_id: &[u8; 10],
    shared_secret: &[u8],
    info: &[u8],
    key: &mut [u8],
) -> Result<([u8; NONCE_LEN], SecretBytes<SHA256_LEN>), Error> {
    let psk_id_hash = labeled_extract(suite_id, b"", b"psk_id_hash", b"");
    let info_hash = labeled_extract(suite_id, b"", b"info_hash", info);
    let mut ks_context = [0u8; 1 + 2 * SHA256_LEN];
    ks_context[0] = MODE_BASE;
    ks_context[1..33].copy_from_slice(&psk_id_hash);
    ks_context[33..].copy_from_slice(&info_hash);
    // secret = LabeledExtract(shared_secret, "secret", psk = "").
    let secret = SecretBytes::new(labeled_extract(suite_id, shared_secret, b"secret", b""));
    labeled_expand_into(suite_id, secret.as_bytes(), b"key", &ks_context, key)?;
    let mut base_nonce = [0u8; NONCE_LEN];
    labeled_expand_into(suite_id, secret.as_bytes(), b"base_nonce", &ks_context, &mut base_nonce)?;
    let mut exporter_secret = SecretBytes::<SHA256_LEN>::zero();
    labeled_expand_into(suite_id, secret.as_bytes(), b"exp", &ks_context, exporter_secret.as_mut())?;
    Ok((base_nonce, exporter_secret))
}

/// Export from an exporter secret: LabeledExpand(exporter_secret, "sec", exporter_context, L).
fn export_from_secret(
    suite_id: &[u8; 10],
    exporter_secret: &[u8],
    exporter_context: &[u8],
    length: usize,
) -> Result<Vec<u8>, Error> {
    Error::check_max("HPKE export length", HKDF_SHA256_MAX_OUTPUT, length)?;
    let mut out = vec![0u8; length];
    labeled_expand_into(suite_id, exporter_secret, b"sec", exporter_context, &mut out)?;
    Ok(out)
}

fn context_for_suite(suite_id: [u8; 10], shared_secret: &[u8], info: &[u8]) -> Result<Context, Error> {
    let mut key = SecretBytes::<{ aead::KEY_LEN }>::zero();
    let (base_nonce, exporter_secret) = key_schedule_secrets(&suite_id, shared_secret, info, key.as_mut())?;
    Ok(Context { aead: Aead::new(key.as_bytes())?, key, base_nonce, exporter_secret, seq: 0, suite_id })
}

/// KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = "") (RFC 9180 §5.1) for
/// `kem` × HKDF-SHA256 × ChaCha20-Poly1305.
pub fn key_schedule(kem: Kem, shared_secret: &[u8], info: &[u8]) -> Result<Context, Error> {
    context_for_suite(kem.suite_id(), shared_secret, info)
}

/// The key schedule for any KEM id with HKDF-SHA256 × ChaCha20-Poly1305 (the RFC 9180 DHKEM
/// vectors drive it with a test-side DHKEM(X25519)). Tests only.
#[cfg(feature = "hazmat")]
pub fn key_schedule_for_kem_id(kem_id: u16, shared_secret: &[u8], info: &[u8]) -> Result<Context, Error> {
    context_for_suite(suite_id(kem_id, KDF_HKDF_SHA256, AEAD_CHACHA20_POLY1305), shared_secret, info)
}

/// `(key, base_nonce, exporter_secret)` from [`raw_key_schedule`].
pub type RawKeySchedule = (Zeroizing<Vec<u8>>, [u8; NONCE_LEN], SecretBytes<SHA256_LEN>);

/// The key schedule for any suite with HKDF-SHA256 whose AEAD runs elsewhere (OHTTP's AES-GCM
/// suites in `@nen/core`, through [`crate::kem`]; the ML-KEM-768 × AES-128-GCM entry of
/// hpke-pq.json): returns `(key of nk bytes, base_nonce, exporter_secret)`.
pub fn raw_key_schedule(
    suite_id: &[u8; 10],
    shared_secret: &[u8],
    info: &[u8],
    nk: usize,
) -> Result<RawKeySchedule, Error> {
    let mut key = Zeroizing::new(vec![0u8; nk]);
    let (nonce, exp) = key_schedule_secrets(suite_id, shared_secret, info, &mut key)?;
    Ok((key, nonce, exp))
}

/// Export(exporter_context, L) from a raw exporter secret and suite id. Tests only.
#[cfg(feature = "hazmat")]
pub fn raw_export(
    suite_id: &[u8; 10],
    exporter_secret: &[u8],
    exporter_context: &[u8],
    length: usize,
) -> Result<Vec<u8>, Error> {
    export_from_secret(suite_id, exporter_secret, exporter_context, length)
}

impl Context {
    /// Export(exporter_context, L) (RFC 9180 §5.3), L ≤ 8160.
    pub fn export(&self, exporter_context: &[u8], length: usize) -> Result<Vec<u8>, Error> {
        export_from_secret(&self.suite_id, self.exporter_secret.as_bytes(), exporter_context, length)
    }

    fn next_nonce(&self) -> Result<[u8; NONCE_LEN], Error> {
        if self.seq == u64::MAX {
            return Err(Error::MessageLimitReached);
        }
        Ok(aead::nonce_for(&self.base_nonce, self.seq))
    }

    /// ContextS.Seal(aad, pt) (RFC 9180 §5.2).
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
        let nonce = self.next_nonce()?;
        let ct = self.aead.seal(&nonce, aad, pt)?;
        self.seq += 1;
        Ok(ct)
    }

    /// ContextR.Open(aad, ct) (RFC 9180 §5.2); the sequence number advances only on success.
    pub fn open(&mut self, aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        let nonce = self.next_nonce()?;
        let pt = self.aead.open(&nonce, aad, ct)?;
        self.seq += 1;
        Ok(pt)
    }

    /// The AEAD key (tests compare it with vectors).
    #[cfg(feature = "hazmat")]
    pub fn key(&self) -> &[u8; aead::KEY_LEN] {
        self.key.as_bytes()
    }

    /// The base nonce (tests compare it with vectors).
    #[cfg(feature = "hazmat")]
    pub fn base_nonce(&self) -> &[u8; NONCE_LEN] {
        &self.base_nonce
    }

    /// The exporter secret (tests compare it with vectors).
    #[cfg(feature = "hazmat")]
    pub fn exporter_secret(&self) -> &[u8; SHA256_LEN] {
        self.exporter_secret.as_bytes()
    }
}

/// Single-shot Seal (RFC 9180 §6.1, base mode): `(enc, ct)`.
pub fn seal(pk: &PublicKey, info: &[u8], aad: &[u8], pt: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let (enc, mut ctx) = pk.setup_base_s(info)?;
    let ct = ctx.seal(aad, pt)?;
    Ok((enc, ct))
}

/// Single-shot Open (RFC 9180 §6.1, base mode).
pub fn open(sk: &PrivateKey, enc: &[u8], info: &[u8], aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
    let mut ctx = sk.setup_base_r(enc, info)?;
    ctx.open(aad, ct)
}
