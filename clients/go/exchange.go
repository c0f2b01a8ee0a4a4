// One encrypted exchange: take a sequence number, seal the request, send it through the base
// RoundTripper, and verify the answer (a single sealed message, a bodiless one in `nen-body`, or
// a stream of records) before the application sees any of it.
//
// Pitfalls:
//   - Never returns an unauthenticated body: the response must open under this request's
//     (session, epoch, seq) with the received status, flags and `nen-type`; protocol errors are
//     typed hints (./errors.go).
//   - The sequence number is released when the response head arrives or the send fails, never
//     later (flow control, ./sequence.go).
//   - The deadline covers the head and a single response's body; a stream's body is read at the
//     application's pace (its deadline stops at the head, as @nen/client does).

package nen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// envelopeRequestHeaders are the application's headers the envelope owns.
var envelopeRequestHeaders = []string{"Content-Type", "Content-Length", "Nen", "Nen-Type", "Nen-Body", "Nen-Retry"}

// envelopeResponseHeader reports the (canonical) response headers that describe the sealed
// envelope, not the plaintext: they are not handed to the application.
func envelopeResponseHeader(k string) bool {
	switch k {
	case "Content-Type", "Content-Length", "Content-Encoding", "Nen", "Nen-Type", "Nen-Body":
		return true
	}
	return false
}

// wireHeaderKey is the canonical form of the envelope's (lower-case) header names.
func wireHeaderKey(k string) string {
	switch k {
	case "nen":
		return "Nen"
	case "nen-type":
		return "Nen-Type"
	case "nen-body":
		return "Nen-Body"
	case "nen-retry":
		return "Nen-Retry"
	case "content-type":
		return "Content-Type"
	}
	return http.CanonicalHeaderKey(k)
}

// attempt is one send of p in session s. ref names the request once it was sealed and handed to
// the base transport (nil: not sent); retry names the original for a 1.1 retry.
func (t *Transport) attempt(ctx context.Context, req *http.Request, p *prepared, s *session, retry *retryRef) (res *http.Response, ref *retryRef, err error) {
	seq, err := s.seq.acquire(ctx)
	if err != nil {
		return nil, nil, aborted(ctx)
	}
	defer s.seq.release(seq)
	w := seal(s, p, seq, time.Now().UnixMilli(), t.cfg.confidential, t.cfg.compress, retry)
	actx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(t.cfg.timeout, func() { cancel(errTimeout) })
	stop := func() { timer.Stop(); cancel(nil) }
	out := t.wireRequest(actx, req, p, w)
	wire, err := t.base.RoundTrip(out)
	s.seq.release(seq) // the server has committed or refused it by the response head
	if err != nil {
		stop()
		return nil, &w.ref, transportError(actx, ctx, err)
	}
	flags, ok := parseResponseNen(wire.Header.Get("nen"))
	if !ok {
		io.Copy(io.Discard, io.LimitReader(wire.Body, 64<<10))
		wire.Body.Close()
		stop()
		return nil, &w.ref, serverError(wire, "response (HTTP "+strconv.Itoa(wire.StatusCode)+") has no Nen envelope")
	}
	nenType := wire.Header.Get("nen-type")
	aad := responseAAD(&s.sid, s.epoch, seq, wire.StatusCode, flags, nenType)
	if flags&flagStream != 0 {
		timer.Stop()
		if flags != flagStream || wire.StatusCode != http.StatusOK || mediaType(wire.Header.Get("content-type")) != "application/nen-stream" {
			wire.Body.Close()
			stop()
			return nil, &w.ref, newError(CodeResponseUnauthenticated, "stream envelope with a wrong status, content type or flags", nil)
		}
		body := newStreamBody(ctx, wire.Body, s.keys.s2c, s.keys.s2cIV, seq, aad, func() { cancel(nil) })
		return t.response(req, wire, body, -1, nenType), &w.ref, nil
	}
	defer stop()
	plain, err := openSingle(wire, p.method, s.keys, seq, aad, flags, t.cfg.compress, t.cfg.maxResponse)
	if err != nil {
		err = transportError(actx, ctx, err)
		return nil, &w.ref, err
	}
	if nullBodyStatus(wire.StatusCode) || p.method == "HEAD" {
		return t.response(req, wire, http.NoBody, 0, nenType), &w.ref, nil
	}
	return t.response(req, wire, io.NopCloser(bytes.NewReader(plain)), int64(len(plain)), nenType), &w.ref, nil
}

