"""The conformance kit's vector files (``conformance/vectors/``, format in its README), checked
with this package's own code for the driver's ``vectors`` command: handshakes by decapsulation and
the client's own completion step, requests / responses / rejects through the codec and the
client's response checks, streams fed byte by byte to the client's record opener, the error
catalog and retry rules against ``nen.errors``, canonical targets.

Pitfalls: result names must be the JS reference driver's (the runner counts a file as passed only
when every expected name is reported ok); one failing vector never stops the others.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from . import codec, hpke
from . import exchange as ex
from .errors import WIRE_ERRORS, NenError, server_error
from .handshake import EXPORT, INFO_E, INFO_S, HandshakeState, parse_pin
from .records import RecordOpener
from .target import canonical_target

h = bytes.fromhex
KEMS = {"xwing": hpke.XWING, "mlkem768": hpke.MLKEM768}


def _eq(a: bytes | str, b: str, what: str) -> None:
    if (a.hex() if isinstance(a, bytes) else a) != b:
        raise ValueError(f"{what} differs")


def _handshake(v: dict[str, Any]) -> None:
    kem = KEMS[v["kem"]]
    _eq(kem.public_key(h(v["clientEphemeralSeed"])), v["clientEphemeralPublicKey"], "clientEphemeralPublicKey")
    _eq(kem.public_key(h(v["serverStaticSeed"])), v["serverStaticPublicKey"], "serverStaticPublicKey")
    ch, sh = h(v["clientHello"]), h(v["serverHello"])
    exported_e = hpke.setup_base_r_export(kem, h(v["encEph"]), h(v["clientEphemeralSeed"]), INFO_E, EXPORT, 32)
    _eq(exported_e, v["exportedE"], "exported_e")
    pin = None
    if v["pinned"]:
        pin = parse_pin(v["pin"])
        if pin.kid != v["kid"] or pin.public_key.hex() != v["serverStaticPublicKey"]:
            raise ValueError("pin differs")
        _eq(hpke.setup_base_r_export(kem, h(v["encStatic"]), h(v["serverStaticSeed"]), INFO_S, EXPORT, 32), v["exportedS"], "exported_s")
    # The client's own completion step on the recorded messages (its ephemeral key injected).
    st = HandshakeState(kem, pin, v["requestedLifetime"])
    st._sk, st.hello, st._exported_s = h(v["clientEphemeralSeed"]), ch, h(v["exportedS"]) if pin else b""
    r = st.finish(sh)
    _eq(r.secret, v["s0"], "S_0")
    _eq(r.session_id, v["sessionId"], "session id")
    if codec.b64url(r.session_id) != v["sessionIdB64u"] or (r.lifetime, r.idle, r.server_time) != (v["lifetime"], v["idleTimeout"], v["serverTime"]):
        raise ValueError("ServerHello fields differ")
    _eq(hpke.hkdf_expand(r.secret, b"nen/1 confirm", 32), v["confirmKey"], "confirm key")
    _eq(sh[-32:], v["confirm"], "confirm")
    keys = codec.EpochKeys.derive(r.secret, 0)
    for e in v["epochs"]:
        _eq(keys.secret, e["secret"], f"epoch {e['epoch']} secret")
        for name, raw in (("c2sKey", hpke.hkdf_expand(keys.secret, b"nen/1 c2s key", 32)), ("c2sIv", keys.c2s_iv)):
            _eq(raw, e[name], f"epoch {e['epoch']} {name}")
        for name, raw in (("s2cKey", hpke.hkdf_expand(keys.secret, b"nen/1 s2c key", 32)), ("s2cIv", keys.s2c_iv)):
            _eq(raw, e[name], f"epoch {e['epoch']} {name}")
        keys = keys.next()


def _keys(sessions: dict[str, Any], name: str, epoch: int) -> tuple[codec.EpochKeys, bytes]:
    v = sessions[name]
    e = next(x for x in v["epochs"] if x["epoch"] == epoch)
    return codec.EpochKeys.derive(h(e["secret"]), epoch), h(v["sessionId"])


def _opened(key: ChaCha20Poly1305, iv: bytes, aad: bytes, r: dict[str, Any]) -> bytes:
    """One direction's sealed message of vector ``r``: its nonce, opened, and sealed again when reproducible."""
    _eq(codec.nonce(iv, r["seq"]), r["nonce"], "nonce")
    plain = codec.open_sealed(key, iv, r["seq"], aad, h(r["sealed"]))
    if plain is None:
        raise ValueError("does not open")
    _eq(plain, r["plaintext"], "opened plaintext")
    if r["plaintextReproducible"]:
        _eq(codec.seal(key, iv, r["seq"], aad, plain), r["sealed"], "sealed")
    return plain


