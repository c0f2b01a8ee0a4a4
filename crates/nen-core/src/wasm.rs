//! wasm-bindgen bindings: the JavaScript API of `@nen/core`'s Wasm backend.
//!
//! Classes `Aead`, `RecipientKey`, `SenderKey`, `KeyPair`, `SenderExport`; functions `generate_key_pair`,
//! `derive_key_pair`, `setup_base_s_export`, `setup_base_s_export_x25519`, `seal_base`,
//! `seal_base_x25519`, `sha256`, `hmac_sha256`, `hkdf_extract`,
//! `hkdf_expand`; `hazmat_*` functions (deterministic, vectors only) when built with the
//! `hazmat` feature. See the crate README for the signatures. The raw KEM methods
//! (`RecipientKey.decap`, `SenderKey.encap`) live in [`kem`].
//!
//! Pitfalls:
//! - Every error is a `JsError` whose message starts with the stable code:
//!   `"NEN_CRYPTO_LENGTH: nen: X-Wing public key must be 1216 bytes (got 12)"`.
//! - JS must call `free()` on every class instance (the TS wrapper's `dispose()`); Rust drops the
//!   value, which zeroizes its secrets. Getters return copies.
//! - KEM ids and lengths arrive as JS numbers (`u32` here) and are range-checked, never truncated.
//! - Single-shot SealBase (RFC 9180 §6.1) returns `enc || ct` in one buffer (no result object
//!   to free); the caller splits it at the KEM's Nenc.

use wasm_bindgen::prelude::*;
use zeroize::{Zeroize, Zeroizing};

use crate::error::Error;
use crate::hpke::{Kem, PrivateKey, PublicKey};

mod kem;

fn js(e: Error) -> JsError {
    JsError::new(&e.coded_message())
}

fn kem(id: u32) -> Result<Kem, JsError> {
    let id16 = u16::try_from(id).map_err(|_| js(Error::UnsupportedKem(u16::MAX)))?;
    Kem::from_id(id16).map_err(js)
}

fn len(length: u32) -> usize {
    // u32 always fits usize on wasm32 and 64-bit hosts; the callee bounds-checks it.
    usize::try_from(length).unwrap_or(usize::MAX)
}

/// A ChaCha20-Poly1305 key in Wasm memory (RFC 8439).
#[wasm_bindgen(js_name = Aead)]
pub struct WasmAead(crate::aead::Aead);

#[wasm_bindgen(js_class = Aead)]
impl WasmAead {
    /// A key object from 32 bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(key: &[u8]) -> Result<WasmAead, JsError> {
        crate::aead::Aead::new(key).map(WasmAead).map_err(js)
    }

    /// Returns `ciphertext || tag`.
    pub fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, JsError> {
        self.0.seal(nonce, aad, plaintext).map_err(js)
    }

    /// Opens `ciphertext || tag`; `NEN_CRYPTO_AEAD` when the tag does not verify.
    pub fn open(&self, nonce: &[u8], aad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, JsError> {
        self.0.open(nonce, aad, ciphertext).map_err(js)
    }
}

/// An HPKE recipient private key (seed form) with its key material expanded once.
#[wasm_bindgen]
pub struct RecipientKey {
    key: PrivateKey,
    public_key: Vec<u8>,
}

#[wasm_bindgen]
impl RecipientKey {
    /// Loads the Nsk-byte private key (seed) for `kem_id`.
    #[wasm_bindgen(constructor)]
    pub fn new(kem_id: u32, private_key: &[u8]) -> Result<RecipientKey, JsError> {
        let key = PrivateKey::from_bytes(kem(kem_id)?, private_key).map_err(js)?;
        let public_key = key.public_key_bytes();
        Ok(RecipientKey { key, public_key })
    }

    /// The matching public key.
    #[wasm_bindgen(getter)]
    pub fn public_key(&self) -> Vec<u8> {
        self.public_key.clone()
    }

    /// SetupBaseR(enc, skR, info) then Export(exporter_context, length).
    pub fn setup_base_r_export(
        &self,
        enc: &[u8],
        info: &[u8],
        exporter_context: &[u8],
        length: u32,
    ) -> Result<Vec<u8>, JsError> {
        let ctx = self.key.setup_base_r(enc, info).map_err(js)?;
        ctx.export(exporter_context, len(length)).map_err(js)
    }

    /// X-Wing keys: the X25519 scalar `sk_X` (a copy; secret), for a native X25519 that then
    /// feeds [`RecipientKey::setup_base_r_export_x25519`]. ML-KEM-768 keys: `NEN_CRYPTO_UNSUPPORTED`.
    pub fn x25519_secret(&self) -> Result<Vec<u8>, JsError> {
        Ok(self.key.xwing_x25519_secret().map_err(js)?.as_bytes().to_vec())
    }

