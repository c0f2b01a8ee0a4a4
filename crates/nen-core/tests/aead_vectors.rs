//! ChaCha20-Poly1305 (RFC 8439) against Wycheproof (all 325 cases; every `invalid` case must be
//! rejected) and the RFC 8439 §2.8.2 / Appendix A.5 examples.

mod common;
use common::*;
use nen_core::Error;
use nen_core::aead::{Aead, nonce_for};

#[test]
fn wycheproof_chacha20_poly1305() {
    let file = load("wycheproof/chacha20_poly1305_test.json");
    let (mut valid, mut invalid) = (0, 0);
    for (_, t) in tests(&file) {
        let id = int(t, "tcId");
        let (key, iv, aad, msg, ct, tag) =
            (hx(t, "key"), hx(t, "iv"), hx(t, "aad"), hx(t, "msg"), hx(t, "ct"), hx(t, "tag"));
        let aead = Aead::new(&key).expect("32-byte key");
        let mut ct_tag = ct.clone();
        ct_tag.extend_from_slice(&tag);
        match st(t, "result") {
            "valid" => {
                valid += 1;
                assert_eq!(aead.seal(&iv, &aad, &msg).expect("seal"), ct_tag, "tcId {id} seal");
                assert_eq!(aead.open(&iv, &aad, &ct_tag).expect("open"), msg, "tcId {id} open");
            }
            "invalid" => {
                invalid += 1;
                let r = aead.open(&iv, &aad, &ct_tag);
                assert!(r.is_err(), "tcId {id} ({}) must be rejected", st(t, "comment"));
                if iv.len() != 12 {
                    assert!(matches!(r, Err(Error::InvalidLength { .. })), "tcId {id}: nonce length error");
                    assert!(aead.seal(&iv, &aad, &msg).is_err(), "tcId {id}: seal with a bad nonce");
                } else {
                    assert_eq!(r, Err(Error::Authentication), "tcId {id}");
                }
            }
            other => panic!("tcId {id}: unexpected result {other}"),
        }
    }
    assert_eq!((valid, invalid), (256, 69), "all Wycheproof cases ran");
}

#[test]
fn rfc8439_examples() {
    let file = load("rfc8439/rfc8439_aead_vectors.json");
    let vectors = file["vectors"].as_array().expect("vectors");
    assert_eq!(vectors.len(), 2);
    for v in vectors {
        let key = hx(v, "key");
        let nonce = hx(v, "nonce");
        let aad = hx(v, "aad");
        let pt = hx(v, "plaintext");
        let mut expected = hx(v, "ciphertext");
        expected.extend_from_slice(&hx(v, "tag"));
        let aead = Aead::new(&key).expect("key");
        assert_eq!(aead.seal(&nonce, &aad, &pt).expect("seal"), expected);
        assert_eq!(aead.open(&nonce, &aad, &expected).expect("open"), pt);
    }
}

#[test]
fn tampering_is_detected_everywhere() {
    let aead = Aead::new(&[7u8; 32]).expect("key");
    let nonce = [1u8; 12];
    let sealed = aead.seal(&nonce, b"aad", b"hello world").expect("seal");
    for i in 0..sealed.len() {
        let mut t = sealed.clone();
        t[i] ^= 0x01;
        assert_eq!(aead.open(&nonce, b"aad", &t), Err(Error::Authentication), "flipped byte {i}");
    }
    assert_eq!(aead.open(&nonce, b"aaD", &sealed), Err(Error::Authentication), "aad");
    assert_eq!(aead.open(&[2u8; 12], b"aad", &sealed), Err(Error::Authentication), "nonce");
    assert_eq!(Aead::new(&[8u8; 32]).expect("key").open(&nonce, b"aad", &sealed), Err(Error::Authentication), "key");
    assert_eq!(aead.open(&nonce, b"aad", &sealed[..sealed.len() - 1]), Err(Error::Authentication), "truncated");
    assert!(matches!(aead.open(&nonce, b"aad", &sealed[..15]), Err(Error::InvalidLength { .. })), "shorter than a tag");
    assert!(matches!(Aead::new(&[0u8; 31]), Err(Error::InvalidLength { expected: 32, actual: 31, .. })));
    assert!(matches!(aead.seal(&[0u8; 11], b"", b""), Err(Error::InvalidLength { .. })));
}

#[test]
fn nonce_for_is_rfc9180_compute_nonce() {
    let base: [u8; 12] = hex::decode("5ddfaaee10a4dfd0d8e1b49f").expect("hex").try_into().expect("12");
    assert_eq!(nonce_for(&base, 0), base);
    assert_eq!(hex::encode(nonce_for(&base, 1)), "5ddfaaee10a4dfd0d8e1b49e");
    assert_eq!(hex::encode(nonce_for(&base, 0x0102_0304_0506_0708)), "5ddfaaee11a6dcd4dde7b397");
    // The first 4 bytes never change, and distinct sequence numbers give distinct nonces.
    assert_eq!(&nonce_for(&base, u64::MAX)[..4], &base[..4]);
    assert_ne!(nonce_for(&base, 1 << 40), nonce_for(&base, 1 << 41));
}
