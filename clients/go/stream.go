// Streamed responses (PROTOCOL.md §6): an io.ReadCloser over the wire body that frames, opens and
// checks each record before handing out any of its bytes, and learns the final record by
// authentication (the final flag exists only as the AAD's last byte).
//
// Pitfalls:
//   - A record opens under exactly one of final=0 / final=1; an empty record is tried as final
//     first (the usual final one), any other as non-final first.
//   - EOF is returned only after the final record opened AND the wire body ended with nothing
//     after it: any further byte is NEN_STREAM_INVALID; an end before the final record, or a
//     broken connection, is NEN_STREAM_TRUNCATED.
//   - Buffering is bounded by one record (64 KiB + 16) plus one network read; a Read returns
//     bytes of one record at most, so record boundaries show through to the application.

package nen

import (
	"context"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"io"
)

const (
	maxRecordPlain = 65536
	readChunk      = 32 << 10
)

type streamBody struct {
	wire    io.ReadCloser
	aead    cipher.AEAD
	iv      [12]byte
	seq     uint64
	aad     []byte // base AAD, then room for u32(index) || u8(final)
	baseLen int
	index   uint32
	final   bool
	buf     []byte   // wire bytes not yet framed
	plain   []byte   // the current record's bytes not yet read
	queue   [][]byte // later records' plaintexts opened by the same network read
	err     error
	done    func() // releases the exchange's resources (once)
	ctx     context.Context
}

// newStreamBody reads the records of wire sealed with aead/iv for seq under baseAAD; ctx is the
// caller's (its end is reported as NEN_ABORTED, not as a truncation).
func newStreamBody(ctx context.Context, wire io.ReadCloser, aead cipher.AEAD, iv [12]byte, seq uint64, baseAAD []byte, done func()) *streamBody {
	aad := make([]byte, len(baseAAD), len(baseAAD)+5)
	copy(aad, baseAAD)
	return &streamBody{wire: wire, aead: aead, iv: iv, seq: seq, aad: aad, baseLen: len(baseAAD), done: done, ctx: ctx}
}

func (b *streamBody) fail(code, msg string, cause error) error {
	if b.err == nil {
		b.err = newError(code, msg, cause)
		b.release()
	}
	return b.err
}

func (b *streamBody) release() {
	if b.done != nil {
		b.wire.Close()
		b.done()
		b.done = nil
	}
}

// open tries the record under final = first, then the other value.
func (b *streamBody) open(sealed []byte) ([]byte, bool, error) {
	n := nonce(&b.iv, b.index, b.seq)
	first := byte(0)
	if len(sealed) == tagLen {
		first = 1
	}
	for _, f := range [2]byte{first, 1 - first} {
		aad := binary.BigEndian.AppendUint32(b.aad[:b.baseLen], b.index)
		aad = append(aad, f)
		if p, err := b.aead.Open(nil, n[:], sealed, aad); err == nil {
			return p, f == 1, nil
		}
	}
	return nil, false, errors.New("record does not authenticate")
}

// frame opens every complete record in buf (stopping after the final one).
func (b *streamBody) frame() error {
	for len(b.buf) >= 4 {
		if b.final {
			return b.fail(CodeStreamInvalid, "data after the final record", nil)
		}
		l := binary.BigEndian.Uint32(b.buf)
		if l < tagLen || l > maxRecordPlain+tagLen {
			return b.fail(CodeStreamInvalid, "bad record length", nil)
		}
		if uint32(len(b.buf)-4) < l {
			return nil
		}
		p, final, err := b.open(b.buf[4 : 4+l])
		if err != nil {
			return b.fail(CodeStreamInvalid, "a record is forged, reordered, duplicated or altered", err)
		}
		b.buf = b.buf[4+l:]
		b.index++
		b.final = final
		if len(p) > 0 {
			b.queue = append(b.queue, p)
		}
	}
	if b.final && len(b.buf) > 0 {
		return b.fail(CodeStreamInvalid, "data after the final record", nil)
	}
	return nil
}

func (b *streamBody) Read(p []byte) (int, error) {
	for {
		if len(b.plain) == 0 && len(b.queue) > 0 {
			b.plain, b.queue[0] = b.queue[0], nil
			b.queue = b.queue[1:]
		}
		if len(b.plain) > 0 {
			n := copy(p, b.plain)
			b.plain = b.plain[n:]
			return n, nil
		}
		if b.err != nil {
			return 0, b.err
		}
		b.fill() // sets b.err on failure; records opened before it are still served first
	}
}

// fill reads the wire once and frames what arrived.
func (b *streamBody) fill() error {
	if len(b.buf) > 0 && cap(b.buf)-len(b.buf) < readChunk {
		nb := make([]byte, len(b.buf), len(b.buf)+readChunk+maxRecordPlain)
		copy(nb, b.buf)
		b.buf = nb
	} else if len(b.buf) == 0 {
		b.buf = make([]byte, 0, readChunk)
	}
	n, err := b.wire.Read(b.buf[len(b.buf):cap(b.buf)])
	b.buf = b.buf[:len(b.buf)+n]
	if ferr := b.frame(); ferr != nil {
		return ferr
	}
	switch {
	case err == io.EOF && b.final:
		b.err = io.EOF
		b.release()
		return nil
	case err == io.EOF:
		return b.fail(CodeStreamTruncated, "the stream ended before its final record", nil)
	case err != nil && b.ctx.Err() != nil:
		b.err = aborted(b.ctx)
		b.release()
		return b.err
	case err != nil:
		return b.fail(CodeStreamTruncated, "the stream broke off", err)
	}
	return nil
}

// Close releases the connection; reading after Close returns an error.
func (b *streamBody) Close() error {
	if b.err == nil {
		b.err = errors.New("nen: read on a closed stream body")
	}
	b.release()
	return nil
}
