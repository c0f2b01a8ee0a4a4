"""The conformance kit's vectors (``conformance/vectors/``, generated from the reference
implementation; provenance in its README): every vector checked by ``nen.vectors`` (the driver's
``vectors`` command), and the kit's requests re-sealed through the client's real request path
(``prepare`` + ``seal_request``) must give the same headers and wire bytes.
"""

from __future__ import annotations

import json

import httpx
import pytest

from nen import codec, hpke
from nen import exchange as ex
from nen.handshake import HandshakeState, parse_pin
from nen.session import Session
from nen.vectors import check_dir

from .conftest import ROOT

KIT = ROOT / "conformance" / "vectors"
HS = {v["name"]: v for v in json.loads((KIT / "handshake.vectors.json").read_text())["vectors"]}
MSG = json.loads((KIT / "messages.vectors.json").read_text())
h = bytes.fromhex


def test_every_kit_vector_passes():
    results = check_dir(KIT)
    assert len(results) >= 143
    assert [r for r in results if not r["ok"]] == []


class _FixedClock(Session):
    ts = 0

    def timestamp(self) -> int:
        return self.ts


def _session(name: str) -> _FixedClock:
    v = HS[name]
    kem = {"xwing": hpke.XWING, "mlkem768": hpke.MLKEM768}[v["kem"]]
    st = HandshakeState(kem, parse_pin(v["pin"]) if v["pinned"] else None, v["requestedLifetime"])
    st._sk, st.hello = h(v["clientEphemeralSeed"]), h(v["clientHello"])  # the kit's recorded ephemeral key
    st._exported_s = h(v["exportedS"]) if v["pinned"] else b""
    r = st.finish(h(v["serverHello"]))
    s = _FixedClock(r, r.server_time, r.server_time)
    return s


@pytest.mark.parametrize("r", MSG["requests"], ids=lambda r: r["name"])
def test_client_seals_the_kit_requests(r):
    s = _session(r["session"])
    for _ in range(r["epoch"]):
        s.rotate()
    s.ts = r["ts"]
    headers = {"content-type": r["contentType"]} if r["contentType"] else {}
    body = h(r["body"])
    req = httpx.Request(r["method"], "http://127.0.0.1:1" + r["url"], headers=headers, content=body or None)
    p = ex.prepare(req, body)
    confidential = bool(r["flags"] & codec.REQ_CONFIDENTIAL_QUERY)
    compress = bool(r["flags"] & codec.REQ_ACCEPT_COMPRESSED)  # zlib's raw DEFLATE gives the kit's bytes here
    sealed = ex.seal_request(s, p, r["seq"], confidential=confidential, retry_of=r["retry"], compress=compress)
    for name, value in r["headers"].items():
        assert sealed.request.headers[name] == value, name
    assert sealed.request.read() == (h(r["wireBody"]) if r["wireBody"] is not None else b"")


def test_handshake_refuses_any_flipped_byte():
    v = HS["xwing-pinned"]
    for pos in (0, 5, 20, 40, len(v["serverHello"]) // 2 - 5):
        sh = bytearray(h(v["serverHello"]))
        sh[pos] ^= 1
        st = HandshakeState(hpke.XWING, parse_pin(v["pin"]))
        st._sk, st._exported_s, st.hello = h(v["clientEphemeralSeed"]), h(v["exportedS"]), h(v["clientHello"])
        with pytest.raises(Exception) as e:
            st.finish(bytes(sh))
        assert getattr(e.value, "code", None) == "NEN_HANDSHAKE_FAILED"
