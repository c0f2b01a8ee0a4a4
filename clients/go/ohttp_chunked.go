// Chunked OHTTP (draft-ietf-ohai-chunked-ohttp) for ObliviousTransport{Chunked: true}: the
// request is hdr || enc, then chunks varint(len) || Seal("", piece), and a final chunk
// varint(0) || Seal("final", piece) running to the end of the body. The answer is
// response_nonce, then chunks sealed with the RFC 9458 §4.4 key (export label
// "message/bhttp chunked response") and nonce XOR counter, the final one with AAD "final". Its
// plaintext is an indeterminate-length Binary HTTP response (RFC 9292 §3.2), decoded as it
// arrives: RoundTrip returns once the head is in, the body reads chunk by chunk.
//
// Pitfalls:
//   - Truncation: a body that ends (or fails) before its final chunk, or whose final chunk ends
//     the Binary HTTP message early, reads as NEN_OHTTP_TRUNCATED; the body's io.EOF comes only
//     after the final chunk opened (so a relay cannot cut a stream into a shorter valid one).
//   - A chunk that fails to open, or a non-final chunk with no plaintext, is NEN_OHTTP_DECRYPT.
//   - Bounds: a chunk is at most 64 KiB + 16 bytes of ciphertext (what the gateway sends), field
//     sections 64 KiB and 256 lines, a known-length answer (framing 1) 64 MiB; content streams.
//   - The length prefixes are not authenticated (the AEAD of each chunk and the counter are).
package nen

import (
	"bufio"
	"crypto/cipher"
	"crypto/hpke"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
)

const (
	ohttpChunkMax   = 64<<10 + 16 // ciphertext bytes per chunk
	ohttpPlainChunk = 16 << 10    // request plaintext per chunk
	bhttpMaxSection = 64 << 10
	bhttpMaxLines   = 256
	bhttpMaxPadding = 64 << 10
)

var finalAAD = []byte("final")

func truncated(why string, cause error) *Error {
	return newError("NEN_OHTTP_TRUNCATED", "chunked OHTTP response truncated: "+why, cause)
}

// sealChunkedRequest is head (hdr || enc) then inner in chunks of at most 16 KiB, the last one final.
func sealChunkedRequest(s *hpke.Sender, head, inner []byte) ([]byte, error) {
	out := append([]byte{}, head...)
	for len(inner) > ohttpPlainChunk {
		ct, err := s.Seal(nil, inner[:ohttpPlainChunk])
		if err != nil {
			return nil, err
		}
		out = append(appendVarint(out, uint64(len(ct))), ct...)
		inner = inner[ohttpPlainChunk:]
	}
	ct, err := s.Seal(finalAAD, inner)
	if err != nil {
		return nil, err
	}
	return append(appendVarint(out, 0), ct...), nil
}

// chunkedPlaintext reads the plaintext of a chunked OHTTP response body, chunk by chunk.
type chunkedPlaintext struct {
	r       *bufio.Reader
	aead    cipher.AEAD
	nonce   []byte
	counter uint64
	buf     []byte
	final   bool
	err     error
}

func (c *chunkedPlaintext) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.final {
			return 0, io.EOF
		}
		c.buf, c.err = c.next()
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

func (c *chunkedPlaintext) next() ([]byte, error) {
	n, err := readVarint(c.r)
	if err != nil {
		return nil, truncated("the body ended before its final chunk", err)
	}
	if n == 0 { // the final chunk: the rest of the body
		ct, err := io.ReadAll(io.LimitReader(c.r, ohttpChunkMax+1))
		if err != nil {
			return nil, truncated("reading the final chunk", err)
		}
		if len(ct) > ohttpChunkMax {
			return nil, newError("NEN_TOO_LARGE", "chunked OHTTP final chunk over 64 KiB", nil)
		}
		c.final = true
		return c.open(ct, finalAAD)
	}
	if n > ohttpChunkMax {
		return nil, newError("NEN_TOO_LARGE", fmt.Sprintf("chunked OHTTP chunk of %d bytes", n), nil)
	}
	ct := make([]byte, n)
	if _, err := io.ReadFull(c.r, ct); err != nil {
		return nil, truncated("a chunk was cut short", err)
	}
	pt, err := c.open(ct, nil)
	if err == nil && len(pt) == 0 {
		return nil, newError("NEN_OHTTP_DECRYPT", "an empty non-final chunk", nil)
	}
	return pt, err
}

// open is AEAD-Open(key, nonce XOR I2OSP(counter, Nn), aad, ct).
func (c *chunkedPlaintext) open(ct, aad []byte) ([]byte, error) {
	nonce := append([]byte{}, c.nonce...)
	var ctr [8]byte
	binary.BigEndian.PutUint64(ctr[:], c.counter)
	for i := range ctr {
		nonce[len(nonce)-8+i] ^= ctr[i]
	}
	c.counter++
	pt, err := c.aead.Open(nil, nonce, ct, aad)
	if err != nil {
		return nil, newError("NEN_OHTTP_DECRYPT", "a chunk of the OHTTP response failed authentication", err)
	}
	return pt, nil
}

