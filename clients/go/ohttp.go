// Oblivious HTTP mode (RFC 9458; Binary HTTP RFC 9292): NewObliviousTransport sends each request
// encapsulated to the gateway's pinned Key Config (HPKE X-Wing, HKDF-SHA256, ChaCha20-Poly1305)
// and posts it to a relay (or the gateway itself). No handshake: the first request is one round
// trip. Answers are opened and returned as ordinary *http.Response values.
//
// Pitfalls:
//   - The Key Config is pinned by value (its bytes), or by `sha256:` digests and fetched from the
//     gateway (ohttp_pin.go): a relay cannot substitute one. X25519 configs are refused (this
//     client is post-quantum only).
//   - The inner request carries a Date field (the gateway's replay window, RFC 9458 §6.5); a
//     Date refusal corrects the clock and may re-send once (ohttp_date.go).
//   - Binary HTTP encoding and decoding live in bhttp.go.
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
	"sync/atomic"
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
	pinned  *pinnedKeyConfig // set by NewPinnedObliviousTransport: config is fetched, not given
	base    http.RoundTripper
	// skew is the gateway's clock minus ours (ns), learnt from a Date refusal; now is the clock (tests)
	skew atomic.Int64
	now  func() time.Time
}

// NewObliviousTransport posts requests encapsulated to config to relay through base (nil: http.DefaultTransport).
func NewObliviousTransport(relay string, config KeyConfig, base http.RoundTripper) *ObliviousTransport {
	if base == nil {
		base = http.DefaultTransport
	}
	return &ObliviousTransport{relay: relay, config: config, base: base}
}

// RoundTrip implements http.RoundTripper. A refusal for a Date outside the gateway's window is
// handled as RFC 9458 §6.5 and PROTOCOL.md §11 say (ohttp_date.go): re-sent once, freshly
// encapsulated, when this client's clock was behind; otherwise NEN_OHTTP_DATE. With a fetched
// (pinned) config, NEN_OHTTP_KEY_UNKNOWN refetches it once and re-sends.
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
	refetched := false
	for attempt := 0; ; attempt++ {
		cfg, err := t.keyConfig(req)
		if err != nil {
			return nil, err
		}
		sent := t.clock()
		res, err := t.exchange(req, cfg, body, sent)
		if err != nil && t.pinned != nil && !refetched && CodeOf(err) == codeOHTTPKeyUnknown {
			refetched = true
			t.pinned.forget(cfg)
			attempt--
			continue
		}
		if err != nil {
			return nil, err
		}
		gatewayDate, refused, err := dateRefusal(res)
		if err != nil || !refused {
			return res, err
		}
		if gatewayDate.IsZero() {
			return nil, newError("NEN_OHTTP_DATE", "the gateway refused the request's Date (far ahead: not re-sent)", nil)
		}
		t.skew.Store(int64(gatewayDate.Sub(t.baseNow())))
		if attempt > 0 || !sent.Before(gatewayDate) {
			return nil, newError("NEN_OHTTP_DATE", "the gateway refused the request's Date (clock corrected for the next requests)", nil)
		}
	}
}

// keyConfig is the config given by value, or the pinned one fetched from the gateway.
func (t *ObliviousTransport) keyConfig(req *http.Request) (KeyConfig, error) {
	if t.pinned == nil {
		return t.config, nil
	}
	return t.pinned.get(req.Context())
}

// exchange encapsulates one request dated `date` to cfg, posts it and opens the answer.
func (t *ObliviousTransport) exchange(req *http.Request, cfg KeyConfig, body []byte, date time.Time) (*http.Response, error) {
	label, media := "message/bhttp request", "message/ohttp-req"
	if t.Chunked {
		label, media = "message/bhttp chunked request", "message/ohttp-chunked-req"
	}
	// hdr: key_id, kem_id, kdf_id, aead_id (7 bytes), bound into the HPKE info
	hdr := []byte{cfg.KeyID, byte(cfg.KEM >> 8), byte(cfg.KEM), 0, ohttpKDFSHA256, 0, ohttpChaCha}
	info := append([]byte(label+"\x00"), hdr...)
	enc, sender, err := hpke.NewSender(cfg.PublicKey, hpke.HKDFSHA256(), hpke.ChaCha20Poly1305(), info)
	if err != nil {
		return nil, newError("NEN_BAD_INPUT", "OHTTP encapsulation", err)
	}
	head := append(append([]byte{}, hdr...), enc...)
	var wire []byte
	if t.Chunked {
		wire, err = sealChunkedRequest(sender, head, encodeBHTTPRequest(req, body, date, true))
	} else {
		var ct []byte
		ct, err = sender.Seal(nil, encodeBHTTPRequest(req, body, date, false))
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
