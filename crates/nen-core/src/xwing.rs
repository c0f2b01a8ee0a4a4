//! X-Wing, the MLKEM768-X25519 hybrid KEM (draft-connolly-cfrg-xwing-kem; HPKE KEM id 0x647a in
//! draft-ietf-hpke-pq, where Go's `crypto/hpke` calls it MLKEM768-X25519).
//!
//! - Keys: the private key is a 32-byte seed `sk`; `SHAKE256(sk, 96)` expands to the ML-KEM-768
//!   seed `d || z` (64 bytes) and the X25519 scalar `sk_X` (32 bytes); the public key is
//!   `pk_M (1184) || pk_X (32)` = 1216 bytes.
//! - Encaps: with randomness `eseed = m (32) || ek_X (32)`: `(ct_M, ss_M) = ML-KEM.Encaps(pk_M, m)`,
//!   `ct_X = X25519(ek_X, 9)`, `ss_X = X25519(ek_X, pk_X)`; ciphertext `ct_M || ct_X` (1120 bytes).
//! - Decaps: `ss_M = ML-KEM.Decaps(dk_M, ct_M)`, `ss_X = X25519(sk_X, ct_X)`.
//! - Combiner: `ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel)`, label `\.//^\`.
//!
//! Pitfalls:
//! - The expanded key material (ML-KEM `dk`, `sk_X`, `pk_X`) is derived once per
//!   [`DecapsulationKey`], not per decapsulation (the `x-wing` 0.1.1 crate re-expands every time).
//! - X25519 results that are all zero (low-order points) are rejected with
//!   [`Error::InvalidKey`], as Go's `crypto/ecdh`, `@noble/curves` and OpenSSL do, so every Nen
//!   backend agrees; the X-Wing draft itself does not require the check.
//! - Decapsulation of a modified ML-KEM part yields a different key (implicit rejection), never
//!   an error: key confirmation above this layer must catch it.
//! - X25519 base-point multiplications use curve25519-dalek's radix-16 `EdwardsBasepointTable`
//!   (~3x faster in Wasm than a ladder), built once per process on first use ([`x25519_base`])
//!   instead of dalek's compiled-in `ED25519_BASEPOINT_TABLE`: the same table and arithmetic, but
//!   ~30 KB less data (≈ 29 KB gzip) in the Wasm module; the first call pays ~one ladder more.
//!   `encapsulate_with_x25519` / `decapsulate_with_x25519` take the X25519
//!   half from the caller instead (Node's OpenSSL X25519 is ~2x faster than dalek in Wasm):
//!   the caller must compute exactly the X-Wing values; the all-zero check still runs here.
//! - The field arithmetic is curve25519-dalek's default on wasm32 (`FieldElement2625`, 32-bit
//!   limbs): the u64 backend (`--cfg curve25519_dalek_bits="64"`) measured 2.2x slower in Wasm
//!   (no 64x64->128 multiply), the fiat backend 4 % faster for +4.8 KB, more inlining 2x slower
//!   (bench/README.md "Handshake, X25519 and glue").

use std::sync::OnceLock;

use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;
use curve25519_dalek::edwards::EdwardsBasepointTable;
use curve25519_dalek::traits::BasepointTable;
use subtle::ConstantTimeEq;
use x25519_dalek::{PublicKey as X25519Public, StaticSecret};
use zeroize::Zeroize;

use crate::error::{Error, fill_random};
use crate::mlkem768;
use crate::secret::SecretBytes;

/// The X-Wing label `\.//^\` (6 bytes).
pub const LABEL: &[u8; 6] = b"\\.//^\\";
/// Public (encapsulation) key length: ML-KEM-768 ek (1184) || X25519 point (32).
pub const PUBLIC_KEY_LEN: usize = mlkem768::ENCAPSULATION_KEY_LEN + 32;
/// Private key (seed) length.
pub const SEED_LEN: usize = 32;
/// Ciphertext length: ML-KEM-768 ciphertext (1088) || X25519 point (32).
pub const CIPHERTEXT_LEN: usize = mlkem768::CIPHERTEXT_LEN + 32;
/// Shared secret length.
pub const SHARED_SECRET_LEN: usize = 32;
/// Encapsulation randomness length: `m` (32) || `ek_X` (32).
pub const ENCAPS_RANDOMNESS_LEN: usize = 64;

