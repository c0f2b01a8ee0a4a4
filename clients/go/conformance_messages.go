// The cryptographic part of CheckVectors (./conformance.go): handshakes, sealed messages and
// record streams, each recomputed or opened with this package's own code paths.
//
// Pitfalls: requests are rebuilt with the transport's seal (same headers, AAD, nonce, record);
// responses and rejects go through openSingle as a real answer would; streams through
// streamBody, fed a few bytes at a time.

package nen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
)

type hsVector struct {
	Name                     string
	KemID                    uint16
	Pinned                   bool
	Kid                      string
	ServerStaticSeed         hexBytes
	ServerStaticPublicKey    hexBytes
	Pin                      string
	ClientEphemeralIkm       hexBytes
	ClientEphemeralSeed      hexBytes
	ClientEphemeralPublicKey hexBytes
	RequestedLifetime        uint32
	ClientHello, ServerHello hexBytes
	SessionID                hexBytes
	Lifetime, IdleTimeout    uint32
	ServerTime               uint64
	EncStatic, EncEph        hexBytes
	ExportedS, ExportedE     hexBytes
	Th, S0, ConfirmKey       hexBytes
	Confirm                  hexBytes
	Epochs                   []struct {
		Secret, C2sKey, C2sIv, S2cKey, S2cIv hexBytes
	}
	keys []*epochKeys
}

func (c *vectorChecker) handshakes(file string, raw []byte) error {
	var v struct{ Vectors []*hsVector }
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	for _, h := range v.Vectors {
		c.report(file, h.Name, checkHandshake(h))
		c.sessions[h.Name] = h
	}
	return nil
}

func checkHandshake(h *hsVector) error {
	kem := kemOf(h.KemID)
	eph, err := kem.NewPrivateKey(h.ClientEphemeralSeed)
	if err != nil {
		return fmt.Errorf("ephemeral seed: %v", err)
	}
	derived, err := kem.DeriveKeyPair(h.ClientEphemeralIkm)
	if err != nil {
		return err
	}
	derivedSeed, _ := derived.Bytes()
	st := &helloState{kem: h.KemID, lifetime: h.RequestedLifetime, eph: eph}
	if h.Pinned {
		pin, err := ParsePin(h.Pin)
		if err != nil || pin.KeyID != h.Kid || !bytes.Equal(pin.PublicKey.Bytes(), h.ServerStaticPublicKey) {
			return fmt.Errorf("pin does not parse to the static key")
		}
		static, err := kem.NewPrivateKey(h.ServerStaticSeed)
		if err != nil {
			return err
		}
		if st.exportedS, err = exportFor(h.EncStatic, static, infoStatic); err != nil {
			return err
		}
		st.kid = h.Kid
	}
	st.hello = clientHello(h.KemID, h.RequestedLifetime, eph.PublicKey().Bytes(), st.kid, h.EncStatic)
	if err := firstErr(
		differ("DeriveKeyPair seed", derivedSeed, h.ClientEphemeralSeed),
		differ("ephemeral public key", eph.PublicKey().Bytes(), h.ClientEphemeralPublicKey),
		differ("exportedS", st.exportedS, h.ExportedS),
		differ("clientHello", st.hello, h.ClientHello),
	); err != nil {
		return err
	}
	r, err := st.finish(h.ServerHello)
	if err != nil {
		return err
	}
	if r.lifetime != h.Lifetime || r.idle != h.IdleTimeout || r.serverTime != h.ServerTime || !bytes.Equal(r.sid[:], h.SessionID) {
		return fmt.Errorf("ServerHello fields differ")
	}
	n := encLen(h.KemID)
	exportedE, err := exportFor(h.ServerHello[serverHelloHead:serverHelloHead+n], eph, infoEphemeral)
	if err != nil {
		return err
	}
	th := sha256.Sum256(append(append([]byte(labelTranscript), h.ClientHello...), h.ServerHello[:serverHelloHead+n]...))
	if err := firstErr(
		differ("exportedE", exportedE, h.ExportedE),
		differ("TH", th[:], h.Th),
		differ("S_0", r.secret, h.S0),
		differ("confirm key", expand(r.secret, labelConfirm, 32), h.ConfirmKey),
		differ("confirm", h.ServerHello[serverHelloHead+n:], h.Confirm),
	); err != nil {
		return err
	}
	secret := r.secret
	for i, e := range h.Epochs {
		if i > 0 {
			secret = nextEpochSecret(secret)
		}
		if err := firstErr(
			differ("epoch secret", secret, e.Secret),
			differ("c2s key", expand(secret, labelC2SKey, 32), e.C2sKey),
			differ("c2s iv", expand(secret, labelC2SIV, 12), e.C2sIv),
			differ("s2c key", expand(secret, labelS2CKey, 32), e.S2cKey),
			differ("s2c iv", expand(secret, labelS2CIV, 12), e.S2cIv),
		); err != nil {
			return fmt.Errorf("epoch %d: %v", i, err)
		}
		k, err := newEpochKeys(secret)
		if err != nil {
			return err
		}
		h.keys = append(h.keys, k)
	}
	return nil
}

