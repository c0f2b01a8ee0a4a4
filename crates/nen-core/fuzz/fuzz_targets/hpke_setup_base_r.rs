//! Fuzzes SetupBaseR with attacker-chosen `enc` (X-Wing and ML-KEM-768 decapsulation, key
//! schedule, export) and a Context.Open of attacker-chosen bytes: never a panic.
//!
//! Pitfalls:
//!  - The recipient keys are derived once (OnceLock) from a fixed IKM: deriving per input would
//!    spend the time budget on key generation instead of decapsulation.
//!  - An `enc` of the right length decapsulates to *some* key (ML-KEM implicit rejection), so
//!    SetupBaseR mostly succeeds and the failure shows only at Open, as `Authentication`; only a
//!    low-order X25519 share in an X-Wing `enc` is refused up front (`InvalidKey`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nen_core::Error;
use nen_core::hpke::{Kem, PrivateKey};
use std::sync::OnceLock;

fn keys() -> &'static [PrivateKey; 2] {
    static K: OnceLock<[PrivateKey; 2]> = OnceLock::new();
    K.get_or_init(|| [Kem::XWing.derive_key_pair(b"fuzz recipient"), Kem::MlKem768.derive_key_pair(b"fuzz recipient")])
}

/// `src` repeated / truncated to `n` bytes (libFuzzer grows inputs slowly; this reaches the
/// exact KEM lengths at once).
fn stretch(src: &[u8], n: usize) -> Vec<u8> {
    if src.is_empty() {
        return vec![0; n];
    }
    src.iter().copied().cycle().take(n).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let sk = &keys()[(sel & 1) as usize];
    let (a, ct) = rest.split_at(rest.len() / 2);
    let enc = if sel & 2 != 0 { stretch(a, sk.kem().enc_len()) } else { a.to_vec() };
    match sk.setup_base_r(&enc, b"fuzz") {
        Ok(mut ctx) => {
            assert_eq!(ctx.export(b"c", 16).map(|v| v.len()), Ok(16));
            if let Err(e) = ctx.open(b"aad", ct) {
                assert!(matches!(e, Error::Authentication | Error::InvalidLength { .. }), "{e:?}");
            }
        }
        Err(e) => assert!(matches!(e, Error::InvalidLength { .. } | Error::InvalidKey(_)), "{e:?}"),
    }
});
