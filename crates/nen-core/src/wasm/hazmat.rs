//! Deterministic entry points for the vector tests and the crypto bench, built only with the
//! `hazmat` feature (packages/core/wasm-hazmat/, never published): SetupBaseS / SealBase with
//! caller-given `ikmE` (draft-ietf-hpke-pq vectors) and the FIPS 203 ML-KEM-768 internals
//! (`KeyGen_internal`, `Encaps_internal`, `Decaps` with an expanded 2400-byte dk).
//!
//! Pitfalls:
//! - Caller-given randomness breaks every security property: nothing outside tests may call
//!   these; the shipped build's exports are checked for `hazmat_` by build-wasm.sh.
//! - The ML-KEM private keys here are the expanded 2400-byte `dk`, not HPKE's 64-byte seed.

use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::results::{KeyPair, SenderExport};
use super::{enc_then_ct, js, kem, len};
use crate::error::Error;
use crate::hpke::PublicKey;

/// SetupBaseS with caller-given `ikm_e` (X-Wing: `m || ek_X`, 64 bytes; ML-KEM-768: `m`,
/// 32 bytes), then Export. Vectors only.
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

fn mlkem_pair(dk: &crate::mlkem768::DecapsulationKey, ek: &crate::mlkem768::EncapsulationKey) -> KeyPair {
    KeyPair { public_key: ek.as_bytes().to_vec(), private_key: Zeroizing::new(dk.expanded_bytes().to_vec()) }
}

/// FIPS 203 ML-KEM.KeyGen_internal(d, z): public = ek (1184), private = dk (2400). Vectors only.
#[wasm_bindgen]
pub fn hazmat_mlkem768_keygen(d: &[u8], z: &[u8]) -> Result<KeyPair, JsError> {
    let (dk, ek) = crate::mlkem768::keygen_derand(d, z).map_err(js)?;
    Ok(mlkem_pair(&dk, &ek))
}

/// ML-KEM-768 key generation from the 64-byte seed `d || z`: public = ek, private = dk (2400).
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
#[wasm_bindgen]
pub fn hazmat_mlkem768_encaps(ek: &[u8], m: &[u8]) -> Result<SenderExport, JsError> {
    let ek = crate::mlkem768::EncapsulationKey::from_bytes(ek).map_err(js)?;
    let (c, k) = ek.encapsulate_derand(m).map_err(js)?;
    Ok(SenderExport { enc: c.to_vec(), exported: Zeroizing::new(k.as_bytes().to_vec()) })
}

/// FIPS 203 ML-KEM.Decaps(dk, c) with an expanded 2400-byte dk: rejects wrong lengths and a
/// failing hash check (§7.3). Vectors only.
#[wasm_bindgen]
pub fn hazmat_mlkem768_decaps(dk: &[u8], c: &[u8]) -> Result<Vec<u8>, JsError> {
    let dk = crate::mlkem768::DecapsulationKey::from_expanded_bytes(dk).map_err(js)?;
    let k = dk.decapsulate(c).map_err(js)?;
    Ok(k.as_bytes().to_vec())
}