def _request(sessions: dict[str, Any], r: dict[str, Any]) -> None:
    k, sid = _keys(sessions, r["session"], r["epoch"])
    _eq(codec.request_header(codec.b64url(sid), r["epoch"], r["seq"], r["ts"], r["flags"]), r["headers"]["nen"], "nen header")
    _eq(canonical_target(r["target"]), r["aadTarget"], "canonical target")
    aad = codec.request_aad(sid, r["epoch"], r["seq"], r["ts"], r["flags"], r["method"], r["aadTarget"], r["contentType"], r["retry"] or "")
    _eq(aad, r["aad"], "AAD")
    plain = _opened(k.c2s, k.c2s_iv, aad, r)
    body = plain
    if r["flags"] & codec.REQ_CONFIDENTIAL_QUERY:
        n = int.from_bytes(plain[:2], "big")
        _eq(plain[2 : 2 + n].decode(), r["url"].partition("?")[2], "confidential query")
        body = plain[2 + n :]
    if r["flags"] & codec.REQ_COMPRESSED:
        body = zlib.decompressobj(-15).decompress(body, 1 << 22)
    _eq(body, r["body"], "body")
    if "nen-body" in r["headers"]:
        _eq(codec.b64url(h(r["sealed"])), r["headers"]["nen-body"], "nen-body")


def _response(sessions: dict[str, Any], requests: dict[str, Any], r: dict[str, Any]) -> None:
    k, sid = _keys(sessions, r["session"], r["epoch"])
    aad = codec.response_aad(sid, r["epoch"], r["seq"], r["status"], r["flags"], r["contentType"])
    _eq(aad, r["aad"], "AAD")
    _eq(f"1.{r['flags']}", r["headers"]["nen"], "nen header")
    plain = _opened(k.s2c, k.s2c_iv, aad, r)
    body = zlib.decompressobj(-15).decompress(plain, 1 << 22) if r["flags"] & codec.RES_COMPRESSED else plain
    _eq(body, r["body"], "body")
    if "nen-body" in r["headers"]:
        _eq(codec.b64url_decode(r["headers"]["nen-body"]), r["sealed"], "nen-body")
    # The client's own response check accepts it (and inflates it when it asked for compression).
    req = requests[r["request"]]
    method = req["method"]
    x = ex.Expect(k, sid, r["seq"], method, bool(req["flags"] & codec.REQ_ACCEPT_COMPRESSED), 1 << 22)
    hd = httpx.Headers(r["headers"])
    got = ex.open_single(x, ex.response_head(r["status"], hd, method), r["status"], hd, h(r["wireBody"] or ""))
    _eq(got, "" if r["status"] in codec.NULL_BODY_STATUSES or method == "HEAD" else r["body"], "client-opened body")


def _reject(sessions: dict[str, Any], requests: dict[str, Any], r: dict[str, Any]) -> None:
    req = requests[r["request"]]
    k, sid = _keys(sessions, req["session"], req["epoch"])
    hd = httpx.Headers({"nen": f"1.{r['flags']}", "content-type": "application/nen", "nen-type": r["contentType"]})
    try:
        ex.open_single(ex.Expect(k, sid, req["seq"], "POST"), ex.response_head(r["status"], hd, "POST"), r["status"], hd, h(r["sealed"]))
    except NenError as e:
        if e.code != r["expect"]:
            raise ValueError(f"got {e.code}, want {r['expect']}") from e
        return
    raise ValueError("opened, must be refused")


