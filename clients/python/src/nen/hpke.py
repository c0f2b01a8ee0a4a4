"""HPKE base mode (RFC 9180) for Nen's two KEMs: only ``SetupBaseS`` / ``SetupBaseR`` + ``Export``.

``cryptography`` has single-shot HPKE but no exporter, so the key schedule (RFC 9180 §5.1, §5.3)
is written here over its primitives: ML-KEM-768 (FIPS 203) and X25519 from ``cryptography``,
HKDF-SHA256 (RFC 5869) from the standard library's HMAC. X-Wing (draft-connolly-cfrg-xwing-kem,
HPKE KEM id 0x647a) is ML-KEM-768 + X25519 with the SHA3-256 combiner; its private key is a
32-byte seed expanded with SHAKE256 to the ML-KEM seed ``d || z`` and the X25519 secret.

Pitfalls:
 - Suite ids and labels are byte-exact: ``"HPKE" || kem || kdf || aead``, ``"HPKE-v1"`` prefix.
 - The KEMs' shared secrets are used as is (no DHKEM ExtractAndExpand for these KEMs).
 - An invalid peer key or encapsulation raises ``ValueError`` (the caller maps it to its code).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric import mlkem, x25519

KEM_XWING = 0x647A
KEM_MLKEM768 = 0x0041
KDF_HKDF_SHA256 = 0x0001
AEAD_CHACHA20POLY1305 = 0x0003

XWING_LABEL = b"\\.//^\\"


def hkdf_extract(salt: bytes, ikm: bytes) -> bytes:
    return hmac.digest(salt, ikm, "sha256")


def hkdf_expand(prk: bytes, info: bytes, length: int) -> bytes:
    if length > 255 * 32:
        raise ValueError("HKDF-Expand length too large")
    out = b""
    block = b""
    i = 1
    while len(out) < length:
        block = hmac.digest(prk, block + info + bytes([i]), "sha256")
        out += block
        i += 1
    return out[:length]


@dataclass(frozen=True)
class Kem:
    """One KEM: id, sizes, and its operations on raw bytes."""

    kem_id: int
    name: str
    public_key_size: int
    enc_size: int
    seed_size: int

    def suite_id(self) -> bytes:
        return b"HPKE" + self.kem_id.to_bytes(2, "big") + KDF_HKDF_SHA256.to_bytes(2, "big") + AEAD_CHACHA20POLY1305.to_bytes(2, "big")

    def generate(self) -> tuple[bytes, bytes]:
        """A fresh key pair: (private seed, public key)."""
        seed = os.urandom(self.seed_size)
        return seed, self.public_key(seed)

    def public_key(self, seed: bytes) -> bytes:
        if self.kem_id == KEM_MLKEM768:
            return mlkem.MLKEM768PrivateKey.from_seed_bytes(seed).public_key().public_bytes_raw()
        m_seed, sk_x = _xwing_expand(seed)
        pk_m = mlkem.MLKEM768PrivateKey.from_seed_bytes(m_seed).public_key().public_bytes_raw()
        pk_x = x25519.X25519PrivateKey.from_private_bytes(sk_x).public_key().public_bytes_raw()
        return pk_m + pk_x

    def encap(self, pk: bytes) -> tuple[bytes, bytes]:
        """(shared secret, encapsulation) to ``pk``; ValueError when the key is invalid."""
        if len(pk) != self.public_key_size:
            raise ValueError("public key length")
        if self.kem_id == KEM_MLKEM768:
            return mlkem.MLKEM768PublicKey.from_public_bytes(pk).encapsulate()
        pk_m, pk_x = pk[:1184], pk[1184:]
        ss_m, ct_m = mlkem.MLKEM768PublicKey.from_public_bytes(pk_m).encapsulate()
        ek = x25519.X25519PrivateKey.generate()
        ct_x = ek.public_key().public_bytes_raw()
        ss_x = ek.exchange(x25519.X25519PublicKey.from_public_bytes(pk_x))
        return _xwing_combine(ss_m, ss_x, ct_x, pk_x), ct_m + ct_x

    def decap(self, enc: bytes, seed: bytes) -> bytes:
        """The shared secret of ``enc`` under the private key ``seed``; ValueError when invalid."""
        if len(enc) != self.enc_size or len(seed) != self.seed_size:
            raise ValueError("encapsulation or key length")
        if self.kem_id == KEM_MLKEM768:
            return mlkem.MLKEM768PrivateKey.from_seed_bytes(seed).decapsulate(enc)
        m_seed, sk_x = _xwing_expand(seed)
        ct_m, ct_x = enc[:1088], enc[1088:]
        ss_m = mlkem.MLKEM768PrivateKey.from_seed_bytes(m_seed).decapsulate(ct_m)
        sk = x25519.X25519PrivateKey.from_private_bytes(sk_x)
        ss_x = sk.exchange(x25519.X25519PublicKey.from_public_bytes(ct_x))
        pk_x = sk.public_key().public_bytes_raw()
        return _xwing_combine(ss_m, ss_x, ct_x, pk_x)


def _xwing_expand(seed: bytes) -> tuple[bytes, bytes]:
    if len(seed) != 32:
        raise ValueError("X-Wing seed length")
    expanded = hashlib.shake_256(seed).digest(96)
    return expanded[:64], expanded[64:96]


def _xwing_combine(ss_m: bytes, ss_x: bytes, ct_x: bytes, pk_x: bytes) -> bytes:
    return hashlib.sha3_256(ss_m + ss_x + ct_x + pk_x + XWING_LABEL).digest()


XWING = Kem(KEM_XWING, "xwing", 1216, 1120, 32)
MLKEM768 = Kem(KEM_MLKEM768, "mlkem768", 1184, 1088, 64)
KEMS = {KEM_XWING: XWING, KEM_MLKEM768: MLKEM768}


def _labeled_extract(suite: bytes, salt: bytes, label: bytes, ikm: bytes) -> bytes:
    return hkdf_extract(salt, b"HPKE-v1" + suite + label + ikm)


def _labeled_expand(suite: bytes, prk: bytes, label: bytes, info: bytes, length: int) -> bytes:
    return hkdf_expand(prk, length.to_bytes(2, "big") + b"HPKE-v1" + suite + label + info, length)


def exporter_secret(kem: Kem, shared_secret: bytes, info: bytes) -> bytes:
    """RFC 9180 §5.1 KeySchedule (mode_base, no PSK), reduced to the exporter secret."""
    suite = kem.suite_id()
    psk_id_hash = _labeled_extract(suite, b"", b"psk_id_hash", b"")
    info_hash = _labeled_extract(suite, b"", b"info_hash", info)
    context = b"\x00" + psk_id_hash + info_hash
    secret = _labeled_extract(suite, shared_secret, b"secret", b"")
    return _labeled_expand(suite, secret, b"exp", context, 32)


def export(kem: Kem, exp_secret: bytes, context: bytes, length: int) -> bytes:
    """RFC 9180 §5.3 ``Context.Export``."""
    return _labeled_expand(kem.suite_id(), exp_secret, b"sec", context, length)


def setup_base_s_export(kem: Kem, pk: bytes, info: bytes, context: bytes, length: int) -> tuple[bytes, bytes]:
    """``SetupBaseS(pk, info)`` then ``Export(context, length)``: (enc, exported)."""
    ss, enc = kem.encap(pk)
    return enc, export(kem, exporter_secret(kem, ss, info), context, length)


def setup_base_r_export(kem: Kem, enc: bytes, seed: bytes, info: bytes, context: bytes, length: int) -> bytes:
    """``SetupBaseR(enc, sk, info)`` then ``Export(context, length)``."""
    ss = kem.decap(enc, seed)
    return export(kem, exporter_secret(kem, ss, info), context, length)
