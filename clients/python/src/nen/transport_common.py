"""What ``Transport`` and ``AsyncTransport`` share that does no I/O: the session they hold, which
server a session belongs to, and turning a handshake's HTTP answer into a ``Session``.

Pitfall: a mixin; the transport sets ``options``, ``_session`` and ``_backoff`` in its ``__init__`` (where
``make_options`` must be called directly, so its warning points at the caller's line).
"""

from __future__ import annotations

import httpx

from .errors import client_error, server_error
from .handshake import HandshakeState
from .options import Options
from .session import Session, now_ms


class TransportCommon:
    options: Options
    _session: Session | None
    _backoff: float

    @property
    def session(self) -> Session | None:
        return self._session

    def drop_session(self) -> None:
        self._session = None

    def _server_of(self, url: httpx.URL) -> tuple[str, bytes] | None:
        """The server a session belongs to: the request's origin, or None with a fixed ``base_url``."""
        return None if self.options.base_url is not None else (url.scheme, url.netloc)

    def _current(self, url: httpx.URL) -> Session | None:
        """The held session if it is usable now and belongs to ``url``'s server."""
        s = self._session
        return s if s is not None and s.usable(now_ms()) and s.server == self._server_of(url) else None

    def _invalidate(self, s: Session) -> None:
        if self._session is s:
            self._session = None

    def _handshake_session(self, st: HandshakeState, res: httpx.Response, body: bytes, t0: float, t1: float, url: httpx.URL) -> Session:
        """The session a handshake answer establishes (PROTOCOL.md §3); an HTTP error or a wrong content type fails it."""
        if res.status_code != 200:
            raise server_error(res.status_code, res.headers.get("nen-error"), f"handshake HTTP {res.status_code}")
        if (res.headers.get("content-type") or "").split(";")[0].strip() != "application/nen-handshake":
            raise client_error("NEN_HANDSHAKE_FAILED", "handshake response has the wrong content type")
        s = Session(st.finish(body), t0, t1)
        s.server = self._server_of(url)
        return s