/// A validated X-Wing public key.
#[derive(Clone)]
pub struct EncapsulationKey {
    pk_m: mlkem768::EncapsulationKey,
    pk_x: [u8; 32],
}

impl core::fmt::Debug for EncapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("xwing::EncapsulationKey(1216 bytes)")
    }
}

/// X25519(k, u) with the all-zero (low-order) result rejected.
// One shared body for its callers, not a copy inlined in each (Wasm size: README "Wasm size").
#[inline(never)]
fn x25519(k: &StaticSecret, u: [u8; 32]) -> Result<SecretBytes<32>, Error> {
    let shared = k.diffie_hellman(&X25519Public::from(u));
    if !shared.was_contributory() {
        return Err(Error::InvalidKey("X25519 share is a low-order point"));
    }
    Ok(SecretBytes::new(shared.to_bytes()))
}

/// X25519(k, 9) (RFC 7748 §6.1 public key): `[clamp(k)]B` on Edwards25519 through a base-point
/// table built on first use, mapped to its Montgomery u-coordinate (as x25519-dalek's
/// `PublicKey::from` does with the compiled-in table). Constant time in `k`.
// One shared body for its callers, not a copy inlined in each (Wasm size: README "Wasm size").
#[inline(never)]
fn x25519_base(k: &[u8; 32]) -> [u8; 32] {
    static TABLE: OnceLock<EdwardsBasepointTable> = OnceLock::new();
    let table = TABLE.get_or_init(|| EdwardsBasepointTable::create(&ED25519_BASEPOINT_POINT));
    table.mul_base_clamped(*k).to_montgomery().to_bytes()
}

/// A 32-byte X25519 value from a slice (`what` names it in the length error).
fn x25519_bytes(what: &'static str, b: &[u8]) -> Result<[u8; 32], Error> {
    b.try_into().map_err(|_| Error::InvalidLength { what, expected: 32, actual: b.len(), at_most: false })
}

/// A caller-computed X25519 shared secret, with the all-zero (low-order) result rejected in
/// constant time, as [`x25519`] does.
fn x25519_share(ss_x: &[u8]) -> Result<SecretBytes<32>, Error> {
    let ss = SecretBytes::new(x25519_bytes("X25519 shared secret", ss_x)?);
    if bool::from(ss.as_bytes().ct_eq(&[0u8; 32])) {
        return Err(Error::InvalidKey("X25519 share is a low-order point"));
    }
    Ok(ss)
}

/// SHA3-256(ss_M || ss_X || ct_X || pk_X || label).
// One shared body for its callers, not a copy inlined in each (Wasm size: README "Wasm size").
#[inline(never)]
fn combiner(ss_m: &[u8; 32], ss_x: &[u8; 32], ct_x: &[u8; 32], pk_x: &[u8; 32]) -> SecretBytes<SHARED_SECRET_LEN> {
    let mut input = [0u8; 32 * 4 + 6];
    input[..32].copy_from_slice(ss_m);
    input[32..64].copy_from_slice(ss_x);
    input[64..96].copy_from_slice(ct_x);
    input[96..128].copy_from_slice(pk_x);
    input[128..].copy_from_slice(LABEL);
    let ss = SecretBytes::new(libcrux_sha3::sha256(&input));
    input.zeroize();
    ss
}

impl EncapsulationKey {
    /// Parses a 1216-byte public key; the ML-KEM part must pass the FIPS 203 modulus check.
    pub fn from_bytes(pk: &[u8]) -> Result<Self, Error> {
        Error::check_len("X-Wing public key", PUBLIC_KEY_LEN, pk.len())?;
        let (m, x) = pk.split_at(mlkem768::ENCAPSULATION_KEY_LEN);
        let pk_m = mlkem768::EncapsulationKey::from_bytes(m)?;
        let mut pk_x = [0u8; 32];
        pk_x.copy_from_slice(x);
        Ok(Self { pk_m, pk_x })
    }

