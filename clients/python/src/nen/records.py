"""Stream records (PROTOCOL.md §6): ``u32(len) || sealed_i`` with ``16 <= len <= 65552``, record
``i`` sealed with ``nonce_i = iv XOR (u32(i) || u64(seq))`` and ``AAD_i = AAD || u32(i) || u8(final)``.

Pitfalls:
 - The final flag is never on the wire: a receiver learns it by authentication (open with
   final=0, else final=1; an empty record is tried as final first, as the reference does).
 - After the final record nothing may follow (``NEN_STREAM_INVALID``); an end before it, also in
   the middle of a record, is ``NEN_STREAM_TRUNCATED``.
 - Buffering is bounded by one record (the length prefix is checked before buffering on).
"""

from __future__ import annotations

import struct

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from .codec import TAG, open_sealed, seal
from .errors import client_error

MAX_RECORD_PLAINTEXT = 65536
_MAX_LEN = MAX_RECORD_PLAINTEXT + TAG


class RecordSealer:
    """Seals an upload as records; ``seal(chunk)`` splits chunks above 64 KiB, ``end()`` the empty final."""

    def __init__(self, aead: ChaCha20Poly1305, iv: bytes, seq: int, aad: bytes):
        self._aead, self._iv, self._seq, self._aad = aead, iv, seq, aad
        self._index = 0

    def _one(self, data: bytes, final: bool) -> bytes:
        aad = self._aad + struct.pack(">IB", self._index, 1 if final else 0)
        sealed = seal(self._aead, self._iv, self._seq, aad, data, self._index)
        self._index += 1
        return struct.pack(">I", len(sealed)) + sealed

    def seal(self, chunk: bytes) -> bytes:
        return b"".join(self._one(chunk[i : i + MAX_RECORD_PLAINTEXT], False) for i in range(0, len(chunk), MAX_RECORD_PLAINTEXT))

    def end(self) -> bytes:
        return self._one(b"", True)


class RecordOpener:
    """Opens a response stream incrementally: ``push(bytes)`` returns the plaintext it completed."""

    def __init__(self, aead: ChaCha20Poly1305, iv: bytes, seq: int, aad: bytes):
        self._aead, self._iv, self._seq, self._aad = aead, iv, seq, aad
        self._index = 0
        self._buf = bytearray()
        self.done = False

    def push(self, data: bytes) -> bytes:
        if self.done:
            if data:
                raise client_error("NEN_STREAM_INVALID", "data after the final record")
            return b""
        self._buf += data
        out = []
        while len(self._buf) >= 4:
            (n,) = struct.unpack_from(">I", self._buf, 0)
            if n < TAG or n > _MAX_LEN:
                raise client_error("NEN_STREAM_INVALID", f"bad record length {n}")
            if len(self._buf) < 4 + n:
                break
            sealed = bytes(self._buf[4 : 4 + n])
            del self._buf[: 4 + n]
            out.append(self._open(sealed))
            if self.done:
                if self._buf:
                    raise client_error("NEN_STREAM_INVALID", "data after the final record")
                break
        return b"".join(out)

    def _open(self, sealed: bytes) -> bytes:
        order = (1, 0) if len(sealed) == TAG else (0, 1)
        for final in order:
            aad = self._aad + struct.pack(">IB", self._index, final)
            plain = open_sealed(self._aead, self._iv, self._seq, aad, sealed, self._index)
            if plain is not None:
                self._index += 1
                self.done = final == 1
                return plain
        raise client_error("NEN_STREAM_INVALID", f"record {self._index} does not authenticate (forged, reordered or duplicated)")

    def end(self) -> None:
        if not self.done:
            raise client_error("NEN_STREAM_TRUNCATED", "the stream ended before its final record")
