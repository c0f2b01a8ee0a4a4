// The request target of PROTOCOL.md §5.3: the path as sent (dot segments resolved first, as a
// WHATWG URL parser on the server's side would), and the query in its canonical form (the WHATWG
// application/x-www-form-urlencoded parse-then-serialise, byte for byte, in seven steps).
//
// Pitfalls:
//   - The path is never decoded or case-folded: /a/~, /a/%7e and /a/%7E are three targets.
//   - Step 5 repairs ill-formed UTF-8 with one U+FFFD per maximal subpart (WHATWG Encoding),
//     not per byte as Go's utf8 package would.

package nen

import (
	"net/url"
	"strings"
)

// canonicalQuery is steps 1-7 of §5.3 for the raw query (the part after the first '?').
func canonicalQuery(q string) string {
	q = strings.TrimPrefix(q, "?")
	var out []byte
	for piece := range strings.SplitSeq(q, "&") {
		if piece == "" {
			continue
		}
		name, value, _ := strings.Cut(piece, "=")
		if len(out) > 0 {
			out = append(out, '&')
		}
		out = serialiseForm(out, repairUTF8(percentDecode(name)))
		out = append(out, '=')
		out = serialiseForm(out, repairUTF8(percentDecode(value)))
	}
	return string(out)
}

// canonicalTarget is the AAD target: path, then '?' and the canonical query when it is non-empty.
func canonicalTarget(path, rawQuery string) string {
	if c := canonicalQuery(rawQuery); c != "" {
		return path + "?" + c
	}
	return path
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// percentDecode is step 4: '+' to space, then %XX (either case) to its byte; other '%' stay.
func percentDecode(s string) []byte {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '+' {
			c = ' '
		} else if c == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b = append(b, h<<4|l)
				i += 2
				continue
			}
		}
		b = append(b, c)
	}
	return b
}

var replacement = []byte{0xEF, 0xBF, 0xBD}

// repairUTF8 is step 5: the WHATWG UTF-8 decoder's error handling, re-encoded as UTF-8.
func repairUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b))
	i := 0
	for i < len(b) {
		c := b[i]
		var need int
		lo, hi := byte(0x80), byte(0xBF)
		switch {
		case c < 0x80:
			out = append(out, c)
			i++
			continue
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			need = 3
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F
			}
		default:
			out = append(out, replacement...)
			i++
			continue
		}
		j := i + 1
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if j-i == need+1 {
			out = append(out, b[i:j]...)
		} else {
			out = append(out, replacement...) // the maximal subpart b[i:j]; b[j] is decoded afresh
		}
		i = j
	}
	return out
}

const upperHex = "0123456789ABCDEF"

// serialiseForm is step 6: space to '+', *-._ and alphanumerics as themselves, the rest %XX.
func serialiseForm(out, b []byte) []byte {
	for _, c := range b {
		switch {
		case c == ' ':
			out = append(out, '+')
		case c == '*' || c == '-' || c == '.' || c == '_' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'):
			out = append(out, c)
		default:
			out = append(out, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return out
}

// isDotSegment reports whether a path segment is "." or ".." in any %2e spelling.
func dotSegment(seg string) int {
	s := strings.ReplaceAll(strings.ReplaceAll(seg, "%2e", "."), "%2E", ".")
	switch s {
	case ".":
		return 1
	case "..":
		return 2
	}
	return 0
}

// resolveDots removes dot segments from an escaped absolute path as the WHATWG URL parser does
// (a trailing "." or ".." leaves a trailing "/").
func resolveDots(p string) string {
	if !strings.Contains(p, ".") && !strings.Contains(p, "%2") {
		return p
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch dotSegment(s) {
		case 1:
			if last {
				out = append(out, "")
			}
		case 2:
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

// wireQuery percent-encodes the bytes a WHATWG URL serialiser would encode in a special URL's
// query (C0 controls, space, '"', '#', '<', '>', '\” and non-ASCII), so that the request line is
// valid HTTP; existing %XX are kept. The canonical form is unchanged by it.
func wireQuery(q string) string {
	var out []byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c <= 0x20 || c >= 0x7F || c == '"' || c == '#' || c == '<' || c == '>' || c == '\'' {
			if out == nil {
				out = append(make([]byte, 0, len(q)+16), q[:i]...)
			}
			out = append(out, '%', upperHex[c>>4], upperHex[c&15])
		} else if out != nil {
			out = append(out, c)
		}
	}
	if out == nil {
		return q
	}
	return string(out)
}

// preparePath is the path this client sends for u: escaped as Go escapes it, '\' as '/' (as a
// WHATWG parser treats it in http(s) URLs), dot segments resolved, "/" when empty.
func preparePath(u *url.URL) string {
	var p string
	if u.RawPath != "" && strings.Contains(u.RawPath, "\\") {
		p = strings.ReplaceAll(u.RawPath, "\\", "/")
	} else if strings.Contains(u.Path, "\\") {
		p = (&url.URL{Path: strings.ReplaceAll(u.Path, "\\", "/")}).EscapedPath()
	} else {
		p = u.EscapedPath()
	}
	if p == "" {
		return "/"
	}
	return resolveDots(p)
}
