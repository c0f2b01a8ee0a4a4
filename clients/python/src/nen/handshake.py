"""The one-round-trip handshake (PROTOCOL.md §2, §3): pin parsing, the ClientHello, and the client's
check of the ServerHello (key confirmation) that yields the session secret ``S_0``.

Pitfalls:
 - A pin is ``kid:base64url(publicKey)``; the KEM follows from the key length (1216 X-Wing, 1184
   ML-KEM-768). Anything else is ``NEN_BAD_SERVER_KEY``.
 - ``confirm`` is compared in constant time; any mismatch, a wrong length / version / KEM / flags,
   or a lifetime longer than asked for is ``NEN_HANDSHAKE_FAILED``.
 - The ephemeral private key lives only in the ``HandshakeState`` and is dropped after ``finish``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from dataclasses import dataclass

from . import hpke
from .codec import b64url_decode
from .errors import NenProtocolError, client_error

INFO_E = b"nen/1 ephemeral"
INFO_S = b"nen/1 static"
EXPORT = b"nen/1 export"
_KID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


@dataclass(frozen=True)
class Pin:
    kid: str
    kem: hpke.Kem
    public_key: bytes


def parse_pin(pin: str) -> Pin:
    kid, sep, key = pin.strip().partition(":") if isinstance(pin, str) else ("", "", "")
    if not sep or not _KID.match(kid):
        raise client_error("NEN_BAD_SERVER_KEY", "a pin is 'kid:base64url(publicKey)'")
    try:
        pk = b64url_decode(key)
    except ValueError as e:
        raise client_error("NEN_BAD_SERVER_KEY", "the pin's public key is not base64url", e) from e
    kem = {1216: hpke.XWING, 1184: hpke.MLKEM768}.get(len(pk))
    if kem is None:
        raise client_error("NEN_BAD_SERVER_KEY", "the pin's public key is neither X-Wing (1216 bytes) nor ML-KEM-768 (1184)")
    return Pin(kid, kem, pk)


def parse_pins(pins: str | list[str] | tuple[str, ...] | None) -> list[Pin]:
    if pins is None or pins == "":
        return []
    if isinstance(pins, str):
        return [parse_pin(pins)]
    if not isinstance(pins, (list, tuple)) or len(pins) > 16:
        raise client_error("NEN_BAD_SERVER_KEY", "pins must be a pin or a list of up to 16 pins")
    out = [parse_pin(p) for p in pins]
    if len({p.kid for p in out}) != len(out):
        raise client_error("NEN_BAD_SERVER_KEY", "two pins share a key id")
    return out


@dataclass(frozen=True)
class HandshakeResult:
    session_id: bytes
    secret: bytes
    lifetime: int
    idle: int
    server_time: int
    kid: str | None
    kem: hpke.Kem


class HandshakeState:
    """One handshake in progress: ``hello`` to send, ``finish(server_hello)`` to complete."""

    def __init__(self, kem: hpke.Kem, pin: Pin | None, lifetime: int = 0):
        if pin is not None and pin.kem is not kem:
            raise client_error("NEN_BAD_INPUT", "the pin's KEM differs from the requested KEM")
        self.kem = kem
        self.pin = pin
        self.lifetime = lifetime
        sk, pk = kem.generate()
        self._sk: bytes | None = sk
        hello = struct.pack(">BHBI", 1, kem.kem_id, 1 if pin else 0, lifetime) + pk
        self._exported_s = b""
        if pin is not None:
            enc, self._exported_s = hpke.setup_base_s_export(kem, pin.public_key, INFO_S, EXPORT, 32)
            hello += bytes([len(pin.kid)]) + pin.kid.encode("ascii") + enc
        self.hello = hello

    def finish(self, sh: bytes) -> HandshakeResult:
        kem = self.kem
        sk = self._sk
        if sk is None:
            raise client_error("NEN_HANDSHAKE_FAILED", "handshake state already used")

        def fail(why: str) -> NenProtocolError:
            return client_error("NEN_HANDSHAKE_FAILED", why)

        if len(sh) != 36 + kem.enc_size + 32:
            raise fail("ServerHello has the wrong length")
        version, kem_id, flags = struct.unpack_from(">BHB", sh, 0)
        if version != 1 or kem_id != kem.kem_id or flags != (1 if self.pin else 0):
            raise fail("ServerHello version, KEM or flags differ")
        sid = sh[4:20]
        lifetime, idle, server_time = struct.unpack_from(">IIQ", sh, 20)
        enc_e = sh[36 : 36 + kem.enc_size]
        try:
            exported_e = hpke.setup_base_r_export(kem, enc_e, sk, INFO_E, EXPORT, 32)
        except ValueError as e:
            raise client_error("NEN_HANDSHAKE_FAILED", "invalid encapsulation in ServerHello", e) from e
        finally:
            self._sk = None
        th = hashlib.sha256(b"nen/1 transcript" + self.hello + sh[: 36 + kem.enc_size]).digest()
        s0 = hpke.hkdf_extract(th, exported_e + self._exported_s)
        confirm = hmac.digest(hpke.hkdf_expand(s0, b"nen/1 confirm", 32), th, "sha256")
        if not hmac.compare_digest(confirm, sh[36 + kem.enc_size :]):
            raise fail("key confirmation failed (substituted key share or server key, or a modified ServerHello)")
        if self.lifetime > 0 and lifetime > self.lifetime:
            raise fail("granted lifetime is longer than requested")
        return HandshakeResult(sid, s0, lifetime, idle, server_time, self.pin.kid if self.pin else None, kem)