// wireRequest is the request put on the wire: the application's headers minus the envelope's,
// then Nen's; the path exactly as bound (URL.Opaque).
func (t *Transport) wireRequest(ctx context.Context, req *http.Request, p *prepared, w *sealedRequest) *http.Request {
	u := &url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Opaque: w.opaque}
	h := req.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	for _, k := range envelopeRequestHeaders {
		delete(h, k)
	}
	for _, kv := range w.headers {
		h[wireHeaderKey(kv[0])] = []string{kv[1]}
	}
	out := &http.Request{Method: p.method, URL: u, Header: h, Host: req.Host, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	if w.upload != nil {
		out.Body, out.ContentLength = w.upload, -1
	} else if w.body != nil {
		b := w.body
		out.Body = io.NopCloser(bytes.NewReader(b))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		out.ContentLength = int64(len(b))
	}
	return out.WithContext(ctx)
}

// openSingle reads and opens a single (non-stream) response to a request of method with seq.
func openSingle(wire *http.Response, method string, keys *epochKeys, seq uint64, aad []byte, flags uint8, accept bool, maxResponse int64) ([]byte, error) {
	defer wire.Body.Close()
	var record []byte
	if nullBodyStatus(wire.StatusCode) || method == "HEAD" {
		v := wire.Header.Values("nen-body")
		if len(v) != 1 {
			return nil, newError(CodeResponseUnauthenticated, "bodiless response without one nen-body record", nil)
		}
		r, err := b64.DecodeString(v[0])
		if err != nil {
			return nil, newError(CodeResponseUnauthenticated, "nen-body is not base64url", nil)
		}
		record = r
	} else {
		if mediaType(wire.Header.Get("content-type")) != "application/nen" {
			return nil, newError(CodeResponseUnauthenticated, "sealed response with the wrong content type", nil)
		}
		limit := maxResponse + tagLen
		if wire.ContentLength > limit {
			return nil, newError(CodeResponseUnauthenticated, "the response body exceeds the response limit", nil)
		}
		b, err := readBounded(wire.Body, wire.ContentLength, limit)
		if err != nil {
			return nil, err
		}
		if int64(len(b)) > limit {
			return nil, newError(CodeResponseUnauthenticated, "the response body exceeds the response limit", nil)
		}
		record = b
	}
	if len(record) < tagLen {
		return nil, newError(CodeResponseUnauthenticated, "sealed record shorter than its tag", nil)
	}
	n := nonce(&keys.s2cIV, 0, seq)
	plain, err := keys.s2c.Open(record[:0], n[:], record, aad)
	if err != nil {
		return nil, newError(CodeResponseUnauthenticated, "response failed authentication (tampered, substituted or forged)", err)
	}
	if flags&flagCompressed == 0 {
		return plain, nil
	}
	if !accept {
		return nil, newError(CodeResponseUnauthenticated, "compressed response that was not asked for", nil)
	}
	return inflateRaw(plain, maxResponse)
}

// response is the application's view: the handler's status and headers, the plaintext body.
func (t *Transport) response(req *http.Request, wire *http.Response, body io.ReadCloser, n int64, nenType string) *http.Response {
	h := make(http.Header, len(wire.Header))
	for k, v := range wire.Header {
		if !envelopeResponseHeader(k) {
			h[k] = v
		}
	}
	if nenType != "" {
		h["Content-Type"] = []string{nenType}
	}
	return &http.Response{
		Status: wire.Status, StatusCode: wire.StatusCode, Proto: wire.Proto, ProtoMajor: wire.ProtoMajor, ProtoMinor: wire.ProtoMinor,
		Header: h, Body: body, ContentLength: n, Request: req, TLS: wire.TLS, Trailer: wire.Trailer,
	}
}

// refusedRetry reads a sealed 409 answering a retry: NEN_RETRY_COMMITTED / NEN_RETRY_UNKNOWN.
func refusedRetry(res *http.Response) error {
	if res.StatusCode != http.StatusConflict || res.ContentLength < 0 {
		return nil
	}
	b, _ := io.ReadAll(res.Body)
	res.Body = io.NopCloser(bytes.NewReader(b))
	var v struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	switch v.Error.Code {
	case CodeRetryCommitted:
		return &Error{Code: CodeRetryCommitted, Status: 409, Message: "the original request was already committed (its handler ran); the retry did not run"}
	case CodeRetryUnknown:
		return outcomeUnknown(&Error{Code: CodeRetryUnknown, Status: 409, Message: "the server cannot prove the original request did not run; the retry did not run"})
	}
	return nil
}

func outcomeUnknown(cause error) error {
	var e *Error
	if errors.As(cause, &e) && (e.Code == CodeOutcomeUnknown || e.Code == CodeRetryCommitted) {
		return cause
	}
	return newError(CodeOutcomeUnknown, "the request was sent and no authenticated answer came back; it ran at most once", cause)
}
