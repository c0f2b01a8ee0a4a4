// Real traffic against the real @nen/server (./server_test.go starts it): each method and the
// query, streams read incrementally, uploads, pins, concurrency on one session, expiry.

package nen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func do(t *testing.T, c *http.Client, method, url, ctype, body string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctxTimeout(t), method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func TestEachMethodAndQuery(t *testing.T) {
	base := startServer(t)
	c, tr := newClient(t, base)
	res, b := do(t, c, "GET", base+"/api/echo?q=a%20b&t=~x&u=%C3%A9", "", "")
	if res.StatusCode != 200 || string(b) != `{"method":"GET","path":"/api/echo","query":{"q":"a b","t":"~x","u":"é"}}` {
		t.Fatalf("GET: %d %s", res.StatusCode, b)
	}
	res, b = do(t, c, "HEAD", base+"/api/echo", "", "")
	if res.StatusCode != 200 || len(b) != 0 {
		t.Fatalf("HEAD: %d %q", res.StatusCode, b)
	}
	res, b = do(t, c, "POST", base+"/api/notes", "application/json", `{"title":"hello","body":"x"}`)
	var created struct{ Note struct{ ID, Title string } }
	if res.StatusCode != 201 || json.Unmarshal(b, &created) != nil || created.Note.Title != "hello" {
		t.Fatalf("POST: %d %s", res.StatusCode, b)
	}
	if res.Header.Get("Content-Type") != "application/json" || res.Header.Get("Nen") != "" {
		t.Fatalf("response headers: %v", res.Header)
	}
	id := created.Note.ID
	res, b = do(t, c, "PUT", base+"/api/notes/"+id, "application/json", `{"title":"renamed"}`)
	if res.StatusCode != 200 || !strings.Contains(string(b), `"renamed"`) {
		t.Fatalf("PUT: %d %s", res.StatusCode, b)
	}
	res, b = do(t, c, "DELETE", base+"/api/notes/"+id, "", "")
	if res.StatusCode != 200 || string(b) != `{"deleted":true}` {
		t.Fatalf("DELETE: %d %s", res.StatusCode, b)
	}
	res, b = do(t, c, "GET", base+"/api/notes/"+id, "", "")
	if res.StatusCode != 404 { // a sealed 404 from the handler is an ordinary answer
		t.Fatalf("GET after DELETE: %d %s", res.StatusCode, b)
	}
	res, b = do(t, c, "POST", base+"/api/echo", "", "")
	if res.StatusCode != 204 || len(b) != 0 {
		t.Fatalf("empty POST: %d %q", res.StatusCode, b)
	}
	big := strings.Repeat("0123456789abcdef", 100<<10/16)
	res, b = do(t, c, "POST", base+"/api/echo", "text/plain", big)
	if res.StatusCode != 200 || string(b) != big {
		t.Fatalf("100 KB echo: %d, %d bytes", res.StatusCode, len(b))
	}
	if s, ok := tr.Session(); !ok || !s.Pinned || s.KeyID != "k1" || s.KEM != "xwing" {
		t.Fatalf("session %+v", s)
	}
}

func TestStreamIsReadIncrementally(t *testing.T) {
	base := startServer(t)
	c, _ := newClient(t, base)
	req, _ := http.NewRequestWithContext(ctxTimeout(t), "POST", base+"/api/stream?n=5&delay=30", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", res.Header.Get("Content-Type"))
	}
	buf := make([]byte, 4096)
	n, err := res.Body.Read(buf) // the first token arrives before the stream is complete
	if err != nil || !strings.HasPrefix(string(buf[:n]), `data: {"i":0`) {
		t.Fatalf("first read %q %v", buf[:n], err)
	}
	rest, err := io.ReadAll(res.Body)
	if err != nil || !strings.Contains(string(rest), `"i":4`) || !strings.HasSuffix(string(rest), "data: [DONE]\n\n") {
		t.Fatalf("rest %q %v", rest, err)
	}
}

func TestConfidentialQueryAndCompression(t *testing.T) {
	base := startServer(t)
	c, _ := newClient(t, base, WithPins(testPin), WithConfidentialQuery(true), WithCompression(true))
	res, b := do(t, c, "GET", base+"/api/echo?secret=a%20b&x=1", "", "")
	if res.StatusCode != 200 || string(b) != `{"method":"GET","path":"/api/echo","query":{"secret":"a b","x":"1"}}` {
		t.Fatalf("GET: %d %s", res.StatusCode, b)
	}
	body := strings.Repeat(`{"k":"compressible"}`, 500)
	res, b = do(t, c, "POST", base+"/api/echo", "application/json", body)
	if res.StatusCode != 200 || string(b) != body {
		t.Fatalf("compressed echo: %d %d bytes", res.StatusCode, len(b))
	}
}

func TestUnpinnedMLKEM768(t *testing.T) {
	base := startServer(t)
	c, tr := newClient(t, base, WithUnpinned("mlkem768"))
	if res, b := do(t, c, "POST", base+"/api/echo", "text/plain", "hi"); res.StatusCode != 200 || string(b) != "hi" {
		t.Fatalf("%d %s", res.StatusCode, b)
	}
	if s, _ := tr.Session(); s.Pinned || s.KEM != "mlkem768" || s.KeyID != "" {
		t.Fatalf("session %+v", s)
	}
}

func TestPins(t *testing.T) {
	base := startServer(t)
	other := pinOfSeed("k1", "ISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0-P0A")
	c, _ := newClient(t, base, WithPins(other))
	_, err := c.Post(base+"/api/echo", "text/plain", strings.NewReader("x"))
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeHandshakeFailed {
		t.Fatalf("wrong key under k1: %v", err)
	}
	c, tr := newClient(t, base, WithPins(strings.Replace(other, "k1:", "k9:", 1), testPin))
	if res, b := do(t, c, "POST", base+"/api/echo", "text/plain", "x"); res.StatusCode != 200 || string(b) != "x" {
		t.Fatalf("fallback: %d %s", res.StatusCode, b)
	}
	if s, _ := tr.Session(); s.KeyID != "k1" {
		t.Fatalf("fallback session %+v", s)
	}
	if _, err := NewTransport(nil); CodeOf(err) != CodeBadServerKey {
		t.Fatalf("unpinned by default: %v", err)
	}
	if _, err := NewTransport(nil, WithPins("k1:AAAA")); CodeOf(err) != CodeBadServerKey {
		t.Fatalf("bad pin: %v", err)
	}
}

func TestConcurrentRequestsShareOneSession(t *testing.T) {
	base := startServer(t)
	c, tr := newClient(t, base)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 8; i++ {
				msg := strings.Repeat("x", g*10+i)
				res, err := c.Post(base+"/api/echo", "text/plain", strings.NewReader(msg))
				if err != nil {
					errs <- err
					return
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if msg != "" && string(b) != msg {
					errs <- errors.New("wrong echo")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	first, _ := tr.Session()
	do(t, c, "POST", base+"/api/echo", "text/plain", "y")
	if s, _ := tr.Session(); s.ID != first.ID || tr.sessions.current().seq.pending() != 0 {
		t.Fatalf("one session expected, and no sequence number left in flight")
	}
}

func TestIdleExpiryRehandshakesAndRetries(t *testing.T) {
	base := startServer(t, "NEN_IDLE_TIMEOUT=1")
	c, tr := newClient(t, base)
	do(t, c, "POST", base+"/api/echo", "text/plain", "one")
	first, _ := tr.Session()
	time.Sleep(1300 * time.Millisecond)
	res, b := do(t, c, "POST", base+"/api/echo", "text/plain", "two")
	second, _ := tr.Session()
	if res.StatusCode != 200 || string(b) != "two" || second.ID == first.ID {
		t.Fatalf("after idle expiry: %d %s, sessions %s %s", res.StatusCode, b, first.ID, second.ID)
	}
}

func TestContextAndBadInput(t *testing.T) {
	base := startServer(t)
	c, _ := newClient(t, base)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/echo", strings.NewReader("x"))
	_, err := c.Do(req)
	if CodeOf(err) != CodeAborted || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
	req, _ = http.NewRequest("GET", base+"/api/echo", bytes.NewReader([]byte("body")))
	if _, err := c.Do(req); CodeOf(err) != CodeBadInput {
		t.Fatalf("GET with a body: %v", err)
	}
	if _, err := c.Get("http://127.0.0.2:1/api/echo"); CodeOf(err) != CodeBadInput {
		t.Fatalf("another origin: %v", err)
	}
}

func TestSessionRenewedBeforeExpiry(t *testing.T) {
	base := startServer(t, "NEN_SESSION_TTL=3")
	c, tr := newClient(t, base)
	do(t, c, "POST", base+"/api/echo", "text/plain", "one")
	first, _ := tr.Session()
	if time.Until(first.ExpiresAt) > 3*time.Second {
		t.Fatalf("granted more than the server maximum: %v", first.ExpiresAt)
	}
	time.Sleep(1100 * time.Millisecond) // less than 2 s left: the next request handshakes first
	do(t, c, "POST", base+"/api/echo", "text/plain", "two")
	if second, _ := tr.Session(); second.ID == first.ID {
		t.Fatal("the session was not renewed ahead of its expiry")
	}
}

func TestStreamedUpload(t *testing.T) {
	base := startServer(t)
	c, _ := newClient(t, base, WithPins(testPin), WithStreamedUploads(true))
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < 3; i++ {
			pw.Write([]byte(strings.Repeat(string(rune('a'+i)), 30000)))
			time.Sleep(10 * time.Millisecond)
		}
		pw.Close()
	}()
	req, _ := http.NewRequestWithContext(ctxTimeout(t), "POST", base+"/api/echo", pr)
	req.Header.Set("Content-Type", "application/octet-stream")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	want := strings.Repeat("a", 30000) + strings.Repeat("b", 30000) + strings.Repeat("c", 30000)
	if err != nil || res.StatusCode != 200 || string(b) != want {
		t.Fatalf("streamed upload echo: %d, %d bytes, %v", res.StatusCode, len(b), err)
	}
	// A body the application breaks off: the server never gets a final record.
	pr, pw = io.Pipe()
	go func() {
		pw.Write([]byte("partial"))
		pw.CloseWithError(errors.New("the application gave up"))
	}()
	req, _ = http.NewRequestWithContext(ctxTimeout(t), "POST", base+"/api/echo", pr)
	if res, err := c.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("a broken-off upload was answered %d", res.StatusCode)
	}
}

func TestSessionActions(t *testing.T) {
	base := startServer(t)
	c, tr := newClient(t, base)
	ctx := ctxTimeout(t)
	if _, err := tr.Rotate(ctx); CodeOf(err) != CodeBadInput {
		t.Fatalf("rotate without a session: %v", err)
	}
	do(t, c, "POST", base+"/api/echo", "text/plain", "epoch 0")
	info, err := tr.Rotate(ctx)
	if err != nil || info.Epoch != 1 {
		t.Fatalf("rotate: %+v %v", info, err)
	}
	if res, b := do(t, c, "POST", base+"/api/echo", "text/plain", "epoch 1"); res.StatusCode != 200 || string(b) != "epoch 1" {
		t.Fatalf("after rotate: %d %s", res.StatusCode, b)
	}
	st, err := tr.Status(ctx)
	if err != nil || st["epoch"] != float64(1) || st["keyId"] != "k1" || st["kem"] != "xwing" || st["id"] != info.ID {
		t.Fatalf("status: %v %v", st, err)
	}
	if err := tr.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := tr.Session(); ok {
		t.Fatal("the session survived terminate")
	}
	do(t, c, "POST", base+"/api/echo", "text/plain", "new session")
	if s, _ := tr.Session(); s.ID == info.ID || s.Epoch != 0 {
		t.Fatalf("after terminate: %+v", s)
	}
}

func TestStreamCancelledMidway(t *testing.T) {
	base := startServer(t)
	c, tr := newClient(t, base)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/stream?n=50&delay=20", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	buf := make([]byte, 4096)
	if _, err := res.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = io.ReadAll(res.Body)
	if CodeOf(err) != CodeAborted || !errors.Is(err, context.Canceled) {
		t.Fatalf("read after cancel: %v", err)
	}
	if tr.sessions.current().seq.pending() != 0 {
		t.Fatal("a sequence number stayed in flight")
	}
	if res, b := do(t, c, "POST", base+"/api/echo", "text/plain", "still fine"); res.StatusCode != 200 || string(b) != "still fine" {
		t.Fatalf("after a cancelled stream: %d %s", res.StatusCode, b)
	}
}

func TestLimitsRefusedBeforeSending(t *testing.T) {
	base := startServer(t)
	c, _ := newClient(t, base, WithPins(testPin), WithMaxRequestBytes(1000))
	for name, req := range map[string]func() *http.Request{
		"body over WithMaxRequestBytes": func() *http.Request {
			r, _ := http.NewRequest("POST", base+"/api/echo", strings.NewReader(strings.Repeat("x", 1001)))
			return r
		},
		"nen-type over 256 bytes": func() *http.Request {
			r, _ := http.NewRequest("POST", base+"/api/echo", strings.NewReader("x"))
			r.Header.Set("Content-Type", "text/"+strings.Repeat("a", 260))
			return r
		},
		"request target over 65535 bytes": func() *http.Request {
			r, _ := http.NewRequest("GET", base+"/api/echo?q="+strings.Repeat("%FF", 8000), nil)
			return r
		},
	} {
		if _, err := c.Do(req()); CodeOf(err) != CodeBadInput {
			t.Errorf("%s: %v", name, err)
		}
	}
}
