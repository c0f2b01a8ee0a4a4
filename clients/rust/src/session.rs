//! One session (PROTOCOL.md §3.3, §4): its id, epoch keys, clock skew, expiry, origin, and the
//! sequence window flow control of the reference client (`packages/client/src/sequence.ts`).
//!
//! Pitfalls: sequence numbers are never reused; a new number is handed out only while it is less
//! than 1024 − 64 ahead of the oldest request still awaiting its response head, otherwise the
//! caller waits (the server would refuse a number 1024 behind its highest as a replay). The
//! in-flight set is bounded by that window.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use nen_core::hpke::Kem;
use tokio::sync::Notify;

use crate::schedule::EpochKeys;

const REPLAY_WINDOW: u64 = 1024;
const WINDOW_MARGIN: u64 = 64;
/// A session is renewed once less than this remains of its lifetime.
const EXPIRY_MARGIN: Duration = Duration::from_secs(2);

/// The milliseconds since the Unix epoch on the local clock.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[derive(Default)]
struct Window {
    next: u64,
    in_flight: BTreeSet<u64>,
}

/// Hands out sequence numbers inside the replay window.
pub(crate) struct Sequencer {
    window: Mutex<Window>,
    wake: Notify,
}

impl Sequencer {
    fn new() -> Self {
        Self { window: Mutex::new(Window { next: 1, in_flight: BTreeSet::new() }), wake: Notify::new() }
    }

    fn try_acquire(&self) -> Option<u64> {
        let mut w = self.window.lock().unwrap_or_else(PoisonError::into_inner);
        let fits = w.in_flight.first().is_none_or(|oldest| w.next - oldest < REPLAY_WINDOW - WINDOW_MARGIN);
        if !fits {
            return None;
        }
        let seq = w.next;
        w.next += 1;
        w.in_flight.insert(seq);
        Some(seq)
    }

    /// The next sequence number, waiting while the window is full.
    pub(crate) async fn acquire(&self) -> u64 {
        loop {
            let notified = self.wake.notified();
            if let Some(seq) = self.try_acquire() {
                return seq;
            }
            notified.await;
        }
    }

    /// The request `seq` got its response head (or failed): it no longer holds the window.
    pub(crate) fn release(&self, seq: u64) {
        let mut w = self.window.lock().unwrap_or_else(PoisonError::into_inner);
        if w.in_flight.remove(&seq) {
            drop(w);
            self.wake.notify_waiters();
        }
    }

    /// How many requests await their response head.
    #[cfg(test)]
    pub(crate) fn pending(&self) -> usize {
        self.window.lock().unwrap_or_else(PoisonError::into_inner).in_flight.len()
    }
}

/// An established session.
pub(crate) struct Session {
    pub sid: [u8; 16],
    pub epoch: u32,
    pub keys: Arc<EpochKeys>,
    pub skew_ms: i64,
    pub expires: Instant,
    pub origin: String,
    pub kid: Option<String>,
    pub kem: Kem,
    pub seq: Sequencer,
}

impl Session {
    pub(crate) fn new(
        established: &crate::schedule::Established,
        keys: EpochKeys,
        skew_ms: i64,
        received: Instant,
        origin: String,
        kid: Option<String>,
        kem: Kem,
    ) -> Self {
        Self {
            sid: established.sid,
            epoch: 0,
            keys: Arc::new(keys),
            skew_ms,
            expires: received + Duration::from_secs(u64::from(established.lifetime)),
            origin,
            kid,
            kem,
            seq: Sequencer::new(),
        }
    }

    /// Usable for a request to `origin` now (not within the expiry margin).
    pub(crate) fn usable_for(&self, origin: &str) -> bool {
        self.origin == origin && Instant::now() + EXPIRY_MARGIN < self.expires
    }

    /// The request timestamp: the local clock corrected by the measured skew.
    pub(crate) fn timestamp(&self) -> u64 {
        u64::try_from(now_ms().saturating_add(self.skew_ms)).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_holds_back_a_request_that_would_overtake_a_stalled_one() {
        let q = Sequencer::new();
        let first = q.try_acquire();
        assert_eq!(first, Some(1));
        for _ in 1..(REPLAY_WINDOW - WINDOW_MARGIN) {
            assert!(q.try_acquire().is_some());
        }
        assert_eq!(q.try_acquire(), None);
        q.release(1);
        assert_eq!(q.try_acquire(), Some(REPLAY_WINDOW - WINDOW_MARGIN + 1));
        assert_eq!(q.pending(), (REPLAY_WINDOW - WINDOW_MARGIN) as usize);
    }
}