type msgVector struct {
	Name, Session, Request  string
	Epoch                   uint32
	Seq, Ts                 uint64
	Flags                   uint8
	Status                  int
	Method, URL, AadTarget  string
	ContentType             string
	Retry                   *string
	Body, Plaintext, Aad    hexBytes
	Nonce, Sealed, WireBody hexBytes
	PlaintextReproducible   bool
	Headers                 map[string]string
	Expect                  string
}

func (c *vectorChecker) session(name string, epoch uint32) (*hsVector, *epochKeys, error) {
	h := c.sessions[name]
	if h == nil || int(epoch) >= len(h.keys) {
		return nil, nil, fmt.Errorf("unknown session %s epoch %d", name, epoch)
	}
	return h, h.keys[epoch], nil
}

func (c *vectorChecker) messages(file string, raw []byte) error {
	var v struct{ Requests, Responses, Rejects []*msgVector }
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	byName := map[string]*msgVector{}
	for _, r := range v.Requests {
		byName[r.Name] = r
		c.report(file, "request "+r.Name, c.checkRequest(r))
	}
	for _, r := range v.Responses {
		c.report(file, "response "+r.Name, c.checkResponse(r, byName[r.Request], r.Flags, r.Status, r.Sealed))
	}
	for _, r := range v.Rejects {
		err := c.checkResponse(r, byName[r.Request], r.Flags, r.Status, r.Sealed)
		if err == nil {
			err = fmt.Errorf("accepted")
		} else if CodeOf(err) == r.Expect {
			err = nil
		}
		c.report(file, "reject "+r.Name, err)
	}
	return nil
}

func (c *vectorChecker) checkRequest(r *msgVector) error {
	h, k, err := c.session(r.Session, r.Epoch)
	if err != nil {
		return err
	}
	u, err := url.Parse("https://example.com" + r.URL)
	if err != nil {
		return err
	}
	s := &session{epoch: r.Epoch, keys: k}
	copy(s.sid[:], h.SessionID)
	s.sidStr = b64.EncodeToString(s.sid[:])
	p := &prepared{method: r.Method, path: preparePath(u), rawQuery: wireQuery(u.RawQuery), contentType: r.ContentType}
	if len(r.Body) > 0 {
		p.body = r.Body
	}
	var retry *retryRef
	if r.Retry != nil {
		if retry, err = parseRetryValue(*r.Retry); err != nil {
			return err
		}
	}
	if p.canonical() != r.AadTarget && r.Flags&flagConfidential == 0 {
		return fmt.Errorf("aad target %q", p.canonical())
	}
	w := seal(s, p, r.Seq, int64(r.Ts), r.Flags&flagConfidential != 0, r.Flags&flagAcceptCompressed != 0, retry)
	for name, want := range r.Headers {
		if got := w.header(name); got != want {
			return fmt.Errorf("header %s = %q", name, got)
		}
	}
	if len(w.headers) != len(r.Headers) {
		return fmt.Errorf("%d headers, want %d", len(w.headers), len(r.Headers))
	}
	m := requestMeta{sid: s.sid, epoch: r.Epoch, seq: r.Seq, ts: r.Ts, flags: r.Flags}
	retryValue := ""
	if retry != nil {
		retryValue = retry.value()
	}
	aad := requestAAD(&m, r.Method, r.AadTarget, r.ContentType, retryValue)
	n := nonce(&k.c2sIV, 0, r.Seq)
	if err := firstErr(differ("aad", aad, r.Aad), differ("nonce", n[:], r.Nonce)); err != nil {
		return err
	}
	if !r.PlaintextReproducible {
		plain, err := k.c2s.Open(nil, n[:], r.Sealed, aad)
		if err != nil {
			return fmt.Errorf("sealed does not open")
		}
		body, err := inflateRaw(plain, 1<<20)
		return firstErr(err, differ("inflated body", body, r.Body))
	}
	return firstErr(differ("sealed", recordOf(w), r.Sealed), differ("wire body", w.body, r.WireBody))
}

func recordOf(w *sealedRequest) []byte {
	if w.body != nil {
		return w.body
	}
	rec, _ := b64.DecodeString(w.header("nen-body"))
	return rec
}

