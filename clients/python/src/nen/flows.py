"""The control flow both transports run, written once: the handshake with pin fallback (PROTOCOL.md
§2, §3), one sealed exchange (§5, §6), the 1.1 retry (§7.1), ``rotate`` and ``terminate`` (§8).
Each flow is a generator that yields the I/O it needs as an ``Op`` and is sent the answer (or has
the I/O's exception thrown in); ``Transport`` performs the ops with blocking calls and
``AsyncTransport`` awaits them, so only the I/O itself is written twice.

Pitfalls:
 - A flow's ``finally`` (releasing a sequence number) runs only because the driver throws every
   failure of an op back into the flow; a driver must never drop a flow half-way.
 - ``Ensure`` is the driver's: taking the handshake lock is a blocking or an async wait.
 - An op costs a yield and a dispatch (~1 us): the common case (a held session, a free sequence
   number) yields none for them; an exchange yields two (``Transmit``, ``ReadBody``).
 - After an unauthenticated 401-class answer to a request that was sent: one re-handshake (after
   a backoff for NEN_AUTH_FAILED) and ONE retry naming the original, never for streamed bodies
   nor after 60 s; any failure of it is NEN_OUTCOME_UNKNOWN; a sealed 409 NEN_RETRY_COMMITTED is
   raised as such.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from . import exchange as ex
from .deadline import Deadline
from .errors import NenError, NenProtocolError, client_error, outcome_unknown, recovery_of
from .handshake import HandshakeState, Pin
from .records import RecordOpener
from .session import SequenceCounter, Session, now_ms
from .transport_common import TransportCommon

RETRY_HORIZON_S = 60.0
HANDSHAKE_MAX_BYTES = 65536


@dataclass(slots=True)
class Ensure:
    """A usable session for ``url`` (the held one, or a handshake under the lock) -> ``Session``."""

    url: httpx.URL
    deadline: Deadline


@dataclass(slots=True)
class Acquire:
    """A sequence number, waiting for the window within the deadline -> ``int`` (else NEN_TIMEOUT)."""

    counter: SequenceCounter
    deadline: Deadline


@dataclass(slots=True)
class Transmit:
    """Send a request over the inner transport -> its ``httpx.Response`` (a timeout: NEN_TIMEOUT)."""

    request: httpx.Request


@dataclass(slots=True)
class ReadBody:
    """Read a response body, at most ``limit`` bytes, and close it -> ``bytes``."""

    response: httpx.Response
    limit: int
    deadline: Deadline


@dataclass(slots=True)
class ReadAll:
    """Read an (opened) response's whole body -> ``bytes``."""

    response: httpx.Response


@dataclass(slots=True)
class Close:
    """Close a response -> None."""

    response: httpx.Response


@dataclass(slots=True)
class OpenStream:
    """The plaintext byte stream of a sealed stream response -> an httpx (sync or async) byte stream."""

    response: httpx.Response
    opener: RecordOpener


@dataclass(slots=True)
class Sleep:
    seconds: float


Op = Ensure | Acquire | Transmit | ReadBody | ReadAll | Close | OpenStream | Sleep
T = TypeVar("T")
Flow = Generator[Op, Any, T]


class Attempt:
    """The first attempt of a request: the ref a retry names and when it was sent."""

    ref: str | None = None
    sent_at = 0.0


class BoundedBody:
    """A response body read chunk by chunk, refused past ``limit`` bytes, the deadline checked each chunk."""

    def __init__(self, limit: int, d: Deadline):
        self._chunks: list[bytes] = []
        self._n, self._limit, self._deadline = 0, limit, d

    def add(self, chunk: bytes) -> None:
        self._chunks.append(chunk)
        self._n += len(chunk)
        if self._n > self._limit:
            raise client_error("NEN_RESPONSE_UNAUTHENTICATED", f"response body larger than {self._limit} bytes (max_response_bytes + 16)")
        self._deadline.check()

    def bytes(self) -> bytes:
        return self._chunks[0] if len(self._chunks) == 1 else b"".join(self._chunks)


def handshake(t: TransportCommon, url: httpx.URL, d: Deadline) -> Flow[Session]:
    """A handshake against each pin in turn; the next pin only after 400 NEN_UNKNOWN_KEY_ID."""
    pins: list[Pin | None] = list(t.options.pins) or [None]
    for i, pin in enumerate(pins):
        try:
            return (yield from _attempt_handshake(t, pin, url, d))
        except NenProtocolError as e:
            if i + 1 < len(pins) and e.code == "NEN_UNKNOWN_KEY_ID" and e.status == 400:
                continue
            raise
    raise AssertionError("unreachable")


def _attempt_handshake(t: TransportCommon, pin: Pin | None, url: httpx.URL, d: Deadline) -> Flow[Session]:
    o = t.options
    st = HandshakeState(pin.kem if pin else o.kem, pin, o.lifetime)
    req = httpx.Request("POST", o.session_url(url), headers={"content-type": "application/nen-handshake"}, content=st.hello)
    req.extensions["timeout"] = d.httpx_timeout()
    t0 = now_ms()
    res = yield Transmit(req)
    body = yield ReadBody(res, HANDSHAKE_MAX_BYTES, d)
    return t._handshake_session(st, res, body, t0, now_ms(), url)


