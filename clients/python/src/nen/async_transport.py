"""``nen.AsyncTransport``: the ``httpx.AsyncBaseTransport`` twin of ``nen.Transport``
(``httpx.AsyncClient(transport=nen.AsyncTransport(pins))``); same protocol logic (./exchange.py),
async I/O.

Pitfalls: as ./transport.py. One handshake at a time per transport (an ``asyncio.Lock``, so one
transport belongs to one event loop); a caller waiting for a sequence number (flow control) waits
on an event the counter sets at the next release, never busy-polls.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Unpack

import httpx

from . import exchange as ex
from .deadline import Deadline, timeout_error
from .errors import NenError, NenProtocolError, client_error, outcome_unknown, recovery_of
from .handshake import HandshakeState, Pin
from .options import OptionArgs, make_options
from .records import RecordOpener
from .session import SequenceCounter, Session, now_ms
from .transport import RETRY_HORIZON_S, _Attempt
from .transport_common import TransportCommon


class _OpenedStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.Response, opener: RecordOpener):
        self._inner, self._opener = inner, opener

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in _araw(self._inner):
                plain = self._opener.push(chunk)
                if plain:
                    yield plain
            self._opener.end()
        except NenError:
            raise
        except httpx.TransportError as e:
            raise client_error("NEN_STREAM_TRUNCATED", "the stream broke off", e) from e
        finally:
            await self._inner.aclose()

    async def aclose(self) -> None:
        await self._inner.aclose()


async def _acquire(counter: SequenceCounter, d: Deadline) -> int:
    seq = counter.try_acquire()
    if seq is not None:
        return seq
    loop = asyncio.get_running_loop()
    while True:  # register the waker first, then try again: a release in between is not lost
        ev = asyncio.Event()

        def wake(ev: asyncio.Event = ev) -> None:
            loop.call_soon_threadsafe(ev.set)

        counter.on_release(wake)
        seq = counter.try_acquire()
        if seq is not None:
            return seq
        try:
            await asyncio.wait_for(ev.wait(), d.remaining())
        except TimeoutError as e:
            raise client_error("NEN_TIMEOUT", "no sequence number within the timeout (window full)", e) from e


class AsyncTransport(TransportCommon, httpx.AsyncBaseTransport):
    """Nen over any async httpx transport (default ``httpx.AsyncHTTPTransport()``)."""

    def __init__(
        self,
        pins: str | list[str] | tuple[str, ...] | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        **options: Unpack[OptionArgs],
    ):
        self.options = make_options(pins, **options)
        self._inner = transport if transport is not None else httpx.AsyncHTTPTransport()
        self._session: Session | None = None
        self._lock: asyncio.Lock | None = None
        self._backoff = 0.0

    async def aclose(self) -> None:
        self._session = None
        await self._inner.aclose()

    async def handshake(self, url: httpx.URL | str, deadline: Deadline | None = None) -> Session:
        d = deadline or Deadline(self.options.timeout)
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            self._session = await self._run_handshake(httpx.URL(url), d)
            return self._session

    async def rotate(self, url: httpx.URL | str) -> int:
        """Rekeys the session without a KEM (PROTOCOL.md §8 ``rotate``): the server's sealed answer
        names the next epoch, then this session switches to it (sequence numbers continue)."""
        u = httpx.URL(url)
        d = Deadline(self.options.timeout)
        s = await self._ensure(u, d)
        p = ex.prepare(httpx.Request("POST", self.options.session_url(u, "rotate")), b"")
        res = await self._send(s, p, d, None)  # never retried: a rotate is not idempotent
        body = await res.aread()
        try:
            epoch = json.loads(body)["epoch"]
        except (ValueError, KeyError, TypeError) as e:
            raise client_error("NEN_PROTOCOL_ERROR", f"rotate answered HTTP {res.status_code} without an epoch", e) from e
        if res.status_code != 200 or epoch != s.keys.epoch + 1:
            raise client_error("NEN_PROTOCOL_ERROR", f"rotate answered HTTP {res.status_code}, epoch {epoch!r}")
        if self._session is s:
            s.rotate()
        return int(epoch)

    async def terminate(self, url: httpx.URL | str) -> None:
        """Ends the session on the server (sealed ``terminate``) and drops it here."""
        u = httpx.URL(url)
        s = self._session
        if s is None:
            return
        self._session = None
        p = ex.prepare(httpx.Request("POST", self.options.session_url(u, "terminate")), b"")
        await (await self._send(s, p, Deadline(self.options.timeout), None)).aclose()

    async def _ensure(self, url: httpx.URL, d: Deadline) -> Session:
        s = self._session
        if s is not None and s.usable(now_ms()) and s.server == self._server_of(url):
            return s
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            s = self._session
            if s is None or not s.usable(now_ms()) or s.server != self._server_of(url):
                s = await self._run_handshake(url, d)
                self._session = s
            return s

    async def _run_handshake(self, url: httpx.URL, d: Deadline) -> Session:
        pins: list[Pin | None] = list(self.options.pins) or [None]
        for i, pin in enumerate(pins):
            try:
                return await self._attempt_handshake(pin, url, d)
            except NenProtocolError as e:
                if i + 1 < len(pins) and e.code == "NEN_UNKNOWN_KEY_ID" and e.status == 400:
                    continue
                raise
        raise AssertionError("unreachable")

    async def _attempt_handshake(self, pin: Pin | None, url: httpx.URL, d: Deadline) -> Session:
        o = self.options
        st = HandshakeState(pin.kem if pin else o.kem, pin, o.lifetime)
        req = httpx.Request("POST", o.session_url(url), headers={"content-type": "application/nen-handshake"}, content=st.hello)
        req.extensions["timeout"] = d.httpx_timeout()
        t0 = now_ms()
        try:
            res = await self._inner.handle_async_request(req)
            body = await _read_bounded(res, 65536, d)
        except httpx.TimeoutException as e:
            raise timeout_error(e) from e
        return self._handshake_session(st, res, body, t0, now_ms(), url)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        d = Deadline(self.options.timeout, request.extensions.get("timeout"))
        body = await request.aread() if isinstance(request.stream, httpx.ByteStream) else None
        p = ex.prepare(request, body)
        first = _Attempt()
        s = await self._ensure(p.url, d)
        try:
            res = await self._send(s, p, d, first)
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
                await asyncio.sleep(min(self._backoff, d.remaining_or(self._backoff)))
            s2 = await self._ensure(p.url, d)
            try:
                res = await self._send(s2, p, d, None, first.ref)
            except NenProtocolError as e:
                if recovery_of(e) != "fail":
                    self._invalidate(s2)
                raise
            refused = ex.refused_retry(res.status_code, await res.aread()) if not ex.is_stream(res) else None
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

    async def _send(self, s: Session, p: ex.Prepared, d: Deadline, attempt: _Attempt | None, retry_of: str | None = None) -> httpx.Response:
        seq = await _acquire(s.counter, d)
        try:
            o = self.options
            sealed = ex.seal_request(s, p, seq, confidential=o.confidential_query, retry_of=retry_of, compress=o.compress, max_bytes=o.max_response_bytes)
            if attempt is not None:
                attempt.ref, attempt.sent_at = sealed.ref, time.monotonic()
            sealed.request.extensions["timeout"] = d.httpx_timeout()
            try:
                res = await self._inner.handle_async_request(sealed.request)
            except httpx.TimeoutException as e:
                raise timeout_error(e) from e
        finally:
            s.counter.release(seq)
        return await self._verify(sealed, res, d)

    async def _verify(self, sealed: ex.Sealed, res: httpx.Response, d: Deadline) -> httpx.Response:
        x = sealed.expect
        try:
            head = ex.response_head(res.status_code, res.headers, x.method)
            if head.stream:
                opener = ex.stream_opener(x, head, res.status_code, res.headers)
                headers = ex.clean_headers(res.headers, head.content_type)
                return httpx.Response(200, headers=headers, stream=_OpenedStream(res, opener), extensions={**res.extensions, "nen_stream": True})
        except NenError:
            await res.aclose()
            raise
        try:
            body = b"" if head.null_body else await _read_bounded(res, self.options.max_response_bytes + 16, d)
        except httpx.TimeoutException as e:
            raise timeout_error(e) from e
        finally:
            await res.aclose()
        plain = ex.open_single(x, head, res.status_code, res.headers, body)
        return ex.plain_response(res.status_code, res.headers, head.content_type, plain, res.extensions)


async def _read_bounded(res: httpx.Response, limit: int, d: Deadline) -> bytes:
    chunks: list[bytes] = []
    n = 0
    try:
        async for chunk in _araw(res):
            chunks.append(chunk)
            n += len(chunk)
            if n > limit:
                raise client_error("NEN_RESPONSE_UNAUTHENTICATED", f"response body larger than {limit} bytes (max_response_bytes + 16)")
            d.check()
    finally:
        await res.aclose()
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


async def _araw(res: httpx.Response) -> AsyncIterator[bytes]:
    """The network bytes of a transport's response (also one built with ``content=``, already read)."""
    stream = res.stream
    if not isinstance(stream, httpx.AsyncByteStream):
        raise TypeError("a sync response stream in the async transport")
    async for chunk in stream:
        yield chunk
