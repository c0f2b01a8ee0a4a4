//! HPKE (RFC 9180) against Go's vectors, vendored in `vectors/go-hpke/` (Go 1.26.8
//! `src/crypto/hpke/testdata/`, see its README):
//!
//! - `hpke-pq.json` (draft-ietf-hpke-pq): the X-Wing × HKDF-SHA256 × ChaCha20-Poly1305 entry
//!   fully (DeriveKeyPair(ikmR), derandomized encap with ikmE, enc, shared_secret, key schedule,
//!   every encryption, every export, recipient side); the ML-KEM-768 × HKDF-SHA256 × AES-128-GCM
//!   entry for its KEM part, its key schedule (computed for that entry's suite id, Nk = 16) and
//!   its exports — we have no AES-GCM, so its encryptions are not checked.
//! - `rfc9180.json` (RFC 9180 Appendix A, mode_base, DHKEM(X25519) × HKDF-SHA256 ×
//!   ChaCha20-Poly1305): the shared secret comes from a small test-side DHKEM(X25519, HKDF-SHA256)
//!   built on the crate's `labeled_extract`/`labeled_expand`; the key schedule, 1000 Seal/Open
//!   and 1000 exports are the crate's, checked against Go's SHAKE128-accumulated digests.

mod common;
use common::*;
use nen_core::hpke::{self, Kem, PrivateKey, PublicKey};

/// A SHAKE128("") output stream (Go's `source`), pre-squeezed: 2000 draws need < 520 KB.
struct Source {
    buf: Vec<u8>,
    pos: usize,
}

impl Source {
    fn new() -> Self {
        let mut buf = vec![0u8; 600_000];
        libcrux_sha3::shake128_ema(&mut buf, b"");
        Self { buf, pos: 0 }
    }

    fn read(&mut self, out: &mut [u8]) {
        out.copy_from_slice(&self.buf[self.pos..self.pos + out.len()]);
        self.pos += out.len();
    }
}

/// Go's `sink`: everything written, then 16 bytes of SHAKE128 read out.
fn sink_digest(written: &[u8]) -> Vec<u8> {
    libcrux_sha3::shake128::<16>(written).to_vec()
}

fn check_encryptions_and_exports(v: &Value, sender: &mut hpke::Context, recipient: &mut hpke::Context) {
    let encs = v["encryptions"].as_array().expect("encryptions");
    assert!(!encs.is_empty());
    for (i, e) in encs.iter().enumerate() {
        let ct = sender.seal(&hx(e, "aad"), &hx(e, "pt")).expect("seal");
        assert_eq!(ct, hx(e, "ct"), "encryption {i}");
        assert_eq!(recipient.open(&hx(e, "aad"), &ct).expect("open"), hx(e, "pt"), "decryption {i}");
    }
    check_exports(v, sender, recipient);
}

fn check_exports(v: &Value, sender: &hpke::Context, recipient: &hpke::Context) {
    let exps = v["exports"].as_array().expect("exports");
    assert!(!exps.is_empty());
    for x in exps {
        let l = int(x, "L") as usize;
        let ctx = hx(x, "exporter_context");
        assert_eq!(sender.export(&ctx, l).expect("export"), hx(x, "exported_value"));
        assert_eq!(recipient.export(&ctx, l).expect("export"), hx(x, "exported_value"));
    }
}

