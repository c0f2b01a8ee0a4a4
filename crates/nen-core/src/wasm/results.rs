//! The result classes of the Wasm API: `KeyPair` (public key and private key) and
//! `SenderExport` (the sender's `enc` and exported secret).
//!
//! Pitfalls:
//! - The secret halves live in `Zeroizing` buffers: they are wiped when JavaScript calls
//!   `free()` (the TS wrapper's `dispose()`), not before. Getters return copies.

use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use crate::hpke::PrivateKey;

/// A key pair: public key and private key (HPKE seed form; for `hazmat_mlkem768_*` the 2400-byte
/// expanded `dk`). The private key is zeroized on `free()`.
#[wasm_bindgen]
pub struct KeyPair {
    pub(super) public_key: Vec<u8>,
    pub(super) private_key: Zeroizing<Vec<u8>>,
}

#[wasm_bindgen]
impl KeyPair {
    /// The public key.
    #[wasm_bindgen(getter)]
    pub fn public_key(&self) -> Vec<u8> {
        self.public_key.clone()
    }

    /// The private key (a copy). Secret.
    #[wasm_bindgen(getter)]
    pub fn private_key(&self) -> Vec<u8> {
        self.private_key.to_vec()
    }
}

pub(super) fn key_pair(key: &PrivateKey) -> KeyPair {
    KeyPair { public_key: key.public_key_bytes(), private_key: key.to_bytes() }
}

/// The sender's side of a handshake: `enc` and the exported secret (zeroized on `free()`).
#[wasm_bindgen]
pub struct SenderExport {
    pub(super) enc: Vec<u8>,
    pub(super) exported: Zeroizing<Vec<u8>>,
}

#[wasm_bindgen]
impl SenderExport {
    /// The KEM encapsulation (HPKE `enc`).
    #[wasm_bindgen(getter)]
    pub fn enc(&self) -> Vec<u8> {
        self.enc.clone()
    }

    /// The exported secret (a copy). Secret.
    #[wasm_bindgen(getter)]
    pub fn exported(&self) -> Vec<u8> {
        self.exported.to_vec()
    }
}
