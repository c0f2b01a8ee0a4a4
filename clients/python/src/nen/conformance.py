"""The conformance driver (``conformance/DRIVER.md``): JSON Lines over stdio, one command per line,
one answer per line, driving ``nen.Transport`` under ``httpx.Client``. ``python -m nen.conformance``.

Pitfalls:
 - Nothing but answers goes to stdout (diagnostics to stderr); every answer is flushed.
 - Byte strings in this contract are standard base64 with padding (not the protocol's base64url).
 - A client is pinned whenever pins are given; an empty list or null means unpinned.
 - Client instances are bounded (at most 64 named clients; the oldest is closed past that).
"""

from __future__ import annotations

import base64
import json
import sys
import warnings
from collections import OrderedDict
from pathlib import Path
from typing import Any

import httpx

from . import __version__
from .errors import NenError
from .transport import Transport
from .vectors import check_dir

FEATURES = ["xwing", "mlkem768", "stream", "retry", "pin", "unpinned", "query", "compression"]
MAX_CLIENTS = 64


class Driver:
    def __init__(self) -> None:
        self.clients: OrderedDict[str, tuple[httpx.Client, Transport, str]] = OrderedDict()

    def handle(self, cmd: dict[str, Any]) -> dict[str, Any]:
        op = cmd.get("op")
        if op == "hello":
            return {"ok": True, "client": "python", "version": __version__, "features": FEATURES}
        if op == "vectors":
            return {"ok": True, "results": check_dir(Path(cmd["dir"]))}
        if op == "client":
            return self._client(cmd)
        if op == "close":
            entry = self.clients.get(cmd["client"])
            if entry is not None:
                entry[1].drop_session()
            return {"ok": True}
        c, t, base = self.clients[cmd["client"]]
        if op == "handshake":
            s = t.handshake(base)
            return {"ok": True, "keyId": s.kid, "kem": s.kem.name, "pinned": s.kid is not None, "sessionId": s.id_str}
        if op == "fetch":
            return self._fetch(c, base, cmd)
        return {"ok": False, "code": "DRIVER", "message": f"unknown op {op!r}"}

    def _client(self, cmd: dict[str, Any]) -> dict[str, Any]:
        pins = cmd.get("pins") or None
        timeout_ms = cmd.get("timeoutMs")
        base = str(cmd["base"]).rstrip("/")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = Transport(
                pins,
                unpinned=pins is None,
                kem=cmd.get("kem") or "xwing",
                session_path=cmd.get("sessionPath") or "/api/nen",
                base_url=None,  # the session path is absolute on the base's origin, as @nen/client resolves it
                timeout=timeout_ms / 1000 if timeout_ms else None,
                max_response_bytes=cmd.get("maxBodyBytes") or 64 * 1024 * 1024,
            )
        old = self.clients.pop(cmd["name"], None)
        if old is not None:
            old[0].close()
        self.clients[cmd["name"]] = (httpx.Client(transport=t, timeout=None), t, base)
        while len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)[1][0].close()
        return {"ok": True}

    def _fetch(self, c: httpx.Client, base: str, cmd: dict[str, Any]) -> dict[str, Any]:
        body = cmd.get("body")
        content = base64.b64decode(body) if body is not None else None
        req = c.build_request(cmd.get("method", "GET"), base + cmd["path"], headers=cmd.get("headers") or {}, content=content)
        chunks: list[bytes] = []
        try:
            res = c.send(req, stream=True)
            try:
                for chunk in res.iter_bytes():
                    chunks.append(chunk)
            finally:
                res.close()
        except NenError as e:
            out = _error(e)
            if cmd.get("stream"):
                out["partial"] = _b64(b"".join(chunks))
            return out
        answer: dict[str, Any] = {
            "ok": True,
            "status": res.status_code,
            "headers": {k.lower(): v for k, v in res.headers.items()},
            "body": _b64(b"".join(chunks)),
        }
        if cmd.get("stream"):
            answer["chunks"] = [_b64(ch) for ch in chunks]
        return answer


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii")


def _error(e: NenError) -> dict[str, Any]:
    out: dict[str, Any] = {"ok": False, "code": e.code, "message": str(e)}
    if e.status is not None:
        out["status"] = e.status
    if e.code == "NEN_OUTCOME_UNKNOWN" and e.cause is not None:
        out["cause"] = e.cause.code if isinstance(e.cause, NenError) else "NETWORK"
    return out


def main() -> int:
    driver = Driver()
    for line in sys.stdin:
        if not line.strip():
            continue
        cid: Any = None
        try:
            cmd = json.loads(line)
            cid = cmd.get("id")
            answer = driver.handle(cmd)
        except NenError as e:
            answer = _error(e)
        except httpx.HTTPError as e:
            answer = {"ok": False, "code": "NETWORK", "message": f"{type(e).__name__}: {e}"}
        except Exception as e:
            print(f"driver error: {e!r}", file=sys.stderr)
            answer = {"ok": False, "code": "DRIVER", "message": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps({"id": cid, **answer}) + "\n")
        sys.stdout.flush()
    for c, _, _ in driver.clients.values():
        c.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
