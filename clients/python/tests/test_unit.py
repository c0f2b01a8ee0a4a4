"""Unit tests without a server: pins, strict base64url, stream records, flow control, errors."""

from __future__ import annotations

import struct
import threading

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

import nen
from nen import codec, hpke
from nen.errors import WIRE_ERRORS, NenProtocolError, recovery_of, server_error
from nen.handshake import HandshakeState, parse_pin, parse_pins
from nen.records import RecordOpener, RecordSealer
from nen.session import SequenceCounter

from .conftest import MLKEM_PIN, MLKEM_SEED, XWING_PIN, XWING_SEED


def test_pins_parse_and_refuse():
    assert parse_pin(XWING_PIN).kem is hpke.XWING
    assert parse_pin(MLKEM_PIN).kem is hpke.MLKEM768
    for bad in ["", "k1", "k1:", "k1:AAAA", "bad kid:" + XWING_PIN[3:], "k1:" + XWING_PIN[3:] + "="]:
        with pytest.raises(nen.NenError) as e:
            parse_pin(bad)
        assert e.value.code == "NEN_BAD_SERVER_KEY"
    with pytest.raises(nen.NenError) as e:
        parse_pins([XWING_PIN, XWING_PIN])
    assert e.value.code == "NEN_BAD_SERVER_KEY"


def test_pinned_by_default():
    with pytest.raises(nen.NenError) as e:
        nen.Transport()
    assert e.value.code == "NEN_BAD_SERVER_KEY"
    with pytest.raises(nen.NenError) as e:
        nen.Transport(XWING_PIN, unpinned=True)
    assert e.value.code == "NEN_BAD_INPUT"
    with pytest.warns(UserWarning):
        import nen.options as o

        o._warned = False
        nen.Transport(unpinned=True)


def test_unknown_option_is_a_type_error():
    for cls in (nen.Transport, nen.AsyncTransport):
        with pytest.raises(TypeError, match="timout"):
            cls(XWING_PIN, timout=3)


def test_b64url_strict():
    assert codec.b64url_decode("AQ") == b"\x01"
    for bad in ["AQ==", "AR", "A", "A Q", "AQ\n", "+/"]:
        with pytest.raises(ValueError):
            codec.b64url_decode(bad)


def test_kem_roundtrip_both():
    for kem, seed in ((hpke.XWING, XWING_SEED), (hpke.MLKEM768, MLKEM_SEED)):
        pk = kem.public_key(seed)
        enc, exported = hpke.setup_base_s_export(kem, pk, b"info", b"ctx", 32)
        assert hpke.setup_base_r_export(kem, enc, seed, b"info", b"ctx", 32) == exported
        assert hpke.setup_base_r_export(kem, enc, seed, b"other", b"ctx", 32) != exported


def test_handshake_refuses_modified_server_hello():
    st = HandshakeState(hpke.XWING, parse_pin(XWING_PIN))
    with pytest.raises(nen.NenError) as e:
        st.finish(b"\x01" * (36 + 1120 + 32))
    assert e.value.code == "NEN_HANDSHAKE_FAILED"
    with pytest.raises(nen.NenError) as e:
        HandshakeState(hpke.XWING, None).finish(b"short")
    assert e.value.code == "NEN_HANDSHAKE_FAILED"


def _stream(chunks: list[bytes], final_chunk: bytes = b""):
    aead = ChaCha20Poly1305(bytes(32))
    iv = bytes(12)
    s = RecordSealer(aead, iv, 7, b"aad")
    records = [s.seal(c) for c in chunks] + [s.end() if not final_chunk else s._one(final_chunk, True)]
    return records, lambda: RecordOpener(aead, iv, 7, b"aad")


def test_records_roundtrip_and_split():
    records, opener = _stream([b"hello ", b"", b"world", b"x" * 70000])
    o = opener()
    out = o.push(b"".join(records))
    o.end()
    assert out == b"hello world" + b"x" * 70000
    # byte by byte: buffered at most one record, same result
    o = opener()
    assert b"".join(o.push(bytes([b])) for b in b"".join(records)) == out