    /// X-Wing SetupBaseR then Export, with `ss_x = X25519(sk_X, enc[1088..])` computed by the
    /// caller: ML-KEM-768 decapsulation (unpacked key), combiner, key schedule and export in one call.
    pub fn setup_base_r_export_x25519(
        &self,
        enc: &[u8],
        ss_x: &[u8],
        info: &[u8],
        exporter_context: &[u8],
        length: u32,
    ) -> Result<Vec<u8>, JsError> {
        let ctx = self.key.setup_base_r_with_x25519(enc, ss_x, info).map_err(js)?;
        ctx.export(exporter_context, len(length)).map_err(js)
    }

    /// Single-shot OpenBase(enc, skR, info, aad, ct) (RFC 9180 §6.1): `NEN_CRYPTO_AEAD` when the
    /// tag does not verify.
    pub fn open_base(&self, enc: &[u8], info: &[u8], aad: &[u8], ct: &[u8]) -> Result<Vec<u8>, JsError> {
        crate::hpke::open(&self.key, enc, info, aad, ct).map_err(js)
    }

    /// X-Wing OpenBase with `ss_x = X25519(sk_X, enc[1088..])` computed by the caller.
    pub fn open_base_x25519(
        &self,
        enc: &[u8],
        ss_x: &[u8],
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
    ) -> Result<Vec<u8>, JsError> {
        let mut ctx = self.key.setup_base_r_with_x25519(enc, ss_x, info).map_err(js)?;
        ctx.open(aad, ct).map_err(js)
    }
}

fn enc_then_ct(enc: Vec<u8>, ct: Vec<u8>) -> Vec<u8> {
    let mut out = enc;
    out.extend_from_slice(&ct);
    out
}

/// A validated HPKE recipient public key, parsed once (ML-KEM matrix input checked) for repeated
/// single-shot SealBase.
#[wasm_bindgen]
pub struct SenderKey {
    pk: PublicKey,
}

#[wasm_bindgen]
impl SenderKey {
    /// Parses and validates the Npk-byte public key for `kem_id`.
    #[wasm_bindgen(constructor)]
    pub fn new(kem_id: u32, public_key: &[u8]) -> Result<SenderKey, JsError> {
        Ok(SenderKey { pk: PublicKey::from_bytes(kem(kem_id)?, public_key).map_err(js)? })
    }

    /// SealBase(pkR, info, aad, pt) (RFC 9180 §6.1): `enc || ct`.
    pub fn seal_base(&self, info: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, JsError> {
        let (enc, ct) = crate::hpke::seal(&self.pk, info, aad, pt).map_err(js)?;
        Ok(enc_then_ct(enc, ct))
    }

    /// X-Wing SealBase with the X25519 half computed by the caller (see
    /// [`setup_base_s_export_x25519`]): `enc || ct`.
    pub fn seal_base_x25519(
        &self,
        ct_x: &[u8],
        ss_x: &[u8],
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
    ) -> Result<Vec<u8>, JsError> {
        let (enc, mut ctx) = self.pk.setup_base_s_with_x25519(ct_x, ss_x, info).map_err(js)?;
        let ct = ctx.seal(aad, pt).map_err(js)?;
        Ok(enc_then_ct(enc, ct))
    }
}

/// A key pair: public key and private key (HPKE seed form; for `hazmat_mlkem768_*` the 2400-byte
/// expanded `dk`). The private key is zeroized on `free()`.
#[wasm_bindgen]
pub struct KeyPair {
    public_key: Vec<u8>,
    private_key: Zeroizing<Vec<u8>>,
}

#[wasm_bindgen]
impl KeyPair {
    /// The public key.
    #[wasm_bindgen(getter)]
    pub fn public_key(&self) -> Vec<u8> {
        self.public_key.clone()
    }

    /// The private key (a copy). Secret.
    #[wasm_bindgen(getter)]
    pub fn private_key(&self) -> Vec<u8> {
        self.private_key.to_vec()
    }
}

fn key_pair(key: &PrivateKey) -> KeyPair {
    KeyPair { public_key: key.public_key_bytes(), private_key: key.to_bytes() }
}

/// The sender's side of a handshake: `enc` and the exported secret (zeroized on `free()`).
#[wasm_bindgen]
pub struct SenderExport {
    enc: Vec<u8>,
    exported: Zeroizing<Vec<u8>>,
}

#[wasm_bindgen]
impl SenderExport {
    /// The KEM encapsulation (HPKE `enc`).
    #[wasm_bindgen(getter)]
    pub fn enc(&self) -> Vec<u8> {
        self.enc.clone()
    }

