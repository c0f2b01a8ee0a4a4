// Optional compression (PROTOCOL.md §5, §5.2): raw DEFLATE (RFC 1951) of request bodies of at
// least 64 bytes before sealing, and bounded inflation of COMPRESSED responses, which are
// accepted only when this request set ACCEPT_COMPRESSED.
//
// Pitfalls: inflation is bounded by the response limit (a decompression bomb is refused, as
// @nen/client does, with NEN_RESPONSE_UNAUTHENTICATED); compression runs before sealing, never on
// streams.

package nen

import (
	"bytes"
	"compress/flate"
	"io"
)

const compressMinBytes = 64

func deflateRaw(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression) // the level is valid
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func inflateRaw(b []byte, limit int64) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(b))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, newError(CodeResponseUnauthenticated, "compressed response is not valid raw DEFLATE", err)
	}
	if int64(len(out)) > limit {
		return nil, newError(CodeResponseUnauthenticated, "the decompressed response exceeds the response limit", nil)
	}
	return out, nil
}
