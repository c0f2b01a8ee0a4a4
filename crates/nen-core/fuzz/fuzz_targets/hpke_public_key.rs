//! Fuzzes HPKE DeserializePublicKey (length, ML-KEM modulus check, X25519 part) and, for keys that
//! parse, SetupBaseS + Export: never a panic; errors are typed.
//!
//! Pitfalls:
//!  - Random bytes almost never have the exact key length: the selector's bit 1 pads the input to
//!    it, or the fuzzer would only ever exercise the length check.
//!  - SetupBaseS draws fresh randomness (the OS generator): a crash may not reproduce from the
//!    saved input alone when it depends on the ephemeral key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nen_core::Error;
use nen_core::hpke::{Kem, PublicKey};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let kem = if sel & 1 == 0 { Kem::XWing } else { Kem::MlKem768 };
    // Stretch short inputs to the right length sometimes, so parsing gets past the length check.
    let mut buf = rest.to_vec();
    if sel & 2 != 0 {
        buf.resize(kem.public_key_len(), sel);
    }
    match PublicKey::from_bytes(kem, &buf) {
        Ok(pk) => match pk.setup_base_s(b"fuzz") {
            Ok((enc, ctx)) => {
                assert_eq!(enc.len(), kem.enc_len());
                assert_eq!(ctx.export(b"c", 32).map(|v| v.len()), Ok(32));
            }
            Err(e) => assert!(matches!(e, Error::InvalidKey(_)), "{e:?}"),
        },
        Err(e) => assert!(matches!(e, Error::InvalidLength { .. } | Error::InvalidKey(_)), "{e:?}"),
    }
});
