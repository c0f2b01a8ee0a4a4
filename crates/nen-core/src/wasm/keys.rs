//! The HPKE key objects (RFC 9180 §5.1.1, §6.1): `RecipientKey` holds a private key (seed form,
//! expanded once in Wasm) for SetupBaseR + Export and single-shot OpenBase; `SenderKey` holds a
//! validated public key for repeated single-shot SealBase. The X-Wing `*_x25519` methods take
//! the X25519 half computed by the caller (a native X25519). Their raw KEM methods are in `kem`.
//!
//! Pitfalls:
//! - `x25519_secret()` hands the secret scalar `sk_X` to JavaScript: the caller wipes it.
//! - SealBase returns `enc || ct` in one buffer; the caller splits it at the KEM's Nenc.
//! - OpenBase fails with `NEN_CRYPTO_AEAD` on a bad tag and returns no partial plaintext.

use wasm_bindgen::prelude::*;

use super::{enc_then_ct, js, kem, len};
use crate::hpke::{PrivateKey, PublicKey};

/// An HPKE recipient private key (seed form) with its key material expanded once.
#[wasm_bindgen]
pub struct RecipientKey {
    pub(super) key: PrivateKey,
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

/// A validated HPKE recipient public key, parsed once (ML-KEM matrix input checked) for repeated
/// single-shot SealBase.
#[wasm_bindgen]
pub struct SenderKey {
    pub(super) pk: PublicKey,
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
