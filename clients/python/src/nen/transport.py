"""``nen.Transport``: an ``httpx.BaseTransport`` that encrypts every request end to end with Nen
(``httpx.Client(transport=nen.Transport(pins))``). Handshake with pin fallback (PROTOCOL.md §2,
§3), one session per transport, the 1.1 retry (§7.1), streamed uploads and responses (§6).

Pitfalls:
 - After an unauthenticated 401-class answer to a request that was sent: one re-handshake (after
   a backoff for NEN_AUTH_FAILED) and ONE retry naming the original, never for streamed bodies
   nor after 60 s; any failure of it is NEN_OUTCOME_UNKNOWN; a sealed 409 NEN_RETRY_COMMITTED is
   raised as such. Other unauthenticated errors (forged 5xx, ...) are never retried.
 - One handshake at a time (a lock); the sequence number is released at the response head.
 - Bounded: a non-stream response above ``max_response_bytes`` is refused after reading at most that + 16 bytes
   (NEN_RESPONSE_UNAUTHENTICATED, as @nen/client); a
   stream buffers at most one record; the whole exchange has one deadline (NEN_TIMEOUT).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Unpack

import httpx

from . import exchange as ex
from .deadline import Deadline, timeout_error
from .errors import NenError, NenProtocolError, client_error, outcome_unknown, recovery_of
from .handshake import HandshakeState, Pin
from .options import OptionArgs, make_options
from .records import RecordOpener
from .session import Session, now_ms
from .transport_common import TransportCommon

RETRY_HORIZON_S = 60.0


class _Attempt:
    ref: str | None = None
    sent_at = 0.0


class _OpenedStream(httpx.SyncByteStream):
    """The plaintext of a response stream, each network read's completed records opened in order."""

    def __init__(self, inner: httpx.Response, opener: RecordOpener):
        self._inner, self._opener = inner, opener

    def __iter__(self) -> Iterator[bytes]:
        try:
            for chunk in _raw(self._inner):
                plain = self._opener.push(chunk)
                if plain:
                    yield plain
            self._opener.end()
        except NenError:
            raise
        except httpx.TransportError as e:
            raise client_error("NEN_STREAM_TRUNCATED", "the stream broke off", e) from e
        finally:
            self._inner.close()

    def close(self) -> None:
        self._inner.close()