#[test]
fn hpke_pq_xwing_chacha20poly1305() {
    let all = load("go-hpke/hpke-pq.json");
    let v = all
        .as_array()
        .expect("array")
        .iter()
        .find(|v| int(v, "kem_id") == 0x647a && int(v, "kdf_id") == 1 && int(v, "aead_id") == 3 && int(v, "mode") == 0)
        .expect("hpke-pq.json has X-Wing x HKDF-SHA256 x ChaCha20-Poly1305");
    assert_eq!(hx(v, "suite_id"), Kem::XWing.suite_id());

    let derived = Kem::XWing.derive_key_pair(&hx(v, "ikmR"));
    assert_eq!(derived.to_bytes().as_slice(), hx(v, "skRm").as_slice(), "DeriveKeyPair seed");
    assert_eq!(derived.public_key_bytes(), hx(v, "pkRm"), "DeriveKeyPair public key");
    let sk = PrivateKey::from_bytes(Kem::XWing, &hx(v, "skRm")).expect("skRm");
    assert_eq!(sk.public_key_bytes(), hx(v, "pkRm"));

    let pk = PublicKey::from_bytes(Kem::XWing, &hx(v, "pkRm")).expect("pkRm");
    let (ss, enc) = pk.encap_derand(&hx(v, "ikmE")).expect("encap");
    assert_eq!(enc, hx(v, "enc"), "enc");
    assert_eq!(ss.as_bytes().as_slice(), hx(v, "shared_secret"), "shared_secret");
    assert_eq!(sk.decap(&enc).expect("decap").as_bytes().as_slice(), hx(v, "shared_secret"), "decap");

    let info = hx(v, "info");
    let (enc2, mut sender) = pk.setup_base_s_derand(&info, &hx(v, "ikmE")).expect("SetupBaseS");
    assert_eq!(enc2, enc);
    assert_eq!(sender.key().as_slice(), hx(v, "key"), "key");
    assert_eq!(sender.base_nonce().as_slice(), hx(v, "base_nonce"), "base_nonce");
    assert_eq!(sender.exporter_secret().as_slice(), hx(v, "exporter_secret"), "exporter_secret");
    let mut recipient = sk.setup_base_r(&enc, &info).expect("SetupBaseR");
    check_encryptions_and_exports(v, &mut sender, &mut recipient);

    // Single-shot API round trip with the vector's keys.
    let (enc, ct) = hpke::seal(&pk, &info, b"aad", b"single shot").expect("seal");
    assert_eq!(hpke::open(&sk, &enc, &info, b"aad", &ct).expect("open"), b"single shot");
    assert!(hpke::open(&sk, &enc, b"other info", b"aad", &ct).is_err(), "info is bound");
}

#[test]
fn hpke_pq_mlkem768_kem_and_key_schedule() {
    let all = load("go-hpke/hpke-pq.json");
    let v = all
        .as_array()
        .expect("array")
        .iter()
        .find(|v| int(v, "kem_id") == 0x0041 && int(v, "kdf_id") == 1 && int(v, "mode") == 0)
        .expect("hpke-pq.json has ML-KEM-768 x HKDF-SHA256");
    assert_eq!(int(v, "aead_id"), 1, "the ML-KEM-768 entry uses AES-128-GCM");

    let derived = Kem::MlKem768.derive_key_pair(&hx(v, "ikmR"));
    assert_eq!(derived.to_bytes().as_slice(), hx(v, "skRm").as_slice(), "DeriveKeyPair seed");
    assert_eq!(derived.public_key_bytes(), hx(v, "pkRm"));
    let sk = PrivateKey::from_bytes(Kem::MlKem768, &hx(v, "skRm")).expect("skRm");
    let pk = PublicKey::from_bytes(Kem::MlKem768, &hx(v, "pkRm")).expect("pkRm");
    let (ss, enc) = pk.encap_derand(&hx(v, "ikmE")).expect("encap");
    assert_eq!(enc, hx(v, "enc"), "enc");
    assert_eq!(ss.as_bytes().as_slice(), hx(v, "shared_secret"));
    assert_eq!(sk.decap(&enc).expect("decap").as_bytes().as_slice(), hx(v, "shared_secret"));

    // Key schedule for this entry's own suite id (AEAD 0x0001, Nk = 16).
    let sid: [u8; 10] = hx(v, "suite_id").try_into().expect("suite id");
    assert_eq!(sid, hpke::suite_id(0x0041, 1, 1));
    let (key, nonce, exp) = hpke::raw_key_schedule(&sid, ss.as_bytes(), &hx(v, "info"), 16).expect("key schedule");
    assert_eq!(key.as_slice(), hx(v, "key"));
    assert_eq!(nonce.as_slice(), hx(v, "base_nonce"));
    assert_eq!(exp.as_bytes().as_slice(), hx(v, "exporter_secret"));
    for x in v["exports"].as_array().expect("exports") {
        let got =
            hpke::raw_export(&sid, exp.as_bytes(), &hx(x, "exporter_context"), int(x, "L") as usize).expect("export");
        assert_eq!(got, hx(x, "exported_value"));
    }

    // And our own suite (ChaCha20-Poly1305) round-trips on the same KEM output.
    let info = hx(v, "info");
    let (enc2, mut s) = pk.setup_base_s_derand(&info, &hx(v, "ikmE")).expect("SetupBaseS");
    let mut r = sk.setup_base_r(&enc2, &info).expect("SetupBaseR");
    let ct = s.seal(b"a", b"p").expect("seal");
    assert_eq!(r.open(b"a", &ct).expect("open"), b"p");
}

