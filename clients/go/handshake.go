// The handshake messages of PROTOCOL.md §3: the ClientHello (a fresh ephemeral key pair, and with
// a pin an HPKE encapsulation to the server's static key), and the client's completion: the
// ServerHello's checks, the transcript hash, S_0 and the key confirmation.
//
// Pitfalls:
//   - HPKE is used only as SetupBaseS/SetupBaseR + Export (RFC 9180 base mode, HKDF-SHA256,
//     ChaCha20-Poly1305), via crypto/hpke.
//   - The confirm tag is compared in constant time; every other check fails the same way
//     (NEN_HANDSHAKE_FAILED), so nothing tells a forger which byte was wrong.
//   - A granted lifetime longer than a non-zero requested one is refused.

package nen

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/hpke"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
)

const (
	infoEphemeral   = "nen/1 ephemeral"
	infoStatic      = "nen/1 static"
	labelExport     = "nen/1 export"
	labelTranscript = "nen/1 transcript"
	labelConfirm    = "nen/1 confirm"
	flagStatic      = 0x01
	serverHelloHead = 36
)

func encLen(kem uint16) int {
	if kem == kemMLKEM768 {
		return 1088
	}
	return 1120
}

// helloState is a handshake in progress: the ClientHello sent and what completing it needs.
type helloState struct {
	kem       uint16
	lifetime  uint32
	kid       string // "" when unpinned
	hello     []byte
	eph       hpke.PrivateKey
	exportedS []byte
}

// handshakeResult is a completed handshake.
type handshakeResult struct {
	sid        [16]byte
	lifetime   uint32
	idle       uint32
	serverTime uint64
	secret     []byte // S_0
}

// startHandshake builds a ClientHello for kem (with pin, its KEM) asking for lifetime seconds.
func startHandshake(kem uint16, lifetime uint32, pin *Pin) (*helloState, error) {
	if pin != nil {
		kem = pin.KEM
	}
	eph, err := kemOf(kem).GenerateKey()
	if err != nil {
		return nil, newError(CodeHandshakeFailed, "cannot generate the ephemeral key", err)
	}
	st := &helloState{kem: kem, lifetime: lifetime, eph: eph}
	var encStatic []byte
	if pin != nil {
		enc, s, err := hpke.NewSender(pin.PublicKey, hpke.HKDFSHA256(), hpke.ChaCha20Poly1305(), []byte(infoStatic))
		if err != nil {
			return nil, newError(CodeHandshakeFailed, "cannot encapsulate to the pinned key", err)
		}
		if st.exportedS, err = s.Export(labelExport, 32); err != nil {
			return nil, newError(CodeHandshakeFailed, "HPKE export failed", err)
		}
		encStatic, st.kid = enc, pin.KeyID
	}
	st.hello = clientHello(kem, lifetime, eph.PublicKey().Bytes(), st.kid, encStatic)
	return st, nil
}

// clientHello is the §3.1 encoding.
func clientHello(kem uint16, lifetime uint32, pkEph []byte, kid string, encStatic []byte) []byte {
	b := make([]byte, 0, 8+len(pkEph)+1+len(kid)+len(encStatic))
	b = append(b, 1)
	b = binary.BigEndian.AppendUint16(b, kem)
	if kid != "" {
		b = append(b, flagStatic)
	} else {
		b = append(b, 0)
	}
	b = binary.BigEndian.AppendUint32(b, lifetime)
	b = append(b, pkEph...)
	if kid != "" {
		b = append(b, byte(len(kid)))
		b = append(b, kid...)
		b = append(b, encStatic...)
	}
	return b
}

// finish checks the ServerHello (§3.3) and derives S_0.
func (st *helloState) finish(sh []byte) (*handshakeResult, error) {
	fail := func(msg string) (*handshakeResult, error) { return nil, newError(CodeHandshakeFailed, msg, nil) }
	n := encLen(st.kem)
	if len(sh) != serverHelloHead+n+32 {
		return fail("ServerHello has the wrong length")
	}
	var wantFlags byte
	if st.kid != "" {
		wantFlags = flagStatic
	}
	if sh[0] != 1 || binary.BigEndian.Uint16(sh[1:3]) != st.kem || sh[3] != wantFlags {
		return fail("ServerHello version, KEM or flags differ")
	}
	r := &handshakeResult{
		lifetime:   binary.BigEndian.Uint32(sh[20:24]),
		idle:       binary.BigEndian.Uint32(sh[24:28]),
		serverTime: binary.BigEndian.Uint64(sh[28:36]),
	}
	copy(r.sid[:], sh[4:20])
	if st.lifetime > 0 && r.lifetime > st.lifetime {
		return fail("the server granted a longer lifetime than requested")
	}
	exportedE, err := exportFor(sh[serverHelloHead:serverHelloHead+n], st.eph, infoEphemeral)
	if err != nil {
		return fail("enc_e does not decapsulate")
	}
	s0, confirm := deriveS0(st.hello, sh[:serverHelloHead+n], exportedE, st.exportedS)
	if subtle.ConstantTimeCompare(confirm, sh[serverHelloHead+n:]) != 1 {
		return fail("key confirmation failed (substituted share or server key, or a modified message)")
	}
	r.secret = s0
	return r, nil
}

// deriveS0 computes TH, S_0 = HKDF-Extract(TH, exported_e || exported_s) and the confirm tag.
func deriveS0(hello, shBody, exportedE, exportedS []byte) (s0, confirm []byte) {
	h := sha256.New()
	h.Write([]byte(labelTranscript))
	h.Write(hello)
	h.Write(shBody)
	th := h.Sum(nil)
	ikm := append(append([]byte{}, exportedE...), exportedS...)
	s0, err := hkdf.Extract(sha256.New, ikm, th)
	if err != nil {
		panic("nen: HKDF-Extract failed") // cannot happen for SHA-256
	}
	mac := hmac.New(sha256.New, expand(s0, labelConfirm, 32))
	mac.Write(th)
	return s0, mac.Sum(nil)
}

// exportFor is SetupBaseR(enc, sk, info).Export("nen/1 export", 32).
func exportFor(enc []byte, sk hpke.PrivateKey, info string) ([]byte, error) {
	r, err := hpke.NewRecipient(enc, sk, hpke.HKDFSHA256(), hpke.ChaCha20Poly1305(), []byte(info))
	if err != nil {
		return nil, err
	}
	return r.Export(labelExport, 32)
}
