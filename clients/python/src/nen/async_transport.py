"""``nen.AsyncTransport``: the ``httpx.AsyncBaseTransport`` twin of ``nen.Transport``
(``httpx.AsyncClient(transport=nen.AsyncTransport(pins))``); the same flows (./flows.py: handshake,
exchange, retry, rotate, terminate), their I/O awaited.

Pitfalls: as ./transport.py. One handshake at a time per transport (an ``asyncio.Lock``, so one
transport belongs to one event loop); a caller waiting for a sequence number (flow control) waits
on an event the counter sets at the next release, never busy-polls.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar, Unpack

import httpx

from . import exchange as ex
from . import flows
from .deadline import Deadline, timeout_error
from .errors import NenError, client_error
from .options import OptionArgs, make_options
from .records import RecordOpener
from .session import SequenceCounter, Session
from .transport_common import TransportCommon

T = TypeVar("T")


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
            self._session = await self._run(flows.handshake(self, httpx.URL(url), d))
            return self._session

    async def rotate(self, url: httpx.URL | str) -> int:
        """Rekeys the session without a KEM (PROTOCOL.md §8 ``rotate``): the server's sealed answer
        names the next epoch, then this session switches to it (sequence numbers continue)."""
        return await self._run(flows.rotate(self, httpx.URL(url), Deadline(self.options.timeout)))

    async def terminate(self, url: httpx.URL | str) -> None:
        """Ends the session on the server (sealed ``terminate``) and drops it here."""
        await self._run(flows.terminate(self, httpx.URL(url), Deadline(self.options.timeout)))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        d = Deadline(self.options.timeout, request.extensions.get("timeout"))
        body = await request.aread() if isinstance(request.stream, httpx.ByteStream) else None
        return await self._run(flows.request(self, ex.prepare(request, body), d))

    async def _run(self, flow: flows.Flow[T]) -> T:
        """Drives a flow: awaits each op it yields and sends back the answer (or throws the failure in)."""
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
                answer = await _OPS[type(op)](self, op)
            except BaseException as e:
                failure = e

    async def _ensure(self, url: httpx.URL, d: Deadline) -> Session:
        s = self._current(url)
        if s is not None:
            return s
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            held = self._current(url)
            self._session = held if held is not None else await self._run(flows.handshake(self, url, d))
            return self._session


async def _transmit(t: AsyncTransport, op: flows.Transmit) -> httpx.Response:
    try:
        return await t._inner.handle_async_request(op.request)
    except httpx.TimeoutException as e:
        raise timeout_error(e) from e


async def _open_stream(_: AsyncTransport, op: flows.OpenStream) -> _OpenedStream:
    return _OpenedStream(op.response, op.opener)


_OPS: dict[type[Any], Callable[[AsyncTransport, Any], Awaitable[Any]]] = {
    flows.Ensure: lambda t, op: t._ensure(op.url, op.deadline),
    flows.Acquire: lambda _, op: _acquire(op.counter, op.deadline),
    flows.Transmit: _transmit,
    flows.ReadBody: lambda _, op: _read_bounded(op.response, op.limit, op.deadline),
    flows.ReadAll: lambda _, op: op.response.aread(),
    flows.Close: lambda _, op: op.response.aclose(),
    flows.OpenStream: _open_stream,
    flows.Sleep: lambda _, op: asyncio.sleep(op.seconds),
}


async def _read_bounded(res: httpx.Response, limit: int, d: Deadline) -> bytes:
    body = flows.BoundedBody(limit, d)
    try:
        async for chunk in _araw(res):
            body.add(chunk)
    except httpx.TimeoutException as e:
        raise timeout_error(e) from e
    finally:
        await res.aclose()
    return body.bytes()


async def _araw(res: httpx.Response) -> AsyncIterator[bytes]:
    """The network bytes of a transport's response (also one built with ``content=``, already read)."""
    stream = res.stream
    if not isinstance(stream, httpx.AsyncByteStream):
        raise TypeError("a sync response stream in the async transport")
    async for chunk in stream:
        yield chunk