/// DHKEM(X25519, HKDF-SHA256), KEM id 0x0020 (RFC 9180 §4.1, §7.1.3) — test-side only, to
/// produce the shared secret for the rfc9180.json key-schedule vectors.
mod dhkem_x25519 {
    use nen_core::hpke::{labeled_expand_into, labeled_extract};
    use x25519_dalek::x25519;

    const SUITE: [u8; 5] = [b'K', b'E', b'M', 0x00, 0x20];
    const BASE: [u8; 32] = x25519_dalek::X25519_BASEPOINT_BYTES;

    pub fn derive_key_pair(ikm: &[u8]) -> ([u8; 32], [u8; 32]) {
        let prk = labeled_extract(&SUITE, b"", b"dkp_prk", ikm);
        let mut sk = [0u8; 32];
        labeled_expand_into(&SUITE, &prk, b"sk", b"", &mut sk).expect("expand");
        (sk, x25519(sk, BASE))
    }

    fn extract_and_expand(dh: &[u8; 32], kem_context: &[u8]) -> [u8; 32] {
        let prk = labeled_extract(&SUITE, b"", b"eae_prk", dh);
        let mut ss = [0u8; 32];
        labeled_expand_into(&SUITE, &prk, b"shared_secret", kem_context, &mut ss).expect("expand");
        ss
    }

    /// Encap with the ephemeral key derived from ikmE → (shared_secret, enc).
    pub fn encap(pk_r: &[u8; 32], ikm_e: &[u8]) -> ([u8; 32], [u8; 32]) {
        let (sk_e, pk_e) = derive_key_pair(ikm_e);
        let dh = x25519(sk_e, *pk_r);
        let ctx = [pk_e.as_slice(), pk_r.as_slice()].concat();
        (extract_and_expand(&dh, &ctx), pk_e)
    }

    pub fn decap(enc: &[u8; 32], sk_r: &[u8; 32]) -> [u8; 32] {
        let pk_r = x25519(*sk_r, BASE);
        let dh = x25519(*sk_r, *enc);
        let ctx = [enc.as_slice(), pk_r.as_slice()].concat();
        extract_and_expand(&dh, &ctx)
    }
}

/// Go's `drawRandomInput`: one length byte, then that many bytes.
fn draw(r: &mut Source) -> Vec<u8> {
    let mut l = [0u8; 1];
    r.read(&mut l);
    let mut b = vec![0u8; l[0] as usize];
    r.read(&mut b);
    b
}

#[test]
fn rfc9180_key_schedule_seal_open_export() {
    let all = load("go-hpke/rfc9180.json");
    let v = all
        .as_array()
        .expect("array")
        .iter()
        .find(|v| int(v, "mode") == 0 && int(v, "kem_id") == 0x20 && int(v, "kdf_id") == 1 && int(v, "aead_id") == 3)
        .expect("rfc9180.json has DHKEM(X25519) x HKDF-SHA256 x ChaCha20-Poly1305, mode_base");

    let (sk_r, pk_r) = dhkem_x25519::derive_key_pair(&hx(v, "ikmR"));
    assert_eq!(pk_r.as_slice(), hx(v, "pkRm"), "test-side DHKEM sanity");
    let (ss, enc) = dhkem_x25519::encap(&pk_r, &hx(v, "ikmE"));
    assert_eq!(enc.as_slice(), hx(v, "enc"), "test-side DHKEM sanity");
    assert_eq!(dhkem_x25519::decap(&enc, &sk_r), ss);

    let info = hx(v, "info");
    let mut sender = hpke::key_schedule_for_kem_id(0x0020, &ss, &info).expect("key schedule");
    let mut recipient = hpke::key_schedule_for_kem_id(0x0020, &ss, &info).expect("key schedule");

    let mut source = Source::new();
    let mut sink = Vec::new();
    for _ in 0..1000 {
        let aad = draw(&mut source);
        let pt = draw(&mut source);
        let ct = sender.seal(&aad, &pt).expect("seal");
        sink.extend_from_slice(&ct);
        assert_eq!(recipient.open(&aad, &ct).expect("open"), pt);
    }
    assert_eq!(sink_digest(&sink), hx(v, "encryptions_accumulated"), "accumulated encryptions");

    let mut source = Source::new();
    let mut sink = Vec::new();
    for l in 0..1000usize {
        let ctx = draw(&mut source);
        let value = sender.export(&ctx, l).expect("export");
        assert_eq!(recipient.export(&ctx, l).expect("export"), value);
        sink.extend_from_slice(&value);
    }
    assert_eq!(sink_digest(&sink), hx(v, "exports_accumulated"), "accumulated exports");
}
