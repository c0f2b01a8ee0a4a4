//! Edge cases and security properties beyond the vectors: every bad input is a typed error,
//! tampering is detected, implicit rejection, low-order X25519 shares, sequence numbers, and
//! known answers for SHA-256 / HMAC-SHA256 (RFC 4231) / HKDF-SHA256 (RFC 5869).

use nen_core::Error;
use nen_core::hkdf::{hkdf_expand, hkdf_extract};
use nen_core::hpke::{self, Kem, PrivateKey, PublicKey};
use nen_core::sha256::{hmac_sha256, hmac_sha256_verify, sha256};
use nen_core::{mlkem768, xwing};

const KEMS: [Kem; 2] = [Kem::XWing, Kem::MlKem768];

fn is_len(r: Result<impl core::fmt::Debug, Error>) -> bool {
    matches!(r, Err(Error::InvalidLength { .. }))
}

#[test]
fn round_trip_both_kems_and_binding_of_info_and_context() {
    for kem in KEMS {
        let sk = kem.generate_key_pair().expect("keygen");
        assert_eq!(sk.to_bytes().len(), kem.private_key_len());
        let pk_bytes = sk.public_key_bytes();
        assert_eq!(pk_bytes.len(), kem.public_key_len());
        let pk = PublicKey::from_bytes(kem, &pk_bytes).expect("pk");
        let (enc, s) = pk.setup_base_s(b"info").expect("SetupBaseS");
        assert_eq!(enc.len(), kem.enc_len());
        let r = sk.setup_base_r(&enc, b"info").expect("SetupBaseR");
        assert_eq!(s.export(b"ctx", 32).expect("export"), r.export(b"ctx", 32).expect("export"));
        assert_ne!(
            s.export(b"ctx", 32).expect("export"),
            s.export(b"ctx2", 32).expect("export"),
            "{kem:?} context bound"
        );
        let r2 = sk.setup_base_r(&enc, b"inf0").expect("SetupBaseR");
        assert_ne!(s.export(b"ctx", 32).expect("export"), r2.export(b"ctx", 32).expect("export"), "{kem:?} info bound");
        // A second encapsulation to the same key is independent (fresh randomness).
        let (enc2, s2) = pk.setup_base_s(b"info").expect("SetupBaseS");
        assert_ne!(enc, enc2);
        assert_ne!(s.export(b"ctx", 32).expect("export"), s2.export(b"ctx", 32).expect("export"));
        // Exports of 0 and 8160 bytes work; 8161 is a length error.
        assert!(s.export(b"", 0).expect("export").is_empty());
        assert_eq!(s.export(b"", 8160).expect("export").len(), 8160);
        assert!(is_len(s.export(b"", 8161)));
        // Derived keys are deterministic and match loading the seed.
        let d1 = kem.derive_key_pair(b"some input keying material, 32+ bytes");
        let d2 = kem.derive_key_pair(b"some input keying material, 32+ bytes");
        assert_eq!(d1.public_key_bytes(), d2.public_key_bytes());
        let d3 = PrivateKey::from_bytes(kem, &d1.to_bytes()).expect("seed");
        assert_eq!(d1.public_key_bytes(), d3.public_key_bytes());
        assert_ne!(d1.public_key_bytes(), kem.derive_key_pair(b"other").public_key_bytes());
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    for kem in KEMS {
        let sk = kem.generate_key_pair().expect("keygen");
        let pk = sk.public_key_bytes();
        for n in [0, 1, kem.public_key_len() - 1, kem.public_key_len() + 1] {
            assert!(is_len(PublicKey::from_bytes(kem, &vec![0u8; n])), "{kem:?} pk {n}");
        }
        for n in [0, kem.private_key_len() - 1, kem.private_key_len() + 1, 2400] {
            assert!(is_len(PrivateKey::from_bytes(kem, &vec![1u8; n])), "{kem:?} sk {n}");
        }
        for n in [0, kem.enc_len() - 1, kem.enc_len() + 1] {
            assert!(is_len(sk.setup_base_r(&vec![0u8; n], b"")), "{kem:?} enc {n}");
        }
        let pk = PublicKey::from_bytes(kem, &pk).expect("pk");
        assert!(is_len(pk.setup_base_s_derand(b"", &[0u8; 31])));
        assert!(is_len(pk.setup_base_s_derand(b"", &[0u8; 65])));
    }
    assert_eq!(Kem::from_id(0x0020), Err(Error::UnsupportedKem(0x0020)));
    assert_eq!(Error::UnsupportedKem(0x20).code(), "NEN_CRYPTO_UNSUPPORTED");
    assert!(is_len(hkdf_expand(&[0u8; 31], b"", 32)), "PRK shorter than HashLen");
    assert!(is_len(hkdf_expand(&[0u8; 32], b"", 8161)));
    assert_eq!(hkdf_expand(&[0u8; 32], b"", 8160).expect("max").len(), 8160);
}

#[test]
fn error_codes_and_messages_are_stable_and_secret_free() {
    let e = PublicKey::from_bytes(Kem::XWing, &[0u8; 12]).expect_err("short");
    assert_eq!(e.code(), "NEN_CRYPTO_LENGTH");
    assert_eq!(e.to_string(), "nen: X-Wing public key must be 1216 bytes (got 12)");
    assert_eq!(Error::Authentication.code(), "NEN_CRYPTO_AEAD");
    assert_eq!(Error::InvalidKey("x").code(), "NEN_CRYPTO_KEY");
    assert!(Error::Randomness.to_string().starts_with("nen: "));
}

#[test]
fn coded_messages_are_exact_and_display_is_their_tail() {
    // `coded_message` (what the Wasm bindings throw) is `"<code>: "` + the Display text, built
    // without `format!`; the texts are the ones `write!` produced before (numbers in decimal, the
    // KEM id as 4 lowercase hex digits).
    let max = usize::MAX;
    let kems = "(supported: X-Wing 0x647a, ML-KEM-768 0x0041)";
    let cases = [
        (
            Error::InvalidLength { what: "nonce", expected: 12, actual: 0, at_most: false },
            "nen: nonce must be 12 bytes (got 0)".to_string(),
        ),
        (
            Error::InvalidLength { what: "plaintext", expected: 65536, actual: max, at_most: true },
            format!("nen: plaintext must be at most 65536 bytes (got {max})"),
        ),
        (Error::InvalidKey("bad"), "nen: invalid key: bad".to_string()),
        (
            Error::Authentication,
            "nen: authentication failed (wrong key, nonce, associated data, or tampered ciphertext)".to_string(),
        ),
        (Error::UnsupportedKem(0x0020), format!("nen: unsupported KEM id 0x0020 {kems}")),
        (Error::UnsupportedKem(0xffff), format!("nen: unsupported KEM id 0xffff {kems}")),
        (Error::UnsupportedKem(0), format!("nen: unsupported KEM id 0x0000 {kems}")),
        (Error::Randomness, "nen: the system random number generator failed".to_string()),
        (Error::MessageLimitReached, "nen: HPKE context message limit reached; set up a new context".to_string()),
    ];
    for (e, want) in cases {
        assert_eq!(e.to_string(), want);
        assert_eq!(e.coded_message(), format!("{}: {want}", e.code()));
    }
}

#[test]
fn invalid_mlkem_part_of_an_xwing_key_is_rejected() {
    let sk = Kem::XWing.generate_key_pair().expect("keygen");
    let mut pk = sk.public_key_bytes();
    // Coefficient 0 of the first polynomial := 0xFFF >= q (12-bit little-endian packing).
    pk[0] = 0xFF;
    pk[1] |= 0x0F;
    assert!(matches!(PublicKey::from_bytes(Kem::XWing, &pk), Err(Error::InvalidKey(_))));
    assert!(matches!(PublicKey::from_bytes(Kem::MlKem768, &pk[..1184]), Err(Error::InvalidKey(_))));
}

#[test]
fn xwing_low_order_x25519_shares_are_rejected() {
    let sk = xwing::DecapsulationKey::from_seed(&[3u8; 32]);
    let pk = sk.public_key().to_bytes();
    let (ct, _) = sk.public_key().encapsulate().expect("encaps");
    // Low-order points on Curve25519: 0 and 1 (u-coordinates).
    for low in [[0u8; 32], {
        let mut one = [0u8; 32];
        one[0] = 1;
        one
    }] {
        let mut bad = ct;
        bad[1088..].copy_from_slice(&low);
        assert!(matches!(sk.decapsulate(&bad), Err(Error::InvalidKey(_))), "decaps with a low-order ct_X");
        let mut bad_pk = pk;
        bad_pk[1184..].copy_from_slice(&low);
        let epk = xwing::EncapsulationKey::from_bytes(&bad_pk).expect("parses: the X25519 part is any 32 bytes");
        assert!(matches!(epk.encapsulate(), Err(Error::InvalidKey(_))), "encaps to a low-order pk_X");
    }
}

#[test]
fn xwing_modified_ciphertext_gives_a_different_key() {
    let sk = xwing::DecapsulationKey::from_seed(&[4u8; 32]);
    let (ct, ss) = sk.public_key().encapsulate().expect("encaps");
    assert_eq!(sk.decapsulate(&ct).expect("decaps"), ss);
    for i in [0, 1087, 1088, 1119] {
        let mut bad = ct;
        bad[i] ^= 0x02;
        match sk.decapsulate(&bad) {
            Ok(other) => assert_ne!(other, ss, "byte {i}"),
            Err(e) => assert!(matches!(e, Error::InvalidKey(_)), "byte {i}: {e:?}"),
        }
    }
    // Another recipient key gets another secret from the same ciphertext.
    let other = xwing::DecapsulationKey::from_seed(&[5u8; 32]);
    assert_ne!(other.decapsulate(&ct).expect("decaps"), ss);
}

#[test]
fn context_sequence_advances_only_after_successful_open() {
    for kem in KEMS {
        let sk = kem.derive_key_pair(b"recipient ikm for the sequence test");
        let pk = PublicKey::from_bytes(kem, &sk.public_key_bytes()).expect("pk");
        let (enc, mut s) = pk.setup_base_s(b"").expect("SetupBaseS");
        let mut r = sk.setup_base_r(&enc, b"").expect("SetupBaseR");
        let c0 = s.seal(b"aad", b"zero").expect("seal");
        let c1 = s.seal(b"aad", b"one").expect("seal");
        assert_ne!(c0[..4], c1[..4], "distinct nonces");
        let mut t = c0.clone();
        t[0] ^= 1;
        assert_eq!(r.open(b"aad", &t), Err(Error::Authentication));
        assert_eq!(r.open(b"aad", &c1), Err(Error::Authentication), "out of order");
        assert_eq!(r.open(b"aad", &c0).expect("in order"), b"zero");
        assert_eq!(r.open(b"aad", &c0), Err(Error::Authentication), "replay");
        assert_eq!(r.open(b"aad", &c1).expect("next"), b"one");
    }
}

#[test]
fn hpke_single_shot_rejects_tampering() {
    let sk = Kem::XWing.derive_key_pair(b"single shot");
    let pk = PublicKey::from_bytes(Kem::XWing, &sk.public_key_bytes()).expect("pk");
    let (enc, ct) = hpke::seal(&pk, b"info", b"aad", b"message").expect("seal");
    assert_eq!(hpke::open(&sk, &enc, b"info", b"aad", &ct).expect("open"), b"message");
    let mut e = enc.clone();
    e[10] ^= 1;
    assert!(hpke::open(&sk, &e, b"info", b"aad", &ct).is_err(), "tampered enc");
    let mut c = ct.clone();
    c[0] ^= 1;
    assert_eq!(hpke::open(&sk, &enc, b"info", b"aad", &c), Err(Error::Authentication));
    assert_eq!(hpke::open(&sk, &enc, b"info", b"aaD", &ct), Err(Error::Authentication));
}

#[test]
fn debug_output_hides_secrets() {
    let sk = Kem::XWing.derive_key_pair(b"debug");
    let pk = PublicKey::from_bytes(Kem::XWing, &sk.public_key_bytes()).expect("pk");
    let (_, ctx) = pk.setup_base_s(b"").expect("SetupBaseS");
    let seed_hex = hex::encode(sk.to_bytes().as_slice());
    let dbg = format!(
        "{sk:?} {ctx:?} {:?} {:?}",
        nen_core::aead::Aead::new(&[9u8; 32]).expect("key"),
        xwing::DecapsulationKey::from_seed(&[9u8; 32])
    );
    assert!(!dbg.contains(&seed_hex[..16]), "{dbg}");
    assert!(!dbg.contains("9, 9"), "{dbg}");
    let s = nen_core::secret::SecretBytes::new([7u8; 32]);
    assert_eq!(format!("{s:?}"), "SecretBytes<32>(hidden)");
    let _ = mlkem768::SEED_LEN;
}

#[test]
fn hash_mac_kdf_known_answers() {
    assert_eq!(hex::encode(sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // RFC 4231 test case 2.
    assert_eq!(
        hex::encode(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
    // RFC 4231 test case 6 (key longer than the block: hashed first).
    let key = [0xaau8; 131];
    let tag = hmac_sha256(&key, b"Test Using Larger Than Block-Size Key - Hash Key First");
    assert_eq!(hex::encode(tag), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    assert!(hmac_sha256_verify(&key, b"Test Using Larger Than Block-Size Key - Hash Key First", &tag));
    assert!(!hmac_sha256_verify(&key, b"Test Using Larger Than Block-Size Key - Hash Key FirsT", &tag));
    // RFC 5869 test case 1.
    let ikm = [0x0bu8; 22];
    let salt = hex::decode("000102030405060708090a0b0c").expect("hex");
    let info = hex::decode("f0f1f2f3f4f5f6f7f8f9").expect("hex");
    let prk = hkdf_extract(&salt, &ikm);
    assert_eq!(hex::encode(prk), "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
    assert_eq!(
        hex::encode(hkdf_expand(&prk, &info, 42).expect("expand")),
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
    );
    // RFC 5869 test case 3: empty salt = 32 zero bytes.
    assert_eq!(hkdf_extract(b"", &ikm), hkdf_extract(&[0u8; 32], &ikm));
    assert_eq!(
        hex::encode(hkdf_extract(b"", &ikm)),
        "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"
    );
}

/// X25519(k, u) with x25519-dalek (the reference for the caller-computed X25519 halves).
fn x25519(k: [u8; 32], u: [u8; 32]) -> [u8; 32] {
    x25519_dalek::x25519(k, u)
}

#[test]
fn xwing_with_caller_x25519_matches_the_whole_kem() {
    let sk = Kem::XWing.derive_key_pair(b"split x25519");
    let pkb = sk.public_key_bytes();
    let pk = PublicKey::from_bytes(Kem::XWing, &pkb).expect("pk");
    let pk_x: [u8; 32] = pkb[1184..].try_into().expect("pk_X");
    let sk_x = *sk.xwing_x25519_secret().expect("sk_X").as_bytes();
    // Recipient side: the split decapsulation equals the whole one on a regular encapsulation.
    let (enc, s) = pk.setup_base_s(b"info").expect("S");
    let ct_x: [u8; 32] = enc[1088..].try_into().expect("ct_X");
    let r = sk.setup_base_r_with_x25519(&enc, &x25519(sk_x, ct_x), b"info").expect("R split");
    assert_eq!(s.export(b"c", 32).expect("e"), r.export(b"c", 32).expect("e"));
    // A wrong X25519 share gives another key (no error), like a modified ciphertext.
    let r_bad = sk.setup_base_r_with_x25519(&enc, &[7u8; 32], b"info").expect("R bad share");
    assert_ne!(s.export(b"c", 32).expect("e"), r_bad.export(b"c", 32).expect("e"));
    // Sender side: the split encapsulation is decapsulated by the whole KEM.
    let ek_x = [0x42u8; 32];
    let ct_x = x25519(ek_x, x25519_dalek::X25519_BASEPOINT_BYTES);
    let (enc2, s2) = pk.setup_base_s_with_x25519(&ct_x, &x25519(ek_x, pk_x), b"info").expect("S split");
    assert_eq!(&enc2[1088..], &ct_x);
    let r2 = sk.setup_base_r(&enc2, b"info").expect("R");
    assert_eq!(s2.export(b"c", 32).expect("e"), r2.export(b"c", 32).expect("e"));
    // Fresh ML-KEM randomness per call even with the same X25519 half.
    let (enc3, _) = pk.setup_base_s_with_x25519(&ct_x, &x25519(ek_x, pk_x), b"info").expect("S split");
    assert_ne!(enc2[..1088], enc3[..1088]);
}

#[test]
fn xwing_caller_x25519_rejects_bad_input() {
    let sk = Kem::XWing.derive_key_pair(b"split x25519 errors");
    let pk = PublicKey::from_bytes(Kem::XWing, &sk.public_key_bytes()).expect("pk");
    let (enc, _) = pk.setup_base_s(b"info").expect("S");
    // All-zero shared secret = low-order share, rejected as on the whole path.
    assert!(matches!(sk.setup_base_r_with_x25519(&enc, &[0u8; 32], b""), Err(Error::InvalidKey(_))));
    assert!(matches!(pk.setup_base_s_with_x25519(&[9u8; 32], &[0u8; 32], b""), Err(Error::InvalidKey(_))));
    // Lengths.
    assert!(is_len(sk.setup_base_r_with_x25519(&enc, &[1u8; 31], b"")));
    assert!(is_len(sk.setup_base_r_with_x25519(&enc[..1119], &[1u8; 32], b"")));
    assert!(is_len(pk.setup_base_s_with_x25519(&[9u8; 33], &[1u8; 32], b"")));
    assert!(is_len(pk.setup_base_s_with_x25519(&[9u8; 32], &[1u8; 33], b"")));
    // ML-KEM-768 keys have no X25519 half.
    let msk = Kem::MlKem768.derive_key_pair(b"mlkem");
    let mpk = PublicKey::from_bytes(Kem::MlKem768, &msk.public_key_bytes()).expect("pk");
    assert!(matches!(msk.xwing_x25519_secret(), Err(Error::UnsupportedKem(0x0041))));
    assert!(matches!(msk.setup_base_r_with_x25519(&[0u8; 1088], &[1u8; 32], b""), Err(Error::UnsupportedKem(0x0041))));
    assert!(matches!(mpk.setup_base_s_with_x25519(&[9u8; 32], &[1u8; 32], b""), Err(Error::UnsupportedKem(0x0041))));
}

#[test]
fn mlkem_unpacked_key_serialises_to_the_expanded_form() {
    let (dk, ek) = mlkem768::DecapsulationKey::from_seed(&[3u8; 64]);
    let expanded = dk.expanded_bytes();
    assert_eq!(&expanded[1152..2336], ek.as_bytes());
    assert_eq!(dk.encapsulation_key_bytes(), ek.as_bytes());
    let again = mlkem768::DecapsulationKey::from_expanded_bytes(&*expanded).expect("hash check");
    let (c, k) = ek.encapsulate().expect("encaps");
    assert_eq!(again.decapsulate(&c).expect("decaps"), k);
    assert_eq!(dk.decapsulate(&c).expect("decaps"), k);
}
