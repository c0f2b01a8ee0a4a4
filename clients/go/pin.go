// Server key pins (PROTOCOL.md §2): `kid:base64url(publicKey)`, the KEM following from the key's
// length (1216 bytes X-Wing, 1184 bytes ML-KEM-768), and the strict base64url of the protocol.
//
// Pitfalls: base64url is decoded strictly (no padding, no whitespace, zero trailing bits);
// several pins must have distinct kids; a pin is parsed by splitting at the first ':'.

package nen

import (
	"crypto/hpke"
	"encoding/base64"
	"regexp"
	"strings"
)

const (
	kemXWing    uint16 = 0x647a
	kemMLKEM768 uint16 = 0x0041
	maxPins            = 16
)

var kidPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// b64 is base64url without padding, strict (RFC 4648 §5; non-zero trailing bits rejected).
var b64 = base64.RawURLEncoding.Strict()

// Pin is one parsed server key pin.
type Pin struct {
	KeyID     string
	KEM       uint16
	PublicKey hpke.PublicKey
}

func kemOf(id uint16) hpke.KEM {
	if id == kemMLKEM768 {
		return hpke.MLKEM768()
	}
	return hpke.MLKEM768X25519()
}

// KEMName is "xwing" or "mlkem768".
func KEMName(id uint16) string {
	if id == kemMLKEM768 {
		return "mlkem768"
	}
	return "xwing"
}

// ParsePin parses `kid:base64url(publicKey)`; errors are NEN_BAD_SERVER_KEY.
func ParsePin(s string) (Pin, error) {
	bad := func(msg string) (Pin, error) { return Pin{}, newError(CodeBadServerKey, msg, nil) }
	kid, enc, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok || !kidPattern.MatchString(kid) {
		return bad("a pin is kid:base64url(publicKey) with kid matching [A-Za-z0-9_-]{1,32}")
	}
	raw, err := b64.DecodeString(enc)
	if err != nil {
		return bad("the pin's public key is not strict base64url")
	}
	var id uint16
	switch len(raw) {
	case 1216:
		id = kemXWing
	case 1184:
		id = kemMLKEM768
	default:
		return bad("the pin's public key is neither an X-Wing (1216 bytes) nor an ML-KEM-768 (1184 bytes) key")
	}
	pk, err := kemOf(id).NewPublicKey(raw)
	if err != nil {
		return bad("the pin's public key is not a valid key")
	}
	return Pin{KeyID: kid, KEM: id, PublicKey: pk}, nil
}

func parsePins(list []string) ([]Pin, error) {
	if len(list) > maxPins {
		return nil, newError(CodeBadServerKey, "at most 16 pins", nil)
	}
	pins := make([]Pin, 0, len(list))
	seen := map[string]bool{}
	for _, s := range list {
		p, err := ParsePin(s)
		if err != nil {
			return nil, err
		}
		if seen[p.KeyID] {
			return nil, newError(CodeBadServerKey, "two pins share a key id", nil)
		}
		seen[p.KeyID] = true
		pins = append(pins, p)
	}
	return pins, nil
}