// readVarint reads one QUIC variable-length integer (RFC 9000 §16).
func readVarint(r io.ByteReader) (uint64, error) {
	first, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	v := uint64(first & 0x3f)
	for i := 1; i < 1<<(first>>6); i++ {
		b, err := r.ReadByte()
		if errors.Is(err, io.EOF) {
			return 0, io.ErrUnexpectedEOF
		}
		if err != nil {
			return 0, err
		}
		v = v<<8 | uint64(b)
	}
	return v, nil
}

// bhttpError keeps the chunk layer's *Error; an end of the plaintext inside the message is truncation.
func bhttpError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return truncated("the Binary HTTP response ended early", err)
	}
	return newError("NEN_OHTTP_BHTTP", "malformed binary HTTP response", err)
}

// readFieldLines reads an indeterminate-length field section (lines up to an empty name) into h.
func readFieldLines(r *bufio.Reader, h http.Header) error {
	total := 0
	for lines := 0; ; lines++ {
		n, err := readVarint(r)
		if err != nil {
			return bhttpError(err)
		}
		if n == 0 {
			return nil
		}
		var name, value []byte
		if lines < bhttpMaxLines && n <= bhttpMaxSection {
			name = make([]byte, n)
			if _, err = io.ReadFull(r, name); err == nil {
				var m uint64
				if m, err = readVarint(r); err == nil && m <= bhttpMaxSection {
					value = make([]byte, m)
					_, err = io.ReadFull(r, value)
				}
			}
		}
		if err != nil {
			return bhttpError(err)
		}
		total += len(name) + len(value)
		if name == nil || value == nil || total > bhttpMaxSection {
			return newError("NEN_OHTTP_BHTTP", "binary HTTP field section over its limits", nil)
		}
		h.Add(string(name), string(value))
	}
}

// bhttpContent is the body of an indeterminate-length Binary HTTP response: content chunks, then
// the trailer section (discarded) and padding; io.EOF only once the final OHTTP chunk opened.
type bhttpContent struct {
	r    *bufio.Reader
	left uint64
	err  error
	done bool
	body io.Closer
}

func (c *bhttpContent) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.done {
		return 0, io.EOF
	}
	for c.left == 0 {
		n, err := readVarint(c.r)
		if err != nil {
			c.err = bhttpError(err)
			return 0, c.err
		}
		if n == 0 {
			c.err = c.end()
			if c.err != nil {
				return 0, c.err
			}
			c.done = true
			return 0, io.EOF
		}
		c.left = n
	}
	if uint64(len(p)) > c.left {
		p = p[:c.left]
	}
	k, err := c.r.Read(p)
	c.left -= uint64(k)
	if err != nil && k == 0 {
		c.err = bhttpError(err)
		return 0, c.err
	}
	return k, nil
}

// end reads the trailers and the zero padding up to the end of the plaintext (the final chunk).
func (c *bhttpContent) end() error {
	if err := readFieldLines(c.r, http.Header{}); err != nil {
		return err
	}
	for i := 0; ; i++ {
		b, err := c.r.ReadByte()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return bhttpError(err)
		}
		if b != 0 || i > bhttpMaxPadding {
			return newError("NEN_OHTTP_BHTTP", "bytes after the binary HTTP response", nil)
		}
	}
}

func (c *bhttpContent) Close() error { return c.body.Close() }

// openChunkedResponse reads response_nonce and the head of the answer; the body streams the rest.
func openChunkedResponse(s *hpke.Sender, enc []byte, res *http.Response, req *http.Request) (*http.Response, error) {
	fail := func(err error) (*http.Response, error) {
		res.Body.Close()
		return nil, err
	}
	outer := bufio.NewReader(res.Body)
	responseNonce := make([]byte, ohttpResponseNonce)
	if _, err := io.ReadFull(outer, responseNonce); err != nil {
		return fail(truncated("the body ended before its response nonce", err))
	}
	aead, nonce, err := responseAEAD(s, "message/bhttp chunked response", enc, responseNonce)
	if err != nil {
		return fail(err)
	}
	pr := bufio.NewReader(&chunkedPlaintext{r: outer, aead: aead, nonce: nonce})
	framing, err := readVarint(pr)
	if err != nil {
		return fail(bhttpError(err))
	}
	if framing == 1 { // known-length, buffered whole (bounded)
		rest, err := io.ReadAll(io.LimitReader(pr, ohttpMaxAnswer+1))
		if err != nil {
			return fail(bhttpError(err))
		}
		res.Body.Close()
		return decodeBHTTPResponse(append([]byte{1}, rest...), req)
	}
	if framing != 3 {
		return fail(newError("NEN_OHTTP_BHTTP", "not a binary HTTP response", nil))
	}
	status, err := readVarint(pr)
	for i := 0; err == nil && status >= 100 && status < 200; i++ {
		if i == 8 {
			return fail(newError("NEN_OHTTP_BHTTP", "too many informational responses", nil))
		}
		if err = readFieldLines(pr, http.Header{}); err == nil {
			status, err = readVarint(pr)
		}
	}
	h := http.Header{}
	if err == nil {
		err = readFieldLines(pr, h)
	}
	if err != nil {
		return fail(bhttpError(err))
	}
	if status < 200 || status > 599 {
		return fail(newError("NEN_OHTTP_BHTTP", fmt.Sprintf("status %d", status), nil))
	}
	return innerResponse(req, status, h, &bhttpContent{r: pr, body: res.Body}, -1), nil
}
