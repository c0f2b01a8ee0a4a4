//! ML-KEM-768 (FIPS 203) against Wycheproof (keygen from seed, decaps, semi-expanded decaps,
//! encaps with invalid keys) and NIST ACVP (keyGen, encapDecap incl. key checks), filtered on
//! ML-KEM-768. Also: implicit rejection and key-object hygiene.

mod common;
use common::*;
use nen_core::Error;
use nen_core::hpke::{Kem, PrivateKey};
use nen_core::mlkem768::{self, DecapsulationKey, EncapsulationKey};

fn seed64(s: &[u8]) -> [u8; 64] {
    s.try_into().expect("64-byte seed")
}

#[test]
fn wycheproof_keygen_seed() {
    let file = load("wycheproof/mlkem_768_keygen_seed_test.json");
    let mut n = 0;
    for (_, t) in tests(&file) {
        let id = int(t, "tcId");
        let (dk, ek) = DecapsulationKey::from_seed(&seed64(&hx(t, "seed")));
        assert_eq!(ek.as_bytes().as_slice(), hx(t, "ek"), "tcId {id} ek");
        assert_eq!(dk.expanded_bytes().as_slice(), hx(t, "dk"), "tcId {id} dk");
        n += 1;
    }
    assert_eq!(n, 100);
}

#[test]
fn wycheproof_decaps_from_seed() {
    let file = load("wycheproof/mlkem_768_test.json");
    let (mut valid, mut invalid) = (0, 0);
    for (_, t) in tests(&file) {
        let id = int(t, "tcId");
        let (seed, c, k) = (hx(t, "seed"), hx(t, "c"), hx(t, "K"));
        // Through the HPKE private-key API (the seed is Nen's ML-KEM private key form).
        let loaded = PrivateKey::from_bytes(Kem::MlKem768, &seed);
        match st(t, "result") {
            "valid" => {
                valid += 1;
                let key = loaded.expect("valid seed");
                assert_eq!(key.public_key_bytes(), hx(t, "ek"), "tcId {id} ek");
                assert_eq!(key.decap(&c).expect("decaps").as_bytes().as_slice(), k, "tcId {id} K");
            }
            "invalid" => {
                invalid += 1;
                match loaded {
                    Err(e) => assert!(matches!(e, Error::InvalidLength { .. }), "tcId {id}: {e:?}"),
                    Ok(key) => assert!(
                        matches!(key.decap(&c), Err(Error::InvalidLength { .. })),
                        "tcId {id} ({}) must be rejected",
                        st(t, "comment")
                    ),
                }
            }
            other => panic!("tcId {id}: {other}"),
        }
    }
    assert_eq!((valid, invalid), (153, 40));
}

#[test]
fn wycheproof_semi_expanded_decaps() {
    let file = load("wycheproof/mlkem_768_semi_expanded_decaps_test.json");
    let mut n = 0;
    for (_, t) in tests(&file) {
        let id = int(t, "tcId");
        let r = DecapsulationKey::from_expanded_bytes(&hx(t, "dk")).and_then(|dk| dk.decapsulate(&hx(t, "c")));
        match st(t, "result") {
            "valid" => assert_eq!(r.expect("valid").as_bytes().as_slice(), hx(t, "K"), "tcId {id}"),
            _ => {
                let e = r.expect_err("invalid case must be rejected");
                let flags = t["flags"].to_string();
                if flags.contains("InvalidDecapsulationKey") {
                    assert!(matches!(e, Error::InvalidKey(_)), "tcId {id}: {e:?}");
                } else {
                    assert!(matches!(e, Error::InvalidLength { .. }), "tcId {id}: {e:?}");
                }
            }
        }
        n += 1;
    }
    assert_eq!(n, 9);
}

#[test]
fn wycheproof_encaps_and_modulus_check() {
    let file = load("wycheproof/mlkem_768_encaps_test.json");
    let (mut valid, mut invalid) = (0, 0);
    for (_, t) in tests(&file) {
        let id = int(t, "tcId");
        let ek = hx(t, "ek");
        let r = EncapsulationKey::from_bytes(&ek).and_then(|k| k.encapsulate_derand(&hx(t, "m")));
        match st(t, "result") {
            "valid" => {
                valid += 1;
                let (c, k) = r.expect("valid");
                assert_eq!(c.as_slice(), hx(t, "c"), "tcId {id} c");
                assert_eq!(k.as_bytes().as_slice(), hx(t, "K"), "tcId {id} K");
            }
            _ => {
                invalid += 1;
                let e = r.expect_err("invalid ek must be rejected");
                if ek.len() == mlkem768::ENCAPSULATION_KEY_LEN {
                    assert!(matches!(e, Error::InvalidKey(_)), "tcId {id}: modulus check, got {e:?}");
                    assert_eq!(e.code(), "NEN_CRYPTO_KEY");
                } else {
                    assert!(matches!(e, Error::InvalidLength { .. }), "tcId {id}: {e:?}");
                }
            }
        }
    }
    assert_eq!((valid, invalid), (133, 132));
}

