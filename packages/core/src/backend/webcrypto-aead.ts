/**
 * A ChaCha20-Poly1305 (RFC 8439 §2.8) Aead whose single messages run on the platform's WebCrypto
 * (`sealAsync` / `openAsync`: Chromium 156, Node 24, 'raw-secret' keys) and whose synchronous
 * `seal` / `open` (stream records, one per chunk) stay on the given @noble Aead. A page's first
 * request then never compiles @noble's ChaCha20 / Poly1305 JS (bench/README.md "Browser").
 *
 * Pitfalls:
 *  - The key is imported once, asynchronously, at construction (non-extractable); until it
 *    resolves, `sealAsync` / `openAsync` copy their inputs first, because callers reuse and wipe
 *    their nonce, AAD and plaintext buffers as soon as the call returns (protocol/message.ts,
 *    client withUtf8). Once it has resolved, WebCrypto copies them itself, at the call.
 *  - A failed tag is NEN_CRYPTO_AEAD, as on every backend; a disposed key NEN_CRYPTO_DISPOSED
 *    (also when disposed while the import was in flight); WebCrypto failing a seal (not expected
 *    after the probe) NEN_CRYPTO_UNSUPPORTED.
 */
import { NenCryptoError } from '../errors.js';
import type { Aead } from './types.js';
import { KeyHandle, type KeyHandleJson, assertBytes, assertCiphertextAndTag, disposedError, useAeadKey } from './util.js';
import { CHACHA, type SymmetricSubtle } from './webcrypto-symmetric.js';

export class WebCryptoAead extends KeyHandle implements Aead {
  readonly #s: SymmetricSubtle;
  #sync: Aead | null;
  #pending: Promise<CryptoKey> | null;
  #key: CryptoKey | null = null;

  constructor(s: SymmetricSubtle, key: Uint8Array, sync: Aead) {
    super();
    this.#s = s;
    this.#sync = sync; // checked the key's length and copied it
    this.#pending = s.importKey('raw-secret', key, CHACHA, false, ['encrypt', 'decrypt']);
    this.#pending.then(
      (k) => {
        if (this.#sync) this.#key = k;
      },
      () => {},
    );
  }

  seal(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
    return useAeadKey(this.#sync, nonce, aad).seal(nonce, aad, plaintext);
  }

  open(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Uint8Array {
    return useAeadKey(this.#sync, nonce, aad).open(nonce, aad, ciphertextAndTag);
  }

  /** The CryptoKey now, or after its import (with copies of the inputs, which callers reuse). */
  #run(nonce: Uint8Array, aad: Uint8Array, data: Uint8Array, op: (k: CryptoKey, p: object, d: Uint8Array) => Promise<ArrayBuffer>): Promise<ArrayBuffer> {
    useAeadKey(this.#sync, nonce, aad);
    if (this.#key) return op(this.#key, { ...CHACHA, iv: nonce, additionalData: aad }, data);
    const p = { ...CHACHA, iv: nonce.slice(), additionalData: aad.slice() };
    const d = data.slice();
    return (this.#pending as Promise<CryptoKey>).then((k) => {
      if (!this.#sync) throw disposedError('Aead');
      return op(k, p, d);
    });
  }

  async sealAsync(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Promise<Uint8Array> {
    assertBytes(plaintext, 'plaintext');
    const sealed = this.#run(nonce, aad, plaintext, (k, p, d) => this.#s.encrypt(p, k, d));
    try {
      return new Uint8Array(await sealed);
    } catch (cause) {
      if (cause instanceof NenCryptoError) throw cause;
      throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', "nen: WebCrypto's ChaCha20-Poly1305 failed", { cause });
    }
  }

  async openAsync(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Promise<Uint8Array> {
    assertCiphertextAndTag(ciphertextAndTag);
    const opened = this.#run(nonce, aad, ciphertextAndTag, (k, p, d) => this.#s.decrypt(p, k, d));
    try {
      return new Uint8Array(await opened);
    } catch (e) {
      if (e instanceof NenCryptoError) throw e;
      throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed');
    }
  }

  dispose(): void {
    this.#sync?.dispose();
    this.#sync = null;
    this.#key = null;
    this.#pending = null;
  }

  toJSON(): KeyHandleJson {
    return { type: 'Aead', backend: 'noble' };
  }
}
