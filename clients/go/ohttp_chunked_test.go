// Chunked OHTTP against a real gateway (bench/ohttp/server.mjs: @nen/server's nen.ohttpGateway):
// a round trip with a body over several request chunks; a streamed answer read incrementally
// (the handler waits for /ticks/release after its first piece, so the test only gets the rest
// if it read that piece first); a relay cutting the answer (final chunk dropped, a chunk cut
// short: NEN_OHTTP_TRUNCATED), flipping a byte of a chunk or dropping one (NEN_OHTTP_DECRYPT).

package nen

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// chunkFrames splits a chunked OHTTP response body: the offsets of its non-final chunks and of
// the final chunk's 0 length.
func chunkFrames(t *testing.T, b []byte) (starts []int, final int) {
	t.Helper()
	r := bytes.NewReader(b[ohttpResponseNonce:])
	for {
		at := len(b) - r.Len()
		n, err := readVarint(r)
		if err != nil {
			t.Fatalf("answer without a final chunk: %v", err)
		}
		if n == 0 {
			return starts, at
		}
		starts = append(starts, at)
		if _, err := r.Seek(int64(n), io.SeekCurrent); err != nil {
			t.Fatal(err)
		}
	}
}

// fetchAll is a POST through the transport and its whole body: the first error, from RoundTrip or from reading.
func fetchAll(rt *ObliviousTransport, url, body string) (int, string, error) {
	res, err := (&http.Client{Transport: rt}).Post(url, "application/octet-stream", strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

func TestObliviousTransportChunked(t *testing.T) {
	base, kc := startOHTTPGateway(t)
	cfg, err := ParseKeyConfig(kc)
	if err != nil {
		t.Fatal(err)
	}
	gw := base + "/.well-known/ohttp-gateway"
	chunked := func(rt http.RoundTripper) *ObliviousTransport {
		o := NewObliviousTransport(gw, cfg, rt)
		o.Chunked = true
		return o
	}

	t.Run("round trip, a 100 KB body in several request chunks", func(t *testing.T) {
		big := strings.Repeat("nen-", 25_000)
		status, got, err := fetchAll(chunked(nil), "http://app.example/api/echo", big)
		if err != nil || status != 200 || got != big {
			t.Fatalf("got %d, %d bytes, %v", status, len(got), err)
		}
	})

	t.Run("a streamed answer is read incrementally, the end verified", func(t *testing.T) {
		res, err := (&http.Client{Transport: chunked(nil)}).Post("http://app.example/api/ticks", "text/plain", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		r := bufio.NewReader(res.Body)
		first, err := r.ReadString('\n')
		if err != nil || first != "tick 1\n" {
			t.Fatalf("first piece: %q %v", first, err)
		}
		// only now may the handler go on: had the transport waited for the end, it would read "timeout"
		rel, err := http.Post(base+"/ticks/release", "text/plain", nil)
		if err != nil {
			t.Fatal(err)
		}
		rel.Body.Close()
		rest, err := io.ReadAll(r)
		if err != nil || string(rest) != "tick 2\ntick 3\n" {
			t.Fatalf("rest: %q %v", rest, err)
		}
	})

	cases := []struct {
		name, code string
		cut        func(t *testing.T, b []byte) []byte
	}{
		{"final chunk dropped", "NEN_OHTTP_TRUNCATED", func(t *testing.T, b []byte) []byte {
			_, final := chunkFrames(t, b)
			return b[:final]
		}},
		{"a chunk cut short", "NEN_OHTTP_TRUNCATED", func(t *testing.T, b []byte) []byte {
			starts, _ := chunkFrames(t, b)
			return b[:starts[len(starts)-1]+4]
		}},
		{"nothing after the response nonce", "NEN_OHTTP_TRUNCATED", func(t *testing.T, b []byte) []byte {
			return b[:ohttpResponseNonce]
		}},
		{"a flipped byte in a chunk", "NEN_OHTTP_DECRYPT", func(t *testing.T, b []byte) []byte {
			starts, _ := chunkFrames(t, b)
			b[starts[len(starts)-1]+3] ^= 1
			return b
		}},
		{"a chunk dropped", "NEN_OHTTP_DECRYPT", func(t *testing.T, b []byte) []byte {
			starts, final := chunkFrames(t, b)
			last := starts[len(starts)-1]
			return append(append([]byte{}, b[:last]...), b[final:]...)
		}},
		{"the final chunk flipped", "NEN_OHTTP_DECRYPT", func(t *testing.T, b []byte) []byte {
			b[len(b)-1] ^= 1
			return b
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			relay := tamperTransport{func(req, res []byte) ([]byte, []byte) {
				if res != nil {
					res = tc.cut(t, res)
				}
				return req, res
			}}
			done := make(chan error, 1)
			go func() {
				_, _, err := fetchAll(chunked(relay), "http://app.example/api/echo", strings.Repeat("x", 3000))
				done <- err
			}()
			select {
			case err := <-done:
				if codeOf(err) != tc.code {
					t.Fatalf("want %s, got %v", tc.code, err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("no answer within 20 s")
			}
		})
	}
}