#[test]
fn acvp_keygen() {
    let file = load("acvp/ML-KEM-keyGen-FIPS203.internalProjection.json");
    let mut n = 0;
    for (g, t) in tests(&file) {
        if st(g, "parameterSet") != "ML-KEM-768" {
            continue;
        }
        let (dk, ek) = mlkem768::keygen_derand(&hx(t, "d"), &hx(t, "z")).expect("keygen");
        assert_eq!(ek.as_bytes().as_slice(), hx(t, "ek"), "tcId {}", int(t, "tcId"));
        assert_eq!(dk.expanded_bytes().as_slice(), hx(t, "dk"), "tcId {}", int(t, "tcId"));
        n += 1;
    }
    assert_eq!(n, 25);
}

#[test]
fn acvp_encap_decap() {
    let file = load("acvp/ML-KEM-encapDecap-FIPS203.internalProjection.json");
    let (mut enc, mut dec, mut ekc, mut dkc) = (0, 0, 0, 0);
    for (g, t) in tests(&file) {
        if st(g, "parameterSet") != "ML-KEM-768" {
            continue;
        }
        let id = int(t, "tcId");
        match st(g, "function") {
            "encapsulation" => {
                let ek = EncapsulationKey::from_bytes(&hx(t, "ek")).expect("ek");
                let (c, k) = ek.encapsulate_derand(&hx(t, "m")).expect("encaps");
                assert_eq!(c.as_slice(), hx(t, "c"), "tcId {id} c");
                assert_eq!(k.as_bytes().as_slice(), hx(t, "k"), "tcId {id} k");
                enc += 1;
            }
            "decapsulation" => {
                let dk = match st(g, "keyFormat") {
                    "seed" => {
                        let mut seed = hx(t, "d");
                        seed.extend_from_slice(&hx(t, "z"));
                        DecapsulationKey::from_seed(&seed64(&seed)).0
                    }
                    _ => DecapsulationKey::from_expanded_bytes(&hx(t, "dk")).expect("dk"),
                };
                let k = dk.decapsulate(&hx(t, "c")).expect("decaps");
                assert_eq!(k.as_bytes().as_slice(), hx(t, "k"), "tcId {id} k ({})", st(g, "keyFormat"));
                dec += 1;
            }
            "encapsulationKeyCheck" => {
                let pass = t["testPassed"].as_bool().expect("testPassed");
                assert_eq!(EncapsulationKey::from_bytes(&hx(t, "ek")).is_ok(), pass, "tcId {id}");
                ekc += 1;
            }
            "decapsulationKeyCheck" => {
                let pass = t["testPassed"].as_bool().expect("testPassed");
                assert_eq!(DecapsulationKey::from_expanded_bytes(&hx(t, "dk")).is_ok(), pass, "tcId {id}");
                dkc += 1;
            }
            other => panic!("unknown function {other}"),
        }
    }
    assert_eq!((enc, ekc, dkc), (25, 10, 10));
    assert_eq!(dec, 20);
}

#[test]
fn implicit_rejection_gives_a_different_key() {
    let (dk, ek) = DecapsulationKey::from_seed(&[42u8; 64]);
    let (c, k) = ek.encapsulate_derand(&[9u8; 32]).expect("encaps");
    assert_eq!(dk.decapsulate(&c).expect("decaps"), k);
    for i in [0, 500, 1087] {
        let mut bad = c;
        bad[i] ^= 0x80;
        let k2 = dk.decapsulate(&bad).expect("decapsulation never fails on a right-length ciphertext");
        assert_ne!(k2, k, "modified byte {i} must give another key");
        // Deterministic: same bad ciphertext, same rejection key (J(z || c)).
        assert_eq!(dk.decapsulate(&bad).expect("decaps"), k2);
    }
    assert!(matches!(dk.decapsulate(&c[..1087]), Err(Error::InvalidLength { expected: 1088, actual: 1087, .. })));
}

#[test]
fn debug_never_prints_key_bytes() {
    let (dk, ek) = DecapsulationKey::from_seed(&[0xABu8; 64]);
    let s = format!("{dk:?} {ek:?} {:?}", PrivateKey::from_bytes(Kem::MlKem768, &[0xABu8; 64]).expect("key"));
    assert!(!s.to_lowercase().contains("abab"), "{s}");
    assert!(!s.contains("171, 171"), "{s}");
}
