// Oblivious HTTP mode (RFC 9458; Binary HTTP RFC 9292): NewObliviousTransport sends each request
// encapsulated to the gateway's pinned Key Config (HPKE X-Wing, HKDF-SHA256, ChaCha20-Poly1305)
// and posts it to a relay (or the gateway itself). No handshake: the first request is one round
// trip. Answers are opened and returned as ordinary *http.Response values.
//
// Pitfalls:
//   - The Key Config is pinned by value (its bytes): a relay cannot substitute one. X25519
//     configs are refused (this client is post-quantum only).
//   - The inner request carries a Date field (the gateway's replay window, RFC 9458 §6.5).
//   - Unencapsulated answers (non-200 or not message/ohttp-res) are unauthenticated hints
//     (serverError); an answer that fails to open is NEN_OHTTP_DECRYPT.
//   - Chunked OHTTP (Chunked: true; streamed answers) lives in ohttp_chunked.go.
package nen

import (
	"bytes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hpke"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"time"

	"golang.org/x/crypto/chacha20poly1305"
)

const (
	ohttpKDFSHA256 = 0x0001
	ohttpChaCha    = 0x0003
	ohttpMaxAnswer = 64 << 20
	// response_nonce length: max(Nk, Nn) of ChaCha20-Poly1305
	ohttpResponseNonce = 32
)

// KeyConfig is one parsed OHTTP Key Config (RFC 9458 §3) with an X-Wing or ML-KEM-768 key.
type KeyConfig struct {
	KeyID     uint8
	KEM       uint16
	PublicKey hpke.PublicKey
}

// ParseKeyConfig parses one encoded Key Config; it must offer HKDF-SHA256 with ChaCha20-Poly1305.
func ParseKeyConfig(b []byte) (KeyConfig, error) {
	bad := func(why string) (KeyConfig, error) {
		return KeyConfig{}, newError("NEN_OHTTP_BAD_KEY_CONFIG", "invalid OHTTP key configuration: "+why, nil)
	}
	if len(b) < 3 {
		return bad("truncated")
	}
	kem := binary.BigEndian.Uint16(b[1:3])
	if kem != kemXWing && kem != kemMLKEM768 {
		return bad(fmt.Sprintf("KEM 0x%04x is not X-Wing or ML-KEM-768", kem))
	}
	pkLen := 1216
	if kem == kemMLKEM768 {
		pkLen = 1184
	}
	if len(b) < 3+pkLen+2 {
		return bad("truncated")
	}
	pk, err := kemOf(kem).NewPublicKey(b[3 : 3+pkLen])
	if err != nil {
		return bad("public key")
	}
	rest := b[3+pkLen:]
	n := int(binary.BigEndian.Uint16(rest))
	if n < 4 || n%4 != 0 || len(rest) != 2+n {
		return bad("symmetric algorithms")
	}
	for i := 2; i < 2+n; i += 4 {
		if binary.BigEndian.Uint16(rest[i:]) == ohttpKDFSHA256 && binary.BigEndian.Uint16(rest[i+2:]) == ohttpChaCha {
			return KeyConfig{KeyID: b[0], KEM: kem, PublicKey: pk}, nil
		}
	}
	return bad("no HKDF-SHA256 / ChaCha20-Poly1305 pair")
}

// ObliviousTransport is an http.RoundTripper for the OHTTP mode.
type ObliviousTransport struct {
	// Chunked sends every request as chunked OHTTP (message/ohttp-chunked-req,
	// draft-ietf-ohai-chunked-ohttp) and hands the answer's body to the caller as its chunks
	// arrive (streamed answers); a body cut before its final chunk reads as NEN_OHTTP_TRUNCATED.
	Chunked bool
	relay   string
	config  KeyConfig
	base    http.RoundTripper
}

// NewObliviousTransport posts requests encapsulated to config to relay through base (nil: http.DefaultTransport).
func NewObliviousTransport(relay string, config KeyConfig, base http.RoundTripper) *ObliviousTransport {
	if base == nil {
		base = http.DefaultTransport
	}
	return &ObliviousTransport{relay: relay, config: config, base: base}
}

