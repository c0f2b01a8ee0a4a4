"""Against a real @nen/server (the Hono target, see conftest.py): every method and the query
string, HEAD and null-body answers, streams both ways, both KEMs, pins (fallback, wrong key),
session loss and re-handshake with the 1.1 retry, forged and tampered answers (through a wrapping
transport that plays the network attacker), sync and async.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

import nen
from nen import codec, hpke
from nen.session import Session

from .conftest import MLKEM_PIN, XWING_PIN, Server, start_server, stop_server

Hook = Callable[[httpx.Request, httpx.Response], httpx.Response]


class Attacker(httpx.BaseTransport):
    """Forwards to the network and lets a test rewrite what comes back (or drop it)."""

    def __init__(self, hook: Hook | None = None):
        self.inner = httpx.HTTPTransport()
        self.hook = hook
        self.seen: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        res = self.inner.handle_request(request)
        if self.hook is None or request.url.path.endswith("/handshake"):
            return res
        res.read()
        res = httpx.Response(res.status_code, headers=res.headers, content=res.content)
        return self.hook(request, res)


def client(server: Server, pins: str | list[str] | None = XWING_PIN, attacker: Attacker | None = None, **kw: Any) -> httpx.Client:
    t = nen.Transport(pins, transport=attacker, unpinned=pins is None, **kw)
    return httpx.Client(transport=t, base_url=server.url)


def session_of(c: httpx.Client) -> Session:
    """The Nen session of a client made by ``client`` (asserting there is one)."""
    t = c._transport
    assert isinstance(t, nen.Transport) and t.session is not None
    return t.session


@pytest.mark.parametrize("pin", [XWING_PIN, MLKEM_PIN], ids=["xwing", "mlkem768"])
def test_methods_and_query(server: Server, pin: str):
    with client(server, pin) as c:
        r = c.post("/api/echo?a=1&b=%7e", json={"hello": "wörld"})
        assert r.status_code == 200 and r.json() == {"hello": "wörld"} and r.headers["content-type"] == "application/json"
        r = c.get("/api/echo", params={"q": "a b", "tag": "~x"})
        assert r.json() == {"method": "GET", "path": "/api/echo", "query": {"q": "a b", "tag": "~x"}}
        r = c.post("/api/notes", json={"title": "t", "body": "b"})
        assert r.status_code in (200, 201)
        note = r.json()
        nid = note.get("id") or note.get("note", {}).get("id")
        assert c.get(f"/api/notes/{nid}").status_code == 200
        for method in ("PUT", "PATCH"):
            r = c.request(method, f"/api/notes/{nid}", json={"title": method, "body": "x"})
            assert r.status_code < 500
        assert c.request("OPTIONS", "/api/echo").status_code < 500
        r = c.head("/api/echo")
        assert r.status_code == 200 and r.content == b""
        r = c.delete(f"/api/notes/{nid}")
        assert r.status_code in (200, 204)
        r = c.post("/api/echo", content=b"")  # empty body: the echo answers a null-body 204
        assert r.status_code == 204 and r.content == b""


def test_confidential_query_and_unpinned(server: Server):
    with pytest.warns(UserWarning):
        import nen.options

        nen.options._warned = False
        c = client(server, None, confidential_query=True)
    with c:
        r = c.get("/api/echo?q=secret&x=1")
        assert r.json()["query"] == {"q": "secret", "x": "1"}
        assert session_of(c).kid is None


def test_unpinned_mlkem768(server: Server):
    with pytest.warns(UserWarning):
        import nen.options

        nen.options._warned = False
        c = client(server, None, kem="mlkem768")
    with c:
        assert c.put("/api/echo", content=b"pq", headers={"content-type": "text/plain"}).text == "pq"
        assert session_of(c).kem is hpke.MLKEM768


def test_idle_expiry_rehandshakes_and_retries():
    s = start_server({"NEN_IDLE_TIMEOUT": "1"})
    try:
        with client(s) as c:
            assert c.post("/api/echo", json={"n": 1}).status_code == 200
            first = session_of(c)
            time.sleep(1.4)  # the server now answers 401 NEN_SESSION_EXPIRED: re-handshake + retry
            assert c.post("/api/echo", json={"n": 2}).json() == {"n": 2}
            assert session_of(c) is not first
    finally:
        stop_server(s)


def test_session_follows_the_origin(server: Server):
    other = start_server()
    try:
        with client(server) as c:
            assert c.post("/api/echo", json={"a": 1}).json() == {"a": 1}
            first = session_of(c)
            assert c.post(other.url + "/api/echo", json={"b": 2}).json() == {"b": 2}  # another origin: its own handshake
            assert session_of(c) is not first and session_of(c).server == (
                "http",
                other.url.removeprefix("http://").encode(),
            )
    finally:
        stop_server(other)


def test_compression_inside_the_envelope(server: Server):
    seen: list[tuple[str, str]] = []

    def spy(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        seen.append((req.headers["nen"].rsplit(".", 1)[1], res.headers.get("nen", "")))
        return res

    doc = json.dumps([{"id": i, "title": "a fairly repetitive note"} for i in range(200)]).encode()
    with client(server, attacker=Attacker(spy), compress=True) as c:
        r = c.post("/api/echo", content=doc, headers={"content-type": "application/json"})
        assert r.content == doc and seen[-1] == ("9", "1.1")  # COMPRESSED | ACCEPT_COMPRESSED; a compressed answer
        assert c.post("/api/echo", content=b"tiny", headers={"content-type": "text/plain"}).text == "tiny"
        assert seen[-1] == ("8", "1.0")  # under 64 bytes: neither side compresses
    with client(server, compress=True, max_response_bytes=len(doc) - 1) as c, pytest.raises(nen.NenError) as e:
        c.post("/api/echo", content=doc, headers={"content-type": "application/json"})  # inflates past the bound
    assert e.value.code == "NEN_RESPONSE_UNAUTHENTICATED"


def test_stream_response_is_incremental(server: Server):
    with client(server) as c, c.stream("POST", "/api/stream?n=20") as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        chunks = list(r.iter_bytes())
    text = b"".join(chunks).decode()
    assert text.count("token-") == 20 and text.endswith("[DONE]\n\n") and len(chunks) > 1


def test_streamed_upload(server: Server):
    def gen():
        for i in range(5):
            yield f"part {i};".encode() * 3000

    with client(server) as c:
        r = c.post("/api/echo", content=gen(), headers={"content-type": "application/octet-stream"})
        assert r.status_code == 200 and r.content == b"".join(gen())


def test_pin_fallback_and_wrong_key(server: Server):
    stale = "k0:" + XWING_PIN.split(":", 1)[1]  # a kid the server does not hold
    with client(server, [stale, XWING_PIN]) as c:
        assert c.post("/api/echo", json={}).status_code == 200
        assert session_of(c).kid == "k1"
    wrong = "k1:" + codec.b64url(hpke.XWING.public_key(bytes(32)))  # right kid, another key
    with client(server, wrong) as c, pytest.raises(nen.NenError) as e:
        c.post("/api/echo", json={})
    assert e.value.code == "NEN_HANDSHAKE_FAILED"
    with client(server, stale) as c, pytest.raises(nen.NenError) as e:
        c.post("/api/echo", json={})
    assert (e.value.code, e.value.status) == ("NEN_UNKNOWN_KEY_ID", 400)


def test_session_loss_rehandshakes_and_retries(server: Server):
    with client(server) as c:
        assert c.post("/api/echo", json={"n": 1}).status_code == 200
        first = session_of(c)
        assert c.post("/api/nen/terminate").json() == {"terminated": True}
        r = c.post("/api/echo", json={"n": 2})  # 401 NEN_SESSION_UNKNOWN -> new handshake + retry
        assert r.json() == {"n": 2}
        assert session_of(c) is not first


def test_rotate_and_status(server: Server):
    with client(server) as c:
        t = c._transport
        assert isinstance(t, nen.Transport)
        assert t.rotate(server.url) == 1 and session_of(c).keys.epoch == 1
        st = c.get("/api/nen/status").json()
        assert st["epoch"] == 1 and st["keyId"] == "k1" and st["kem"] == "xwing"
        assert t.rotate(server.url) == 2 and c.post("/api/echo", json={"e": 2}).json() == {"e": 2}
        t.terminate(server.url)
        assert t.session is None
        assert c.post("/api/echo", json={"after": 1}).json() == {"after": 1}  # a new handshake


def test_tampered_and_swapped_answers_are_refused(server: Server):
    def flip(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        body = bytearray(res.content)
        body[0] ^= 1
        return httpx.Response(res.status_code, headers=res.headers, content=bytes(body))

    def status(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        return httpx.Response(201, headers=res.headers, content=res.content)

    def plain(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "application/json"}, content=b'{"evil":1}')

    def compressed(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        return httpx.Response(res.status_code, headers={**res.headers, "nen": "1.1"}, content=res.content)

    for hook in (flip, status, plain, compressed):
        with client(server, attacker=Attacker(hook)) as c, pytest.raises(nen.NenError) as e:
            c.post("/api/echo", json={"x": 1})
        assert e.value.code == "NEN_RESPONSE_UNAUTHENTICATED", hook.__name__


def _forged(status: int, code: str) -> Hook:
    def hook(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        return httpx.Response(status, headers={"nen-error": code, "content-type": "application/json"}, content=b"{}")

    return hook


def test_forged_errors_after_delivery_never_run_twice(server: Server):
    # The request reached the handler; the answer is replaced by a forged 401: the retry must be
    # refused as NEN_RETRY_COMMITTED (sealed), never run a second time.
    calls = {"n": 0}

    def once(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        calls["n"] += 1
        return _forged(401, "NEN_SESSION_UNKNOWN")(req, res) if calls["n"] == 1 else res

    with client(server, attacker=Attacker(once)) as c, pytest.raises(nen.NenError) as e:
        c.post("/api/notes", json={"title": "once", "body": "b"})
    assert (e.value.code, e.value.status) == ("NEN_RETRY_COMMITTED", 409)
    # A forged 5xx is not retried at all.
    a = Attacker(_forged(500, "NEN_INTERNAL"))
    with client(server, attacker=a) as c, pytest.raises(nen.NenError) as e:
        c.post("/api/echo", json={})
    assert e.value.code == "NEN_INTERNAL" and len([r for r in a.seen if not r.url.path.endswith("handshake")]) == 1
    # Every answer forged: one retry, then outcome unknown with the cause.
    with client(server, attacker=Attacker(_forged(401, "NEN_TIMESTAMP"))) as c, pytest.raises(nen.NenError) as e:
        c.post("/api/echo", json={})
    assert e.value.code == "NEN_OUTCOME_UNKNOWN" and isinstance(e.value.cause, nen.NenError)


def test_streamed_body_is_never_retried(server: Server):
    with client(server, attacker=Attacker(_forged(401, "NEN_SESSION_UNKNOWN"))) as c, pytest.raises(nen.NenError) as e:
        c.post("/api/echo", content=iter([b"a", b"b"]))
    assert e.value.code == "NEN_OUTCOME_UNKNOWN"


def test_truncated_stream(server: Server):
    def cut(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        return httpx.Response(res.status_code, headers=res.headers, content=res.content[:-20])

    with client(server, attacker=Attacker(cut)) as c, c.stream("POST", "/api/stream?n=3") as r:
        got = []
        with pytest.raises(nen.NenError) as e:
            for chunk in r.iter_bytes():
                got.append(chunk)
    assert e.value.code == "NEN_STREAM_TRUNCATED" and b"".join(got).count(b"token-") == 3


def test_limits_and_bad_input(server: Server):
    with client(server, max_response_bytes=100) as c:
        with pytest.raises(nen.NenError) as e:
            c.post("/api/echo", content=b"x" * 1000)
        assert e.value.code == "NEN_RESPONSE_UNAUTHENTICATED"
        with pytest.raises(nen.NenError) as e:
            c.request("GET", "/api/echo", content=b"body")
        assert e.value.code == "NEN_BAD_INPUT"


def test_timeout():
    import socket

    with socket.socket() as s:  # accepts, never answers
        s.bind(("127.0.0.1", 0))
        s.listen()
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
        with httpx.Client(transport=nen.Transport(XWING_PIN, timeout=0.3), base_url=url) as c, pytest.raises(nen.NenError) as e:
            c.post("/api/echo", json={})
    assert e.value.code == "NEN_TIMEOUT"


def test_async_transport(server: Server):
    async def main() -> None:
        async with httpx.AsyncClient(transport=nen.AsyncTransport(XWING_PIN), base_url=server.url) as c:
            rs = await asyncio.gather(*(c.post("/api/echo", json={"i": i}) for i in range(20)))
            assert [r.json()["i"] for r in rs] == list(range(20))
            async with c.stream("POST", "/api/stream?n=5") as r:
                chunks = [ch async for ch in r.aiter_bytes()]
            assert b"".join(chunks).count(b"token-") == 5

            async def gen():
                yield b"async "
                yield b"upload"

            r = await c.post("/api/echo", content=gen(), headers={"content-type": "text/plain"})
            assert r.text == "async upload"
            t = c._transport
            assert isinstance(t, nen.AsyncTransport)
            assert await t.rotate(server.url) == 1
            assert (await c.post("/api/echo", json={"epoch": 1})).json() == {"epoch": 1}
            assert (await c.post("/api/nen/terminate")).status_code == 200
            assert (await c.post("/api/echo", json={"after": 1})).json() == {"after": 1}

    asyncio.run(main())


def test_concurrent_threads_share_one_session(server: Server):
    from concurrent.futures import ThreadPoolExecutor

    with client(server) as c, ThreadPoolExecutor(8) as pool:
        rs = list(pool.map(lambda i: c.post("/api/echo", json={"i": i}).json()["i"], range(64)))
        assert rs == list(range(64))
        assert session_of(c).counter.in_flight == 0


def test_server_json_error_is_sealed_data(server: Server):
    with client(server) as c:
        r = c.get("/api/notes/does-not-exist")
        assert r.status_code == 404 and "error" in json.loads(r.content)


class AsyncAttacker(httpx.AsyncBaseTransport):
    """The async twin of ``Attacker``."""

    def __init__(self, hook: Hook):
        self.inner = httpx.AsyncHTTPTransport()
        self.hook = hook

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        res = await self.inner.handle_async_request(request)
        if request.url.path.endswith("/handshake"):
            return res
        body = await res.aread()
        return self.hook(request, httpx.Response(res.status_code, headers=res.headers, content=body))


def test_async_retry_rules_and_truncation(server: Server):
    calls = {"n": 0}

    def once(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        calls["n"] += 1
        return _forged(401, "NEN_SESSION_EXPIRED")(req, res) if calls["n"] == 1 else res

    def cut(req: httpx.Request, res: httpx.Response) -> httpx.Response:
        return httpx.Response(res.status_code, headers=res.headers, content=res.content[:-20])

    async def main() -> None:
        t = nen.AsyncTransport(XWING_PIN, transport=AsyncAttacker(once))
        async with httpx.AsyncClient(transport=t, base_url=server.url) as c:
            with pytest.raises(nen.NenError) as e:
                await c.post("/api/notes", json={"title": "async once", "body": "b"})
            assert (e.value.code, e.value.status) == ("NEN_RETRY_COMMITTED", 409)
        t = nen.AsyncTransport(XWING_PIN, transport=AsyncAttacker(_forged(401, "NEN_TIMESTAMP")))
        async with httpx.AsyncClient(transport=t, base_url=server.url) as c:
            with pytest.raises(nen.NenError) as e:
                await c.post("/api/echo", json={})
            assert e.value.code == "NEN_OUTCOME_UNKNOWN"
        t = nen.AsyncTransport(XWING_PIN, transport=AsyncAttacker(cut))
        async with httpx.AsyncClient(transport=t, base_url=server.url) as c, c.stream("POST", "/api/stream?n=3") as r:
            got = []
            with pytest.raises(nen.NenError) as e:
                async for chunk in r.aiter_bytes():
                    got.append(chunk)
            assert e.value.code == "NEN_STREAM_TRUNCATED" and b"".join(got).count(b"token-") == 3

    asyncio.run(main())
