// The OHTTP Date retry against the real gateway (bench/ohttp/server.mjs): a client clock 5 min
// behind is re-sent once and then stays corrected; 5 min ahead is not re-sent (NEN_OHTTP_DATE)
// but corrected for the next request; 2 h ahead gets no gateway Date: no retry, no correction.

package nen

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestObliviousTransportDateRetry(t *testing.T) {
	base, kc := startOHTTPGateway(t)
	cfg, err := ParseKeyConfig(kc)
	if err != nil {
		t.Fatal(err)
	}
	gw := base + "/.well-known/ohttp-gateway"
	type step struct {
		code  string // "" = 200 with the body echoed
		posts int32
	}
	for _, tc := range []struct {
		name    string
		skew    time.Duration
		chunked bool
		steps   []step
	}{
		{"behind: re-sent once, then corrected", -5 * time.Minute, false, []step{{"", 2}, {"", 1}}},
		{"behind, chunked", -5 * time.Minute, true, []step{{"", 2}, {"", 1}}},
		{"ahead: not re-sent, corrected for the next", 5 * time.Minute, false, []step{{"NEN_OHTTP_DATE", 1}, {"", 1}}},
		{"over 1 h ahead: no gateway Date, no correction", 2 * time.Hour, false, []step{{"NEN_OHTTP_DATE", 1}, {"NEN_OHTTP_DATE", 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			counter := &countingTransport{}
			o := NewObliviousTransport(gw, cfg, counter)
			o.Chunked = tc.chunked
			o.now = func() time.Time { return time.Now().Add(tc.skew) }
			for i, s := range tc.steps {
				counter.n.Store(0)
				status, got, err := fetchAll(o, "http://app.example/api/echo", `"dated"`)
				if s.code == "" && (err != nil || status != 200 || got != `"dated"`) {
					t.Fatalf("step %d: got %d %q %v", i, status, got, err)
				}
				if s.code != "" && codeOf(err) != s.code {
					t.Fatalf("step %d: want %s, got %v", i, s.code, err)
				}
				if n := counter.n.Load(); n != s.posts {
					t.Fatalf("step %d: %d requests to the gateway, want %d", i, n, s.posts)
				}
			}
			if off := time.Duration(o.skew.Load()); tc.skew < time.Hour && (off+tc.skew).Abs() > 5*time.Second {
				t.Fatalf("learnt skew %v for a clock off by %v", off, tc.skew)
			}
			if tc.skew >= time.Hour && o.skew.Load() != 0 {
				t.Fatal("a refusal without the gateway Date must not move the clock")
			}
		})
	}
}