def test_records_non_empty_final_is_accepted():
    records, opener = _stream([b"a"], final_chunk=b"end")
    o = opener()
    assert o.push(b"".join(records)) == b"aend"
    o.end()


@pytest.mark.parametrize(
    ("mutate", "code"),
    [
        (lambda r: r[:-1], "NEN_STREAM_TRUNCATED"),  # final record missing
        (lambda r: [*r[:-1], r[-1][:-3]], "NEN_STREAM_TRUNCATED"),  # cut inside the final record
        (lambda r: [r[1], r[0], *r[2:]], "NEN_STREAM_INVALID"),  # reordered
        (lambda r: [r[0], r[0], *r[1:]], "NEN_STREAM_INVALID"),  # duplicated
        (lambda r: [*r, r[0]], "NEN_STREAM_INVALID"),  # data after the final record
        (lambda r: [struct.pack(">I", 15) + b"x" * 15], "NEN_STREAM_INVALID"),  # bad length
        (lambda r: [struct.pack(">I", 70000)], "NEN_STREAM_INVALID"),  # too long, refused before buffering
        (lambda r: [r[0][:-1] + bytes([r[0][-1] ^ 1]), *r[1:]], "NEN_STREAM_INVALID"),  # forged
    ],
)
def test_records_refuse(mutate, code):
    records, opener = _stream([b"one", b"two"])
    o = opener()
    with pytest.raises(nen.NenError) as e:
        o.push(b"".join(mutate(records)))
        o.end()
    assert e.value.code == code


def test_sequence_flow_control():
    c = SequenceCounter()
    seqs = [c.try_acquire() for _ in range(1024 - 64)]
    assert seqs[0] == 1 and None not in seqs
    assert c.try_acquire() is None  # the window is full while seq 1 awaits its head
    assert c.acquire(timeout=0.05) is None
    got: list[int | None] = []
    t = threading.Thread(target=lambda: got.append(c.acquire(timeout=5)))
    t.start()
    c.release(seqs[5])  # not the oldest: still blocked
    assert c.try_acquire() is None
    c.release(seqs[0])
    t.join()
    assert got == [1024 - 64 + 1]
    for s in seqs[1:]:
        c.release(s)
    c.release(got[0] or 0)
    assert c.in_flight == 0


def test_server_errors_are_hints_with_matching_status():
    e = server_error(401, "NEN_SESSION_UNKNOWN", "x")
    assert (e.code, e.status, recovery_of(e)) == ("NEN_SESSION_UNKNOWN", 401, "rehandshake-retry")
    forged = server_error(500, "NEN_SESSION_UNKNOWN", "x")  # status does not match the catalog
    assert forged.code == "NEN_RESPONSE_UNAUTHENTICATED" and recovery_of(forged) == "fail"
    assert recovery_of(server_error(401, "NEN_AUTH_FAILED", "x")) == "rehandshake-once"
    assert all(isinstance(server_error(st, c, ""), NenProtocolError) for c, (st, _) in WIRE_ERRORS.items())


@pytest.mark.parametrize(
    ("sent", "bound"),
    [
        ("/api/echo", "/api/echo"),
        ("/a/b.json", "/a/b.json"),
        ("/a/...", "/a/..."),
        ("/a/%7e/~", "/a/%7e/~"),
        ("/api/x/%2e%2E/y/%2E/z", "/api/y/z"),
        ("/api\\notes", "/api/notes"),
        ("/api/y/..", "/api/"),
        ("/a/./", "/a/"),
        ("/..", "/"),
        ("/a b/é", "/a%20b/%C3%A9"),
    ],
)
def test_whatwg_path(sent: str, bound: str):
    from nen.target import whatwg_path

    assert whatwg_path(sent) == bound


def test_inflate_is_bounded_and_strict():
    import zlib

    from nen.exchange import _inflate

    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    data = c.compress(b"x" * 10000) + c.flush()
    assert _inflate(data, 10000) == b"x" * 10000
    for bad, limit in ((data, 9999), (data[:-2], 10000), (data + b"junk", 10000), (b"\xff\xff", 10)):
        with pytest.raises(nen.NenError) as e:
            _inflate(bad, limit)
        assert e.value.code == "NEN_RESPONSE_UNAUTHENTICATED"