    /// The exported secret (a copy). Secret.
    #[wasm_bindgen(getter)]
    pub fn exported(&self) -> Vec<u8> {
        self.exported.to_vec()
    }
}

/// HPKE GenerateKeyPair() for `kem_id`.
#[wasm_bindgen]
pub fn generate_key_pair(kem_id: u32) -> Result<KeyPair, JsError> {
    let key = kem(kem_id)?.generate_key_pair().map_err(js)?;
    Ok(key_pair(&key))
}

/// HPKE DeriveKeyPair(ikm) for `kem_id` (draft-ietf-hpke-pq).
#[wasm_bindgen]
pub fn derive_key_pair(kem_id: u32, ikm: &[u8]) -> Result<KeyPair, JsError> {
    let key = kem(kem_id)?.derive_key_pair(ikm);
    Ok(key_pair(&key))
}

/// SetupBaseS(pkR, info) then Export(exporter_context, length). Validates pkR.
#[wasm_bindgen]
pub fn setup_base_s_export(
    kem_id: u32,
    public_key: &[u8],
    info: &[u8],
    exporter_context: &[u8],
    length: u32,
) -> Result<SenderExport, JsError> {
    let pk = PublicKey::from_bytes(kem(kem_id)?, public_key).map_err(js)?;
    let (enc, ctx) = pk.setup_base_s(info).map_err(js)?;
    let exported = Zeroizing::new(ctx.export(exporter_context, len(length)).map_err(js)?);
    Ok(SenderExport { enc, exported })
}

/// X-Wing SetupBaseS then Export with the X25519 half computed by the caller: for a fresh
/// ephemeral X25519 scalar `ek_X`, `ct_x = X25519(ek_X, 9)` and `ss_x = X25519(ek_X, pk_X)`.
/// Validates pkR (length, ML-KEM modulus check); rejects an all-zero `ss_x` (`NEN_CRYPTO_KEY`).
#[wasm_bindgen]
pub fn setup_base_s_export_x25519(
    public_key: &[u8],
    ct_x: &[u8],
    ss_x: &[u8],
    info: &[u8],
    exporter_context: &[u8],
    length: u32,
) -> Result<SenderExport, JsError> {
    let pk = PublicKey::from_bytes(Kem::XWing, public_key).map_err(js)?;
    let (enc, ctx) = pk.setup_base_s_with_x25519(ct_x, ss_x, info).map_err(js)?;
    let exported = Zeroizing::new(ctx.export(exporter_context, len(length)).map_err(js)?);
    Ok(SenderExport { enc, exported })
}

/// Single-shot SealBase(pkR, info, aad, pt) (RFC 9180 §6.1): `enc || ct`. Validates pkR.
#[wasm_bindgen]
pub fn seal_base(kem_id: u32, public_key: &[u8], info: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, JsError> {
    SenderKey::new(kem_id, public_key)?.seal_base(info, aad, pt)
}

/// X-Wing SealBase with the X25519 half computed by the caller: `enc || ct`.
#[wasm_bindgen]
pub fn seal_base_x25519(
    public_key: &[u8],
    ct_x: &[u8],
    ss_x: &[u8],
    info: &[u8],
    aad: &[u8],
    pt: &[u8],
) -> Result<Vec<u8>, JsError> {
    SenderKey::new(u32::from(Kem::XWING_ID), public_key)?.seal_base_x25519(ct_x, ss_x, info, aad, pt)
}

/// SHA-256(data).
#[wasm_bindgen]
pub fn sha256(data: &[u8]) -> Vec<u8> {
    crate::sha256::sha256(data).to_vec()
}

/// HMAC-SHA256(key, data).
#[wasm_bindgen]
pub fn hmac_sha256(key: &[u8], data: &[u8]) -> Vec<u8> {
    crate::sha256::hmac_sha256(key, data).to_vec()
}

/// HKDF-Extract(salt, ikm) (RFC 5869).
#[wasm_bindgen]
pub fn hkdf_extract(salt: &[u8], ikm: &[u8]) -> Vec<u8> {
    let mut prk = crate::hkdf::hkdf_extract(salt, ikm);
    let out = prk.to_vec();
    prk.zeroize();
    out
}

/// HKDF-Expand(prk, info, length) (RFC 5869); prk ≥ 32 bytes, length ≤ 8160.
#[wasm_bindgen]
pub fn hkdf_expand(prk: &[u8], info: &[u8], length: u32) -> Result<Vec<u8>, JsError> {
    crate::hkdf::hkdf_expand(prk, info, len(length)).map_err(js)
}

/// SetupBaseS with caller-given `ikm_e` (X-Wing: `m || ek_X`, 64 bytes; ML-KEM-768: `m`,
/// 32 bytes), then Export. Vectors only.
#[cfg(feature = "hazmat")]
#[wasm_bindgen]
pub fn hazmat_setup_base_s_export_derand(
    kem_id: u32,
    public_key: &[u8],
    info: &[u8],
    exporter_context: &[u8],
    length: u32,
    ikm_e: &[u8],
) -> Result<SenderExport, JsError> {
    let pk = PublicKey::from_bytes(kem(kem_id)?, public_key).map_err(js)?;
    let (enc, ctx) = pk.setup_base_s_derand(info, ikm_e).map_err(js)?;
    let exported = Zeroizing::new(ctx.export(exporter_context, len(length)).map_err(js)?);
    Ok(SenderExport { enc, exported })
}

/// SealBase with caller-given `ikm_e` (see [`hazmat_setup_base_s_export_derand`]): `enc || ct`.
/// Vectors only.
#[cfg(feature = "hazmat")]
#[wasm_bindgen]
pub fn hazmat_seal_base_derand(
    kem_id: u32,
    public_key: &[u8],
    info: &[u8],
    aad: &[u8],
    pt: &[u8],
    ikm_e: &[u8],
) -> Result<Vec<u8>, JsError> {
    let pk = PublicKey::from_bytes(kem(kem_id)?, public_key).map_err(js)?;
    let (enc, mut ctx) = pk.setup_base_s_derand(info, ikm_e).map_err(js)?;
    let ct = ctx.seal(aad, pt).map_err(js)?;
    Ok(enc_then_ct(enc, ct))
}

#[cfg(feature = "hazmat")]
fn mlkem_pair(dk: &crate::mlkem768::DecapsulationKey, ek: &crate::mlkem768::EncapsulationKey) -> KeyPair {
    KeyPair { public_key: ek.as_bytes().to_vec(), private_key: Zeroizing::new(dk.expanded_bytes().to_vec()) }
}

/// FIPS 203 ML-KEM.KeyGen_internal(d, z): public = ek (1184), private = dk (2400). Vectors only.
#[cfg(feature = "hazmat")]
#[wasm_bindgen]
pub fn hazmat_mlkem768_keygen(d: &[u8], z: &[u8]) -> Result<KeyPair, JsError> {
    let (dk, ek) = crate::mlkem768::keygen_derand(d, z).map_err(js)?;
    Ok(mlkem_pair(&dk, &ek))
}

/// ML-KEM-768 key generation from the 64-byte seed `d || z`: public = ek, private = dk (2400).
#[cfg(feature = "hazmat")]
#[wasm_bindgen]
pub fn hazmat_mlkem768_keygen_seed(seed: &[u8]) -> Result<KeyPair, JsError> {
    let seed: &[u8; crate::mlkem768::SEED_LEN] = seed.try_into().map_err(|_| {
        js(Error::InvalidLength {
            what: "ML-KEM-768 seed",
            expected: crate::mlkem768::SEED_LEN,
            actual: seed.len(),
            at_most: false,
        })
    })?;
    let (dk, ek) = crate::mlkem768::DecapsulationKey::from_seed(seed);
    Ok(mlkem_pair(&dk, &ek))
}

/// FIPS 203 ML-KEM.Encaps_internal(ek, m): enc = c, exported = K. Rejects an invalid ek
/// (modulus check) with `NEN_CRYPTO_KEY`. Vectors only.
#[cfg(feature = "hazmat")]
#[wasm_bindgen]
pub fn hazmat_mlkem768_encaps(ek: &[u8], m: &[u8]) -> Result<SenderExport, JsError> {
    let ek = crate::mlkem768::EncapsulationKey::from_bytes(ek).map_err(js)?;
    let (c, k) = ek.encapsulate_derand(m).map_err(js)?;
    Ok(SenderExport { enc: c.to_vec(), exported: Zeroizing::new(k.as_bytes().to_vec()) })
}

/// FIPS 203 ML-KEM.Decaps(dk, c) with an expanded 2400-byte dk: rejects wrong lengths and a
/// failing hash check (§7.3). Vectors only.
#[cfg(feature = "hazmat")]
#[wasm_bindgen]
pub fn hazmat_mlkem768_decaps(dk: &[u8], c: &[u8]) -> Result<Vec<u8>, JsError> {
    let dk = crate::mlkem768::DecapsulationKey::from_expanded_bytes(dk).map_err(js)?;
    let k = dk.decapsulate(c).map_err(js)?;
    Ok(k.as_bytes().to_vec())
}
