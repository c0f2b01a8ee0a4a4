//! Vector loading shared by the integration tests.
//!
//! Every file is vendored, byte for byte, under `<repo>/vectors/`; `vectors/README.md` and one
//! README per folder give the upstream repository, commit, path and license:
//! - `wycheproof/` — C2SP/wycheproof @ dac1dd47 `testvectors_v1/`:
//!   `chacha20_poly1305_test.json`, `mlkem_768_test.json`, `mlkem_768_encaps_test.json`,
//!   `mlkem_768_keygen_seed_test.json`, `mlkem_768_semi_expanded_decaps_test.json`.
//! - `acvp/` — usnistgov/ACVP-Server RELEASE/v1.1.0.43 ML-KEM keyGen and encapDecap
//!   `internalProjection.json` (all parameter sets; we filter ML-KEM-768).
//! - `rfc8439/` — the two ChaCha20-Poly1305 AEAD examples of RFC 8439.
//! - `go-hpke/` — Go 1.26.8 `src/crypto/hpke/testdata/`: `rfc9180.json` (RFC 9180 Appendix A,
//!   with encryptions/exports accumulated into SHAKE128 digests) and `hpke-pq.json`
//!   (draft-ietf-hpke-pq).
//!
//! `vectors/` is resolved from `CARGO_MANIFEST_DIR` (crates/nen-core → repo root). A missing
//! vector file fails the test: nothing is skipped.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

pub use serde_json::Value;

/// `<repo>/vectors`.
pub fn vectors_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../vectors");
    assert!(dir.is_dir(), "vector directory {} not found (vendored in the repository)", dir.display());
    dir
}

/// Parses a JSON file under the vectors dir (a missing or unreadable file panics).
pub fn load(rel: &str) -> Value {
    let path = vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// Hex field of a JSON object (missing → empty).
pub fn hx(v: &Value, key: &str) -> Vec<u8> {
    match v.get(key).and_then(Value::as_str) {
        Some(s) => hex::decode(s).unwrap_or_else(|e| panic!("field {key}: {e}")),
        None => Vec::new(),
    }
}

/// String field.
pub fn st<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Integer field.
pub fn int(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or_else(|| panic!("field {key} missing"))
}

/// All tests of a Wycheproof / ACVP file, with their group.
pub fn tests(file: &Value) -> Vec<(&Value, &Value)> {
    let mut out = Vec::new();
    for g in file["testGroups"].as_array().expect("testGroups") {
        for t in g["tests"].as_array().expect("tests") {
            out.push((g, t));
        }
    }
    out
}
