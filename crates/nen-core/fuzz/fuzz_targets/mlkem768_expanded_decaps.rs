//! Fuzzes loading an expanded 2400-byte ML-KEM-768 decapsulation key (FIPS 203 §7.3 hash check)
//! and decapsulating attacker-chosen ciphertexts: never a panic. The key is a valid one with one
//! fuzzer-chosen byte changed (changes in `s` or `z` pass the hash check; in `ek` / `H(ek)` they
//! must be rejected), so decapsulation runs on corrupted key material too.
//!
//! Pitfalls:
//!  - The offsets of `ek` ‖ `H(ek)` (1152..2368) are FIPS 203's expanded-key layout for ML-KEM-768:
//!    they change with the parameter set, and the assertions with them.
//!  - An XOR with 0 changes nothing: only a non-zero byte counts as a change to `ek` / `H(ek)`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nen_core::Error;
use nen_core::mlkem768::{CIPHERTEXT_LEN, DECAPSULATION_KEY_LEN, DecapsulationKey};
use std::sync::OnceLock;

fn valid() -> &'static [u8; DECAPSULATION_KEY_LEN] {
    static K: OnceLock<[u8; DECAPSULATION_KEY_LEN]> = OnceLock::new();
    K.get_or_init(|| *DecapsulationKey::from_seed(&[7u8; 64]).0.expanded_bytes())
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let offset = usize::from(u16::from_be_bytes([data[0], data[1]])) % DECAPSULATION_KEY_LEN;
    let mut dk = *valid();
    dk[offset] ^= data[2];
    let rest = &data[3..];
    let c: Vec<u8> = if rest.is_empty() {
        vec![0; CIPHERTEXT_LEN]
    } else {
        rest.iter().copied().cycle().take(CIPHERTEXT_LEN).collect()
    };
    let in_ek_or_hash = (1152..2368).contains(&offset) && data[2] != 0;
    match DecapsulationKey::from_expanded_bytes(&dk) {
        Ok(k) => {
            assert!(!in_ek_or_hash, "a changed ek / H(ek) must fail the hash check");
            assert!(k.decapsulate(&c).is_ok());
            assert!(matches!(k.decapsulate(rest), Err(Error::InvalidLength { .. })) || rest.len() == CIPHERTEXT_LEN);
        }
        Err(e) => {
            assert!(in_ek_or_hash, "{e:?}");
            assert!(matches!(e, Error::InvalidKey(_)));
        }
    }
});
