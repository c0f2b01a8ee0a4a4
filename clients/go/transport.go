// Package nen is a Go client for Nen: post-quantum end-to-end payload encryption for HTTP APIs
// (PROTOCOL.md in the repository). Transport is an http.RoundTripper, so
//
//	t, err := nen.NewTransport(http.DefaultTransport, nen.WithPins(pin))
//	client := &http.Client{Transport: t}
//
// works unchanged: every request is sealed in the transport's session and every answer is
// authenticated before the application sees it. Failures are *Error values with stable codes.
//
// This file is the RoundTripper: request preparation and the retry rules of PROTOCOL.md §7.1.
//
// Pitfalls:
//   - A request is never executed twice on a forged error: after an unauthenticated 401-class
//     answer the transport re-handshakes and sends ONE retry naming the original (bound in its
//     AAD); the server runs it only if the original can never run. A refused or failed retry is
//     NEN_OUTCOME_UNKNOWN (or the sealed NEN_RETRY_COMMITTED).
//   - The body is buffered (bounded by WithMaxRequestBytes) so that the retry can re-seal it.
//   - One session per transport, bound to one origin; requests to another origin are refused.
package nen

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Transport seals requests and opens responses over a base RoundTripper.
type Transport struct {
	cfg      *config
	base     http.RoundTripper
	sessions *sessions
	mu       sync.Mutex
	origin   string
	backoff  time.Duration
}

// NewTransport returns a Nen transport over base (http.DefaultTransport when nil). It is pinned
// unless WithUnpinned is given; errors are *Error (NEN_BAD_SERVER_KEY, NEN_BAD_INPUT).
func NewTransport(base http.RoundTripper, opts ...Option) (*Transport, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = http.DefaultTransport
	}
	t := &Transport{cfg: cfg, base: base, sessions: &sessions{cfg: cfg, base: base}}
	if cfg.baseURL != nil {
		t.origin = cfg.baseURL.String()
	}
	return t, nil
}

// bindOrigin returns the session origin, binding the first request's when none is set.
func (t *Transport) bindOrigin(scheme, host string) (string, error) {
	o := scheme + "://" + host
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.origin == "" {
		t.origin = o
	}
	if !strings.EqualFold(t.origin, o) {
		return "", newError(CodeBadInput, "this transport's session belongs to "+t.origin+", not "+o, nil)
	}
	return o, nil
}

// Handshake starts a fresh handshake now, replacing the current session. Without WithBaseURL it
// needs a request to have bound the origin first.
func (t *Transport) Handshake(ctx context.Context) (SessionInfo, error) {
	t.mu.Lock()
	o := t.origin
	t.mu.Unlock()
	if o == "" {
		return SessionInfo{}, newError(CodeBadInput, "no origin yet: use WithBaseURL", nil)
	}
	s, err := t.sessions.ensure(ctx, o, true)
	if err != nil {
		return SessionInfo{}, err
	}
	return s.info(), nil
}

// Session describes the current session, if any.
func (t *Transport) Session() (SessionInfo, bool) {
	if s := t.sessions.current(); s != nil {
		return s.info(), true
	}
	return SessionInfo{}, false
}

// Close drops the session (no network call); the next request handshakes again.
func (t *Transport) Close() {
	if s := t.sessions.current(); s != nil {
		t.sessions.invalidate(s)
	}
}

// prepare reads and checks the application's request once.
func (t *Transport) prepare(req *http.Request) (*prepared, error) {
	if req.URL == nil || (req.URL.Scheme != "http" && req.URL.Scheme != "https") || req.URL.Host == "" {
		return nil, newError(CodeBadInput, "the request URL must be an absolute http(s) URL", nil)
	}
	p := &prepared{method: strings.ToUpper(req.Method), path: preparePath(req.URL), rawQuery: wireQuery(req.URL.RawQuery)}
	if p.method == "" {
		p.method = "GET"
	}
	if len(p.rawQuery) > 65535 && t.cfg.confidential {
		return nil, newError(CodeBadInput, "a confidential query is at most 65535 bytes", nil)
	}
	p.contentType = req.Header.Get("Content-Type")
	if t.cfg.streamUploads && req.Body != nil && req.Body != http.NoBody && req.ContentLength <= 0 && !bodyless(p.method) {
		if t.cfg.confidential && p.rawQuery != "" {
			return nil, newError(CodeBadInput, "a confidential query cannot go with a streamed body", nil)
		}
		p.upload = req.Body // sealed as it is read (./upload.go); closed by the base transport
	} else if req.Body != nil && req.Body != http.NoBody {
		b, err := readBounded(req.Body, req.ContentLength, t.cfg.maxRequest)
		req.Body.Close()
		if err != nil {
			return nil, newError(CodeBadInput, "cannot read the request body", err)
		}
		if int64(len(b)) > t.cfg.maxRequest {
			return nil, newError(CodeBadInput, "the request body is larger than WithMaxRequestBytes", nil)
		}
		if len(b) > 0 && bodyless(p.method) {
			return nil, newError(CodeBadInput, p.method+" requests cannot have a body", nil)
		}
		if len(b) > 0 {
			p.body = b
		}
	}
	// The AAD's lp() fields hold at most 65535 bytes; the canonical query is at most 9 times the
	// raw one (one ill-formed byte becomes %EF%BF%BD), so it is computed only when it may be long.
	long := len(p.path) > 65535
	if !(t.cfg.confidential && p.rawQuery != "") && len(p.path)+9*len(p.rawQuery) > 65535 {
		long = len(p.canonical()) > 65535
	}
	if len(p.contentType) > 256 || long {
		return nil, newError(CodeBadInput, "content type (256 bytes) or request target (65535 bytes) too long", nil)
	}
	return p, nil
}

// readBounded reads r (of announced length n, -1 when unknown) up to limit+1 bytes, into one
// buffer of the exact size when the length is announced.
func readBounded(r io.Reader, n, limit int64) ([]byte, error) {
	if n < 0 || n > limit {
		return io.ReadAll(io.LimitReader(r, limit+1))
	}
	b := make([]byte, n, n+1)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	// A body longer than announced: read on (bounded) so that the limit still holds.
	var one [1]byte
	if k, _ := r.Read(one[:]); k > 0 {
		rest, err := io.ReadAll(io.LimitReader(r, limit-n))
		return append(append(b, one[0]), rest...), err
	}
	return b, nil
}
