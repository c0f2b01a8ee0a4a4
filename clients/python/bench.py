"""Client CPU per request of ``nen.Transport`` against plain httpx, in one run (issue 22 targets:
<= 100 us of client CPU added per 1 KB request in Python).

    .venv/bin/python bench.py [--url http://127.0.0.1:3100 --pin kid:...] [--n 2000] [--rounds 5]

Without ``--url`` it starts the repository's Hono target (``bench/targets/hono.mjs``) on a free
127.0.0.1 port with the test keys, and stops it at the end. Measured: process CPU time
(``time.process_time``, this process only: the server runs in another), 1 KB and 100 KB POST
echo on one warm session (``/api/echo`` sealed vs ``/api/plain/echo`` plain, same httpx
version and connection reuse) and full handshakes; rounds interleave plain and Nen.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "src"))
sys.path.insert(0, str(HERE))

import nen  # noqa: E402


def cpu_per_call(fn, n: int) -> float:
    t0 = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t0) / n * 1e6


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url")
    ap.add_argument("--pin")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--handshakes", type=int, default=100)
    a = ap.parse_args()
    server = None
    if a.url is None:
        os.environ.setdefault("NEN_REQUIRE_SERVER", "1")
        from tests.conftest import XWING_PIN, start_server

        server = start_server()
        a.url, a.pin = server.url, XWING_PIN
    try:
        return run(a)
    finally:
        if server is not None:
            from tests.conftest import stop_server

            stop_server(server)


def run(a: argparse.Namespace) -> int:
    plain = httpx.Client(base_url=a.url)
    t = nen.Transport(a.pin)
    sealed = httpx.Client(transport=t, base_url=a.url)
    print(f"nen Python client bench: {a.url}, n={a.n} x {a.rounds} rounds, Python {sys.version.split()[0]}, httpx {httpx.__version__}")
    print(f"{'case':<22}{'plain us':>10}{'nen us':>10}{'ratio':>8}{'added us':>10}")
    for size in (1024, 100 * 1024):
        body = os.urandom(size)
        hdr = {"content-type": "application/octet-stream"}
        n = a.n if size <= 1024 else max(a.n // 10, 50)
        for _ in range(50):  # warm: connection, session, caches
            assert plain.post("/api/plain/echo", content=body, headers=hdr).content == body
            assert sealed.post("/api/echo", content=body, headers=hdr).content == body
        p = s = 0.0

        def one_plain(body: bytes = body, hdr: dict[str, str] = hdr) -> None:
            plain.post("/api/plain/echo", content=body, headers=hdr)

        def one_sealed(body: bytes = body, hdr: dict[str, str] = hdr) -> None:
            sealed.post("/api/echo", content=body, headers=hdr)

        for _ in range(a.rounds):
            p += cpu_per_call(one_plain, n)
            s += cpu_per_call(one_sealed, n)
        p, s = p / a.rounds, s / a.rounds
        print(f"{f'echo {size // 1024} KB':<22}{p:>10.1f}{s:>10.1f}{s / p:>8.2f}x{s - p:>10.1f}")
    get = cpu_per_call(lambda: plain.get("/api/bench/metrics"), 50)
    hs = cpu_per_call(lambda: t.handshake(a.url), a.handshakes)
    print(f"{'handshake (X-Wing)':<22}{get:>10.1f}{hs:>10.1f}{hs / get:>8.2f}x{hs - get:>10.1f}   (plain: one GET)")
    plain.close()
    sealed.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
