"""The whole-exchange deadline (``timeout``, seconds): handshake, send and the response body of one
call share it; each network step gets the time left as its httpx timeout.

Pitfalls: an httpx timeout becomes ``NEN_TIMEOUT``; the caller's own per-request httpx timeouts
still apply (the smaller one wins); no timer or thread is created.
"""

from __future__ import annotations

import time

from .errors import NenProtocolError, client_error

_KEYS = ("connect", "read", "write", "pool")


def timeout_error(cause: BaseException | None = None) -> NenProtocolError:
    return client_error("NEN_TIMEOUT", "no complete response within the timeout", cause)


class Deadline:
    def __init__(self, timeout: float | None, request_timeout: object = None):
        self.end = None if timeout is None else time.monotonic() + timeout
        self._req = request_timeout if isinstance(request_timeout, dict) else {}

    def remaining(self) -> float | None:
        return None if self.end is None else self.end - time.monotonic()

    def remaining_or(self, default: float) -> float:
        r = self.remaining()
        return default if r is None else max(r, 0.0)

    def check(self) -> None:
        r = self.remaining()
        if r is not None and r <= 0:
            raise timeout_error()

    def httpx_timeout(self) -> dict[str, float | None]:
        self.check()
        r = self.remaining()
        out: dict[str, float | None] = {}
        for k in _KEYS:
            v = self._req.get(k)
            out[k] = r if v is None else (v if r is None else min(v, r))
        return out
