/**
 * Input checks shared by every backend, so all of them reject bad input with the same typed
 * error and stable code (see ERROR_CODES.md):
 *  - NEN_CRYPTO_LENGTH      a byte string has the wrong length or is not a Uint8Array;
 *  - NEN_CRYPTO_KEY         a key is malformed (e.g. an ML-KEM encapsulation key failing the
 *                           FIPS 203 §7.2 modulus check, an X25519 low-order point);
 *  - NEN_CRYPTO_AEAD        a ChaCha20-Poly1305 tag did not verify (RFC 8439 §2.8);
 *  - NEN_CRYPTO_UNSUPPORTED an unknown KEM id or an unavailable backend;
 *  - NEN_CRYPTO_DISPOSED    a key object was used after dispose().
 *
 * Pitfall: messages name the parameter and the expected size, never the bytes themselves.
 */
import { NenCryptoError } from '../errors.js';
import { AEAD_NONCE_LENGTH, AEAD_TAG_LENGTH, KEM_ID, KEM_SIZES, type KemId } from './types.js';

export function assertBytes(value: unknown, name: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new NenCryptoError('NEN_CRYPTO_LENGTH', `nen: ${name} must be a Uint8Array`);
  }
}

export function assertLength(value: unknown, length: number, name: string): asserts value is Uint8Array {
  assertBytes(value, name);
  if (value.length !== length) {
    throw new NenCryptoError('NEN_CRYPTO_LENGTH', `nen: ${name} must be ${length} bytes, got ${value.length}`);
  }
}

export function assertKem(kem: unknown): asserts kem is KemId {
  if (kem !== KEM_ID.XWING && kem !== KEM_ID.MLKEM768) {
    throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', `nen: unsupported KEM id ${String(kem)}`);
  }
}

/** RFC 5869 §2.3: HKDF-Expand output is at most 255 * HashLen (8160 bytes for SHA-256). */
export const HKDF_SHA256_MAX_OUTPUT = 255 * 32;

export function assertOutputLength(length: unknown, name = 'length'): asserts length is number {
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || length > HKDF_SHA256_MAX_OUTPUT) {
    throw new NenCryptoError('NEN_CRYPTO_LENGTH', `nen: ${name} must be an integer in 0..${HKDF_SHA256_MAX_OUTPUT}`);
  }
}

export function kemSizes(kem: KemId): { publicKey: number; privateKey: number; enc: number } {
  return KEM_SIZES[kem];
}

export function disposedError(what: string): NenCryptoError {
  return new NenCryptoError('NEN_CRYPTO_DISPOSED', `nen: ${what} was disposed and cannot be used`);
}

/** Overwrites secret bytes in place (best effort: JS cannot guarantee copies were not made). */
export function wipe(...arrays: (Uint8Array | undefined | null)[]): void {
  for (const a of arrays) if (a) a.fill(0);
}

/** Custom inspection so `util.inspect`, `String()` and `JSON.stringify` never show key bytes. */
export const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** What a key object prints: its kind, backend and KEM, never key bytes. */
export interface KeyHandleJson {
  type: 'Aead' | 'HpkeRecipientKey' | 'HpkeSenderKey';
  backend: 'noble' | 'node' | 'wasm';
  kem?: KemId;
}

/**
 * Base of every backend's Aead and HpkeRecipientKey: `using` support ([Symbol.dispose] calls
 * dispose()) and one printed form derived from toJSON() for `String()` and `util.inspect`.
 */
export abstract class KeyHandle {
  abstract dispose(): void;
  abstract toJSON(): KeyHandleJson;
  [Symbol.dispose](): void {
    this.dispose();
  }
  toString(): string {
    const { type, backend, kem } = this.toJSON();
    return `[${type} ${backend}${kem === undefined ? '' : ` kem=0x${kem.toString(16)}`}]`;
  }
  [INSPECT](): string {
    return this.toString();
  }
}

/**
 * The first checks of every Aead.seal / open: the object is not disposed (its key slot is set),
 * the nonce is 96 bits (RFC 8439 §2.8) and the associated data is bytes. Returns the key slot.
 */
export function useAeadKey<T>(slot: T | null, nonce: Uint8Array, aad: Uint8Array): T {
  if (!slot) throw disposedError('Aead');
  assertLength(nonce, AEAD_NONCE_LENGTH, 'nonce');
  assertBytes(aad, 'associated data');
  return slot;
}

/** ciphertext || tag must be a Uint8Array at least one ChaCha20-Poly1305 tag long (RFC 8439 §2.8). */
export function assertCiphertextAndTag(value: unknown): asserts value is Uint8Array {
  assertBytes(value, 'ciphertext');
  if (value.length < AEAD_TAG_LENGTH) {
    throw new NenCryptoError('NEN_CRYPTO_LENGTH', `nen: ciphertext shorter than the ${AEAD_TAG_LENGTH}-byte tag`);
  }
}

/** Argument checks of SealBase / OpenBase (RFC 9180 §6.1): info, aad and the message are bytes. */
export function assertSealArgs(info: unknown, aad: unknown, message: unknown, what: 'plaintext' | 'ciphertext'): void {
  assertBytes(info, 'info');
  assertBytes(aad, 'associated data');
  if (what === 'ciphertext') assertCiphertextAndTag(message);
  else assertBytes(message, what);
}

export { randomBytes } from './random.js';
