//! The conformance kit's vectors (conformance/vectors in the repository), checked with this
//! crate's implementation: every vector the kit lists must be reported and pass.

use std::path::PathBuf;

#[test]
fn every_conformance_vector_passes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance/vectors");
    let results = nen_client::conformance::check_vectors(&dir).expect("vector files");
    let failed: Vec<_> = results.iter().filter(|r| !r.ok).collect();
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(results.len() >= 143, "the kit lists 143 vectors (conformance/vectors/README.md)");
}
