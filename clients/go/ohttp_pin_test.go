// `sha256:` key config pins against the real gateway (bench/ohttp/server.mjs, @nen/server's
// nen.ohttpGateway): the config fetched from GET /.well-known/ohttp-gateway and pinned; an
// interposer on the way to the gateway substitutes the served list (another valid X-Wing config
// whose key it holds, one flipped public-key byte, an X25519 config, a non-ohttp-keys answer):
// NEN_OHTTP_KEY_MISMATCH with nothing posted; a stale pinned config (unknown key id) is refetched
// once after the gateway's NEN_OHTTP_KEY_UNKNOWN; malformed pins are NEN_BAD_INPUT.

package nen

import (
	"bytes"
	"crypto/hpke"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// xwingConfig encodes a Key Config for a fresh X-Wing key (HKDF-SHA256, ChaCha20-Poly1305).
func xwingConfig(t *testing.T, keyID byte) []byte {
	t.Helper()
	sk, err := hpke.MLKEM768X25519().GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	c := append([]byte{keyID, 0x64, 0x7a}, sk.PublicKey().Bytes()...)
	return append(c, 0, 4, 0, ohttpKDFSHA256, 0, ohttpChaCha)
}

func keysList(configs ...[]byte) []byte {
	var out []byte
	for _, c := range configs {
		out = binary.BigEndian.AppendUint16(out, uint16(len(c)))
		out = append(out, c...)
	}
	return out
}

// keysInterposer answers GETs with serve(n) (n: the GETs so far, from 1; nil passes the real
// answer through) and counts the POSTs that reach the gateway.
type keysInterposer struct {
	serve       func(n int32) []byte
	media       string
	gets, posts atomic.Int32
}

func (k *keysInterposer) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet {
		k.posts.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	}
	n := k.gets.Add(1)
	body := k.serve(n)
	if body == nil {
		return http.DefaultTransport.RoundTrip(r)
	}
	media := k.media
	if media == "" {
		media = ohttpKeysMedia
	}
	h := http.Header{"Content-Type": {media}}
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

func pinnedPost(t *testing.T, gw string, pins []string, rt http.RoundTripper) (*http.Response, error) {
	t.Helper()
	tr, err := NewPinnedObliviousTransport(gw, gw, pins, rt)
	if err != nil {
		t.Fatal(err)
	}
	return (&http.Client{Transport: tr}).Post("http://app.example/api/echo", "application/json", strings.NewReader(`{"pinned":1}`))
}

func TestPinnedKeyConfig(t *testing.T) {
	base, kc := startOHTTPGateway(t)
	gw := base + "/.well-known/ohttp-gateway"
	pin := KeyConfigPin(kc)

	real := &keysInterposer{serve: func(int32) []byte { return nil }}
	res, err := pinnedPost(t, gw, []string{"sha256:" + strings.Repeat("A", 43), pin}, real)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(b) != `{"pinned":1}` || real.gets.Load() != 1 {
		t.Fatalf("got %d %q after %d GETs", res.StatusCode, b, real.gets.Load())
	}

	flipped := append([]byte{}, kc...)
	flipped[100] ^= 1
	x25519 := append(append([]byte{7, 0, 0x20}, make([]byte, 32)...), 0, 4, 0, 1, 0, 3)
	attacker := xwingConfig(t, kc[0])
	for name, k := range map[string]*keysInterposer{
		"another valid config":      {serve: func(int32) []byte { return keysList(attacker) }},
		"a flipped key byte":        {serve: func(int32) []byte { return keysList(flipped) }},
		"text/plain":                {serve: func(int32) []byte { return keysList(kc) }, media: "text/plain"},
		"x25519, pinned":            {serve: func(int32) []byte { return keysList(x25519) }},
		"bad framing, then nothing": {serve: func(int32) []byte { return []byte{0, 9, 1} }},
	} {
		pins := []string{pin}
		if strings.HasPrefix(name, "x25519") {
			pins = []string{KeyConfigPin(x25519)}
		}
		_, err := pinnedPost(t, gw, pins, k)
		want := codeOHTTPKeyMismatch
		if strings.HasPrefix(name, "bad framing") {
			want = "NEN_OHTTP_BAD_KEY_CONFIG"
		}
		if CodeOf(err) != want || k.posts.Load() != 0 {
			t.Errorf("%s: %v (%d POSTs)", name, err, k.posts.Load())
		}
	}

	// the attacker's config listed first, the pinned one second: the pinned one is used
	both := &keysInterposer{serve: func(int32) []byte { return keysList(attacker, kc) }}
	if res, err := pinnedPost(t, gw, []string{pin}, both); err != nil || res.StatusCode != 200 {
		t.Fatalf("pinned config second in the list: %v", err)
	}

	// a rotation: the first GET serves a stale (pinned) config the gateway no longer holds
	stale := xwingConfig(t, kc[0]^0x40)
	rotated := &keysInterposer{serve: func(n int32) []byte {
		if n == 1 {
			return keysList(stale)
		}
		return nil
	}}
	res, err = pinnedPost(t, gw, []string{KeyConfigPin(stale), pin}, rotated)
	if err != nil || res.StatusCode != 200 || rotated.gets.Load() != 2 || rotated.posts.Load() != 2 {
		t.Fatalf("refetch after NEN_OHTTP_KEY_UNKNOWN: %v, %d GETs, %d POSTs", err, rotated.gets.Load(), rotated.posts.Load())
	}
	// only once: a gateway that keeps answering NEN_OHTTP_KEY_UNKNOWN is an error, not a loop
	always := &keysInterposer{serve: func(int32) []byte { return keysList(stale) }}
	if _, err := pinnedPost(t, gw, []string{KeyConfigPin(stale)}, always); CodeOf(err) != codeOHTTPKeyUnknown || always.gets.Load() != 2 {
		t.Fatalf("stale twice: %v after %d GETs", err, always.gets.Load())
	}
}

func TestKeyConfigPinsRefused(t *testing.T) {
	seventeen := make([]string, 17)
	for i := range seventeen {
		seventeen[i] = "sha256:" + strings.Repeat("A", 43)
	}
	for name, pins := range map[string][]string{
		"none":       nil,
		"not sha256": {"kid:abc"},
		"short":      {"sha256:" + strings.Repeat("A", 42)},
		"17 pins":    seventeen,
	} {
		if _, err := NewPinnedObliviousTransport("http://gw", "http://gw", pins, nil); CodeOf(err) != CodeBadInput {
			t.Errorf("%s: %v", name, err)
		}
	}
	// the pin is sha256 over the encoded config, base64url without padding (as @nen/client's keyConfigPin)
	if got := KeyConfigPin([]byte("abc")); got != "sha256:ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0" {
		t.Fatalf("KeyConfigPin: %s", got)
	}
}
