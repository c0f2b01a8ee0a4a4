"""Nen's typed errors (ERROR_CODES.md): every failure is a ``NenError`` with a stable ``code``.

``NenProtocolError`` carries the HTTP ``status`` of an unauthenticated server error (``nen-error``
header) or of a sealed refusal (409 ``NEN_RETRY_COMMITTED``); ``status`` is None for client-only
codes. The three classes an application tells apart (not sent / sent, outcome unknown / refused)
follow from the code, as in ``@nen/client``.

Pitfalls:
 - A server's protocol error is unauthenticated: ``server_error`` trusts its code only when the
   status matches the catalog below, and never reads the body as data.
 - ``NEN_OUTCOME_UNKNOWN`` keeps the underlying error in ``cause`` (and ``__cause__``).
"""

from __future__ import annotations

from typing import Literal

Recovery = Literal["rehandshake-retry", "rehandshake-once", "fail"]

#: Server-sent protocol error codes: (HTTP status, what a conforming client does).
WIRE_ERRORS: dict[str, tuple[int, Recovery]] = {
    "NEN_MALFORMED": (400, "fail"),
    "NEN_UNSUPPORTED_VERSION": (400, "fail"),
    "NEN_UNSUPPORTED_KEM": (400, "fail"),
    "NEN_UNKNOWN_KEY_ID": (400, "fail"),
    "NEN_NOT_ENCRYPTED": (400, "fail"),
    "NEN_BAD_JSON": (400, "fail"),
    "NEN_AUTH_FAILED": (401, "rehandshake-once"),
    "NEN_SESSION_UNKNOWN": (401, "rehandshake-retry"),
    "NEN_SESSION_EXPIRED": (401, "rehandshake-retry"),
    "NEN_TIMESTAMP": (401, "rehandshake-retry"),
    "NEN_REPLAY": (409, "fail"),
    "NEN_RETRY_COMMITTED": (409, "fail"),
    "NEN_RETRY_UNKNOWN": (409, "fail"),
    "NEN_STREAM_TRUNCATED": (400, "fail"),
    "NEN_TOO_LARGE": (413, "fail"),
    "NEN_CONTENT_TYPE": (415, "fail"),
    "NEN_RATE_LIMITED": (429, "fail"),
    "NEN_NOT_FOUND": (404, "fail"),
    "NEN_METHOD_NOT_ALLOWED": (405, "fail"),
    "NEN_INTERNAL": (500, "fail"),
    "NEN_STORE_UNAVAILABLE": (503, "fail"),
}

#: Codes raised by the client only (never sent by a server).
CLIENT_ERRORS = frozenset(
    {
        "NEN_HANDSHAKE_FAILED",
        "NEN_BAD_SERVER_KEY",
        "NEN_RESPONSE_UNAUTHENTICATED",
        "NEN_STREAM_TRUNCATED",
        "NEN_STREAM_INVALID",
        "NEN_TIMEOUT",
        "NEN_ABORTED",
        "NEN_BAD_INPUT",
        "NEN_PROTOCOL_ERROR",
        "NEN_OUTCOME_UNKNOWN",
    }
)


class NenError(Exception):
    """Base class of every error raised by this package; ``code`` is from ERROR_CODES.md."""

    def __init__(self, code: str, message: str, *, status: int | None = None, cause: BaseException | None = None):
        super().__init__(message)
        self.code = code
        self.status = status
        self.cause = cause
        if cause is not None:
            self.__cause__ = cause

    def __str__(self) -> str:
        return f"{self.args[0]} [{self.code}]"


class NenProtocolError(NenError):
    """A protocol failure: a server-reported code (with ``status``) or a client-side check."""


def client_error(code: str, message: str, cause: BaseException | None = None) -> NenProtocolError:
    return NenProtocolError(code, f"nen: {message}", cause=cause)


def server_error(status: int, code_header: str | None, detail: str) -> NenProtocolError:
    """An unauthenticated error response: its code when the status matches the catalog, else a refusal."""
    if code_header is not None:
        spec = WIRE_ERRORS.get(code_header)
        if spec is not None and spec[0] == status:
            return NenProtocolError(code_header, f"nen: server reported {code_header}", status=status)
    return client_error("NEN_RESPONSE_UNAUTHENTICATED", detail)


def recovery_of(e: BaseException) -> Recovery:
    """The action the catalog prescribes for a server-reported code ('fail' for anything else)."""
    if isinstance(e, NenProtocolError) and e.status is not None:
        spec = WIRE_ERRORS.get(e.code)
        if spec is not None and spec[0] == e.status:
            return spec[1]
    return "fail"


def outcome_unknown(e: BaseException) -> NenProtocolError:
    code = e.code if isinstance(e, NenError) else type(e).__name__
    return client_error("NEN_OUTCOME_UNKNOWN", f"no authenticated answer ({code})", e)
