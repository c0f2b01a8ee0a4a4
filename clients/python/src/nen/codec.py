"""Byte-level codec of Nen protocol version 1 (PROTOCOL.md §4, §5, §5.2, §6): strict base64url,
the session key schedule and nonces, request / response AAD, the ``nen`` headers, and sealing /
opening of single messages with ChaCha20-Poly1305 (RFC 8439).

Pitfalls:
 - base64url is unpadded and decoded strictly (no padding, no whitespace, zero trailing bits).
 - Nonce = iv XOR (u32(record index) || u64(seq)); the response uses the request's seq.
 - Decimal numbers in headers are canonical (no sign, no leading zeros).
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from .hpke import hkdf_expand

TAG = 16
REQ_COMPRESSED = 0x01
REQ_CONFIDENTIAL_QUERY = 0x02
REQ_STREAM = 0x04
REQ_ACCEPT_COMPRESSED = 0x08
REQ_RETRY = 0x10
RES_COMPRESSED = 0x01
RES_STREAM = 0x04
RES_FLAGS_ALL = RES_COMPRESSED | RES_STREAM
REPLAY_WINDOW = 1024

SEALED = "application/nen"
STREAM = "application/nen-stream"
HANDSHAKE = "application/nen-handshake"
NULL_BODY_STATUSES = frozenset({101, 103, 204, 205, 304})

_B64URL = re.compile(r"^[A-Za-z0-9_-]*$")
_RES_NEN = re.compile(r"^1\.([0-9])$")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(s: str) -> bytes:
    """Strict RFC 4648 §5 without padding; ValueError otherwise (also for non-zero trailing bits)."""
    if not _B64URL.match(s) or len(s) % 4 == 1:
        raise ValueError("not base64url")
    try:
        raw = base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
    except (binascii.Error, ValueError) as e:
        raise ValueError("not base64url") from e
    if b64url(raw) != s:
        raise ValueError("non-canonical base64url")
    return raw


@dataclass
class EpochKeys:
    """The directional keys of one epoch (PROTOCOL.md §4)."""

    epoch: int
    secret: bytes
    c2s: ChaCha20Poly1305
    c2s_iv: bytes
    s2c: ChaCha20Poly1305
    s2c_iv: bytes

    @classmethod
    def derive(cls, secret: bytes, epoch: int) -> EpochKeys:
        return cls(
            epoch,
            secret,
            ChaCha20Poly1305(hkdf_expand(secret, b"nen/1 c2s key", 32)),
            hkdf_expand(secret, b"nen/1 c2s iv", 12),
            ChaCha20Poly1305(hkdf_expand(secret, b"nen/1 s2c key", 32)),
            hkdf_expand(secret, b"nen/1 s2c iv", 12),
        )

    def next(self) -> EpochKeys:
        return EpochKeys.derive(hkdf_expand(self.secret, b"nen/1 rekey", 32), self.epoch + 1)


def nonce(iv: bytes, seq: int, index: int = 0) -> bytes:
    """``iv XOR (u32(index) || u64(seq))`` (PROTOCOL.md §4)."""
    return (int.from_bytes(iv, "big") ^ ((index << 64) | seq)).to_bytes(12, "big")


def lp(b: bytes) -> bytes:
    if len(b) > 0xFFFF:
        raise ValueError("field longer than 65535 bytes")
    return struct.pack(">H", len(b)) + b


def request_aad(sid: bytes, epoch: int, seq: int, ts: int, flags: int, method: str, target: str, ctype: str, retry: str = "") -> bytes:
    aad = b"nen/1 request\x01" + sid + struct.pack(">IQQB", epoch, seq, ts, flags)
    aad += lp(method.encode()) + lp(target.encode()) + lp(ctype.encode())
    if flags & REQ_RETRY:
        aad += lp(retry.encode())
    return aad


def response_aad(sid: bytes, epoch: int, seq: int, status: int, flags: int, ctype: str) -> bytes:
    return b"nen/1 response\x01" + sid + struct.pack(">IQHB", epoch, seq, status, flags) + lp(ctype.encode())


def request_header(sid_str: str, epoch: int, seq: int, ts: int, flags: int) -> str:
    return f"1.{sid_str}.{epoch}.{seq}.{ts}.{flags}"


def retry_ref(sid_str: str, epoch: int, seq: int, ts: int) -> str:
    return f"{sid_str}.{epoch}.{seq}.{ts}"


def parse_response_flags(value: str | None) -> int | None:
    """The flags of a response ``nen`` header (``1.<digit>``); None when absent or malformed."""
    if value is None:
        return None
    m = _RES_NEN.match(value)
    if not m:
        return None
    flags = int(m.group(1))
    return None if flags & ~RES_FLAGS_ALL else flags


def seal(aead: ChaCha20Poly1305, iv: bytes, seq: int, aad: bytes, plaintext: bytes, index: int = 0) -> bytes:
    return aead.encrypt(nonce(iv, seq, index), plaintext, aad)


def open_sealed(aead: ChaCha20Poly1305, iv: bytes, seq: int, aad: bytes, sealed: bytes, index: int = 0) -> bytes | None:
    """The plaintext, or None when the record does not authenticate."""
    if len(sealed) < TAG:
        return None
    try:
        return aead.decrypt(nonce(iv, seq, index), sealed, aad)
    except InvalidTag:
        return None


def media_type(value: str | None) -> str:
    return (value or "").split(";", 1)[0].strip()
