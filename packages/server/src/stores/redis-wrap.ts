/**
 * Session secrets at rest in Redis (see ./redis.ts): each write wraps the secret with
 * ChaCha20-Poly1305 (RFC 8439) under K = HKDF-SHA256(salt, wrapKey, "nen/redis-wrap/v1", 32)
 * (RFC 5869) with a fresh 16-byte salt, nonce 0^12 (each K seals exactly one message), AAD =
 * label || len(id) || id || u64 epoch. Stored form: 0x01 || salt || ciphertext || tag (33 bytes of
 * overhead). A fresh key per write removes the random-nonce bound of a fixed key (2^32 wraps for a
 * 2^-33 nonce-collision chance): two writes share K only if their 128-bit salts collide (about
 * 2^-65 after 2^32 writes).
 *
 * Pitfall: a value that does not authenticate (tampered, moved to another session or epoch, wrong
 * wrapKey) unwraps to null: the caller fails closed (the session reads as unknown).
 */
import type { Aead, Backend } from '@nen/core';
import { NenConfigError } from '../errors.js';

const WRAP_VERSION = 0x01;
const WRAP_SALT_LENGTH = 16;
const WRAP_LABEL = new TextEncoder().encode('nen/redis-wrap/v1');
const ZERO_NONCE = new Uint8Array(12);
const TAG_LENGTH = 16;

function aadFor(id: string, epoch: number): Uint8Array {
  const idBytes = new TextEncoder().encode(id);
  const out = new Uint8Array(WRAP_LABEL.length + 1 + idBytes.length + 8);
  out.set(WRAP_LABEL, 0);
  out[WRAP_LABEL.length] = idBytes.length;
  out.set(idBytes, WRAP_LABEL.length + 1);
  new DataView(out.buffer).setBigUint64(out.length - 8, BigInt(epoch));
  return out;
}

function withWrapAead<T>(backend: Backend, wrapKey: Uint8Array, salt: Uint8Array, f: (aead: Aead) => T): T {
  const prk = backend.hkdfExtract(salt, wrapKey);
  const key = backend.hkdfExpand(prk, WRAP_LABEL, 32);
  prk.fill(0);
  const aead = backend.createAead(key);
  key.fill(0);
  try {
    return f(aead);
  } finally {
    aead.dispose();
  }
}

/**
 * The 32-byte wrap key from the value of NEN_STORE_KEY: SHA-256("nen/1 store key" || value).
 * Shared by the Redis store (./redis-env.ts) and the Durable Object store (../workers/), so one
 * NEN_STORE_KEY wraps secrets identically in both; `sha256` is the caller's (node:crypto or a Backend).
 */
export function storeKeyFromSecret(value: string, sha256: (data: Uint8Array) => Uint8Array): Uint8Array {
  if (value.length < 32)
    throw new NenConfigError('NEN_STORE_KEY must be at least 32 characters of secret randomness (use the NEN_STORE_KEY line that `nen keygen` prints)');
  return sha256(new TextEncoder().encode('nen/1 store key' + value));
}

/** 0x01 || salt(16) || ChaCha20-Poly1305(K, 0^12, aad, secret). */
export function wrap(backend: Backend, wrapKey: Uint8Array, id: string, epoch: number, secret: Uint8Array): Uint8Array {
  const salt = backend.randomBytes(WRAP_SALT_LENGTH);
  const sealed = withWrapAead(backend, wrapKey, salt, (aead) => aead.seal(ZERO_NONCE, aadFor(id, epoch), secret));
  const out = new Uint8Array(1 + WRAP_SALT_LENGTH + sealed.length);
  out[0] = WRAP_VERSION;
  out.set(salt, 1);
  out.set(sealed, 1 + WRAP_SALT_LENGTH);
  return out;
}

/** The secret, or null when the wrapped value does not authenticate (fails closed). */
export function unwrap(backend: Backend, wrapKey: Uint8Array, id: string, epoch: number, wrapped: Uint8Array): Uint8Array | null {
  if (wrapped.length < 1 + WRAP_SALT_LENGTH + TAG_LENGTH || wrapped[0] !== WRAP_VERSION || !Number.isSafeInteger(epoch) || epoch < 0) return null;
  const salt = wrapped.subarray(1, 1 + WRAP_SALT_LENGTH);
  try {
    return withWrapAead(backend, wrapKey, salt, (aead) => aead.open(ZERO_NONCE, aadFor(id, epoch), wrapped.subarray(1 + WRAP_SALT_LENGTH)));
  } catch {
    return null;
  }
}

/**
 * Unwrapped secrets in a bounded LRU keyed by (id, epoch, exact wrapped bytes), so the steady state
 * (one commit per request) skips the HKDF + AEAD unwrap (~28 µs with node:crypto). A hit needs the
 * very bytes that authenticated before under the same id and epoch (the AAD), so it is exactly as
 * strict as unwrapping again; evicted and cleared copies are wiped.
 */
export class UnwrapCache {
  readonly #map = new Map<string, Uint8Array>();
  constructor(private readonly max: number) {}

  unwrap(backend: Backend, wrapKey: Uint8Array, id: string, epoch: number, wrapped: Uint8Array): Uint8Array | null {
    const cacheKey = this.#key(id, epoch, wrapped);
    const hit = this.#map.get(cacheKey);
    if (hit) {
      this.#map.delete(cacheKey);
      this.#map.set(cacheKey, hit);
      return Uint8Array.from(hit);
    }
    const secret = unwrap(backend, wrapKey, id, epoch, wrapped);
    if (secret && this.max > 0) this.#put(cacheKey, Uint8Array.from(secret));
    return secret;
  }

  #key(id: string, epoch: number, wrapped: Uint8Array): string {
    return `${id}\0${epoch}\0${Buffer.from(wrapped.buffer, wrapped.byteOffset, wrapped.byteLength).toString('latin1')}`;
  }

  #put(cacheKey: string, copy: Uint8Array): void {
    this.#map.get(cacheKey)?.fill(0);
    this.#map.delete(cacheKey);
    this.#map.set(cacheKey, copy);
    if (this.#map.size > this.max) {
      const oldest = this.#map.keys().next().value;
      if (oldest !== undefined) {
        this.#map.get(oldest)?.fill(0);
        this.#map.delete(oldest);
      }
    }
  }

  /**
   * Records a secret this process just wrapped (create, update): the next read of exactly those
   * stored bytes needs no unwrap. Same strictness: any other bytes miss the cache.
   */
  remember(id: string, epoch: number, wrapped: Uint8Array, secret: Uint8Array): void {
    if (this.max <= 0) return;
    this.#put(this.#key(id, epoch, wrapped), Uint8Array.from(secret));
  }

  clear(): void {
    for (const secret of this.#map.values()) secret.fill(0);
    this.#map.clear();
  }
}
