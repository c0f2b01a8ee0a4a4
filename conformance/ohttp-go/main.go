// Command ohttp-go is an OHTTP (RFC 9458) client on Go's own crypto/hpke (X-Wing 0x647a,
// DHKEM(X25519) 0x0020, HKDF-SHA256, AES-128-GCM or ChaCha20-Poly1305), an implementation Nen
// did not write, driven by packages/server/test/interop/ohttp-go.test.ts over a line protocol
// (hex for bytes; the same as crates/ohttp-interop's client):
//
//	ohttp-go client [--index N] --path P --date D --body B
//	  in:  the gateway's application/ohttp-keys (hex line)
//	  out: the encapsulated request (hex line)
//	  in:  the gateway's message/ohttp-res body (hex line)
//	  out: "status <code>", then "body <hex>" (the inner Binary HTTP response)
//
// The Binary HTTP (RFC 9292) request is written here in known-length form; the response is read
// in known-length form (what the gateway sends for message/ohttp-res). Pitfall: on any failure it
// prints "error <message>" and exits 1.
package main

import (
	"bufio"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hpke"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

type keyConfig struct {
	keyID       byte
	kemID       uint16
	publicKey   []byte
	kdfID, aead uint16
}

// parseList reads application/ohttp-keys (RFC 9458 §3.2) and returns its configs in order.
func parseList(b []byte) ([]keyConfig, error) {
	var out []keyConfig
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, errors.New("truncated list")
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n || n < 3 {
			return nil, errors.New("truncated config")
		}
		c := b[2 : 2+n]
		b = b[2+n:]
		kemID := binary.BigEndian.Uint16(c[1:3])
		npk := map[uint16]int{0x647a: 1216, 0x0020: 32, 0x0041: 1184}[kemID]
		if npk == 0 || len(c) < 3+npk+2+4 {
			continue
		}
		suites := c[3+npk+2:]
		out = append(out, keyConfig{keyID: c[0], kemID: kemID, publicKey: c[3 : 3+npk], kdfID: binary.BigEndian.Uint16(suites), aead: binary.BigEndian.Uint16(suites[2:])})
	}
	return out, nil
}

func varint(v int) []byte {
	switch {
	case v < 1<<6:
		return []byte{byte(v)}
	case v < 1<<14:
		return []byte{0x40 | byte(v>>8), byte(v)}
	default:
		return []byte{0x80 | byte(v>>24), byte(v >> 16), byte(v >> 8), byte(v)}
	}
}

func prefixed(b []byte) []byte { return append(varint(len(b)), b...) }

// bhttpRequest is a known-length Binary HTTP POST with a JSON body.
func bhttpRequest(path, date, body string) []byte {
	out := []byte{0}
	for _, s := range []string{"POST", "https", "", path} {
		out = append(out, prefixed([]byte(s))...)
	}
	var fields []byte
	for _, f := range [][2]string{{"content-type", "application/json"}, {"date", date}} {
		fields = append(fields, prefixed([]byte(f[0]))...)
		fields = append(fields, prefixed([]byte(f[1]))...)
	}
	out = append(out, prefixed(fields)...)
	out = append(out, prefixed([]byte(body))...)
	return append(out, 0)
}

type reader struct{ b []byte }

func (r *reader) varint() (int, error) {
	if len(r.b) == 0 {
		return 0, errors.New("truncated")
	}
	n := 1 << (r.b[0] >> 6)
	if len(r.b) < n {
		return 0, errors.New("truncated")
	}
	v := int(r.b[0] & 0x3f)
	for i := 1; i < n; i++ {
		v = v<<8 | int(r.b[i])
	}
	r.b = r.b[n:]
	return v, nil
}

