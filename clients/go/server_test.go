// The test server: the repository's Hono target started once per configuration on 127.0.0.1.
// Pitfall: it is stopped in TestMain; a missing Node or server build skips, or fails when
// NEN_REQUIRE_SERVER=1 (the suite).

package nen

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The integration tests run against the real @nen/server: the repository's Hono bench target
// (bench/targets/hono.mjs) started by the test on a free 127.0.0.1 port with a fixed test key
// (the worked example's seed, kid k1). NEN_REQUIRE_SERVER=1 (the suite) turns a missing Node or
// server build into a failure instead of a skip.

const (
	testServerKeys = "k1:AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA"
	repoRoot       = "../.."
)

// testPin is the pin of testServerKeys, derived from its seed.
var testPin = pinOfSeed("k1", "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA")

func pinOfSeed(kid, seed string) string {
	raw, err := b64.DecodeString(seed)
	if err != nil {
		panic(err)
	}
	sk, err := kemOf(kemXWing).NewPrivateKey(raw)
	if err != nil {
		panic(err)
	}
	return kid + ":" + b64.EncodeToString(sk.PublicKey().Bytes())
}

type testServer struct {
	url  string
	cmd  *exec.Cmd
	done chan struct{}
}

var (
	serversMu sync.Mutex
	servers   = map[string]*testServer{}
)

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startServer returns the Hono target started with env (one per distinct env, shared by tests).
func startServer(t testing.TB, env ...string) string {
	t.Helper()
	key := fmt.Sprint(env)
	serversMu.Lock()
	defer serversMu.Unlock()
	if s := servers[key]; s != nil {
		return s.url
	}
	target := filepath.Join(repoRoot, "bench", "targets", "hono.mjs")
	dist := filepath.Join(repoRoot, "packages", "server", "dist", "index.js")
	node, err := exec.LookPath("node")
	_, distErr := os.Stat(dist)
	if err != nil || distErr != nil {
		if os.Getenv("NEN_REQUIRE_SERVER") == "1" {
			t.Fatalf("node or the built @nen/server is missing (node: %v, %s: %v)", err, dist, distErr)
		}
		t.Skip("node or the built @nen/server is missing: build the repository (pnpm turbo run build) to run the integration tests")
	}
	port := freePort(t)
	cmd := exec.Command(node, target, "--port", fmt.Sprint(port))
	cmd.Env = append(os.Environ(), append([]string{"NEN_SERVER_KEYS=" + testServerKeys, "NEN_LOG=silent", "NEN_HANDSHAKE_RATE=0"}, env...)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &testServer{url: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(s.url + "/api/nen/keys")
		if err == nil {
			res.Body.Close()
			break
		}
		select {
		case <-s.done:
			t.Fatalf("the test server exited: %v", cmd.ProcessState)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the test server did not start within 20 s")
		}
	}
	servers[key] = s
	return s.url
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range servers {
		s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			s.cmd.Process.Kill()
		}
	}
	os.Exit(code)
}

// newClient is an http.Client over a pinned transport to base.
func newClient(t testing.TB, base string, opts ...Option) (*http.Client, *Transport) {
	t.Helper()
	if len(opts) == 0 {
		opts = []Option{WithPins(testPin)}
	}
	tr, err := NewTransport(&http.Transport{MaxIdleConnsPerHost: 64}, append([]Option{WithBaseURL(base)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: tr}, tr
}

func ctxTimeout(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
