//! Native micro-benchmarks of the crypto core (plain `std::time`, no criterion): medians of
//! repeated batches. Run: `cargo bench` from `crates/`. Figures depend on the machine; the
//! JavaScript-side benchmark (Wasm vs @noble vs node:crypto) lives in `bench/`.

use std::hint::black_box;
use std::time::Instant;

use nen_core::aead::Aead;
use nen_core::hpke::{Kem, PublicKey};
use nen_core::{mlkem768, xwing};

/// Median microseconds per call over `batches` batches of `n` calls.
fn bench(name: &str, n: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..n.min(50) {
        f();
    }
    let batches = 15;
    let mut per = Vec::with_capacity(batches);
    for _ in 0..batches {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        per.push(t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    per.sort_by(f64::total_cmp);
    let med = per[batches / 2];
    println!("{name:<50} {med:>10.2} µs");
    med
}

fn main() {
    println!("nen-core native benchmarks ({} {}), median of 15 batches", std::env::consts::ARCH, std::env::consts::OS);

    let (dk, ek) = mlkem768::DecapsulationKey::from_seed(&[1u8; 64]);
    let (ct, _) = ek.encapsulate().expect("encaps");
    bench("ML-KEM-768 keygen (from seed)", 300, || {
        black_box(mlkem768::DecapsulationKey::from_seed(black_box(&[2u8; 64])));
    });
    bench("ML-KEM-768 encaps (incl. modulus check)", 300, || {
        let ek = mlkem768::EncapsulationKey::from_bytes(black_box(ek.as_bytes())).expect("ek");
        black_box(ek.encapsulate().expect("encaps"));
    });
    bench("ML-KEM-768 decaps", 300, || {
        black_box(dk.decapsulate(black_box(&ct)).expect("decaps"));
    });

    // Where an X-Wing handshake goes (server-cost.mjs measures the same split in Wasm / Node).
    let kp = libcrux_ml_kem::mlkem768::generate_key_pair([1u8; 64]);
    let packed_ct = libcrux_ml_kem::mlkem768::MlKem768Ciphertext::try_from(&ct[..]).expect("ct");
    bench("ML-KEM-768 decaps, packed 2400-byte dk (before)", 300, || {
        black_box(libcrux_ml_kem::mlkem768::decapsulate(black_box(kp.private_key()), &packed_ct));
    });
    bench("ML-KEM-768 decaps, unpacked dk (nen-core now)", 300, || {
        black_box(dk.decapsulate(black_box(&ct)).expect("decaps"));
    });
    let x_sk = x25519_dalek::StaticSecret::from([8u8; 32]);
    let x_pk = x25519_dalek::PublicKey::from([9u8; 32]);
    bench("X25519 fixed-base (precomputed tables)", 300, || {
        black_box(x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(black_box([8u8; 32]))));
    });
    bench("X25519 variable-base (Montgomery ladder)", 300, || {
        black_box(x_sk.diffie_hellman(black_box(&x_pk)));
    });
    bench("HPKE key schedule + Export(32)", 3000, || {
        let ctx = nen_core::hpke::key_schedule(Kem::XWing, black_box(&[1u8; 32]), b"nen/1 static").expect("ks");
        black_box(ctx.export(b"ctx", 32).expect("export"));
    });

    let xsk = xwing::DecapsulationKey::from_seed(&[3u8; 32]);
    let xpk = xsk.public_key().to_bytes();
    let (xct, _) = xsk.public_key().encapsulate().expect("encaps");
    bench("X-Wing keygen (from seed)", 300, || {
        black_box(xwing::DecapsulationKey::from_seed(black_box(&[4u8; 32])));
    });
    bench("X-Wing encaps (incl. key parsing)", 300, || {
        let pk = xwing::EncapsulationKey::from_bytes(black_box(&xpk)).expect("pk");
        black_box(pk.encapsulate().expect("encaps"));
    });
    bench("X-Wing decaps", 300, || {
        black_box(xsk.decapsulate(black_box(&xct)).expect("decaps"));
    });

    {
        let sk = Kem::XWing.derive_key_pair(b"bench split");
        let pkb = sk.public_key_bytes();
        let pk = PublicKey::from_bytes(Kem::XWing, &pkb).expect("pk");
        let (enc, _) = pk.setup_base_s(b"info").expect("s");
        bench("HPKE XWing SetupBaseR, X25519 by the caller", 300, || {
            let ctx = sk.setup_base_r_with_x25519(black_box(&enc), &[5u8; 32], b"info").expect("r");
            black_box(ctx.export(b"ctx", 32).expect("export"));
        });
        bench("HPKE XWing SetupBaseS, X25519 by the caller", 300, || {
            let pk = PublicKey::from_bytes(Kem::XWing, black_box(&pkb)).expect("pk");
            let (enc, ctx) = pk.setup_base_s_with_x25519(&[9u8; 32], &[5u8; 32], b"info").expect("s");
            black_box((enc, ctx.export(b"ctx", 32).expect("export")));
        });
    }

    for kem in [Kem::XWing, Kem::MlKem768] {
        let sk = kem.derive_key_pair(b"bench recipient");
        let pkb = sk.public_key_bytes();
        let pk = PublicKey::from_bytes(kem, &pkb).expect("pk");
        let (enc, _) = pk.setup_base_s(b"info").expect("s");
        bench(&format!("HPKE {kem:?} SetupBaseS + Export(32)"), 300, || {
            let pk = PublicKey::from_bytes(kem, black_box(&pkb)).expect("pk");
            let (enc, ctx) = pk.setup_base_s(b"info").expect("s");
            black_box((enc, ctx.export(b"ctx", 32).expect("export")));
        });
        bench(&format!("HPKE {kem:?} SetupBaseR + Export(32)"), 300, || {
            let ctx = sk.setup_base_r(black_box(&enc), b"info").expect("r");
            black_box(ctx.export(b"ctx", 32).expect("export"));
        });
    }

    let aead = Aead::new(&[5u8; 32]).expect("key");
    let nonce = [6u8; 12];
    for size in [1024usize, 16 * 1024, 1024 * 1024] {
        let pt = vec![7u8; size];
        let n = (64 * 1024 * 1024 / size).clamp(4, 2000);
        let us = bench(&format!("ChaCha20-Poly1305 seal+open {} KB", size / 1024), n, || {
            let ct = aead.seal(&nonce, b"aad", black_box(&pt)).expect("seal");
            black_box(aead.open(&nonce, b"aad", &ct).expect("open"));
        });
        println!("{:<50} {:>10.1} MB/s (seal+open)", "", size as f64 / us);
    }
    bench("HKDF-SHA256 extract + expand(32)", 5000, || {
        let prk = nen_core::hkdf::hkdf_extract(b"salt", black_box(b"input keying material"));
        black_box(nen_core::hkdf::hkdf_expand(&prk, b"info", 32).expect("expand"));
    });
}
