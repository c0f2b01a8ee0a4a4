"""One encrypted exchange without I/O (PROTOCOL.md §5, §5.2, §6): the application's request
normalised, sealed under a session and sequence number, and the checks of the response that
answers it. The sync and async transports share all of this and only do the I/O.

Pitfalls:
 - Never hands the application an unauthenticated body: a response must carry a Nen envelope that
   opens under this request's (session, epoch, seq) and the received status, flags and type.
 - GET/HEAD carry the sealed record in ``nen-body``; so do responses with a null-body status and
   every response to HEAD (their ``content-type`` is not checked).
 - A COMPRESSED response is refused unless this request sent ACCEPT_COMPRESSED (``compress``,
   off by default: THREAT_MODEL.md on compression); inflating is bounded by ``max_response_bytes``.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from . import codec
from .codec import EpochKeys
from .errors import NenProtocolError, client_error, outcome_unknown, server_error
from .records import RecordOpener, RecordSealer
from .session import Session
from .target import canonical_target, whatwg_path

BODYLESS = frozenset({"GET", "HEAD"})
COMPRESS_MIN_BYTES = 64
_REQUEST_ENVELOPE = frozenset({"content-type", "content-length", "transfer-encoding", "nen", "nen-type", "nen-body", "nen-retry"})
_RESPONSE_ENVELOPE = frozenset({"content-type", "content-length", "content-encoding", "transfer-encoding", "nen", "nen-type", "nen-body"})


@dataclass
class Prepared:
    """The application's request, read once (a retry reuses it; streamed bodies are never retried)."""

    method: str
    url: httpx.URL
    headers: list[tuple[str, str]]
    content_type: str
    body: bytes
    stream: Iterable[bytes] | AsyncIterable[bytes] | None
    extensions: dict[str, Any] = field(default_factory=dict)


@dataclass
class Expect:
    """What the response must be bound to."""

    keys: EpochKeys
    sid: bytes
    seq: int
    method: str
    #: Whether the request accepted a compressed answer (ACCEPT_COMPRESSED), and the inflate bound.
    compress: bool = False
    max_bytes: int = 0


@dataclass
class Sealed:
    request: httpx.Request
    expect: Expect
    ref: str
    sealer: RecordSealer | None


@dataclass
class Head:
    flags: int
    content_type: str
    null_body: bool
    stream: bool


def prepare(request: httpx.Request, body: bytes | None) -> Prepared:
    """``body`` is the read body, or None for a streamed (chunked) upload read from ``request.stream``."""
    method = request.method.upper()
    url = request.url
    path, sep, query = url.raw_path.decode("ascii").partition("?")
    fixed = whatwg_path(path)
    if fixed != path:  # a copy only when the path needs it (a URL copy costs ~30 us)
        url = url.copy_with(raw_path=(fixed + sep + query).encode("ascii"))
    stream = request.stream if body is None else None
    if method in BODYLESS and (stream is not None or body):
        raise client_error("NEN_BAD_INPUT", f"{method} requests cannot have a body")
    headers = [(k, v) for k, v in request.headers.multi_items() if k.lower() not in _REQUEST_ENVELOPE]
    ctype = request.headers.get("content-type", "")
    return Prepared(method, url, headers, ctype, body or b"", stream, dict(request.extensions))


def seal_request(
    s: Session,
    p: Prepared,
    seq: int,
    *,
    confidential: bool,
    retry_of: str | None = None,
    compress: bool = False,
    max_bytes: int = 0,
) -> Sealed:
    """Seals ``p`` as request ``seq`` of ``s`` (a 1.1 retry of ``retry_of`` when given). With
    ``compress``: ACCEPT_COMPRESSED, and a body of at least 64 bytes goes raw DEFLATE (COMPRESSED)."""
    keys = s.keys
    ts = s.timestamp()
    flags = codec.REQ_RETRY if retry_of else 0
    url = p.url
    raw = url.raw_path.decode("ascii")
    path, _, query = raw.partition("?")
    body = p.body
    if compress:
        flags |= codec.REQ_ACCEPT_COMPRESSED
        if p.stream is None and len(body) >= COMPRESS_MIN_BYTES:
            deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
            body = deflater.compress(body) + deflater.flush()
            flags |= codec.REQ_COMPRESSED
    plaintext = body
    if confidential and query:
        if p.stream is not None:
            raise client_error("NEN_BAD_INPUT", "a confidential query cannot go with a streamed body")
        q = query.encode("utf-8")
        if len(q) > 0xFFFF:
            raise client_error("NEN_BAD_INPUT", "query longer than 65535 bytes")
        plaintext = struct.pack(">H", len(q)) + q + body
        flags |= codec.REQ_CONFIDENTIAL_QUERY
        url = url.copy_with(raw_path=path.encode("ascii"))
        target = path
    else:
        target = canonical_target(raw)
    if p.stream is not None:
        if retry_of:
            raise client_error("NEN_BAD_INPUT", "streamed request bodies are never retried")
        flags |= codec.REQ_STREAM
    aad = codec.request_aad(s.id, keys.epoch, seq, ts, flags, p.method, target, p.content_type, retry_of or "")
    headers = list(p.headers)
    headers.append(("nen", codec.request_header(s.id_str, keys.epoch, seq, ts, flags)))
    if retry_of:
        headers.append(("nen-retry", retry_of))
    if p.content_type:
        headers.append(("nen-type", p.content_type))
    sealer = None
    content: bytes | Iterator[bytes] | AsyncIterator[bytes] | None = None
    if p.stream is not None:
        headers.append(("content-type", codec.STREAM))
        sealer = RecordSealer(keys.c2s, keys.c2s_iv, seq, aad)
    else:
        record = codec.seal(keys.c2s, keys.c2s_iv, seq, aad, plaintext)
        if p.method in BODYLESS:
            headers.append(("nen-body", codec.b64url(record)))
        else:
            headers.append(("content-type", codec.SEALED))
            content = record
    if sealer is not None and p.stream is not None:
        content = _seal_async(p.stream, sealer) if isinstance(p.stream, AsyncIterable) else _seal_sync(p.stream, sealer)
    if isinstance(content, bytes):  # a ByteStream and our own content-length: ~20 us less than content=
        headers.append(("content-length", str(len(content))))
        req = httpx.Request(p.method, url, headers=headers, stream=httpx.ByteStream(content), extensions=dict(p.extensions))
    elif content is None:
        req = httpx.Request(p.method, url, headers=headers, stream=httpx.ByteStream(b""), extensions=dict(p.extensions))
    else:
        req = httpx.Request(p.method, url, headers=headers, content=content, extensions=dict(p.extensions))
    ref = codec.retry_ref(s.id_str, keys.epoch, seq, ts)
    return Sealed(req, Expect(keys, s.id, seq, p.method, compress, max_bytes), ref, sealer)