def _session_for(t: TransportCommon, url: httpx.URL, d: Deadline) -> Flow[Session]:
    s = t._current(url)
    if s is None:
        s = yield Ensure(url, d)
    return s


def request(t: TransportCommon, p: ex.Prepared, d: Deadline) -> Flow[httpx.Response]:
    """The application's request, sealed and answered; once retried as PROTOCOL.md §7.1 allows."""
    first = Attempt()
    s = yield from _session_for(t, p.url, d)  # fails: not sent
    try:
        res = yield from send(t, s, p, d, first)
        t._backoff = 0.0
        return res
    except NenProtocolError as e:
        action = recovery_of(e)
        if action == "fail" or first.ref is None:
            raise
        t._invalidate(s)
        if not t.options.retry or p.stream is not None or time.monotonic() - first.sent_at > RETRY_HORIZON_S:
            raise outcome_unknown(e) from e
        cause = e
    try:
        return (yield from _retry(t, p, d, first, action == "rehandshake-once"))
    except NenProtocolError as e:
        if e.code in ("NEN_RETRY_COMMITTED", "NEN_OUTCOME_UNKNOWN"):
            raise
        raise outcome_unknown(e) from cause
    except Exception as e:
        raise outcome_unknown(e) from cause


def _retry(t: TransportCommon, p: ex.Prepared, d: Deadline, first: Attempt, backoff: bool) -> Flow[httpx.Response]:
    if backoff:
        t._backoff = min(max(t._backoff * 2, 0.25), 10.0)
        yield Sleep(min(t._backoff, d.remaining_or(t._backoff)))
    s2 = yield from _session_for(t, p.url, d)
    try:
        res = yield from send(t, s2, p, d, None, first.ref)
    except NenProtocolError as e:
        if recovery_of(e) != "fail":
            t._invalidate(s2)
        raise
    refused = None if ex.is_stream(res) else ex.refused_retry(res.status_code, (yield ReadAll(res)))
    if refused is not None:
        raise refused
    t._backoff = 0.0
    return res


def send(t: TransportCommon, s: Session, p: ex.Prepared, d: Deadline, attempt: Attempt | None, retry_of: str | None = None) -> Flow[httpx.Response]:
    """One sealed exchange under ``s``; the sequence number is released at the response head."""
    seq = s.counter.try_acquire()
    if seq is None:
        seq = yield Acquire(s.counter, d)
    try:
        o = t.options
        sealed = ex.seal_request(s, p, seq, confidential=o.confidential_query, retry_of=retry_of, compress=o.compress, max_bytes=o.max_response_bytes)
        if attempt is not None:
            attempt.ref, attempt.sent_at = sealed.ref, time.monotonic()
        sealed.request.extensions["timeout"] = d.httpx_timeout()
        res = yield Transmit(sealed.request)
    finally:
        s.counter.release(seq)
    return (yield from _verify(t, sealed, res, d))


def _verify(t: TransportCommon, sealed: ex.Sealed, res: httpx.Response, d: Deadline) -> Flow[httpx.Response]:
    x = sealed.expect
    try:
        head = ex.response_head(res.status_code, res.headers, x.method)
        opener = ex.stream_opener(x, head, res.status_code, res.headers) if head.stream else None
    except NenError:
        yield Close(res)
        raise
    if opener is not None:
        stream = yield OpenStream(res, opener)
        headers = ex.clean_headers(res.headers, head.content_type)
        return httpx.Response(200, headers=headers, stream=stream, extensions={**res.extensions, "nen_stream": True})
    if head.null_body:
        yield Close(res)
        body = b""
    else:
        body = yield ReadBody(res, t.options.max_response_bytes + 16, d)
    plain = ex.open_single(x, head, res.status_code, res.headers, body)
    return ex.plain_response(res.status_code, res.headers, head.content_type, plain, res.extensions)


def rotate(t: TransportCommon, url: httpx.URL, d: Deadline) -> Flow[int]:
    """Rekeys the session without a KEM (PROTOCOL.md §8 ``rotate``): the server's sealed answer
    names the next epoch, then this session switches to it (sequence numbers continue)."""
    s = yield from _session_for(t, url, d)
    p = ex.prepare(httpx.Request("POST", t.options.session_url(url, "rotate")), b"")
    res = yield from send(t, s, p, d, None)  # never retried: a rotate is not idempotent
    body = yield ReadAll(res)
    try:
        epoch = json.loads(body)["epoch"]
    except (ValueError, KeyError, TypeError) as e:
        raise client_error("NEN_PROTOCOL_ERROR", f"rotate answered HTTP {res.status_code} without an epoch", e) from e
    if res.status_code != 200 or epoch != s.keys.epoch + 1:
        raise client_error("NEN_PROTOCOL_ERROR", f"rotate answered HTTP {res.status_code}, epoch {epoch!r}")
    if t._session is s:
        s.rotate()
    return int(epoch)


def terminate(t: TransportCommon, url: httpx.URL, d: Deadline) -> Flow[None]:
    """Ends the session on the server (sealed ``terminate``) and drops it here."""
    s = t._session
    if s is None:
        return
    t._session = None
    p = ex.prepare(httpx.Request("POST", t.options.session_url(url, "terminate")), b"")
    res = yield from send(t, s, p, d, None)
    yield Close(res)
