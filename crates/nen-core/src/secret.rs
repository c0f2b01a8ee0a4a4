//! Fixed-size secret byte strings: zeroized on drop, never printed.
//!
//! Pitfalls: `Clone` makes a second copy that is zeroized independently; avoid cloning secrets
//! (the type is deliberately not `Copy`). Equality is constant-time (`subtle`), so comparing
//! secrets does not leak where they first differ.

use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// `N` secret bytes (shared secrets, seeds, exported secrets).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SecretBytes<const N: usize>([u8; N]);

impl<const N: usize> PartialEq for SecretBytes<N> {
    fn eq(&self, other: &Self) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl<const N: usize> Eq for SecretBytes<N> {}

impl<const N: usize> SecretBytes<N> {
    /// Wraps `bytes` (moved in; the caller's array is the same memory).
    pub const fn new(bytes: [u8; N]) -> Self {
        Self(bytes)
    }

    /// The secret bytes.
    pub const fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }

    /// Mutable access, for filling in place.
    pub(crate) fn as_mut(&mut self) -> &mut [u8; N] {
        &mut self.0
    }

    /// All zero bytes (to be filled with [`SecretBytes::as_mut`]).
    pub(crate) const fn zero() -> Self {
        Self([0u8; N])
    }
}

impl<const N: usize> core::fmt::Debug for SecretBytes<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SecretBytes<{N}>(hidden)")
    }
}
