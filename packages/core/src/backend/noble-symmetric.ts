/**
 * The symmetric half of the @noble backend: HKDF-SHA256 (RFC 5869), HMAC-SHA256, SHA-256 and
 * ChaCha20-Poly1305 (RFC 8439 §2.8) on @noble/hashes and @noble/ciphers, plus the platform's
 * randomness. ./noble.ts adds the KEMs (ML-KEM-768, X-Wing) to make the full backend; a browser
 * whose WebCrypto has the client handshake's KEMs runs on this half alone until something asks
 * for the synchronous KEMs (./index.browser.ts), so its page does not load @noble's ML-KEM.
 *
 * Pitfalls:
 *  - Must not import ML-KEM or X25519 code (it is in a browser page's initial chunk).
 *  - The AEAD key is copied and wiped on dispose (best effort: JS cannot guarantee zeroization).
 */
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { extract as hkdfExtractNoble, expand as hkdfExpandNoble } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { NenCryptoError } from '../errors.js';
import type { HkdfSha256 } from './hpke.js';
import { AEAD_KEY_LENGTH, type Aead, type Backend } from './types.js';
import { KeyHandle, type KeyHandleJson, assertBytes, assertCiphertextAndTag, assertLength, assertOutputLength, randomBytes, useAeadKey, wipe } from './util.js';

export const nobleHkdf: HkdfSha256 = {
  extract: (salt, ikm) => hkdfExtractNoble(sha256, ikm, salt),
  expand: (prk, info, length) => hkdfExpandNoble(sha256, prk, info, length),
};

class NobleAead extends KeyHandle implements Aead {
  #key: Uint8Array | null;
  constructor(key: Uint8Array) {
    super();
    assertLength(key, AEAD_KEY_LENGTH, 'ChaCha20-Poly1305 key');
    this.#key = key.slice();
  }
  seal(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
    const key = useAeadKey(this.#key, nonce, aad);
    assertBytes(plaintext, 'plaintext');
    return chacha20poly1305(key, nonce, aad).encrypt(plaintext);
  }
  open(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Uint8Array {
    const key = useAeadKey(this.#key, nonce, aad);
    assertCiphertextAndTag(ciphertextAndTag);
    try {
      return chacha20poly1305(key, nonce, aad).decrypt(ciphertextAndTag);
    } catch {
      throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed');
    }
  }
  dispose(): void {
    wipe(this.#key);
    this.#key = null;
  }
  toJSON(): KeyHandleJson {
    return { type: 'Aead', backend: 'noble' };
  }
}

/** The Backend methods without a KEM, on @noble. */
export type SymmetricBackend = Pick<Backend, 'name' | 'randomBytes' | 'sha256' | 'hmacSha256' | 'hkdfExtract' | 'hkdfExpand' | 'createAead'>;

export const nobleSymmetric: SymmetricBackend = /* @__PURE__ */ Object.freeze({
  name: 'noble' as const,
  randomBytes,
  sha256(data: Uint8Array) {
    assertBytes(data, 'data');
    return sha256(data);
  },
  hmacSha256(key: Uint8Array, data: Uint8Array) {
    assertBytes(key, 'key');
    assertBytes(data, 'data');
    return hmac(sha256, key, data);
  },
  hkdfExtract(salt: Uint8Array, ikm: Uint8Array) {
    assertBytes(salt, 'salt');
    assertBytes(ikm, 'ikm');
    return nobleHkdf.extract(salt, ikm);
  },
  hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number) {
    assertBytes(prk, 'prk');
    assertBytes(info, 'info');
    assertOutputLength(length);
    if (prk.length < 32) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: prk must be at least 32 bytes');
    return nobleHkdf.expand(prk, info, length);
  },
  createAead: (key: Uint8Array) => new NobleAead(key),
});
