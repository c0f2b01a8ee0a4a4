// OHTTP Key Config pins (PROTOCOL.md §11, RFC 9458 §3 and §7 key consistency; the same pins and
// semantics as @nen/client's keyConfig: ['sha256:…'] with keyConfigUrl): a pin is `sha256:` +
// base64url(SHA-256(one encoded Key Config)); the config is fetched from the gateway's
// `application/ohttp-keys` resource (RFC 9540, e.g. /.well-known/ohttp-gateway) and used only when
// its digest matches a pin. NewPinnedObliviousTransport fetches on first use and refetches once
// after NEN_OHTTP_KEY_UNKNOWN (a rotation).
//
// Pitfalls:
//   - A relay or any other party serving another config (a substituted key, or one config per
//     client to split the anonymity set) fails the pin: NEN_OHTTP_KEY_MISMATCH, nothing is sent.
//   - So does a key config URL that does not answer 200 application/ohttp-keys, a body over
//     64 KiB, and a pinned X25519 config (this client is post-quantum only).
//   - Pins are tried in order (1-16 of them: several during a rotation); configs that match no
//     pin are never parsed, so unknown KEMs in the list are skipped, as RFC 9458 §3 asks.
//   - One fetch at a time per transport (a mutex); a failed fetch is not cached.

package nen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

const (
	codeOHTTPKeyMismatch = "NEN_OHTTP_KEY_MISMATCH"
	codeOHTTPKeyUnknown  = "NEN_OHTTP_KEY_UNKNOWN"
	ohttpKeysMedia       = "application/ohttp-keys"
	maxKeyConfigList     = 64 << 10
	kemX25519            = 0x0020
)

var keyConfigPinPattern = regexp.MustCompile(`^sha256:[A-Za-z0-9_-]{43}$`)

// KeyConfigPin returns the pin of one encoded Key Config: `sha256:` + base64url(SHA-256(config)).
func KeyConfigPin(encoded []byte) string {
	d := sha256.Sum256(encoded)
	return "sha256:" + base64.RawURLEncoding.EncodeToString(d[:])
}

func checkKeyConfigPins(pins []string) error {
	if len(pins) == 0 || len(pins) > maxPins {
		return newError(CodeBadInput, "1-16 \"sha256:<base64url>\" key config pins are needed", nil)
	}
	for _, p := range pins {
		if !keyConfigPinPattern.MatchString(p) {
			return newError(CodeBadInput, "a key config pin is \"sha256:\" and 43 base64url characters", nil)
		}
	}
	return nil
}

func keyMismatch(why string) error {
	return newError(codeOHTTPKeyMismatch, "OHTTP key configuration: "+why, nil)
}

// splitKeyConfigs splits an application/ohttp-keys body: each config preceded by its 2-byte length.
func splitKeyConfigs(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 2 || int(binary.BigEndian.Uint16(b)) == 0 || len(b) < 2+int(binary.BigEndian.Uint16(b)) {
			return nil, newError("NEN_OHTTP_BAD_KEY_CONFIG", "invalid OHTTP key configuration: application/ohttp-keys framing", nil)
		}
		n := int(binary.BigEndian.Uint16(b))
		out = append(out, b[2:2+n])
		b = b[2+n:]
	}
	return out, nil
}

// FetchKeyConfig GETs keyConfigURL (application/ohttp-keys) through client (nil: http.DefaultClient)
// and returns the served config whose digest matches the first pin that matches any; none is
// NEN_OHTTP_KEY_MISMATCH.
func FetchKeyConfig(ctx context.Context, client *http.Client, keyConfigURL string, pins []string) (KeyConfig, error) {
	if err := checkKeyConfigPins(pins); err != nil {
		return KeyConfig{}, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, keyConfigURL, nil)
	if err != nil {
		return KeyConfig{}, newError(CodeBadInput, "key config URL", err)
	}
	req.Header.Set("Accept", ohttpKeysMedia)
	res, err := client.Do(req)
	if err != nil {
		return KeyConfig{}, err
	}
	defer res.Body.Close()
	media, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if res.StatusCode != http.StatusOK || strings.ToLower(media) != ohttpKeysMedia {
		return KeyConfig{}, keyMismatch("the key config URL answered " + res.Status + " " + media)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxKeyConfigList+1))
	if err != nil {
		return KeyConfig{}, keyMismatch("reading the key configs: " + err.Error())
	}
	if len(body) > maxKeyConfigList {
		return KeyConfig{}, keyMismatch("the application/ohttp-keys body is over 64 KiB")
	}
	configs, err := splitKeyConfigs(body)
	if err != nil {
		return KeyConfig{}, err
	}
	byPin := make(map[string][]byte, len(configs))
	for _, c := range configs {
		byPin[KeyConfigPin(c)] = c
	}
	for _, p := range pins {
		if c, ok := byPin[p]; ok {
			if len(c) >= 3 && binary.BigEndian.Uint16(c[1:3]) == kemX25519 {
				return KeyConfig{}, keyMismatch("the pinned config is X25519 (not post-quantum)")
			}
			return ParseKeyConfig(c)
		}
	}
	return KeyConfig{}, keyMismatch("no served key config matches a pinned digest")
}

// pinnedKeyConfig is the fetched, pinned config of a transport (nil until the first request).
type pinnedKeyConfig struct {
	url    string
	pins   []string
	client *http.Client
	mu     sync.Mutex
	cfg    *KeyConfig
}

func (p *pinnedKeyConfig) get(ctx context.Context) (KeyConfig, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cfg != nil {
		return *p.cfg, nil
	}
	cfg, err := FetchKeyConfig(ctx, p.client, p.url, p.pins)
	if err != nil {
		return KeyConfig{}, err
	}
	p.cfg = &cfg
	return cfg, nil
}

// forget drops the cached config when it is still stale (another request may have refetched).
func (p *pinnedKeyConfig) forget(stale KeyConfig) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cfg != nil && p.cfg.KeyID == stale.KeyID && bytes.Equal(p.cfg.PublicKey.Bytes(), stale.PublicKey.Bytes()) {
		p.cfg = nil
	}
}

// NewPinnedObliviousTransport is NewObliviousTransport with the Key Config pinned by `sha256:`
// digests and fetched from keyConfigURL (through base) on the first request. Malformed pins are
// NEN_BAD_INPUT here; a served config matching no pin fails each request with
// NEN_OHTTP_KEY_MISMATCH before anything is sent.
func NewPinnedObliviousTransport(relay, keyConfigURL string, pins []string, base http.RoundTripper) (*ObliviousTransport, error) {
	if err := checkKeyConfigPins(pins); err != nil {
		return nil, err
	}
	t := NewObliviousTransport(relay, KeyConfig{}, base)
	t.pinned = &pinnedKeyConfig{url: keyConfigURL, pins: append([]string(nil), pins...), client: &http.Client{Transport: t.base}}
	return t, nil
}