// RoundTrip implements http.RoundTripper.
func (t *ObliviousTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(io.LimitReader(req.Body, ohttpMaxAnswer+1))
		req.Body.Close()
		if err != nil {
			return nil, newError("NEN_BAD_INPUT", "reading the request body", err)
		}
		if len(b) > ohttpMaxAnswer {
			return nil, newError("NEN_BAD_INPUT", "request body over 64 MiB", nil)
		}
		body = b
	}
	label, media := "message/bhttp request", "message/ohttp-req"
	if t.Chunked {
		label, media = "message/bhttp chunked request", "message/ohttp-chunked-req"
	}
	// hdr: key_id, kem_id, kdf_id, aead_id (7 bytes), bound into the HPKE info
	hdr := []byte{t.config.KeyID, byte(t.config.KEM >> 8), byte(t.config.KEM), 0, ohttpKDFSHA256, 0, ohttpChaCha}
	info := append([]byte(label+"\x00"), hdr...)
	enc, sender, err := hpke.NewSender(t.config.PublicKey, hpke.HKDFSHA256(), hpke.ChaCha20Poly1305(), info)
	if err != nil {
		return nil, newError("NEN_BAD_INPUT", "OHTTP encapsulation", err)
	}
	head := append(append([]byte{}, hdr...), enc...)
	var wire []byte
	if t.Chunked {
		wire, err = sealChunkedRequest(sender, head, encodeBHTTPRequest(req, body, true))
	} else {
		var ct []byte
		ct, err = sender.Seal(nil, encodeBHTTPRequest(req, body, false))
		wire = append(head, ct...)
	}
	if err != nil {
		return nil, newError("NEN_BAD_INPUT", "OHTTP encapsulation", err)
	}
	out, err := http.NewRequestWithContext(req.Context(), http.MethodPost, t.relay, bytes.NewReader(wire))
	if err != nil {
		return nil, newError("NEN_BAD_INPUT", "relay URL", err)
	}
	out.Header.Set("Content-Type", media)
	res, err := t.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	want := "message/ohttp-res"
	if t.Chunked {
		want = "message/ohttp-chunked-res"
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != want {
		defer res.Body.Close()
		return nil, serverError(res, fmt.Sprintf("the relay / gateway answered %d %q instead of %s", res.StatusCode, res.Header.Get("Content-Type"), want))
	}
	if t.Chunked {
		return openChunkedResponse(sender, enc, res, req)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, ohttpMaxAnswer+64))
	if err != nil {
		return nil, newError("NEN_OUTCOME_UNKNOWN", "reading the encapsulated response", err)
	}
	plain, err := openOHTTPResponse(sender, enc, answer)
	if err != nil {
		return nil, err
	}
	return decodeBHTTPResponse(plain, req)
}

// responseAEAD is RFC 9458 §4.4's key schedule: the AEAD and base nonce from the context's
// exporter (label), enc and response_nonce.
func responseAEAD(s *hpke.Sender, label string, enc, responseNonce []byte) (cipher.AEAD, []byte, error) {
	const nk, nn = 32, 12
	secret, err := s.Export(label, nk)
	if err != nil {
		return nil, nil, newError("NEN_OHTTP_DECRYPT", "exporter", err)
	}
	prk, err := hkdf.Extract(sha256.New, secret, append(append([]byte{}, enc...), responseNonce...))
	if err != nil {
		return nil, nil, newError("NEN_OHTTP_DECRYPT", "hkdf", err)
	}
	key, _ := hkdf.Expand(sha256.New, prk, "key", nk)
	nonce, _ := hkdf.Expand(sha256.New, prk, "nonce", nn)
	aead, err := chacha20poly1305.New(key)
	if err != nil {
		return nil, nil, newError("NEN_OHTTP_DECRYPT", "aead", err)
	}
	return aead, nonce, nil
}

// openOHTTPResponse opens a message/ohttp-res body: response_nonce || AEAD-Seal(key, nonce, "", response).
func openOHTTPResponse(s *hpke.Sender, enc, answer []byte) ([]byte, error) {
	if len(answer) < ohttpResponseNonce+16 {
		return nil, newError("NEN_OHTTP_MALFORMED", "encapsulated response too short", nil)
	}
	aead, nonce, err := responseAEAD(s, "message/bhttp response", enc, answer[:ohttpResponseNonce])
	if err != nil {
		return nil, err
	}
	pt, err := aead.Open(nil, nonce, answer[ohttpResponseNonce:], nil)
	if err != nil {
		return nil, newError("NEN_OHTTP_DECRYPT", "encapsulated response failed authentication", err)
	}
	return pt, nil
}

