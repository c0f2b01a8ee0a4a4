// Fuzzed answers (./exchange.go openSingle, ./handshake.go finish): whatever arrives, the client
// never panics and accepts nothing but the authentic answer.

package nen

import (
	"bytes"
	"testing"
)

func FuzzOpenSingle(f *testing.F) {
	k := testKeys(f)
	var sid [16]byte
	good := func(status int, ct string, body []byte) []byte {
		n := nonce(&k.s2cIV, 0, 7)
		return k.s2c.Seal(nil, n[:], body, responseAAD(&sid, 0, 7, status, 0, ct))
	}
	f.Add(200, "1.0", "application/json", good(200, "application/json", []byte(`{"a":1}`)), "POST")
	f.Add(204, "1.0", "", good(204, "", nil), "DELETE")
	f.Add(200, "1.1", "text/plain", good(200, "text/plain", []byte("x")), "HEAD")
	f.Add(201, "1.0", "application/json", []byte{1, 2, 3}, "POST")
	f.Fuzz(func(t *testing.T, status int, nen, ct string, body []byte, method string) {
		if status < 100 || status > 999 {
			return
		}
		flags, ok := parseResponseNen(nen)
		if !ok {
			return
		}
		h := map[string]string{"nen": nen, "content-type": "application/nen", "nen-type": ct}
		wireBody := body
		if nullBodyStatus(status) || method == "HEAD" {
			h["nen-body"], wireBody = b64.EncodeToString(body), nil
		}
		aad := responseAAD(&sid, 0, 7, status, flags, ct)
		plain, err := openSingle(fakeResponse(status, h, wireBody), method, k, 7, aad, flags, false, 1<<20)
		if err != nil {
			if CodeOf(err) != CodeResponseUnauthenticated {
				t.Fatalf("code %v", err)
			}
			return
		}
		n := nonce(&k.s2cIV, 0, 7)
		want, openErr := k.s2c.Open(nil, n[:], body, aad)
		if openErr != nil || !bytes.Equal(plain, want) || flags != 0 {
			t.Fatalf("accepted an answer that does not authenticate (status %d, nen %q)", status, nen)
		}
	})
}

func FuzzServerHello(f *testing.F) {
	st, err := startHandshake(kemXWing, 0, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(make([]byte, serverHelloHead+encLen(kemXWing)+32))
	f.Add([]byte{1, 0x64, 0x7a, 0})
	f.Fuzz(func(t *testing.T, sh []byte) {
		if _, err := st.finish(sh); CodeOf(err) != CodeHandshakeFailed {
			t.Fatalf("a random ServerHello: %v", err)
		}
	})
}
