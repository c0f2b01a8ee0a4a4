//! The raw KEM interface (`nen_core::kem`, behind the Wasm `RecipientKey.decap` /
//! `SenderKey.encap` that `@nen/core`'s OHTTP uses) against Go's draft-ietf-hpke-pq vectors
//! (`vectors/go-hpke/hpke-pq.json`, see tests/hpke_vectors.rs): `shared_secret || enc` for the
//! vector's ikmE, Decap of the vector's enc, fresh encapsulations round-trip, typed errors.

mod common;
use common::*;
use nen_core::Error;
use nen_core::hpke::{Kem, PrivateKey, PublicKey};
use nen_core::kem;

fn entry(kem_id: u64) -> Value {
    let all = load("go-hpke/hpke-pq.json");
    all.as_array()
        .expect("array")
        .iter()
        .find(|v| int(v, "kem_id") == kem_id && int(v, "kdf_id") == 1 && int(v, "mode") == 0)
        .cloned()
        .expect("hpke-pq.json entry")
}

#[test]
fn raw_encap_and_decap_match_the_vectors() {
    for (id, k) in [(0x647a, Kem::XWing), (0x0041, Kem::MlKem768)] {
        let v = entry(id);
        let pk = PublicKey::from_bytes(k, &hx(&v, "pkRm")).expect("pkRm");
        let sk = PrivateKey::from_bytes(k, &hx(&v, "skRm")).expect("skRm");
        let out = kem::encap_derand(&pk, &hx(&v, "ikmE")).expect("encap");
        assert_eq!(&out[..kem::SHARED_SECRET_LEN], hx(&v, "shared_secret").as_slice(), "{id:#x} shared_secret");
        assert_eq!(&out[kem::SHARED_SECRET_LEN..], hx(&v, "enc").as_slice(), "{id:#x} enc");
        let ss = kem::decap(&sk, &hx(&v, "enc")).expect("decap");
        assert_eq!(ss.as_slice(), hx(&v, "shared_secret").as_slice(), "{id:#x} decap");
    }
}

#[test]
fn fresh_encapsulations_round_trip_and_differ() {
    for k in [Kem::XWing, Kem::MlKem768] {
        let sk = k.derive_key_pair(b"raw kem round trip");
        let pk = PublicKey::from_bytes(k, &sk.public_key_bytes()).expect("pk");
        let a = kem::encap(&pk).expect("encap");
        let b = kem::encap(&pk).expect("encap");
        assert_eq!(a.len(), kem::SHARED_SECRET_LEN + k.enc_len());
        assert_ne!(a[..], b[..], "fresh randomness per call");
        let (ss, enc) = a.split_at(kem::SHARED_SECRET_LEN);
        assert_eq!(kem::decap(&sk, enc).expect("decap").as_slice(), ss);
        // A modified ML-KEM ciphertext decapsulates (implicit rejection) to another secret.
        let mut bad = enc.to_vec();
        bad[0] ^= 1;
        assert_ne!(kem::decap(&sk, &bad).expect("implicit rejection").as_slice(), ss);
    }
}

#[test]
fn raw_decap_errors_are_typed() {
    let sk = Kem::XWing.derive_key_pair(b"raw kem errors");
    assert!(matches!(kem::decap(&sk, &[0u8; 1119]), Err(Error::InvalidLength { .. })));
    // X-Wing with a low-order X25519 share (u = 0): NEN_CRYPTO_KEY, as on the whole HPKE path.
    let pk = PublicKey::from_bytes(Kem::XWing, &sk.public_key_bytes()).expect("pk");
    let out = kem::encap(&pk).expect("encap");
    let mut enc = out[kem::SHARED_SECRET_LEN..].to_vec();
    enc[1088..].fill(0);
    assert!(matches!(kem::decap(&sk, &enc), Err(Error::InvalidKey(_))));
    let msk = Kem::MlKem768.derive_key_pair(b"raw kem errors");
    assert!(matches!(kem::decap(&msk, &[0u8; 1087]), Err(Error::InvalidLength { .. })));
}

#[test]
fn raw_setup_with_the_callers_suite_matches_the_vectors() {
    // X-Wing x ChaCha20-Poly1305 (Nk 32) and ML-KEM-768 x AES-128-GCM (Nk 16): each entry's own suite id.
    for (id, k, nk) in [(0x647a, Kem::XWing, 32), (0x0041, Kem::MlKem768, 16)] {
        let v = entry(id);
        let pk = PublicKey::from_bytes(k, &hx(&v, "pkRm")).expect("pkRm");
        let sk = PrivateKey::from_bytes(k, &hx(&v, "skRm")).expect("skRm");
        let (sid, info) = (hx(&v, "suite_id"), hx(&v, "info"));
        let expect = [hx(&v, "key"), hx(&v, "base_nonce"), hx(&v, "exporter_secret")].concat();
        assert_eq!(expect.len(), nk + 12 + 32);
        let s = kem::setup_base_s_raw_derand(&pk, &hx(&v, "ikmE"), &sid, &info, nk).expect("S");
        let enc = hx(&v, "enc");
        assert_eq!(&s[..enc.len()], enc.as_slice(), "{id:#x} enc");
        assert_eq!(&s[enc.len()..], expect.as_slice(), "{id:#x} sender key schedule");
        let r = kem::setup_base_r_raw(&sk, &enc, &sid, &info, nk).expect("R");
        assert_eq!(r.as_slice(), expect.as_slice(), "{id:#x} recipient key schedule");
        // Fresh encapsulations agree on both sides; info is bound.
        let s = kem::setup_base_s_raw(&pk, &sid, &info, nk).expect("S fresh");
        let (enc, ks) = s.split_at(k.enc_len());
        assert_eq!(kem::setup_base_r_raw(&sk, enc, &sid, &info, nk).expect("R fresh").as_slice(), ks);
        assert_ne!(kem::setup_base_r_raw(&sk, enc, &sid, b"other info", nk).expect("R other").as_slice(), ks);
    }
    let sk = Kem::XWing.derive_key_pair(b"raw setup errors");
    let pk = PublicKey::from_bytes(Kem::XWing, &sk.public_key_bytes()).expect("pk");
    assert!(matches!(kem::setup_base_s_raw(&pk, &[0u8; 9], b"", 16), Err(Error::InvalidLength { .. })));
    assert!(matches!(kem::setup_base_s_raw(&pk, &[0u8; 10], b"", 33), Err(Error::InvalidLength { .. })));
    let out = kem::encap(&pk).expect("encap");
    let enc = &out[kem::SHARED_SECRET_LEN..];
    assert!(matches!(kem::setup_base_r_raw(&sk, enc, &[0u8; 11], b"", 16), Err(Error::InvalidLength { .. })));
    assert!(matches!(kem::setup_base_r_raw(&sk, enc, &[0u8; 10], b"", 64), Err(Error::InvalidLength { .. })));
}
