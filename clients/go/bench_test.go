// In-process benchmarks of the client's own work per request (go test -bench Echo): an echo
// stand-in seals the answers, so no network or server CPU is measured. Pitfall: wall-clock
// ns/op on a loaded machine; cmd/nen-bench is the CPU comparison with net/http.

package nen

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// echoServer is an in-process stand-in for the server's sealing (no network, no handshake):
// it answers each request with a 200 sealed echo of its record under the session's keys, so
// that a benchmark measures the client's own work per request.
type echoServer struct{ s *session }

func (e *echoServer) RoundTrip(req *http.Request) (*http.Response, error) {
	b, _ := io.ReadAll(req.Body)
	v := req.Header.Get("nen")
	f := strings.Split(v, ".")
	seq, _ := strconv.ParseUint(f[3], 10, 64)
	ct := req.Header.Get("nen-type")
	aad := responseAAD(&e.s.sid, e.s.epoch, seq, 200, 0, ct)
	n := nonce(&e.s.keys.s2cIV, 0, seq)
	sealed := e.s.keys.s2c.Seal(nil, n[:], b[:len(b)-tagLen], aad) // echo: the record's length is the plaintext's + 16
	h := http.Header{"Content-Type": {"application/nen"}, "Nen": {"1.0"}, "Nen-Type": {ct}}
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: h, Body: io.NopCloser(bytes.NewReader(sealed)), ContentLength: int64(len(sealed)), Request: req}, nil
}

func benchTransport(b *testing.B) *Transport {
	keys, _ := newEpochKeys(bytes.Repeat([]byte{1}, 32))
	s := &session{keys: keys, seq: newSequencer(), expiresAt: time.Now().Add(time.Hour), kem: kemXWing}
	s.sidStr = b64.EncodeToString(s.sid[:])
	cfg, _ := buildConfig([]Option{WithUnpinned("xwing")})
	t := &Transport{cfg: cfg, base: &echoServer{s: s}, origin: "http://x"}
	t.sessions = &sessions{cfg: cfg, base: t.base, cur: s}
	return t
}

func benchmarkEcho(b *testing.B, size int) {
	t := benchTransport(b)
	c := &http.Client{Transport: t}
	body := bytes.Repeat([]byte("a"), size)
	b.ReportAllocs()
	b.SetBytes(int64(size))
	for b.Loop() {
		req, _ := http.NewRequestWithContext(context.Background(), "POST", "http://x/api/echo", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/octet-stream")
		res, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

// BenchmarkEcho1KB and BenchmarkEcho100KB: the client's CPU per request without the network
// (sealing, opening, headers, flow control); cmd/nen-bench measures it against net/http.
func BenchmarkEcho1KB(b *testing.B)   { benchmarkEcho(b, 1024) }
func BenchmarkEcho100KB(b *testing.B) { benchmarkEcho(b, 100<<10) }