def _seal_sync(chunks: Iterable[bytes], sealer: RecordSealer) -> Iterator[bytes]:
    for chunk in chunks:
        if chunk:
            yield sealer.seal(bytes(chunk))
    yield sealer.end()


async def _seal_async(chunks: AsyncIterable[bytes], sealer: RecordSealer) -> AsyncIterator[bytes]:
    async for chunk in chunks:
        if chunk:
            yield sealer.seal(bytes(chunk))
    yield sealer.end()


def response_head(status: int, headers: httpx.Headers, method: str) -> Head:
    flags = codec.parse_response_flags(headers.get("nen"))
    if flags is None:
        raise server_error(status, headers.get("nen-error"), f"response (HTTP {status}) has no Nen envelope")
    null_body = status in codec.NULL_BODY_STATUSES or method == "HEAD"
    return Head(flags, headers.get("nen-type", ""), null_body, bool(flags & codec.RES_STREAM))


def open_single(x: Expect, head: Head, status: int, headers: httpx.Headers, body: bytes) -> bytes:
    if head.null_body:
        hb = headers.get("nen-body")
        try:
            record = codec.b64url_decode(hb) if hb is not None else None
        except ValueError:
            record = None
    else:
        record = body
        if codec.media_type(headers.get("content-type")) != codec.SEALED:
            raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "sealed response with the wrong content type")
    if record is None:
        raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "response envelope without a sealed record")
    aad = codec.response_aad(x.sid, x.keys.epoch, x.seq, status, head.flags, head.content_type)
    plain = codec.open_sealed(x.keys.s2c, x.keys.s2c_iv, x.seq, aad, record)
    if plain is None:
        raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "response failed authentication (tampered, substituted or forged)")
    if head.flags & codec.RES_COMPRESSED:
        if not x.compress:
            raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "compressed response that was not asked for")
        plain = _inflate(plain, x.max_bytes)
    return b"" if head.null_body else plain


def _inflate(data: bytes, max_bytes: int) -> bytes:
    """Bounded raw DEFLATE (RFC 1951): past ``max_bytes`` or invalid is NEN_RESPONSE_UNAUTHENTICATED."""
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(data, max_bytes + 1)
    except zlib.error as e:
        raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "compressed response is not valid deflate-raw", e) from e
    if len(out) > max_bytes:
        raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "decompressed response exceeds max_response_bytes")
    if not d.eof or d.unused_data:
        raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "compressed response is not valid deflate-raw")
    return out


def stream_opener(x: Expect, head: Head, status: int, headers: httpx.Headers) -> RecordOpener:
    if codec.media_type(headers.get("content-type")) != codec.STREAM or status != 200 or head.flags != codec.RES_STREAM or head.null_body:
        raise client_error("NEN_RESPONSE_UNAUTHENTICATED", "stream envelope with a wrong content type, status or flags")
    aad = codec.response_aad(x.sid, x.keys.epoch, x.seq, 200, head.flags, head.content_type)
    return RecordOpener(x.keys.s2c, x.keys.s2c_iv, x.seq, aad)


def is_stream(res: httpx.Response) -> bool:
    """Whether a response this client returned is an opened stream (its body not read yet)."""
    return bool(res.extensions.get("nen_stream"))


def clean_headers(headers: httpx.Headers, content_type: str) -> list[tuple[str, str]]:
    out = [(k, v) for k, v in headers.multi_items() if k.lower() not in _RESPONSE_ENVELOPE]
    if content_type:
        out.append(("content-type", content_type))
    return out


def plain_response(status: int, headers: httpx.Headers, content_type: str, plain: bytes, extensions: dict[str, Any]) -> httpx.Response:
    """The application's response: the envelope's headers replaced, the plaintext as a ByteStream
    with its content-length (``content=`` would cost ~25 us more per response)."""
    out = clean_headers(headers, content_type)
    out.append(("content-length", str(len(plain))))
    return httpx.Response(status, headers=out, stream=httpx.ByteStream(plain), extensions=extensions)


def refused_retry(status: int, plain: bytes) -> NenProtocolError | None:
    """A sealed 409 answering a retry: NEN_RETRY_COMMITTED, or NEN_OUTCOME_UNKNOWN for NEN_RETRY_UNKNOWN."""
    if status != 409:
        return None
    try:
        code = json.loads(plain)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None
    if code == "NEN_RETRY_COMMITTED":
        return NenProtocolError(code, "nen: the original request was already committed (its handler ran); the retry did not run", status=409)
    if code == "NEN_RETRY_UNKNOWN":
        inner = NenProtocolError(code, "nen: the server cannot prove the original request did not run; the retry did not run", status=409)
        return outcome_unknown(inner)
    return None
