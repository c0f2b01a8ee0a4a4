//! Vector loading shared by the integration tests.
//!
//! Where the files come from (see also `../shared/vectors/README.md`, which pins upstream commits):
//! - `../shared/vectors/wycheproof/` — C2SP/wycheproof @ dac1dd47 `testvectors_v1/`:
//!   `chacha20_poly1305_test.json`, `mlkem_768_test.json`, `mlkem_768_encaps_test.json`,
//!   `mlkem_768_keygen_seed_test.json`, `mlkem_768_semi_expanded_decaps_test.json`.
//! - `../shared/vectors/acvp/` — usnistgov/ACVP-Server RELEASE/v1.1.0.43 ML-KEM keyGen and
//!   encapDecap `internalProjection.json` (all parameter sets; we filter ML-KEM-768).
//! - `../shared/vectors/rfc8439/` — the two ChaCha20-Poly1305 AEAD examples of RFC 8439.
//! - `$(go env GOROOT)/src/crypto/hpke/testdata/` — Go's HPKE vectors: `rfc9180.json` (RFC 9180
//!   Appendix A, with encryptions/exports accumulated into SHAKE128 digests) and `hpke-pq.json`
//!   (draft-ietf-hpke-pq). Read at test time, never copied.
//!
//! `../shared/` is resolved from `CARGO_MANIFEST_DIR` (crates/nen-core → repo root → its parent).
//! A missing vector file fails the test; only an absent Go toolchain skips the HPKE vectors.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub use serde_json::Value;

/// `<repo>/../shared/vectors`.
pub fn vectors_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../../shared/vectors");
    assert!(dir.is_dir(), "vector directory {} not found: the repository must sit next to shared/", dir.display());
    dir
}

/// Parses a JSON file under the vectors dir.
pub fn load(rel: &str) -> Value {
    let path = vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// Go's `crypto/hpke/testdata` dir, or `None` (with a message) when `go` is absent.
pub fn go_hpke_testdata() -> Option<PathBuf> {
    let out = match Command::new("go").args(["env", "GOROOT"]).output() {
        Ok(o) if o.status.success() => o,
        _ => {
            eprintln!(
                "SKIPPED: `go` not found; the HPKE vectors are read from $(go env GOROOT)/src/crypto/hpke/testdata"
            );
            return None;
        }
    };
    let root = String::from_utf8(out.stdout).expect("GOROOT is UTF-8");
    let dir = Path::new(root.trim()).join("src/crypto/hpke/testdata");
    assert!(dir.is_dir(), "{} not found (Go >= 1.26 ships the HPKE vectors)", dir.display());
    Some(dir)
}

/// Parses a JSON file at an absolute path.
pub fn load_path(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
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
