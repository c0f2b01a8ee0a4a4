//! Typed errors of the crypto core, each with a stable string code.
//!
//! The codes are part of the public contract (the Wasm bindings put them at the start of every
//! `JsError` message, `"NEN_CRYPTO_LENGTH: nen: ..."`, and `@nen/core` maps them to
//! `NenCryptoError.code`):
//!
//! | variant | code |
//! |---|---|
//! | [`Error::InvalidLength`] | `NEN_CRYPTO_LENGTH` |
//! | [`Error::InvalidKey`] | `NEN_CRYPTO_KEY` |
//! | [`Error::Authentication`] | `NEN_CRYPTO_AEAD` |
//! | [`Error::UnsupportedKem`] | `NEN_CRYPTO_UNSUPPORTED` |
//! | [`Error::Randomness`] | `NEN_CRYPTO_RANDOM` |
//! | [`Error::MessageLimitReached`] | `NEN_CRYPTO_LIMIT` |
//!
//! Pitfall: messages never carry secret material, only lengths, names and identifiers.

use core::fmt;

/// Every failure the crypto core reports. No operation panics on bad input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong length (`what` names it, e.g. "public key").
    InvalidLength {
        /// Which input.
        what: &'static str,
        /// The required length in bytes (or the maximum, see `at_most`).
        expected: usize,
        /// The length received.
        actual: usize,
        /// `true` when `expected` is an upper bound rather than an exact length.
        at_most: bool,
    },
    /// A key or key share has the right length but is invalid (for example an ML-KEM
    /// encapsulation key whose coefficients are not reduced modulo q, FIPS 203 §7.2, a
    /// decapsulation key failing the hash check of §7.3, or an X25519 share of low order).
    InvalidKey(&'static str),
    /// AEAD authentication failed (wrong key, nonce, associated data, or tampered ciphertext).
    Authentication,
    /// The HPKE KEM identifier is not one Nen supports (X-Wing 0x647a, ML-KEM-768 0x0041).
    UnsupportedKem(u16),
    /// The operating system / browser random number generator failed.
    Randomness,
    /// An HPKE context reached its message limit (sequence number 2^64 - 1, RFC 9180 §5.2).
    MessageLimitReached,
}

impl Error {
    /// The stable code, e.g. `"NEN_CRYPTO_LENGTH"`.
    pub const fn code(&self) -> &'static str {
        match self {
            Error::InvalidLength { .. } => "NEN_CRYPTO_LENGTH",
            Error::InvalidKey(_) => "NEN_CRYPTO_KEY",
            Error::Authentication => "NEN_CRYPTO_AEAD",
            Error::UnsupportedKem(_) => "NEN_CRYPTO_UNSUPPORTED",
            Error::Randomness => "NEN_CRYPTO_RANDOM",
            Error::MessageLimitReached => "NEN_CRYPTO_LIMIT",
        }
    }

    /// `"<code>: nen: ..."`, the message the Wasm bindings throw (`Display` is its part after
    /// `"<code>: "`). Built with `push_str`, not `format!`: `core::fmt`'s machinery would be the
    /// only user of ~8 KB of the Wasm module (crates/nen-core/README.md "Wasm size").
    pub fn coded_message(&self) -> String {
        let mut m = String::with_capacity(128);
        m.push_str(self.code());
        m.push_str(": nen: ");
        match *self {
            Error::InvalidLength { what, expected, actual, at_most } => {
                m.push_str(what);
                m.push_str(if at_most { " must be at most " } else { " must be " });
                push_decimal(&mut m, expected);
                m.push_str(" bytes (got ");
                push_decimal(&mut m, actual);
                m.push(')');
            }
            Error::InvalidKey(why) => {
                m.push_str("invalid key: ");
                m.push_str(why);
            }
            Error::Authentication => {
                m.push_str("authentication failed (wrong key, nonce, associated data, or tampered ciphertext)")
            }
            Error::UnsupportedKem(id) => {
                m.push_str("unsupported KEM id 0x");
                for shift in [12, 8, 4, 0] {
                    m.push(char::from(b"0123456789abcdef"[usize::from((id >> shift) & 0xf)]));
                }
                m.push_str(" (supported: X-Wing 0x647a, ML-KEM-768 0x0041)");
            }
            Error::Randomness => m.push_str("the system random number generator failed"),
            Error::MessageLimitReached => m.push_str("HPKE context message limit reached; set up a new context"),
        }
        m
    }

    /// Checks `actual == expected`, reporting `what` otherwise.
    pub(crate) const fn check_len(what: &'static str, expected: usize, actual: usize) -> Result<(), Error> {
        if actual == expected { Ok(()) } else { Err(Error::InvalidLength { what, expected, actual, at_most: false }) }
    }

    /// Checks `actual <= max`, reporting `what` otherwise.
    pub(crate) const fn check_max(what: &'static str, max: usize, actual: usize) -> Result<(), Error> {
        if actual <= max { Ok(()) } else { Err(Error::InvalidLength { what, expected: max, actual, at_most: true }) }
    }
}

impl fmt::Display for Error {
    /// `"nen: ..."`; without the code (see [`Error::code`] and [`Error::coded_message`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.coded_message();
        f.write_str(&m[self.code().len() + 2..])
    }
}

impl std::error::Error for Error {}

/// Appends `n` in decimal.
fn push_decimal(m: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        m.push(char::from(d));
    }
}

/// Fills `buf` from the system CSPRNG (`crypto.getRandomValues` in Wasm, small draws buffered).
pub(crate) use crate::random::fill_random;