def _open_stream(sessions: dict[str, Any], s: dict[str, Any], body: bytes) -> tuple[bytes, str | None]:
    k, _ = _keys(sessions, s["session"], s["epoch"])
    aead, iv = (k.s2c, k.s2c_iv) if s["direction"] == "response" else (k.c2s, k.c2s_iv)
    o = RecordOpener(aead, iv, s["seq"], h(s["baseAad"]))
    out = []
    try:
        for i in range(len(body)):
            out.append(o.push(body[i : i + 1]))
        o.end()
        return b"".join(out), None
    except NenError as e:
        return b"".join(out), e.code


def _stream(sessions: dict[str, Any], s: dict[str, Any]) -> None:
    for r in s["records"]:
        _eq(h(s["baseAad"]) + r["index"].to_bytes(4, "big") + bytes([1 if r["final"] else 0]), r["aad"], f"record {r['index']} AAD")
    plain, code = _open_stream(sessions, s, h(s["body"]))
    if code:
        raise ValueError(f"refused: {code}")
    _eq(plain, s["plaintext"], "plaintext")


def _broken(sessions: dict[str, Any], streams: dict[str, Any], b: dict[str, Any]) -> None:
    plain, code = _open_stream(sessions, streams[b["stream"]], h(b["body"]))
    if code != b["expect"]:
        raise ValueError(f"got {code or 'success'}, want {b['expect']}")
    _eq(plain, b["delivered"], "delivered plaintext")


def _wire(w: dict[str, Any]) -> None:
    if WIRE_ERRORS.get(w["code"], (0,))[0] != w["status"]:
        raise ValueError("status differs from the catalog")
    if json.loads(w["body"])["error"]["code"] != w["code"] or w["headers"]["nen-error"] != w["code"]:
        raise ValueError("code differs")


def _classify(c: dict[str, Any]) -> None:
    got = server_error(c["status"], c["headers"].get("nen-error"), "").code
    if got != c["expect"]:
        raise ValueError(f"got {got}, want {c['expect']}")


def _rule(r: dict[str, Any]) -> None:
    recovery = WIRE_ERRORS[r["answer"]["code"]][1]
    want = "retry" if r["request"] == "ordinary" and recovery != "fail" else "throw"
    if r["action"] != want or r["backoff"] != (want == "retry" and recovery == "rehandshake-once"):
        raise ValueError("rule differs from the catalog")


def _target(t: dict[str, Any]) -> None:
    _eq(canonical_target(t["target"]), t["canonical"], "canonical target")


def check_dir(d: Path) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []

    def run(file: str, name: str, fn: Callable[[], None]) -> None:
        try:
            fn()
            results.append({"file": file, "name": name, "ok": True})
        except Exception as e:
            results.append({"file": file, "name": name, "ok": False, "detail": f"{type(e).__name__}: {e}"})

    def read(f: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((d / f).read_text())
        return data

    hs = read("handshake.vectors.json")
    sessions = {v["name"]: v for v in hs["vectors"]}
    for v in hs["vectors"]:
        run("handshake.vectors.json", v["name"], partial(_handshake, v))
    msg = read("messages.vectors.json")
    requests = {r["name"]: r for r in msg["requests"]}
    f = "messages.vectors.json"
    for r in msg["requests"]:
        run(f, f"request {r['name']}", partial(_request, sessions, r))
    for r in msg["responses"]:
        run(f, f"response {r['name']}", partial(_response, sessions, requests, r))
    for r in msg["rejects"]:
        run(f, f"reject {r['name']}", partial(_reject, sessions, requests, r))
    st = read("streams.vectors.json")
    streams = {s["name"]: s for s in st["streams"]}
    for s in st["streams"]:
        run("streams.vectors.json", s["name"], partial(_stream, sessions, s))
    for b in st["broken"]:
        run("streams.vectors.json", f"broken {b['name']}", partial(_broken, sessions, streams, b))
    er = read("errors.vectors.json")
    for w in er["wire"]:
        run("errors.vectors.json", f"wire {w['code']}", partial(_wire, w))
    for c in er["classification"]:
        run("errors.vectors.json", f"classify {c['name']}", partial(_classify, c))
    for r in read("retry.vectors.json")["rules"]:
        run("retry.vectors.json", f"{r['answer']['code']} {r['request']}", partial(_rule, r))
    ct = read("canonical-target.vectors.json")
    for t in [*ct["targets"], *ct["urls"]]:
        run("canonical-target.vectors.json", t["name"], partial(_target, t))
    return results