func appendVarint(b []byte, v uint64) []byte {
	switch {
	case v < 1<<6:
		return append(b, byte(v))
	case v < 1<<14:
		return binary.BigEndian.AppendUint16(b, uint16(v)|0x4000)
	case v < 1<<30:
		return binary.BigEndian.AppendUint32(b, uint32(v)|0x80000000)
	default:
		return binary.BigEndian.AppendUint64(b, v|0xc000000000000000)
	}
}

func appendVarBytes(b, v []byte) []byte { return append(appendVarint(b, uint64(len(v))), v...) }

// encodeBHTTPRequest is a Binary HTTP request (RFC 9292 §3.1) with Date added: known-length, or
// indeterminate-length (framing indicator 2, as chunked OHTTP sends it).
func encodeBHTTPRequest(req *http.Request, body []byte, indeterminate bool) []byte {
	framing := uint64(0)
	if indeterminate {
		framing = 2
	}
	b := appendVarint(nil, framing)
	path := req.URL.RequestURI()
	for _, s := range []string{req.Method, req.URL.Scheme, req.URL.Host, path} {
		b = appendVarBytes(b, []byte(s))
	}
	var fields []byte
	for name, values := range req.Header {
		for _, v := range values {
			fields = appendVarBytes(fields, bytes.ToLower([]byte(name)))
			fields = appendVarBytes(fields, []byte(v))
		}
	}
	fields = appendVarBytes(fields, []byte("date"))
	fields = appendVarBytes(fields, []byte(time.Now().UTC().Format(http.TimeFormat)))
	if !indeterminate {
		b = appendVarBytes(b, fields)
		b = appendVarBytes(b, body)
		return appendVarint(b, 0) // no trailers
	}
	b = appendVarint(append(b, fields...), 0) // field lines, then the empty name that ends them
	if len(body) > 0 {
		b = appendVarBytes(b, body)
	}
	return appendVarint(appendVarint(b, 0), 0) // content terminator, no trailers
}

type bhttpReader struct {
	b   []byte
	err bool
}

func (r *bhttpReader) varint() uint64 {
	if len(r.b) == 0 {
		r.err = true
		return 0
	}
	n := 1 << (r.b[0] >> 6)
	if len(r.b) < n {
		r.err = true
		return 0
	}
	v := uint64(r.b[0] & 0x3f)
	for i := 1; i < n; i++ {
		v = v<<8 | uint64(r.b[i])
	}
	r.b = r.b[n:]
	return v
}

func (r *bhttpReader) bytes() []byte {
	n := r.varint()
	if r.err || uint64(len(r.b)) < n {
		r.err = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *bhttpReader) fields(h http.Header) {
	sec := &bhttpReader{b: r.bytes()}
	r.err = r.err || sec.err
	for !r.err && len(sec.b) > 0 {
		name, value := sec.bytes(), sec.bytes()
		if sec.err {
			r.err = true
			return
		}
		h.Add(string(name), string(value))
	}
}

// decodeBHTTPResponse reads a known-length Binary HTTP response (RFC 9292 §3.2); informational responses are skipped.
func decodeBHTTPResponse(b []byte, req *http.Request) (*http.Response, error) {
	r := &bhttpReader{b: b}
	if r.varint() != 1 {
		return nil, newError("NEN_OHTTP_BHTTP", "not a known-length binary HTTP response", nil)
	}
	status := r.varint()
	for i := 0; !r.err && status >= 100 && status < 200 && i < 8; i++ {
		r.fields(http.Header{})
		status = r.varint()
	}
	h := http.Header{}
	r.fields(h)
	content := r.bytes()
	if r.err || status < 200 || status > 599 {
		return nil, newError("NEN_OHTTP_BHTTP", "malformed binary HTTP response", nil)
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(int(status))),
		StatusCode:    int(status),
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(content)),
		ContentLength: int64(len(content)),
		Request:       req,
	}, nil
}
