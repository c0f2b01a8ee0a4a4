// Options of NewTransport (functional options). Pinned by default: a transport without pins is
// refused unless WithUnpinned is given explicitly.
//
// Pitfalls: WithPins and WithUnpinned exclude each other; limits must be positive; the session
// lifetime is a whole number of seconds (0 = the server's maximum).

package nen

import (
	"net/url"
	"strings"
	"time"
)

type config struct {
	pinStrings    []string
	pins          []Pin
	unpinned      bool
	unpinnedKEM   uint16
	sessionPath   string
	baseURL       *url.URL
	timeout       time.Duration
	maxResponse   int64
	maxRequest    int64
	lifetime      uint32
	confidential  bool
	compress      bool
	streamUploads bool
	retry         bool
	badOption     *Error
}

// Option configures a Transport.
type Option func(*config)

// WithPins sets the server key pins (`kid:base64url(publicKey)`, newest first). A handshake uses
// the first; a NEN_UNKNOWN_KEY_ID answer moves it to the next (each pin at most once).
func WithPins(pins ...string) Option {
	return func(c *config) { c.pinStrings = append(c.pinStrings, pins...) }
}

// WithUnpinned runs without a pinned server key (the handshake is then authenticated by TLS
// only) with the KEM named ("xwing" or "mlkem768"). Only for development and tests.
func WithUnpinned(kem string) Option {
	return func(c *config) {
		c.unpinned = true
		switch kem {
		case "", "xwing":
			c.unpinnedKEM = kemXWing
		case "mlkem768":
			c.unpinnedKEM = kemMLKEM768
		default:
			c.badOption = newError(CodeBadInput, "unknown KEM "+kem+" (xwing or mlkem768)", nil)
		}
	}
}

// WithBaseURL sets the origin whose session routes the transport uses; requests to any other
// origin are refused (NEN_BAD_INPUT). Without it, the origin of the first request is used.
func WithBaseURL(base string) Option {
	return func(c *config) {
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			c.badOption = newError(CodeBadInput, "the base URL must be an absolute http(s) URL", err)
			return
		}
		c.baseURL = &url.URL{Scheme: u.Scheme, Host: u.Host}
	}
}

// WithSessionPath sets the session routes' path (default "/api/nen").
func WithSessionPath(p string) Option {
	return func(c *config) { c.sessionPath = "/" + strings.Trim(p, "/") }
}

// WithTimeout bounds each exchange (handshake, request up to a stream's head, single response
// body); past it the error is NEN_TIMEOUT. Default 30 s.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMaxResponseBytes bounds a single (non-stream) response's plaintext (default 64 MiB); a
// larger answer is refused with NEN_RESPONSE_UNAUTHENTICATED after reading at most the limit + 16
// bytes, as @nen/client does. Streams are read incrementally, one record at a time.
func WithMaxResponseBytes(n int64) Option { return func(c *config) { c.maxResponse = n } }

// WithMaxRequestBytes bounds the request body buffered for sealing and for the retry (default
// 4 MiB, the server's default limit); a larger body is refused with NEN_BAD_INPUT.
func WithMaxRequestBytes(n int64) Option { return func(c *config) { c.maxRequest = n } }

// WithSessionLifetime asks the server for a session lifetime in seconds (0 = its maximum).
func WithSessionLifetime(seconds uint32) Option { return func(c *config) { c.lifetime = seconds } }

// WithConfidentialQuery moves each request's query string into the envelope (PROTOCOL.md §5.4).
func WithConfidentialQuery(on bool) Option { return func(c *config) { c.confidential = on } }

// WithCompression compresses request bodies of at least 64 bytes (raw DEFLATE) and accepts
// compressed responses (bounded by WithMaxResponseBytes).
func WithCompression(on bool) Option { return func(c *config) { c.compress = on } }

// WithStreamedUploads sends request bodies of unknown length (ContentLength 0 or -1 with a
// body, e.g. an io.Pipe) as a record stream sealed as they are read (PROTOCOL.md §6.4) instead
// of buffering them. Such a request is never retried: an unauthenticated 401-class answer to it
// is NEN_OUTCOME_UNKNOWN.
func WithStreamedUploads(on bool) Option { return func(c *config) { c.streamUploads = on } }

// WithRetry enables (default) or disables the protocol 1.1 retry after an unauthenticated
// 401-class answer; disabled, such an answer is reported as NEN_OUTCOME_UNKNOWN.
func WithRetry(on bool) Option { return func(c *config) { c.retry = on } }

func buildConfig(opts []Option) (*config, error) {
	c := &config{sessionPath: "/api/nen", timeout: 30 * time.Second, maxResponse: 64 << 20, maxRequest: 4 << 20, retry: true, unpinnedKEM: kemXWing}
	for _, o := range opts {
		o(c)
	}
	if c.badOption != nil {
		return nil, c.badOption
	}
	pins, err := parsePins(c.pinStrings)
	if err != nil {
		return nil, err
	}
	c.pins = pins
	if c.unpinned && len(pins) > 0 {
		return nil, newError(CodeBadInput, "WithPins and WithUnpinned exclude each other", nil)
	}
	if !c.unpinned && len(pins) == 0 {
		return nil, newError(CodeBadServerKey, "no server key to pin: pass WithPins (the pin `nen keygen` printed), or WithUnpinned to rely on TLS alone", nil)
	}
	if c.timeout <= 0 || c.maxResponse <= 0 || c.maxRequest <= 0 {
		return nil, newError(CodeBadInput, "timeout and size limits must be positive", nil)
	}
	return c, nil
}
