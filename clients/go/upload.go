// Streamed uploads (PROTOCOL.md §6.4): with WithStreamedUploads, a request body of unknown
// length is sent as a record stream (flag STREAM, content type application/nen-stream) sealed
// as the application's body is read: each read becomes one record of at most 64 KiB, and the
// end of the body the empty final record.
//
// Pitfalls: a streamed body is never buffered, so it is never retried (an unauthenticated
// 401-class answer is NEN_OUTCOME_UNKNOWN); never compressed nor with a confidential query (the
// server refuses STREAM with either); record indexes are u32 and sequence numbers per request.

package nen

import (
	"crypto/cipher"
	"encoding/binary"
	"io"
)

type uploadBody struct {
	src   io.ReadCloser
	aead  cipher.AEAD
	iv    [12]byte
	seq   uint64
	aad   []byte // base AAD, then room for u32(index) || u8(final)
	base  int
	index uint32
	out   []byte // sealed bytes not yet handed to the HTTP transport
	in    []byte // read buffer, one record's plaintext at most
	done  bool
}

func newUploadBody(src io.ReadCloser, aead cipher.AEAD, iv [12]byte, seq uint64, baseAAD []byte) *uploadBody {
	aad := make([]byte, len(baseAAD), len(baseAAD)+5)
	copy(aad, baseAAD)
	return &uploadBody{src: src, aead: aead, iv: iv, seq: seq, aad: aad, base: len(baseAAD), in: make([]byte, 16<<10)}
}

// record seals p as record index (final or not) into u.out.
func (u *uploadBody) record(p []byte, final bool) {
	f := byte(0)
	if final {
		f = 1
	}
	aad := binary.BigEndian.AppendUint32(u.aad[:u.base], u.index)
	aad = append(aad, f)
	n := nonce(&u.iv, u.index, u.seq)
	u.out = binary.BigEndian.AppendUint32(u.out[:0], uint32(len(p)+tagLen))
	u.out = u.aead.Seal(u.out, n[:], p, aad)
	u.index++
}

func (u *uploadBody) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.done {
			return 0, io.EOF
		}
		n, err := u.src.Read(u.in)
		if n > 0 {
			u.record(u.in[:n], false)
		}
		if err == io.EOF {
			if n == 0 {
				u.record(nil, true)
				u.done = true
			}
			continue
		}
		if err != nil {
			return 0, err // the transport ends the request without a final record: the server refuses it as truncated
		}
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

func (u *uploadBody) Close() error { return u.src.Close() }
