/**
 * node:crypto for the OHTTP gateway's static X25519 scalars (RFC 7748 §5): the scalar imported
 * ONCE per key as an OpenSSL KeyObject, per request only the peer's public JWK import and one
 * `diffieHellman`. Used for X-Wing's X25519 half (./xwing-split.ts) and DHKEM(X25519) 0x0020
 * (./hpke.ts), whose per-request path otherwise imports the private scalar again (OpenSSL
 * derives its public key: a second ladder) on every request.
 *
 * Pitfalls:
 *  - node:crypto / node:buffer come through `process.getBuiltinModule` (never a static `node:`
 *    import: this module is in browser / Edge bundles through ./hpke.ts); Edge's `process` is not
 *    touched. Callers self-test a key once against another implementation before using it
 *    (workerd's nodejs_compat, Bun, Deno may have a partial node:crypto).
 *  - OpenSSL refuses an all-zero result (low-order share): NEN_CRYPTO_KEY, as the Wasm and @noble.
 *  - The base64url string of the scalar handed to the JWK import cannot be wiped (immutable
 *    strings, as in ../backend/node-xwing.ts); dispose() drops the KeyObject.
 */
import { nodeBuiltin } from '../backend/node-builtin.js';
import { randomBytes } from '../backend/random.js';
import { disposedError, wipe } from '../backend/util.js';
import { x25519Dh, x25519Public } from '../backend/x25519-fast.js';
import { NenCryptoError } from '../errors.js';

export interface Hash {
  update(b: Uint8Array): Hash;
  digest(): Uint8Array;
}
export interface NodeCrypto {
  createHash(alg: string, o?: { outputLength: number }): Hash;
  createPrivateKey(o: { key: object; format: 'jwk' }): unknown;
  createPublicKey(o: { key: object; format: 'jwk' } | unknown): { export(o: { format: 'jwk' }): { x?: string } };
  diffieHellman(o: { privateKey: unknown; publicKey: unknown }): Uint8Array;
}
interface NodeBuffer {
  from(b: ArrayBufferLike, offset: number, length: number): { toString(enc: 'base64url'): string };
  from(s: string, enc: 'base64url'): Uint8Array;
}
/** node:crypto and the base64url codecs its JWKs need. */
export interface NodeModules {
  readonly crypto: NodeCrypto;
  b64url(u: Uint8Array): string;
  fromB64url(s: string): Uint8Array;
}

/** node:crypto and Buffer where the runtime is Node.js (not Edge), else undefined. */
export function nodeModules(): NodeModules | undefined {
  const crypto = nodeBuiltin<NodeCrypto>('node:crypto');
  const buffer = nodeBuiltin<{ Buffer?: NodeBuffer }>('node:buffer')?.Buffer;
  if (!crypto || !buffer || typeof crypto.diffieHellman !== 'function' || typeof crypto.createHash !== 'function') return undefined;
  return {
    crypto,
    b64url: (u) => buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64url'),
    fromB64url: (x) => buffer.from(x, 'base64url'),
  };
}

/** A static X25519 scalar held in OpenSSL. */
export class NodeX25519Static {
  readonly #c: NodeCrypto;
  readonly #b64url: (u: Uint8Array) => string;
  #sk: unknown;
  private constructor(m: NodeModules, sk: unknown) {
    this.#c = m.crypto;
    this.#b64url = m.b64url;
    this.#sk = sk;
  }

  /** The scalar `sk` (its public key `pk`) imported once, or undefined without node:crypto. Throws on a bad key. */
  static create(sk: Uint8Array, pk: Uint8Array): NodeX25519Static | undefined {
    const m = nodeModules();
    if (!m) return undefined;
    return new NodeX25519Static(m, m.crypto.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: m.b64url(sk), x: m.b64url(pk) }, format: 'jwk' }));
  }

  /** X25519(sk, u) as a Buffer-backed array (the caller wipes it); a low-order u is NEN_CRYPTO_KEY. */
  dh(u: Uint8Array): Uint8Array {
    if (this.#sk === null) throw disposedError('OhttpPrivateKey');
    try {
      const publicKey = this.#c.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: this.#b64url(u) }, format: 'jwk' });
      return this.#c.diffieHellman({ privateKey: this.#sk, publicKey });
    } catch (cause) {
      throw new NenCryptoError('NEN_CRYPTO_KEY', 'nen: X25519 share is a low-order point', { cause });
    }
  }

  dispose(): void {
    this.#sk = null;
  }
}

/**
 * DHKEM(X25519)'s static scalar in OpenSSL after one self-test (X25519 with a fresh share equals
 * ../backend/x25519-fast.ts, itself checked against RFC 7748 §6.1), or undefined (the caller
 * keeps x25519Dh per request).
 */
export function staticX25519(sk: Uint8Array, pk: Uint8Array): NodeX25519Static | undefined {
  let key: NodeX25519Static | undefined;
  try {
    key = NodeX25519Static.create(sk, pk);
    if (!key) return undefined;
    const e = randomBytes(32);
    const u = x25519Public(e);
    const mine = key.dh(u);
    const ref = x25519Dh(sk, u);
    const ok = mine.length === 32 && mine.every((v, i) => v === ref[i]);
    wipe(e, mine, ref);
    if (ok) return key;
  } catch {
    /* fall through: the caller keeps x25519Dh */
  }
  key?.dispose();
  return undefined;
}
