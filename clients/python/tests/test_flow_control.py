"""Flow control and ``terminate`` through both transports against a real @nen/server: with the
sequence window full, a request waits for a release (the ``Acquire`` op of ./src/nen/flows.py,
blocking in ``Transport``, an event in ``AsyncTransport``) or fails NEN_TIMEOUT when none comes within the transport's timeout;
``terminate()`` ends the session on the server and drops it here.
"""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

import nen
from nen.session import Session

from .conftest import XWING_PIN, Server


def _fill_window(s: Session) -> list[int]:
    """Takes every free sequence number (releasing the first opens the window)."""
    taken = []
    while (seq := s.counter.try_acquire()) is not None:
        taken.append(seq)
    return taken


def test_sync_request_waits_for_the_window(server: Server):
    t = nen.Transport(XWING_PIN, timeout=1.0)
    with httpx.Client(transport=t, base_url=server.url) as c:
        s = t.handshake(server.url)
        taken = _fill_window(s)
        threading.Timer(0.2, s.counter.release, (taken[0],)).start()
        assert c.post("/api/echo", json={"w": 1}).json() == {"w": 1}
        with pytest.raises(nen.NenError) as e:
            c.post("/api/echo", json={"w": 2})
        assert e.value.code == "NEN_TIMEOUT"
        for seq in taken[1:]:
            s.counter.release(seq)
        t.terminate(server.url)
        assert t.session is None
        assert c.post("/api/echo", json={"w": 3}).json() == {"w": 3}
        assert t.session is not None and t.session.id != s.id


def test_async_request_waits_for_the_window(server: Server):
    async def main() -> None:
        t = nen.AsyncTransport(XWING_PIN, timeout=1.0)
        async with httpx.AsyncClient(transport=t, base_url=server.url) as c:
            s = await t.handshake(server.url)
            taken = _fill_window(s)
            asyncio.get_running_loop().call_later(0.2, s.counter.release, taken[0])
            assert (await c.post("/api/echo", json={"w": 1})).json() == {"w": 1}
            with pytest.raises(nen.NenError) as e:
                await c.post("/api/echo", json={"w": 2})
            assert e.value.code == "NEN_TIMEOUT"
            for seq in taken[1:]:
                s.counter.release(seq)
            await t.terminate(server.url)
            assert t.session is None
            assert (await c.post("/api/echo", json={"w": 3})).json() == {"w": 3}
            assert t.session is not None and t.session.id != s.id

    asyncio.run(main())
