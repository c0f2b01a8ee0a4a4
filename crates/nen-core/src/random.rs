//! CSPRNG bytes for the crate: `getrandom` (the OS generator natively, `crypto.getRandomValues`
//! in Wasm). In Wasm, draws of up to 64 bytes (KEM seeds, the ML-KEM message `m`) come from a
//! 512-byte buffer filled by one `getrandom` call.
//!
//! Why: in Wasm each `getrandom` call crosses into JavaScript and calls `getRandomValues`, which
//! costs several microseconds on Node 20 and more under `next start` (Next.js wraps it to track
//! prerender I/O); a handshake drew once per encapsulation.
//!
//! Pitfalls:
//!  - Every byte is handed out once: copied out, then zeroized in the buffer.
//!  - Wasm only: a native process can `fork()`, and a child would reuse the parent's buffer, so
//!    native builds call `getrandom` for every draw (a cheap system call there).
//!  - The buffer is filled on the first draw, never at instantiation.

use crate::error::Error;

#[cfg(target_arch = "wasm32")]
mod pool {
    use crate::error::Error;
    use std::cell::RefCell;
    use zeroize::Zeroize;

    const POOL_BYTES: usize = 512;
    pub(super) const POOLED_MAX: usize = 64;

    struct Pool {
        buf: [u8; POOL_BYTES],
        used: usize,
    }

    thread_local! {
        static POOL: RefCell<Pool> = const { RefCell::new(Pool { buf: [0; POOL_BYTES], used: POOL_BYTES }) };
    }

    /// `out.len() <= POOLED_MAX` bytes from the buffer, refilled when it runs short.
    pub(super) fn take(out: &mut [u8]) -> Result<(), Error> {
        POOL.with(|cell| {
            let mut p = cell.borrow_mut();
            if p.used + out.len() > POOL_BYTES {
                getrandom::fill(&mut p.buf).map_err(|_| Error::Randomness)?;
                p.used = 0;
            }
            let (start, end) = (p.used, p.used + out.len());
            out.copy_from_slice(&p.buf[start..end]);
            p.buf[start..end].zeroize();
            p.used = end;
            Ok(())
        })
    }
}

/// Fills `buf` from the system CSPRNG.
pub(crate) fn fill_random(buf: &mut [u8]) -> Result<(), Error> {
    #[cfg(target_arch = "wasm32")]
    if buf.len() <= pool::POOLED_MAX {
        return pool::take(buf);
    }
    getrandom::fill(buf).map_err(|_| Error::Randomness)
}

#[cfg(test)]
mod tests {
    use super::fill_random;

    #[test]
    fn draws_differ_and_fill_every_length() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let mut b = [0u8; 32];
            fill_random(&mut b).expect("rng");
            assert!(seen.insert(b), "a 32-byte draw repeated");
        }
        for n in [0usize, 1, 63, 64, 65, 600, 4096] {
            let mut v = vec![0u8; n];
            fill_random(&mut v).expect("rng");
            if n >= 16 {
                assert!(v.iter().any(|&x| x != 0));
            }
        }
    }
}