func (w *sealedRequest) header(name string) string {
	for _, kv := range w.headers {
		if kv[0] == name {
			return kv[1]
		}
	}
	return ""
}

// parseRetryValue parses a `nen-retry` value sid.epoch.seq.ts.
func parseRetryValue(v string) (*retryRef, error) {
	f := strings.Split(v, ".")
	if len(f) != 4 {
		return nil, fmt.Errorf("bad nen-retry %q", v)
	}
	epoch, e1 := strconv.ParseUint(f[1], 10, 32)
	seq, e2 := strconv.ParseUint(f[2], 10, 64)
	ts, e3 := strconv.ParseUint(f[3], 10, 64)
	if err := firstErr(e1, e2, e3); err != nil {
		return nil, err
	}
	return &retryRef{sidStr: f[0], epoch: uint32(epoch), seq: seq, ts: ts}, nil
}

// checkResponse opens r as the answer to req through openSingle.
func (c *vectorChecker) checkResponse(r, req *msgVector, flags uint8, status int, sealed []byte) error {
	if req == nil {
		return fmt.Errorf("unknown request %s", r.Request)
	}
	h, k, err := c.session(req.Session, req.Epoch)
	if err != nil {
		return err
	}
	var sid [16]byte
	copy(sid[:], h.SessionID)
	headers := r.Headers
	if headers == nil { // a reject: the answer as a server would frame it
		headers = map[string]string{"nen": "1." + strconv.Itoa(int(flags)), "content-type": "application/nen", "nen-type": r.ContentType}
	}
	body := r.WireBody
	if r.Headers == nil {
		body = sealed
	}
	f, ok := parseResponseNen(headers["nen"])
	if !ok || f != flags {
		return newError(CodeResponseUnauthenticated, "nen header", nil)
	}
	aad := responseAAD(&sid, req.Epoch, req.Seq, status, flags, headers["nen-type"])
	if r.Aad != nil {
		n := nonce(&k.s2cIV, 0, req.Seq)
		if err := firstErr(differ("aad", aad, r.Aad), differ("nonce", n[:], r.Nonce)); err != nil {
			return err
		}
	}
	plain, err := openSingle(fakeResponse(status, headers, body), req.Method, k, req.Seq, aad, flags, req.Flags&flagAcceptCompressed != 0, 1<<20)
	if err != nil {
		return err
	}
	if r.Headers != nil {
		return differ("body", plain, r.Body)
	}
	return nil
}

type streamVector struct {
	Name, Direction, Session, Stream, Expect string
	Epoch                                    uint32
	Seq                                      uint64
	BaseAad, Body, Plaintext, Delivered      hexBytes
}

func (c *vectorChecker) streams(file string, raw []byte) error {
	var v struct{ Streams, Broken []*streamVector }
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	byName := map[string]*streamVector{}
	for _, s := range v.Streams {
		byName[s.Name] = s
		got, err := c.readStream(s, s.Body)
		c.report(file, s.Name, firstErr(err, differ("plaintext", got, s.Plaintext)))
	}
	for _, b := range v.Broken {
		s := byName[b.Stream]
		if s == nil {
			c.report(file, "broken "+b.Name, fmt.Errorf("unknown stream"))
			continue
		}
		got, err := c.readStream(s, b.Body)
		switch {
		case err == nil:
			err = fmt.Errorf("accepted")
		case CodeOf(err) != b.Expect:
			err = fmt.Errorf("reported %v", err)
		default:
			err = differ("delivered", got, b.Delivered)
		}
		c.report(file, "broken "+b.Name, err)
	}
	return nil
}

// readStream feeds body to a streamBody 5 bytes at a time and reads it to the end.
func (c *vectorChecker) readStream(s *streamVector, body []byte) ([]byte, error) {
	_, k, err := c.session(s.Session, s.Epoch)
	if err != nil {
		return nil, err
	}
	aead, iv := k.s2c, k.s2cIV
	if s.Direction == "request" {
		aead, iv = k.c2s, k.c2sIV
	}
	sb := newStreamBody(context.Background(), io.NopCloser(&smallReader{b: body, n: 5}), aead, iv, s.Seq, s.BaseAad, func() {})
	var out bytes.Buffer
	_, err = io.Copy(&out, sb)
	return out.Bytes(), err
}

// smallReader returns at most n bytes per Read.
type smallReader struct {
	b []byte
	n int
}

func (r *smallReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n, len(r.b))
	copy(p, r.b[:k])
	r.b = r.b[k:]
	return k, nil
}