    /// The 1216 encoded bytes.
    pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LEN] {
        let mut out = [0u8; PUBLIC_KEY_LEN];
        out[..mlkem768::ENCAPSULATION_KEY_LEN].copy_from_slice(self.pk_m.as_bytes());
        out[mlkem768::ENCAPSULATION_KEY_LEN..].copy_from_slice(&self.pk_x);
        out
    }

    /// X-Wing Encaps with fresh randomness.
    pub fn encapsulate(&self) -> Result<([u8; CIPHERTEXT_LEN], SecretBytes<SHARED_SECRET_LEN>), Error> {
        let mut eseed = SecretBytes::<ENCAPS_RANDOMNESS_LEN>::zero();
        fill_random(eseed.as_mut())?;
        self.encapsulate_internal(eseed.as_bytes())
    }

    /// X-Wing EncapsulateDerand(pk, eseed = m || ek_X).
    pub(crate) fn encapsulate_internal(
        &self,
        eseed: &[u8; ENCAPS_RANDOMNESS_LEN],
    ) -> Result<([u8; CIPHERTEXT_LEN], SecretBytes<SHARED_SECRET_LEN>), Error> {
        let mut m = [0u8; 32];
        m.copy_from_slice(&eseed[..32]);
        let mut ek = [0u8; 32];
        ek.copy_from_slice(&eseed[32..]);
        let (ct_m, ss_m) = self.pk_m.encapsulate_internal(&m);
        m.zeroize();
        let ct_x = x25519_base(&ek);
        let ek_x = StaticSecret::from(ek);
        ek.zeroize();
        let ss_x = x25519(&ek_x, self.pk_x)?;
        let ss = combiner(ss_m.as_bytes(), ss_x.as_bytes(), &ct_x, &self.pk_x);
        let mut ct = [0u8; CIPHERTEXT_LEN];
        ct[..mlkem768::CIPHERTEXT_LEN].copy_from_slice(&ct_m);
        ct[mlkem768::CIPHERTEXT_LEN..].copy_from_slice(&ct_x);
        Ok((ct, ss))
    }

    /// The X25519 part `pk_X` of the key.
    pub fn x25519_public(&self) -> &[u8; 32] {
        &self.pk_x
    }

    /// X-Wing Encaps with the X25519 half computed by the caller (a native X25519 such as
    /// OpenSSL's through `node:crypto`): for a fresh ephemeral scalar `ek_X` the caller drew,
    /// `ct_x = X25519(ek_X, 9)` and `ss_x = X25519(ek_X, pk_X)`; the ML-KEM half draws its own
    /// `m`. An all-zero `ss_x` (low-order `pk_X`) is rejected as [`Error::InvalidKey`].
    pub fn encapsulate_with_x25519(
        &self,
        ct_x: &[u8],
        ss_x: &[u8],
    ) -> Result<([u8; CIPHERTEXT_LEN], SecretBytes<SHARED_SECRET_LEN>), Error> {
        let ct_x = x25519_bytes("X25519 ciphertext share", ct_x)?;
        let ss_x = x25519_share(ss_x)?;
        let mut m = SecretBytes::<{ mlkem768::ENCAPS_RANDOMNESS_LEN }>::zero();
        fill_random(m.as_mut())?;
        let (ct_m, ss_m) = self.pk_m.encapsulate_internal(m.as_bytes());
        let ss = combiner(ss_m.as_bytes(), ss_x.as_bytes(), &ct_x, &self.pk_x);
        let mut ct = [0u8; CIPHERTEXT_LEN];
        ct[..mlkem768::CIPHERTEXT_LEN].copy_from_slice(&ct_m);
        ct[mlkem768::CIPHERTEXT_LEN..].copy_from_slice(&ct_x);
        Ok((ct, ss))
    }

    /// Deterministic encapsulation with caller-given `eseed = m || ek_X` (tests and vectors only).
    #[cfg(feature = "hazmat")]
    pub fn encapsulate_derand(
        &self,
        eseed: &[u8],
    ) -> Result<([u8; CIPHERTEXT_LEN], SecretBytes<SHARED_SECRET_LEN>), Error> {
        let eseed: &[u8; ENCAPS_RANDOMNESS_LEN] = eseed.try_into().map_err(|_| Error::InvalidLength {
            what: "X-Wing encapsulation randomness",
            expected: ENCAPS_RANDOMNESS_LEN,
            actual: eseed.len(),
            at_most: false,
        })?;
        self.encapsulate_internal(eseed)
    }
}