class Transport(TransportCommon, httpx.BaseTransport):
    """Nen over any sync httpx transport (default ``httpx.HTTPTransport()``). Options: see README."""

    def __init__(
        self,
        pins: str | list[str] | tuple[str, ...] | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        **options: Unpack[OptionArgs],
    ):
        self.options = make_options(pins, **options)
        self._inner = transport if transport is not None else httpx.HTTPTransport()
        self._session: Session | None = None
        self._lock = threading.Lock()
        self._backoff = 0.0

    def close(self) -> None:
        self._session = None
        self._inner.close()

    # ------------------------------------------------------------------ handshake

    def handshake(self, url: httpx.URL | str, deadline: Deadline | None = None) -> Session:
        """A fresh handshake now (replacing the session) against ``url``'s origin or ``base_url``."""
        d = deadline or Deadline(self.options.timeout)
        with self._lock:
            s = self._run_handshake(httpx.URL(url), d)
            self._session = s
            return s

    def rotate(self, url: httpx.URL | str) -> int:
        """Rekeys the session without a KEM (PROTOCOL.md §8 ``rotate``): the server's sealed answer
        names the next epoch, then this session switches to it (sequence numbers continue)."""
        u = httpx.URL(url)
        d = Deadline(self.options.timeout)
        s = self._ensure(u, d)
        p = ex.prepare(httpx.Request("POST", self.options.session_url(u, "rotate")), b"")
        res = self._send(s, p, d, None)  # never retried: a rotate is not idempotent
        body = res.read()
        try:
            epoch = json.loads(body)["epoch"]
        except (ValueError, KeyError, TypeError) as e:
            raise client_error("NEN_PROTOCOL_ERROR", f"rotate answered HTTP {res.status_code} without an epoch", e) from e
        if res.status_code != 200 or epoch != s.keys.epoch + 1:
            raise client_error("NEN_PROTOCOL_ERROR", f"rotate answered HTTP {res.status_code}, epoch {epoch!r}")
        if self._session is s:
            s.rotate()
        return int(epoch)

    def terminate(self, url: httpx.URL | str) -> None:
        """Ends the session on the server (sealed ``terminate``) and drops it here."""
        u = httpx.URL(url)
        s = self._session
        if s is None:
            return
        self._session = None
        p = ex.prepare(httpx.Request("POST", self.options.session_url(u, "terminate")), b"")
        self._send(s, p, Deadline(self.options.timeout), None).close()

    def _ensure(self, url: httpx.URL, d: Deadline) -> Session:
        s = self._session
        if s is not None and s.usable(now_ms()) and s.server == self._server_of(url):
            return s
        with self._lock:
            s = self._session
            if s is not None and s.usable(now_ms()) and s.server == self._server_of(url):
                return s
            s = self._run_handshake(url, d)
            self._session = s
            return s

    def _run_handshake(self, url: httpx.URL, d: Deadline) -> Session:
        pins: list[Pin | None] = list(self.options.pins) or [None]
        for i, pin in enumerate(pins):
            try:
                return self._attempt_handshake(pin, url, d)
            except NenProtocolError as e:
                if i + 1 < len(pins) and e.code == "NEN_UNKNOWN_KEY_ID" and e.status == 400:
                    continue
                raise
        raise AssertionError("unreachable")

    def _attempt_handshake(self, pin: Pin | None, url: httpx.URL, d: Deadline) -> Session:
        o = self.options
        st = HandshakeState(pin.kem if pin else o.kem, pin, o.lifetime)
        req = httpx.Request("POST", o.session_url(url), headers={"content-type": "application/nen-handshake"}, content=st.hello)
        req.extensions["timeout"] = d.httpx_timeout()
        t0 = now_ms()
        try:
            res = self._inner.handle_request(req)
            body = _read_bounded(res, 65536, d)
        except httpx.TimeoutException as e:
            raise timeout_error(e) from e
        return self._handshake_session(st, res, body, t0, now_ms(), url)

    # ------------------------------------------------------------------ requests

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        d = Deadline(self.options.timeout, request.extensions.get("timeout"))
        body = request.read() if isinstance(request.stream, httpx.ByteStream) else None
        p = ex.prepare(request, body)
        first = _Attempt()
        s = self._ensure(p.url, d)  # fails: not sent
        try:
            res = self._send(s, p, d, first)
            self._backoff = 0.0
            return res
        except NenProtocolError as e:
            action = recovery_of(e)
            if action == "fail" or first.ref is None:
                raise
            self._invalidate(s)
            if not self.options.retry or p.stream is not None or time.monotonic() - first.sent_at > RETRY_HORIZON_S:
                raise outcome_unknown(e) from e
            cause = e
        try:
            if action == "rehandshake-once":
                self._backoff = min(max(self._backoff * 2, 0.25), 10.0)
                time.sleep(min(self._backoff, d.remaining_or(self._backoff)))
            s2 = self._ensure(p.url, d)
            try:
                res = self._send(s2, p, d, None, first.ref)
            except NenProtocolError as e:
                if recovery_of(e) != "fail":
                    self._invalidate(s2)
                raise
            refused = ex.refused_retry(res.status_code, res.read()) if not ex.is_stream(res) else None
            if refused is not None:
                raise refused
            self._backoff = 0.0
            return res
        except NenProtocolError as e:
            if e.code in ("NEN_RETRY_COMMITTED", "NEN_OUTCOME_UNKNOWN"):
                raise
            raise outcome_unknown(e) from cause
        except Exception as e:
            raise outcome_unknown(e) from cause

    def _send(self, s: Session, p: ex.Prepared, d: Deadline, attempt: _Attempt | None, retry_of: str | None = None) -> httpx.Response:
        seq = s.counter.acquire(d.remaining())
        if seq is None:
            raise client_error("NEN_TIMEOUT", "no sequence number within the timeout (window full)")
        try:
            o = self.options
            sealed = ex.seal_request(s, p, seq, confidential=o.confidential_query, retry_of=retry_of, compress=o.compress, max_bytes=o.max_response_bytes)
            if attempt is not None:
                attempt.ref, attempt.sent_at = sealed.ref, time.monotonic()
            sealed.request.extensions["timeout"] = d.httpx_timeout()
            try:
                res = self._inner.handle_request(sealed.request)
            except httpx.TimeoutException as e:
                raise timeout_error(e) from e
        finally:
            s.counter.release(seq)
        return self._verify(sealed, res, d)

    def _verify(self, sealed: ex.Sealed, res: httpx.Response, d: Deadline) -> httpx.Response:
        x = sealed.expect
        try:
            head = ex.response_head(res.status_code, res.headers, x.method)
        except NenError:
            res.close()
            raise
        if head.stream:
            try:
                opener = ex.stream_opener(x, head, res.status_code, res.headers)
            except NenError:
                res.close()
                raise
            return httpx.Response(
                200,
                headers=ex.clean_headers(res.headers, head.content_type),
                stream=_OpenedStream(res, opener),
                extensions={**res.extensions, "nen_stream": True},
            )
        try:
            body = b"" if head.null_body else _read_bounded(res, self.options.max_response_bytes + 16, d)
        except httpx.TimeoutException as e:
            raise timeout_error(e) from e
        finally:
            res.close()
        plain = ex.open_single(x, head, res.status_code, res.headers, body)
        return ex.plain_response(res.status_code, res.headers, head.content_type, plain, res.extensions)


def _read_bounded(res: httpx.Response, limit: int, d: Deadline) -> bytes:
    chunks: list[bytes] = []
    n = 0
    try:
        for chunk in _raw(res):
            chunks.append(chunk)
            n += len(chunk)
            if n > limit:
                raise client_error("NEN_RESPONSE_UNAUTHENTICATED", f"response body larger than {limit} bytes (max_response_bytes + 16)")
            d.check()
    finally:
        res.close()
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _raw(res: httpx.Response) -> Iterator[bytes]:
    """The network bytes of a transport's response (also one built with ``content=``, already read)."""
    stream = res.stream
    if not isinstance(stream, httpx.SyncByteStream):
        raise TypeError("an async response stream in the sync transport")
    yield from stream
