// The request envelope of PROTOCOL.md §5 as this client sends it: the `nen` / `nen-retry` /
// `nen-type` headers, the confidential query (§5.4), and where the sealed record travels
// (`nen-body` for GET and HEAD, the body otherwise); and the response head's parsing (§5.2).
//
// Pitfalls:
//   - The AAD binds the method, the canonical target and the plaintext content type exactly as
//     the server will rebuild them; the path on the wire is the one bound (sent via URL.Opaque).
//   - ACCEPT_COMPRESSED only with WithCompression; a COMPRESSED response to a request without it
//     is refused.

package nen

import (
	"encoding/binary"
	"io"
	"strconv"
	"strings"
)

// Request flags (§5).
const (
	flagCompressed       = 0x01
	flagConfidential     = 0x02
	flagStream           = 0x04
	flagAcceptCompressed = 0x08
	flagRetry            = 0x10
)

// retryRef names a request that was sent: what a retry's `nen-retry` header carries.
type retryRef struct {
	sidStr string
	epoch  uint32
	seq    uint64
	ts     uint64
}

func (r *retryRef) value() string {
	return r.sidStr + "." + strconv.FormatUint(uint64(r.epoch), 10) + "." + strconv.FormatUint(r.seq, 10) + "." + strconv.FormatUint(r.ts, 10)
}

// prepared is an application request normalised once (a retry reuses it).
type prepared struct {
	method      string
	path        string // escaped, dot segments resolved
	rawQuery    string
	contentType string
	body        []byte        // nil: no body
	upload      io.ReadCloser // a streamed upload (WithStreamedUploads), never buffered nor retried
}

// sealed is one attempt's wire form.
type sealedRequest struct {
	headers [][2]string
	opaque  string // the request-target path (and query when not confidential)
	body    []byte // nil for GET/HEAD
	upload  *uploadBody
	ref     retryRef
}

// canonical is the AAD target of p without a confidential query.
func (p *prepared) canonical() string { return canonicalTarget(p.path, p.rawQuery) }

func bodyless(method string) bool { return method == "GET" || method == "HEAD" }

// seal builds the wire form of p in session s with sequence number seq (retry: the original).
func seal(s *session, p *prepared, seq uint64, now int64, confidential, compress bool, retry *retryRef) *sealedRequest {
	m := requestMeta{sid: s.sid, epoch: s.epoch, seq: seq, ts: uint64(now + s.skewMs)}
	if p.upload != nil {
		return sealUpload(s, p, &m)
	}
	body := p.body
	if compress {
		m.flags |= flagAcceptCompressed
		if len(body) >= compressMinBytes {
			m.flags |= flagCompressed
			body = deflateRaw(body)
		}
	}
	target := p.canonical()
	opaque := p.path
	if p.rawQuery != "" {
		opaque += "?" + p.rawQuery
	}
	plain := body
	if confidential && p.rawQuery != "" {
		m.flags |= flagConfidential
		target, opaque = p.path, p.path
		plain = make([]byte, 0, 2+len(p.rawQuery)+len(body))
		plain = binary.BigEndian.AppendUint16(plain, uint16(len(p.rawQuery)))
		plain = append(append(plain, p.rawQuery...), body...)
	}
	retryValue := ""
	if retry != nil {
		m.flags |= flagRetry
		retryValue = retry.value()
	}
	aad := requestAAD(&m, p.method, target, p.contentType, retryValue)
	n := nonce(&s.keys.c2sIV, 0, seq)
	record := s.keys.c2s.Seal(make([]byte, 0, len(plain)+tagLen), n[:], plain, aad)
	out := newSealed(s, p, &m, opaque)
	if retry != nil {
		out.headers = append(out.headers, [2]string{"nen-retry", retryValue})
	}
	if p.contentType != "" {
		out.headers = append(out.headers, [2]string{"nen-type", p.contentType})
	}
	if bodyless(p.method) {
		out.headers = append(out.headers, [2]string{"nen-body", b64.EncodeToString(record)})
	} else {
		out.headers = append(out.headers, [2]string{"content-type", "application/nen"})
		out.body = record
	}
	return out
}

// newSealed starts the wire form: the request target and the `nen` header.
func newSealed(s *session, p *prepared, m *requestMeta, opaque string) *sealedRequest {
	out := &sealedRequest{opaque: opaque, ref: retryRef{sidStr: s.sidStr, epoch: s.epoch, seq: m.seq, ts: m.ts}}
	out.headers = append(out.headers, [2]string{"nen", "1." + out.ref.value() + "." + strconv.Itoa(int(m.flags))})
	return out
}

// sealUpload is the wire form of a streamed upload (§6.4): flags exactly STREAM, the records
// sealed as the body is read (./upload.go).
func sealUpload(s *session, p *prepared, m *requestMeta) *sealedRequest {
	m.flags = flagStream
	opaque := p.path
	if p.rawQuery != "" {
		opaque += "?" + p.rawQuery
	}
	aad := requestAAD(m, p.method, p.canonical(), p.contentType, "")
	out := newSealed(s, p, m, opaque)
	if p.contentType != "" {
		out.headers = append(out.headers, [2]string{"nen-type", p.contentType})
	}
	out.headers = append(out.headers, [2]string{"content-type", "application/nen-stream"})
	out.upload = newUploadBody(p.upload, s.keys.c2s, s.keys.c2sIV, m.seq, aad)
	return out
}

// parseResponseNen parses the response `nen` header: exactly "1.<flags>", flags 0, 1, 4 or 5.
func parseResponseNen(v string) (flags uint8, ok bool) {
	if len(v) != 3 || v[0] != '1' || v[1] != '.' || v[2] < '0' || v[2] > '9' {
		return 0, false
	}
	f := v[2] - '0'
	if f&^(flagCompressed|flagStream) != 0 {
		return 0, false
	}
	return f, true
}

// mediaType is a content type's media type: before ';', trimmed, lower case.
func mediaType(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(strings.TrimSpace(v))
}

// nullBodyStatus reports the statuses whose record travels in `nen-body` (§5.2).
func nullBodyStatus(status int) bool {
	switch status {
	case 101, 103, 204, 205, 304:
		return true
	}
	return false
}
