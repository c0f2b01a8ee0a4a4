"""Fixtures: a real @nen/server (the repository's Hono bench target, ``bench/targets/hono.mjs``)
started on a free 127.0.0.1 port with fixed test keys, and pins computed from those keys.

Pitfalls: the server is skipped (clear message) only when Node or the built server is missing,
and not even then under NEN_REQUIRE_SERVER=1 (the suite's stage sets it); it is stopped at the
end of the session; its output goes to a temp file that is shown when it fails to start.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from nen import codec, hpke

ROOT = Path(__file__).resolve().parents[3]
XWING_SEED = bytes(range(1, 33))  # the worked example's server seed (PROTOCOL.md §10)
MLKEM_SEED = bytes(range(64))
XWING_PIN = "k1:" + codec.b64url(hpke.XWING.public_key(XWING_SEED))
MLKEM_PIN = "m1:" + codec.b64url(hpke.MLKEM768.public_key(MLKEM_SEED))
SERVER_KEYS = f"k1:{codec.b64url(XWING_SEED)},m1:{codec.b64url(MLKEM_SEED)}"


@dataclass
class Server:
    url: str
    proc: subprocess.Popen


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(extra_env: dict[str, str] | None = None) -> Server:
    node = shutil.which("node")
    target = ROOT / "bench" / "targets" / "hono.mjs"
    built = ROOT / "packages" / "server" / "dist" / "index.js"
    if node is None or not built.exists():
        msg = "Node or the built @nen/server (pnpm turbo run build) is missing"
        if os.environ.get("NEN_REQUIRE_SERVER") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    port = _free_port()
    env = {**os.environ, "NEN_SERVER_KEYS": SERVER_KEYS, "NEN_LOG": "silent", "NEN_HANDSHAKE_RATE": "0", **(extra_env or {})}
    log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the server)
    proc = subprocess.Popen([node, str(target), "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return Server(f"http://127.0.0.1:{port}", proc)
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    log.seek(0)
    pytest.fail(f"the Hono target did not start: {log.read().decode(errors='replace')[-2000:]}")


def stop_server(s: Server) -> None:
    s.proc.terminate()
    try:
        s.proc.wait(5)
    except subprocess.TimeoutExpired:
        s.proc.kill()


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    s = start_server()
    yield s
    stop_server(s)
