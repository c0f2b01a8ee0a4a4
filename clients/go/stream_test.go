// Record streams (./stream.go, ./upload.go): final-record detection, fuzzed corruption and
// truncation (only authentic prefixes are released), upload framing.

package nen

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"testing"
)

// sealStream frames records (the last one final) as a server would.
func sealStream(k *epochKeys, seq uint64, base []byte, records [][]byte) []byte {
	var out []byte
	for i, p := range records {
		final := byte(0)
		if i == len(records)-1 {
			final = 1
		}
		aad := binary.BigEndian.AppendUint32(append([]byte{}, base...), uint32(i))
		aad = append(aad, final)
		n := nonce(&k.s2cIV, uint32(i), seq)
		rec := k.s2c.Seal(nil, n[:], p, aad)
		out = binary.BigEndian.AppendUint32(out, uint32(len(rec)))
		out = append(out, rec...)
	}
	return out
}

func testKeys(t testing.TB) *epochKeys {
	k, err := newEpochKeys(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func readAllStream(k *epochKeys, seq uint64, base, wire []byte, piece int) ([]byte, error) {
	sb := newStreamBody(context.Background(), io.NopCloser(&smallReader{b: wire, n: piece}), k.s2c, k.s2cIV, seq, base, func() {})
	var out bytes.Buffer
	_, err := io.Copy(&out, sb)
	return out.Bytes(), err
}

// FuzzStreamBody: whatever is done to the wire bytes, the reader returns only a prefix of the
// authentic plaintext, and returns it whole with no error only for the intact stream.
func FuzzStreamBody(f *testing.F) {
	f.Add(uint64(1), 3, 5, 0, byte(1))
	f.Add(uint64(9), 1, 1, 17, byte(0x80))
	f.Add(uint64(3), 4, 64, -1, byte(0))
	f.Fuzz(func(t *testing.T, seed uint64, nrec, piece, at int, flip byte) {
		k := testKeys(t)
		rng := rand.New(rand.NewPCG(seed, 1))
		nrec = 1 + abs(nrec)%6
		piece = 1 + abs(piece)%80
		var records [][]byte
		var plain []byte
		for i := 0; i < nrec; i++ {
			p := make([]byte, rng.IntN(40))
			for j := range p {
				p[j] = byte(rng.Uint32())
			}
			records = append(records, p)
			plain = append(plain, p...)
		}
		base := []byte("base aad")
		wire := sealStream(k, seed, base, records)
		if at >= 0 && flip != 0 {
			wire[at%len(wire)] ^= flip
		} else if at < 0 {
			wire = wire[:abs(at)%len(wire)] // truncated
		}
		got, err := readAllStream(k, seed, base, wire, piece)
		if !bytes.HasPrefix(plain, got) {
			t.Fatalf("released bytes that are not the authentic plaintext's prefix")
		}
		intact := !(at >= 0 && flip != 0) && at >= 0
		if intact && (err != nil || !bytes.Equal(got, plain)) {
			t.Fatalf("intact stream: %v", err)
		}
		if !intact && err == nil {
			t.Fatalf("a modified stream was accepted")
		}
		if err != nil && CodeOf(err) != CodeStreamInvalid && CodeOf(err) != CodeStreamTruncated {
			t.Fatalf("code %v", err)
		}
	})
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func TestStreamFinalDetection(t *testing.T) {
	k := testKeys(t)
	base := []byte("b")
	cases := []struct {
		name    string
		records [][]byte
	}{
		{"empty final record", [][]byte{[]byte("a"), []byte("b"), {}}},
		{"non-empty final record", [][]byte{[]byte("a"), []byte("last")}},
		{"empty records before the final one", [][]byte{{}, []byte("x"), {}, []byte("y")}},
		{"only the final record", [][]byte{{}}},
	}
	for _, c := range cases {
		wire := sealStream(k, 5, base, c.records)
		got, err := readAllStream(k, 5, base, wire, 3)
		if err != nil || !bytes.Equal(got, bytes.Join(c.records, nil)) {
			t.Errorf("%s: %q %v", c.name, got, err)
		}
		if _, err := readAllStream(k, 6, base, wire, 3); CodeOf(err) != CodeStreamInvalid {
			t.Errorf("%s under another seq: %v", c.name, err)
		}
	}
	// A record larger than the maximum is refused before any buffering.
	big := binary.BigEndian.AppendUint32(nil, maxRecordPlain+tagLen+1)
	if _, err := readAllStream(k, 5, base, append(big, make([]byte, 64)...), 64); CodeOf(err) != CodeStreamInvalid {
		t.Errorf("oversized record: %v", err)
	}
}

func TestUploadBodyFramesRecords(t *testing.T) {
	k := testKeys(t)
	base := []byte("upload aad")
	data := bytes.Repeat([]byte("0123456789"), 5000) // several reads, several records
	u := newUploadBody(io.NopCloser(&smallReader{b: data, n: 7000}), k.c2s, k.c2sIV, 4, base)
	wire, err := io.ReadAll(u)
	if err != nil {
		t.Fatal(err)
	}
	sb := newStreamBody(context.Background(), io.NopCloser(bytes.NewReader(wire)), k.c2s, k.c2sIV, 4, base, func() {})
	got, err := io.ReadAll(sb)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("round trip: %d bytes, %v", len(got), err)
	}
	if last := wire[len(wire)-20:]; binary.BigEndian.Uint32(last[:4]) != tagLen {
		t.Fatal("the stream does not end with the empty final record")
	}
}
