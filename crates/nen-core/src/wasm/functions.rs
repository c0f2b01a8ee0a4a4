//! The stateless HPKE functions of the Wasm API: `generate_key_pair` / `derive_key_pair`
//! (RFC 9180 §4, draft-ietf-hpke-pq `DeriveKeyPair`), SetupBaseS then Export (§5.1.1, §5.3) and
//! single-shot SealBase (§6.1), each with an X-Wing variant taking the X25519 half computed by
//! the caller.
//!
//! Pitfalls:
//! - Every call parses and validates pkR again: for repeated seals to one key use `SenderKey`.
//! - The X25519 variants reject an all-zero `ss_x` (`NEN_CRYPTO_KEY`): the caller must pass the
//!   real shared value, never a placeholder.

use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::keys::SenderKey;
use super::results::{KeyPair, SenderExport, key_pair};
use super::{js, kem, len};
use crate::hpke::{Kem, PublicKey};

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
