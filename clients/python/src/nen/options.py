"""Client options (validated once) and the handshake URL.

Pitfalls:
 - Pinned by default: without pins the client refuses to run (``NEN_BAD_SERVER_KEY``) unless
   ``unpinned=True`` is passed explicitly; that logs one warning (TLS-only server authentication).
 - The handshake goes to ``{base_url or the request's origin}{session_path}/handshake``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TypedDict, Unpack

import httpx

from . import hpke
from .errors import client_error
from .handshake import Pin, parse_pins

DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024
_warned = False


@dataclass(frozen=True)
class Options:
    pins: tuple[Pin, ...]
    kem: hpke.Kem
    session_path: str
    base_url: httpx.URL | None
    timeout: float | None
    max_response_bytes: int
    lifetime: int
    confidential_query: bool
    retry: bool
    compress: bool

    def session_url(self, request_url: httpx.URL, action: str = "handshake") -> httpx.URL:
        """``{base_url or the request's origin}{session_path}/{action}`` (PROTOCOL.md §8)."""
        base = str(self.base_url).rstrip("/") if self.base_url is not None else f"{request_url.scheme}://{request_url.netloc.decode('ascii')}"
        return httpx.URL(f"{base}{self.session_path}/{action}")


class OptionArgs(TypedDict, total=False):
    """The keyword options ``Transport`` and ``AsyncTransport`` take (defaults: ``make_options``)."""

    unpinned: bool
    kem: str
    session_path: str
    base_url: str | None
    timeout: float | None
    max_response_bytes: int
    session_lifetime: int
    confidential_query: bool
    retry: bool
    compress: bool


def make_options(pins: str | list[str] | tuple[str, ...] | None, **args: Unpack[OptionArgs]) -> Options:
    """Validates the options once; the defaults of every option stand here and only here."""
    global _warned
    unknown = sorted(set(args) - set(OptionArgs.__annotations__))
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(unknown)}")
    unpinned = args.get("unpinned", False)
    kem = args.get("kem", "xwing")
    session_path = args.get("session_path", "/api/nen")
    base_url = args.get("base_url")
    timeout = args.get("timeout", 30.0)
    max_response_bytes = args.get("max_response_bytes", DEFAULT_MAX_RESPONSE_BYTES)
    session_lifetime = args.get("session_lifetime", 0)
    parsed = parse_pins(pins)
    if parsed and unpinned:
        raise client_error("NEN_BAD_INPUT", "pins and unpinned=True exclude each other")
    if not parsed and not unpinned:
        raise client_error("NEN_BAD_SERVER_KEY", "no server key to pin: pass pins (from `nen keygen`), or unpinned=True for TLS-only server authentication")
    if not parsed and not _warned:
        _warned = True
        warnings.warn("nen: running without a pinned server key: the handshake is authenticated by TLS only", stacklevel=3)
    if kem not in ("xwing", "mlkem768"):
        raise client_error("NEN_BAD_INPUT", "kem must be 'xwing' or 'mlkem768'")
    if not isinstance(session_lifetime, int) or session_lifetime < 0 or session_lifetime > 0xFFFFFFFF:
        raise client_error("NEN_BAD_INPUT", "session_lifetime must be a non-negative integer (seconds)")
    if timeout is not None and timeout <= 0:
        timeout = None
    if max_response_bytes <= 0:
        raise client_error("NEN_BAD_INPUT", "max_response_bytes must be positive")
    return Options(
        tuple(parsed),
        hpke.MLKEM768 if kem == "mlkem768" else hpke.XWING,
        "/" + session_path.strip("/") if session_path.strip("/") else "",
        httpx.URL(base_url) if base_url else None,
        timeout,
        max_response_bytes,
        session_lifetime,
        args.get("confidential_query", False),
        args.get("retry", True),
        args.get("compress", False),
    )
