"""``nen.Transport``: an ``httpx.BaseTransport`` that encrypts every request end to end with Nen
(``httpx.Client(transport=nen.Transport(pins))``). Handshake with pin fallback (PROTOCOL.md §2,
§3), one session per transport, the 1.1 retry (§7.1), streamed uploads and responses (§6).

The protocol and retry logic is ./flows.py (written once for both transports); this module
performs its I/O with blocking calls.

Pitfalls:
 - One handshake at a time (a ``threading.Lock``); the sequence number is released at the response head.
 - Bounded: a non-stream response above ``max_response_bytes`` is refused after reading at most that + 16 bytes
   (NEN_RESPONSE_UNAUTHENTICATED, as @nen/client); a stream buffers at most one record; the whole
   exchange has one deadline (NEN_TIMEOUT).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, Unpack

import httpx

from . import exchange as ex
from . import flows
from .deadline import Deadline, timeout_error
from .errors import NenError, client_error
from .options import OptionArgs, make_options
from .records import RecordOpener
from .session import Session
from .transport_common import TransportCommon

T = TypeVar("T")


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

    def handshake(self, url: httpx.URL | str, deadline: Deadline | None = None) -> Session:
        """A fresh handshake now (replacing the session) against ``url``'s origin or ``base_url``."""
        d = deadline or Deadline(self.options.timeout)
        with self._lock:
            s = self._run(flows.handshake(self, httpx.URL(url), d))
            self._session = s
            return s

    def rotate(self, url: httpx.URL | str) -> int:
        """Rekeys the session without a KEM (PROTOCOL.md §8 ``rotate``): the server's sealed answer
        names the next epoch, then this session switches to it (sequence numbers continue)."""
        return self._run(flows.rotate(self, httpx.URL(url), Deadline(self.options.timeout)))

    def terminate(self, url: httpx.URL | str) -> None:
        """Ends the session on the server (sealed ``terminate``) and drops it here."""
        self._run(flows.terminate(self, httpx.URL(url), Deadline(self.options.timeout)))

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        d = Deadline(self.options.timeout, request.extensions.get("timeout"))
        body = request.read() if isinstance(request.stream, httpx.ByteStream) else None
        return self._run(flows.request(self, ex.prepare(request, body), d))

    def _run(self, flow: flows.Flow[T]) -> T:
        """Drives a flow: performs each op it yields and sends back the answer (or throws the failure in)."""
        answer: Any = None
        failure: BaseException | None = None
        while True:
            try:
                op = flow.throw(failure) if failure is not None else flow.send(answer)
            except StopIteration as stop:
                value: T = stop.value
                return value
            answer, failure = None, None
            try:
                answer = _OPS[type(op)](self, op)
            except BaseException as e:
                failure = e

    def _ensure(self, url: httpx.URL, d: Deadline) -> Session:
        s = self._current(url)
        if s is not None:
            return s
        with self._lock:
            held = self._current(url)
            self._session = held if held is not None else self._run(flows.handshake(self, url, d))
            return self._session


def _acquire(_: Transport, op: flows.Acquire) -> int:
    seq = op.counter.acquire(op.deadline.remaining())
    if seq is None:
        raise client_error("NEN_TIMEOUT", "no sequence number within the timeout (window full)")
    return seq


def _transmit(t: Transport, op: flows.Transmit) -> httpx.Response:
    try:
        return t._inner.handle_request(op.request)
    except httpx.TimeoutException as e:
        raise timeout_error(e) from e


_OPS: dict[type[Any], Callable[[Transport, Any], Any]] = {
    flows.Ensure: lambda t, op: t._ensure(op.url, op.deadline),
    flows.Acquire: _acquire,
    flows.Transmit: _transmit,
    flows.ReadBody: lambda _, op: _read_bounded(op.response, op.limit, op.deadline),
    flows.ReadAll: lambda _, op: op.response.read(),
    flows.Close: lambda _, op: op.response.close(),
    flows.OpenStream: lambda _, op: _OpenedStream(op.response, op.opener),
    flows.Sleep: lambda _, op: time.sleep(op.seconds),
}


def _read_bounded(res: httpx.Response, limit: int, d: Deadline) -> bytes:
    body = flows.BoundedBody(limit, d)
    try:
        for chunk in _raw(res):
            body.add(chunk)
    except httpx.TimeoutException as e:
        raise timeout_error(e) from e
    finally:
        res.close()
    return body.bytes()


def _raw(res: httpx.Response) -> Iterator[bytes]:
    """The network bytes of a transport's response (also one built with ``content=``, already read)."""
    stream = res.stream
    if not isinstance(stream, httpx.SyncByteStream):
        raise TypeError("an async response stream in the sync transport")
    yield from stream
