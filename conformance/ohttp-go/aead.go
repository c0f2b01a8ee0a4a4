// The response AEADs of the OHTTP interop client (RFC 9458 §4.4): AES-GCM from the standard
// library; ChaCha20-Poly1305 is refused with an error (it would need golang.org/x/crypto).
// Pitfall: a gateway tested with this client must offer AES-128-GCM.

package main

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
)

// newGCM is AES-GCM from the standard library (AES-128-GCM for a 16-byte key).
func newGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// newChaCha would need golang.org/x/crypto; this driver offers only what the standard library
// has, so a gateway must offer AES-128-GCM for the response side here.
func newChaCha(_ []byte) (cipher.AEAD, error) {
	return nil, errors.New("ChaCha20-Poly1305 responses need golang.org/x/crypto: use AES-128-GCM")
}
