// Binary HTTP (RFC 9292) for the OHTTP mode: requests encoded known-length (message/ohttp-req)
// or indeterminate-length (chunked OHTTP), known-length responses decoded whole (the chunked
// answer's incremental decoder is in ohttp_chunked.go).
//
// Pitfalls:
//   - The request gets one Date field (the gateway's replay window); the caller's own Date header
//     would be a second one, which the gateway refuses (NEN_OHTTP_DATE): it is dropped.
//   - Informational responses are skipped (at most 8); a malformed message is NEN_OHTTP_BHTTP.
package nen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"time"
)

func appendVarint(b []byte, v uint64) []byte {
	switch {
	case v < 1<<6:
		return append(b, byte(v))
	case v < 1<<14:
		return binary.BigEndian.AppendUint16(b, uint16(v)|0x4000)
	case v < 1<<30:
		return binary.BigEndian.AppendUint32(b, uint32(v)|0x80000000)
	default:
		return binary.BigEndian.AppendUint64(b, v|0xc000000000000000)
	}
}

func appendVarBytes(b, v []byte) []byte { return append(appendVarint(b, uint64(len(v))), v...) }

// encodeBHTTPRequest is a Binary HTTP request (RFC 9292 §3.1) with Date added: known-length, or
// indeterminate-length (framing indicator 2, as chunked OHTTP sends it).
func encodeBHTTPRequest(req *http.Request, body []byte, date time.Time, indeterminate bool) []byte {
	framing := uint64(0)
	if indeterminate {
		framing = 2
	}
	b := appendVarint(nil, framing)
	path := req.URL.RequestURI()
	for _, s := range []string{req.Method, req.URL.Scheme, req.URL.Host, path} {
		b = appendVarBytes(b, []byte(s))
	}
	var fields []byte
	for name, values := range req.Header {
		if http.CanonicalHeaderKey(name) == "Date" {
			continue
		}
		for _, v := range values {
			fields = appendVarBytes(fields, bytes.ToLower([]byte(name)))
			fields = appendVarBytes(fields, []byte(v))
		}
	}
	fields = appendVarBytes(fields, []byte("date"))
	fields = appendVarBytes(fields, []byte(date.UTC().Format(http.TimeFormat)))
	if !indeterminate {
		b = appendVarBytes(b, fields)
		b = appendVarBytes(b, body)
		return appendVarint(b, 0) // no trailers
	}
	b = appendVarint(append(b, fields...), 0) // field lines, then the empty name that ends them
	if len(body) > 0 {
		b = appendVarBytes(b, body)
	}
	return appendVarint(appendVarint(b, 0), 0) // content terminator, no trailers
}

type bhttpReader struct {
	b   []byte
	err bool
}

func (r *bhttpReader) varint() uint64 {
	if len(r.b) == 0 {
		r.err = true
		return 0
	}
	n := 1 << (r.b[0] >> 6)
	if len(r.b) < n {
		r.err = true
		return 0
	}
	v := uint64(r.b[0] & 0x3f)
	for i := 1; i < n; i++ {
		v = v<<8 | uint64(r.b[i])
	}
	r.b = r.b[n:]
	return v
}

func (r *bhttpReader) bytes() []byte {
	n := r.varint()
	if r.err || uint64(len(r.b)) < n {
		r.err = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *bhttpReader) fields(h http.Header) {
	sec := &bhttpReader{b: r.bytes()}
	r.err = r.err || sec.err
	for !r.err && len(sec.b) > 0 {
		name, value := sec.bytes(), sec.bytes()
		if sec.err {
			r.err = true
			return
		}
		h.Add(string(name), string(value))
	}
}

// decodeBHTTPResponse reads a known-length Binary HTTP response (RFC 9292 §3.2); informational responses are skipped.
func decodeBHTTPResponse(b []byte, req *http.Request) (*http.Response, error) {
	r := &bhttpReader{b: b}
	if r.varint() != 1 {
		return nil, newError("NEN_OHTTP_BHTTP", "not a known-length binary HTTP response", nil)
	}
	status := r.varint()
	for i := 0; !r.err && status >= 100 && status < 200 && i < 8; i++ {
		r.fields(http.Header{})
		status = r.varint()
	}
	h := http.Header{}
	r.fields(h)
	content := r.bytes()
	if r.err || status < 200 || status > 599 {
		return nil, newError("NEN_OHTTP_BHTTP", "malformed binary HTTP response", nil)
	}
	return innerResponse(req, status, h, io.NopCloser(bytes.NewReader(content)), int64(len(content))), nil
}

// innerResponse is the *http.Response for a decoded Binary HTTP answer (known-length or chunked):
// its status, fields and content; length -1 when the content is read as it arrives.
func innerResponse(req *http.Request, status uint64, h http.Header, body io.ReadCloser, length int64) *http.Response {
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(int(status))),
		StatusCode:    int(status),
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          body,
		ContentLength: length,
		Request:       req,
	}
}