func (r *reader) bytes() ([]byte, error) {
	n, err := r.varint()
	if err != nil || n > len(r.b) {
		return nil, errors.New("truncated field")
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out, nil
}

// bhttpResponse reads a known-length Binary HTTP response: status and content.
func bhttpResponse(b []byte) (int, []byte, error) {
	r := &reader{b}
	if f, err := r.varint(); err != nil || f != 1 {
		return 0, nil, errors.New("not a known-length response")
	}
	status, err := r.varint()
	for err == nil && status < 200 {
		if _, err = r.bytes(); err == nil {
			status, err = r.varint()
		}
	}
	if err != nil {
		return 0, nil, err
	}
	if len(r.b) == 0 {
		return status, nil, nil
	}
	if _, err := r.bytes(); err != nil {
		return 0, nil, err
	}
	if len(r.b) == 0 {
		return status, nil, nil
	}
	content, err := r.bytes()
	return status, content, err
}

func aeadFor(id uint16) (hpke.AEAD, int, int, error) {
	switch id {
	case 0x0001:
		return hpke.AES128GCM(), 16, 12, nil
	case 0x0003:
		return hpke.ChaCha20Poly1305(), 32, 12, nil
	}
	return nil, 0, 0, fmt.Errorf("AEAD %d not supported here", id)
}

func run(in *bufio.Reader, args []string) error {
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	index := fs.Int("index", 0, "config index in the list")
	path := fs.String("path", "/", "inner path")
	date := fs.String("date", "", "inner Date")
	body := fs.String("body", "", "inner JSON body")
	if err := fs.Parse(args); err != nil {
		return err
	}
	list, err := readHex(in)
	if err != nil {
		return err
	}
	configs, err := parseList(list)
	if err != nil || *index >= len(configs) {
		return fmt.Errorf("no config %d: %v", *index, err)
	}
	c := configs[*index]
	kem, err := hpke.NewKEM(c.kemID)
	if err != nil {
		return err
	}
	pk, err := kem.NewPublicKey(c.publicKey)
	if err != nil {
		return err
	}
	aead, nk, nn, err := aeadFor(c.aead)
	if err != nil {
		return err
	}
	hdr := []byte{c.keyID, byte(c.kemID >> 8), byte(c.kemID), 0, 1, byte(c.aead >> 8), byte(c.aead)}
	info := append([]byte("message/bhttp request\x00"), hdr...)
	enc, sender, err := hpke.NewSender(pk, hpke.HKDFSHA256(), aead, info)
	if err != nil {
		return err
	}
	ct, err := sender.Seal(nil, bhttpRequest(*path, *date, *body))
	if err != nil {
		return err
	}
	fmt.Println(hex.EncodeToString(append(append(hdr, enc...), ct...)))
	answer, err := readHex(in)
	if err != nil {
		return err
	}
	// RFC 9458 §4.4: secret = Export("message/bhttp response", max(Nn, Nk)), then HKDF.
	l := max(nk, nn)
	if len(answer) < l+16 {
		return errors.New("encapsulated response too short")
	}
	secret, err := sender.Export("message/bhttp response", l)
	if err != nil {
		return err
	}
	prk, err := hkdf.Extract(sha256.New, secret, append(append([]byte{}, enc...), answer[:l]...))
	if err != nil {
		return err
	}
	key, err := hkdf.Expand(sha256.New, prk, "key", nk)
	if err != nil {
		return err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "nonce", nn)
	if err != nil {
		return err
	}
	var a cipher.AEAD
	if c.aead == 0x0003 {
		a, err = newChaCha(key)
	} else {
		a, err = newGCM(key)
	}
	if err != nil {
		return err
	}
	plain, err := a.Open(nil, nonce, answer[l:], nil)
	if err != nil {
		return err
	}
	status, content, err := bhttpResponse(plain)
	if err != nil {
		return err
	}
	fmt.Println("status " + strconv.Itoa(status))
	fmt.Println("body " + hex.EncodeToString(content))
	return nil
}

func readHex(in *bufio.Reader) ([]byte, error) {
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		return nil, err
	}
	return hex.DecodeString(strings.TrimSpace(line))
}

func main() {
	if len(os.Args) < 2 || os.Args[1] != "client" {
		fmt.Println("error usage: ohttp-go client [--index N] --path P --date D --body B")
		os.Exit(1)
	}
	if err := run(bufio.NewReader(os.Stdin), os.Args[2:]); err != nil {
		fmt.Println("error " + err.Error())
		os.Exit(1)
	}
}
