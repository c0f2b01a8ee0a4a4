"""One client session (PROTOCOL.md §3.3, §4): the keys of its epoch, clock skew, expiry, and the
sequence counter with flow control against the server's replay window.

Pitfalls:
 - Sequence numbers start at 1 and are never reused; a new number is handed out only while it is
   less than 1024 - 64 ahead of the oldest one still awaiting its response head, otherwise the
   caller waits (threads on a ``Condition``; asyncio callers poll the same counter through
   ``try_acquire`` and an ``asyncio.Event`` woken by ``release``).
 - State is bounded: the numbers in flight are at most the window, the released set is pruned.
 - One session per transport and server origin: a request to another origin replaces it (one
   transport per Nen server is the intended use). Python cannot wipe ``bytes``: a replaced
   session's secrets are dropped for the garbage collector, not zeroed.
 - Expiry is counted on the local clock as ``t_received + lifetime``; a session with less than
   2 s left is replaced before a request (the idle timeout is not tracked, as in @nen/client).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from .codec import REPLAY_WINDOW, EpochKeys, b64url
from .handshake import HandshakeResult

_SPAN = REPLAY_WINDOW - 64
EXPIRY_MARGIN_MS = 2000


class SequenceCounter:
    """Hands out sequence numbers within the flow-control span; thread safe."""

    def __init__(self, first: int = 1):
        self._next = first
        self._in_flight: deque[int] = deque()
        self._released: set[int] = set()
        self._cond = threading.Condition()
        self._wakers: list[Callable[[], None]] = []

    def _fits(self) -> bool:
        return not self._in_flight or self._next - self._in_flight[0] < _SPAN

    def try_acquire(self) -> int | None:
        with self._cond:
            if not self._fits():
                return None
            seq = self._next
            self._next += 1
            self._in_flight.append(seq)
            return seq

    def acquire(self, timeout: float | None = None) -> int | None:
        """Blocks (threads) until a number fits; None when ``timeout`` (seconds) passes first."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._fits():
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left)
            seq = self._next
            self._next += 1
            self._in_flight.append(seq)
            return seq

    def on_release(self, waker: Callable[[], None]) -> None:
        """Registers a one-shot callback run (from the releasing thread) at the next release."""
        with self._cond:
            self._wakers.append(waker)

    def release(self, seq: int) -> None:
        with self._cond:
            if not self._in_flight or seq < self._in_flight[0] or seq >= self._next:
                return
            if seq == self._in_flight[0]:
                self._in_flight.popleft()
            else:
                self._released.add(seq)
            while self._in_flight and self._in_flight[0] in self._released:
                self._released.discard(self._in_flight.popleft())
            self._cond.notify_all()
            wakers, self._wakers = self._wakers, []
        for w in wakers:
            w()

    @property
    def in_flight(self) -> int:
        with self._cond:
            return len(self._in_flight) - len(self._released)


class Session:
    """A live session after a successful handshake."""

    def __init__(self, r: HandshakeResult, t_sent_ms: float, t_received_ms: float):
        self.id = r.session_id
        self.id_str = b64url(r.session_id)
        self.keys = EpochKeys.derive(r.secret, 0)
        self.counter = SequenceCounter()
        self.skew = r.server_time - (t_sent_ms + t_received_ms) / 2
        self.expires_at = t_received_ms + r.lifetime * 1000
        self.kid = r.kid
        self.kem = r.kem
        #: The origin it was made with (set by the transport): a request to another origin re-handshakes.
        self.server: tuple[str, bytes] | None = None

    def usable(self, now_ms: float) -> bool:
        return self.expires_at - now_ms > EXPIRY_MARGIN_MS

    def timestamp(self) -> int:
        return round(time.time() * 1000 + self.skew)

    def rotate(self) -> None:
        """Switches to the next epoch after the server confirmed ``rotate`` (sequence numbers continue)."""
        self.keys = self.keys.next()


def now_ms() -> float:
    return time.time() * 1000