/// An X-Wing private key with its key material expanded once. Zeroized on drop.
pub struct DecapsulationKey {
    seed: SecretBytes<SEED_LEN>,
    dk_m: mlkem768::DecapsulationKey,
    sk_x: StaticSecret,
    public: EncapsulationKey,
}

impl core::fmt::Debug for DecapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("xwing::DecapsulationKey(hidden)")
    }
}

impl zeroize::ZeroizeOnDrop for DecapsulationKey {}

impl DecapsulationKey {
    /// X-Wing key derivation from the 32-byte seed (expandDecapsulationKey).
    pub fn from_seed(seed: &[u8; SEED_LEN]) -> Self {
        let mut expanded = SecretBytes::new(libcrux_sha3::shake256::<96>(seed));
        let mut d_z = [0u8; mlkem768::SEED_LEN];
        d_z.copy_from_slice(&expanded.as_bytes()[..64]);
        let mut x = [0u8; 32];
        x.copy_from_slice(&expanded.as_bytes()[64..]);
        expanded.zeroize();
        let (dk_m, pk_m) = mlkem768::DecapsulationKey::from_seed(&d_z);
        d_z.zeroize();
        let pk_x = x25519_base(&x);
        let sk_x = StaticSecret::from(x);
        x.zeroize();
        Self { seed: SecretBytes::new(*seed), dk_m, sk_x, public: EncapsulationKey { pk_m, pk_x } }
    }

    /// A fresh key from the system CSPRNG.
    pub fn generate() -> Result<Self, Error> {
        let mut seed = SecretBytes::<SEED_LEN>::zero();
        fill_random(seed.as_mut())?;
        Ok(Self::from_seed(seed.as_bytes()))
    }

    /// The 32-byte seed (the serialized private key).
    pub fn seed(&self) -> &[u8; SEED_LEN] {
        self.seed.as_bytes()
    }

    /// The public key.
    pub fn public_key(&self) -> &EncapsulationKey {
        &self.public
    }

    /// X-Wing Decaps. Wrong length or a low-order X25519 share is an error; a modified ML-KEM
    /// ciphertext yields a different (implicitly rejected) key.
    pub fn decapsulate(&self, ct: &[u8]) -> Result<SecretBytes<SHARED_SECRET_LEN>, Error> {
        Error::check_len("X-Wing ciphertext", CIPHERTEXT_LEN, ct.len())?;
        let (ct_m, ct_x) = ct.split_at(mlkem768::CIPHERTEXT_LEN);
        let mut ct_x_arr = [0u8; 32];
        ct_x_arr.copy_from_slice(ct_x);
        let ss_m = self.dk_m.decapsulate(ct_m)?;
        let ss_x = x25519(&self.sk_x, ct_x_arr)?;
        Ok(combiner(ss_m.as_bytes(), ss_x.as_bytes(), &ct_x_arr, &self.public.pk_x))
    }

    /// The X25519 scalar `sk_X` expanded from the seed (unclamped, as X25519 clamps it). Secret:
    /// for handing the X25519 half of decapsulation to a native X25519.
    pub fn x25519_secret(&self) -> SecretBytes<32> {
        SecretBytes::new(self.sk_x.to_bytes())
    }

    /// X-Wing Decaps with the X25519 half computed by the caller:
    /// `ss_x = X25519(sk_X, ct_X)`, `ct_X` being the last 32 bytes of `ct`. Wrong lengths and an
    /// all-zero `ss_x` are errors, as in [`DecapsulationKey::decapsulate`].
    pub fn decapsulate_with_x25519(&self, ct: &[u8], ss_x: &[u8]) -> Result<SecretBytes<SHARED_SECRET_LEN>, Error> {
        Error::check_len("X-Wing ciphertext", CIPHERTEXT_LEN, ct.len())?;
        let (ct_m, ct_x) = ct.split_at(mlkem768::CIPHERTEXT_LEN);
        let ct_x = x25519_bytes("X25519 ciphertext share", ct_x)?;
        let ss_x = x25519_share(ss_x)?;
        let ss_m = self.dk_m.decapsulate(ct_m)?;
        Ok(combiner(ss_m.as_bytes(), ss_x.as_bytes(), &ct_x, &self.public.pk_x))
    }
}
