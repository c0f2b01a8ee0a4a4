// The key schedule and message protection of PROTOCOL.md §4-§5: per-epoch keys and base nonces
// from the epoch secret (HKDF-Expand, RFC 5869), nonce = iv XOR (u32(i) || u64(seq)), the
// canonical request and response AADs, and ChaCha20-Poly1305 (RFC 8439) seal/open.
//
// Pitfalls:
//   - Sequence numbers continue across epochs and never repeat within a session, so no
//     (key, nonce) pair repeats; this file trusts its callers for that (./sequence.go).
//   - lp() fields are u16-length-prefixed: callers must refuse fields over 65535 bytes.

package nen

import (
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"

	"golang.org/x/crypto/chacha20poly1305"
)

const (
	labelC2SKey  = "nen/1 c2s key"
	labelC2SIV   = "nen/1 c2s iv"
	labelS2CKey  = "nen/1 s2c key"
	labelS2CIV   = "nen/1 s2c iv"
	labelRekey   = "nen/1 rekey"
	labelRequest = "nen/1 request"
	labelResp    = "nen/1 response"
	tagLen       = 16
)

// epochKeys are the keys of one epoch: c2s for requests, s2c for responses.
type epochKeys struct {
	c2s, s2c     cipher.AEAD
	c2sIV, s2cIV [12]byte
}

func expand(secret []byte, label string, n int) []byte {
	out, err := hkdf.Expand(sha256.New, secret, label, n)
	if err != nil {
		panic("nen: HKDF-Expand length out of range") // n is a constant <= 32
	}
	return out
}

func newEpochKeys(secret []byte) (*epochKeys, error) {
	k := &epochKeys{}
	c2s, err := chacha20poly1305.New(expand(secret, labelC2SKey, 32))
	if err != nil {
		return nil, err
	}
	s2c, err := chacha20poly1305.New(expand(secret, labelS2CKey, 32))
	if err != nil {
		return nil, err
	}
	k.c2s, k.s2c = c2s, s2c
	copy(k.c2sIV[:], expand(secret, labelC2SIV, 12))
	copy(k.s2cIV[:], expand(secret, labelS2CIV, 12))
	return k, nil
}

// nextEpochSecret is S_{n+1} = HKDF-Expand(S_n, "nen/1 rekey", 32).
func nextEpochSecret(secret []byte) []byte { return expand(secret, labelRekey, 32) }

// nonce is iv XOR (u32(index) || u64(seq)).
func nonce(iv *[12]byte, index uint32, seq uint64) [12]byte {
	var n [12]byte
	binary.BigEndian.PutUint32(n[0:4], index)
	binary.BigEndian.PutUint64(n[4:12], seq)
	for i := range n {
		n[i] ^= iv[i]
	}
	return n
}

func appendLP(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// requestMeta are the fields of a request's `nen` header.
type requestMeta struct {
	sid   [16]byte
	epoch uint32
	seq   uint64
	ts    uint64
	flags uint8
}

// requestAAD is the canonical request AAD of §5 (retry is the nen-retry value, "" without RETRY).
func requestAAD(m *requestMeta, method, target, contentType, retry string) []byte {
	b := make([]byte, 0, 64+len(method)+len(target)+len(contentType)+len(retry))
	b = append(b, labelRequest...)
	b = append(b, 1)
	b = append(b, m.sid[:]...)
	b = binary.BigEndian.AppendUint32(b, m.epoch)
	b = binary.BigEndian.AppendUint64(b, m.seq)
	b = binary.BigEndian.AppendUint64(b, m.ts)
	b = append(b, m.flags)
	b = appendLP(b, method)
	b = appendLP(b, target)
	b = appendLP(b, contentType)
	if m.flags&flagRetry != 0 {
		b = appendLP(b, retry)
	}
	return b
}

// responseAAD is the response AAD of §5.2.
func responseAAD(sid *[16]byte, epoch uint32, seq uint64, status int, flags uint8, contentType string) []byte {
	b := make([]byte, 0, 48+len(contentType))
	b = append(b, labelResp...)
	b = append(b, 1)
	b = append(b, sid[:]...)
	b = binary.BigEndian.AppendUint32(b, epoch)
	b = binary.BigEndian.AppendUint64(b, seq)
	b = binary.BigEndian.AppendUint16(b, uint16(status))
	b = append(b, flags)
	return appendLP(b, contentType)
}
