/**
 * Synchronous ChaCha20-Poly1305 (RFC 8439 §2.8) and AES-128/256-GCM (NIST SP 800-38D) on OpenSSL
 * where the runtime is Node.js, for synchronous callers that cannot await a loaded backend (the
 * OHTTP HPKE in ../ohttp/hpke.ts); elsewhere `nodeAead()` is undefined and the caller uses @noble.
 *
 * Pitfalls:
 *  - node:crypto comes through `process.getBuiltinModule` (Node ≥ 20.16), never a static `node:`
 *    import (bundlers for browsers / Edge never see it); Edge's `process` is not touched.
 *  - The tag is 16 bytes (`authTagLength: 16`); the decipher needs `setAAD(aad, { plaintextLength })`
 *    before `update` and `final()` throws on a wrong tag: no plaintext is returned before it passed.
 */
import { NenCryptoError } from '../errors.js';

interface Cipher {
  setAAD(aad: Uint8Array, o: { plaintextLength: number }): unknown;
  update(b: Uint8Array): Uint8Array;
  final(): Uint8Array;
  getAuthTag(): Uint8Array;
  setAuthTag(t: Uint8Array): unknown;
}
interface NodeCrypto {
  createCipheriv(alg: string, key: Uint8Array, iv: Uint8Array, o: { authTagLength: number }): Cipher;
  createDecipheriv(alg: string, key: Uint8Array, iv: Uint8Array, o: { authTagLength: number }): Cipher;
}

export interface SyncAead {
  seal(alg: string, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array): Uint8Array;
  /** Throws NenCryptoError('NEN_CRYPTO_AEAD') when the tag does not verify. */
  open(alg: string, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, ct: Uint8Array): Uint8Array;
}

const TAG = 16;

function load(): NodeCrypto | undefined {
  const g = globalThis as { EdgeRuntime?: unknown; process?: { getBuiltinModule?: (id: string) => unknown } };
  if (typeof g.EdgeRuntime === 'string') return undefined;
  try {
    const p = g.process;
    const get = p?.getBuiltinModule;
    const c = typeof get === 'function' ? (get.call(p, 'node:crypto') as NodeCrypto | undefined) : undefined;
    return c && typeof c.createCipheriv === 'function' ? c : undefined;
  } catch {
    return undefined;
  }
}

function concat(a: Uint8Array, b: Uint8Array, c: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length + c.length);
  out.set(a);
  out.set(b, a.length);
  out.set(c, a.length + b.length);
  return out;
}

function create(c: NodeCrypto): SyncAead {
  return {
    seal(alg, key, nonce, aad, pt) {
      const ci = c.createCipheriv(alg, key, nonce, { authTagLength: TAG });
      ci.setAAD(aad, { plaintextLength: pt.length });
      const body = ci.update(pt);
      const fin = ci.final();
      return concat(body, fin, ci.getAuthTag());
    },
    open(alg, key, nonce, aad, ct) {
      if (ct.length < TAG) throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed');
      const n = ct.length - TAG;
      const de = c.createDecipheriv(alg, key, nonce, { authTagLength: TAG });
      de.setAuthTag(ct.subarray(n));
      de.setAAD(aad, { plaintextLength: n });
      const body = de.update(ct.subarray(0, n));
      let fin: Uint8Array;
      try {
        fin = de.final();
      } catch {
        body.fill(0);
        throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed');
      }
      return concat(body, fin, new Uint8Array(0));
    },
  };
}

let cached: SyncAead | null | undefined;
/** The node:crypto AEADs when this is Node.js, else undefined. */
export function nodeAead(): SyncAead | undefined {
  if (cached === undefined) {
    const c = load();
    cached = c ? create(c) : null;
  }
  return cached ?? undefined;
}
