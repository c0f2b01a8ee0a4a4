// Forged and tampered answers, made by a reverse proxy in front of the real server after the
// handler ran: the client never returns an unauthenticated body and never runs a request twice.
// Pitfall: the proxy counts only /api/echo answers (handshakes pass untouched).

package nen

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// faultProxy forwards to the real server and lets fault rewrite the n-th answer to /api/echo
// (n counts from 1) after the handler ran; handshakes pass untouched.
func faultProxy(t *testing.T, base string, fault func(n int, res *http.Response)) string {
	u, _ := url.Parse(base)
	var n atomic.Int32
	p := httputil.NewSingleHostReverseProxy(u)
	p.ModifyResponse = func(res *http.Response) error {
		if strings.HasSuffix(res.Request.URL.Path, "/api/echo") {
			fault(int(n.Add(1)), res)
		}
		return nil
	}
	s := httptest.NewServer(p)
	t.Cleanup(s.Close)
	return s.URL
}

// forge replaces res by an unauthenticated protocol error.
func forge(res *http.Response, status int, code string) {
	body := `{"error":{"code":"` + code + `","message":"nen: forged"}}`
	res.StatusCode = status
	res.Header = http.Header{"Content-Type": {"application/json"}, "Nen-Error": {code}}
	res.Body = io.NopCloser(strings.NewReader(body))
	res.ContentLength = int64(len(body))
}

func TestFaults(t *testing.T) {
	base := startServer(t)
	cases := []struct {
		name  string
		fault func(n int, res *http.Response)
		code  string
		cause string
	}{
		{"forged 401 once after the handler ran: the retry finds the original committed", func(n int, res *http.Response) {
			if n == 1 {
				forge(res, 401, "NEN_SESSION_UNKNOWN")
			}
		}, CodeRetryCommitted, ""},
		{"forged 401 on the retry too: outcome unknown", func(_ int, res *http.Response) { forge(res, 401, "NEN_SESSION_EXPIRED") }, CodeOutcomeUnknown, "NEN_SESSION_EXPIRED"},
		{"forged 500: never retried", func(_ int, res *http.Response) { forge(res, 500, "NEN_INTERNAL") }, "NEN_INTERNAL", ""},
		{"code whose status does not match the catalog", func(_ int, res *http.Response) { forge(res, 502, "NEN_SESSION_UNKNOWN") }, CodeResponseUnauthenticated, ""},
		{"one flipped body byte", func(_ int, res *http.Response) {
			b, _ := io.ReadAll(res.Body)
			b[len(b)-1] ^= 1
			res.Body = io.NopCloser(bytes.NewReader(b))
		}, CodeResponseUnauthenticated, ""},
		{"status changed", func(_ int, res *http.Response) { res.StatusCode = 203 }, CodeResponseUnauthenticated, ""},
		{"nen-type changed", func(_ int, res *http.Response) { res.Header.Set("Nen-Type", "text/html") }, CodeResponseUnauthenticated, ""},
		{"plain answer (downgrade)", func(_ int, res *http.Response) { res.Header.Del("Nen") }, CodeResponseUnauthenticated, ""},
		{"compressed flag not asked for", func(_ int, res *http.Response) { res.Header.Set("Nen", "1.1") }, CodeResponseUnauthenticated, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			front := faultProxy(t, base, c.fault)
			client, _ := newClient(t, front)
			_, err := client.Post(front+"/api/echo", "text/plain", strings.NewReader("x"))
			var e *Error
			if CodeOf(err) != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			if c.cause != "" && (!errors.As(err, &e) || CodeOf(e.Cause) != c.cause) {
				t.Fatalf("cause of %v, want %s", err, c.cause)
			}
		})
	}
}

func TestStreamFaultsOnTheWire(t *testing.T) {
	base := startServer(t)
	cut := func(keep int) func(int, *http.Response) {
		return func(_ int, res *http.Response) {
			b, _ := io.ReadAll(res.Body)
			res.Body = io.NopCloser(bytes.NewReader(b[:len(b)-keep]))
			res.ContentLength = -1
		}
	}
	u, _ := url.Parse(base)
	p := httputil.NewSingleHostReverseProxy(u)
	var mode atomic.Int32
	p.ModifyResponse = func(res *http.Response) error {
		if strings.HasSuffix(res.Request.URL.Path, "/api/stream") {
			cut(int(mode.Load()))(0, res)
		}
		return nil
	}
	s := httptest.NewServer(p)
	defer s.Close()
	client, _ := newClient(t, s.URL)
	for _, c := range []struct {
		drop int
		code string
	}{{20, CodeStreamTruncated}, {1, CodeStreamTruncated}, {0, ""}} {
		mode.Store(int32(c.drop))
		res, err := client.Post(s.URL+"/api/stream?n=3", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if CodeOf(err) != c.code || (c.code == "" && !strings.HasSuffix(string(b), "[DONE]\n\n")) {
			t.Fatalf("drop %d: %v (%q)", c.drop, err, b)
		}
	}
}

func TestStreamedUploadIsNeverRetried(t *testing.T) {
	base := startServer(t)
	front := faultProxy(t, base, func(_ int, res *http.Response) { forge(res, 401, "NEN_SESSION_UNKNOWN") })
	client, _ := newClient(t, front, WithPins(testPin), WithStreamedUploads(true))
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte("once")); pw.Close() }()
	req, _ := http.NewRequest("POST", front+"/api/echo", pr)
	_, err := client.Do(req)
	var e *Error
	if CodeOf(err) != CodeOutcomeUnknown || !errors.As(err, &e) || CodeOf(e.Cause) != "NEN_SESSION_UNKNOWN" {
		t.Fatalf("got %v", err)
	}
}
