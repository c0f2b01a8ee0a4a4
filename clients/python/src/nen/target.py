"""The request target bound in the AAD (PROTOCOL.md §5.3): the path exactly as sent, and the query
in its canonical form (the WHATWG ``application/x-www-form-urlencoded`` parse-then-serialise).

Pitfalls:
 - The path is never decoded or normalised here: it is bound byte for byte as it goes on the
   request line (``httpx.URL.raw_path``), so what the server's URL parser hands its handler must
   be the same string (send RFC 3986 ``pchar``s).
 - ``+`` is a space before percent-decoding; a ``%`` not followed by two hex digits stays literal;
   ill-formed UTF-8 becomes U+FFFD per maximal subpart (Python's ``errors="replace"`` does this).
"""

from __future__ import annotations

import re

_HEX = b"0123456789abcdefABCDEF"
_SAFE = frozenset(b"*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_ENC = [chr(b) if b in _SAFE else ("+" if b == 0x20 else f"%{b:02X}") for b in range(256)]


def _decode(piece: bytes) -> bytes:
    b = piece.replace(b"+", b" ")
    if b"%" not in b:
        return b
    out = bytearray()
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c == 0x25 and i + 2 < n and b[i + 1] in _HEX and b[i + 2] in _HEX:
            out.append(int(b[i + 1 : i + 3], 16))
            i += 3
        else:
            out.append(c)
            i += 1
    return bytes(out)


def _serialize(raw: bytes) -> str:
    repaired = raw.decode("utf-8", errors="replace").encode("utf-8")
    return "".join([_ENC[b] for b in repaired])


def canonical_query(query: str) -> str:
    """Steps 1-7 of §5.3 on the part after the first ``?``."""
    q = query.encode("utf-8")
    if q.startswith(b"?"):
        q = q[1:]
    pairs = []
    for piece in q.split(b"&"):
        if not piece:
            continue
        name, _, value = piece.partition(b"=")
        pairs.append(_serialize(_decode(name)) + "=" + _serialize(_decode(value)))
    return "&".join(pairs)


def canonical_target(raw_target: str) -> str:
    """``path`` or ``path?canonical-query`` from a request target as sent (path and query)."""
    path, sep, query = raw_target.partition("?")
    if not sep:
        return path
    q = canonical_query(query)
    return f"{path}?{q}" if q else path


_PATH_ENCODE = frozenset(b' "#<>?`{}')
_DOTS = {".": 1, "%2e": 1, "..": 2, ".%2e": 2, "%2e.": 2, "%2e%2e": 2}


_PLAIN_PATH = re.compile(r"^(?:/[A-Za-z0-9_.~!$&'()*+,;=:@%-]*)+$")


def whatwg_path(path: str) -> str:
    """The path a WHATWG URL parser leaves unchanged (§5.3): ``\\`` as ``/``, dot segments
    (also ``%2e``) resolved, bytes outside printable ASCII and `` "#<>?`{}`` percent-encoded."""
    tail = path + "/"
    if _PLAIN_PATH.match(path) and "%2" not in path and "/./" not in tail and "/../" not in tail:
        return path  # the common case: no dot segment, no backslash, nothing to encode (~0.4 us)
    segments = path.replace("\\", "/").split("/")[1:]
    out: list[str] = []
    for i, seg in enumerate(segments):
        dots = _DOTS.get(seg.lower(), 0)
        last = i == len(segments) - 1
        if dots == 2 and out:
            out.pop()
        if dots:
            if last:
                out.append("")
            continue
        out.append(seg)
    raw = ("/" + "/".join(out)).encode("utf-8")
    return "".join(chr(b) if 0x21 <= b <= 0x7E and b not in _PATH_ENCODE else f"%{b:02X}" for b in raw)
