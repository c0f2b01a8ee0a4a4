// The OHTTP mode against a real gateway: bench/ohttp/server.mjs (@nen/server's nen.ohttpGateway
// in front of a withNen echo) started on 127.0.0.1: a round trip, a tampered and a swapped
// answer (NEN_OHTTP_DECRYPT), a rewritten key id (refused by the gateway before any handler: an
// unauthenticated hint, NEN_OHTTP_KEY_UNKNOWN at its catalogued 400), bad key configs.

package nen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func startOHTTPGateway(t *testing.T) (string, []byte) {
	t.Helper()
	node, err := exec.LookPath("node")
	server := filepath.Join(repoRoot, "bench/ohttp/server.mjs")
	if _, serr := os.Stat(filepath.Join(repoRoot, "packages/server/dist/index.js")); err != nil || serr != nil {
		if os.Getenv("NEN_REQUIRE_SERVER") == "1" {
			t.Fatal("node or the @nen/server build is missing")
		}
		t.Skip("node or the @nen/server build is missing")
	}
	cmd := exec.Command(node, "ohttp/server.mjs")
	cmd.Dir = filepath.Join(repoRoot, "bench")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("%s did not start: %v", server, err)
	}
	var ready struct {
		Port      int    `json:"port"`
		KeyConfig string `json:"keyConfig"`
	}
	if err := json.Unmarshal([]byte(line), &ready); err != nil {
		t.Fatal(err)
	}
	kc, err := b64.DecodeString(ready.KeyConfig)
	if err != nil {
		t.Fatal(err)
	}
	return "http://127.0.0.1:" + strconv.Itoa(ready.Port), kc
}

type rewriter func(req []byte, res []byte) ([]byte, []byte)

type tamperTransport struct{ f rewriter }

func (t tamperTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(r.Body)
	body, _ = t.f(body, nil)
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	res, err := http.DefaultTransport.RoundTrip(r2)
	if err != nil {
		return nil, err
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	_, answer = t.f(nil, answer)
	res.Body = io.NopCloser(bytes.NewReader(answer))
	return res, nil
}

func codeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestObliviousTransport(t *testing.T) {
	base, kc := startOHTTPGateway(t)
	cfg, err := ParseKeyConfig(kc)
	if err != nil {
		t.Fatal(err)
	}
	gw := base + "/.well-known/ohttp-gateway"
	post := func(rt http.RoundTripper) (*http.Response, error) {
		c := &http.Client{Transport: NewObliviousTransport(gw, cfg, rt)}
		return c.Post("http://app.example/api/echo", "application/json", strings.NewReader(`{"go":1}`))
	}
	res, err := post(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(b) != `{"go":1}` {
		t.Fatalf("got %d %q", res.StatusCode, b)
	}

	flip := tamperTransport{func(req, res []byte) ([]byte, []byte) {
		if res != nil {
			res[len(res)-1] ^= 1
		}
		return req, res
	}}
	if _, err := post(flip); codeOf(err) != "NEN_OHTTP_DECRYPT" {
		t.Fatalf("tampered answer: %v", err)
	}
	var last []byte
	swap := tamperTransport{func(req, res []byte) ([]byte, []byte) {
		if res != nil {
			if last == nil {
				last = append([]byte{}, res...)
			} else {
				res = last
			}
		}
		return req, res
	}}
	if _, err := post(swap); err != nil {
		t.Fatal(err)
	}
	if _, err := post(swap); codeOf(err) != "NEN_OHTTP_DECRYPT" {
		t.Fatalf("swapped answer: %v", err)
	}
	keyID := tamperTransport{func(req, res []byte) ([]byte, []byte) {
		if req != nil {
			req[0] ^= 0x55
		}
		return req, res
	}}
	// refused before decapsulation: an unauthenticated 400 problem, only a hint to the client
	if _, err := post(keyID); codeOf(err) != "NEN_OHTTP_KEY_UNKNOWN" {
		t.Fatalf("rewritten key id: %v", err)
	}
}

func TestParseKeyConfigRefusesBadConfigs(t *testing.T) {
	x25519 := append([]byte{1, 0, 0x20}, make([]byte, 32)...)
	x25519 = append(x25519, 0, 4, 0, 1, 0, 3)
	for name, b := range map[string][]byte{"empty": nil, "x25519": x25519, "truncated": {1, 0x64, 0x7a, 0}} {
		if _, err := ParseKeyConfig(b); codeOf(err) != "NEN_OHTTP_BAD_KEY_CONFIG" {
			t.Errorf("%s: %v", name, err)
		}
	}
}
