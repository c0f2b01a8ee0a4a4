/**
 * ML-KEM-768 (FIPS 203) for the X-Wing KEM of the age `mlkem768x25519` recipient: node:crypto
 * (OpenSSL ≥ 3.5, Node ≥ 24.7: crypto.encapsulate / decapsulate) where the runtime has it,
 * @noble/post-quantum elsewhere. Same function on both paths; a test cross-checks them.
 *
 * Pitfalls:
 *  - Keys cross into OpenSSL as DER: SPKI for the 1184-byte encapsulation key, PKCS#8 in the
 *    seed-only form (d || z, 64 bytes) for the decapsulation key, with fixed prefixes.
 *  - An encapsulation key failing the FIPS 203 §7.2 modulus check is refused on both paths
 *    (OpenSSL at import, noble at encapsulation).
 *  - Decapsulation never fails on a wrong ciphertext (implicit rejection).
 */
import { sha3_256 as nobleSha3 } from '@noble/hashes/sha3.js';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { concatBytes } from './bytes.js';

type NodeCrypto = typeof import('node:crypto');
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | NodeCrypto
  | undefined;

const SPKI = new Uint8Array([
  0x30, 0x82, 0x04, 0xb2, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02, 0x03, 0x82, 0x04, 0xa1, 0x00,
]);
const PKCS8_SEED = new Uint8Array([
  0x30, 0x54, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02, 0x04, 0x42, 0x80, 0x40,
]);

export interface MlKemImpl {
  readonly name: 'node' | 'noble';
  /** Encaps(ek) with fresh randomness: ciphertext (1088) and shared secret (32). Throws on an invalid ek. */
  encapsulate(ek: Uint8Array): { cipherText: Uint8Array; sharedSecret: Uint8Array };
  /** KeyGen from the 64-byte seed d || z: the encapsulation key and a prepared Decaps. */
  fromSeed(seed: Uint8Array): { publicKey: Uint8Array; decapsulate(ct: Uint8Array): Uint8Array };
  sha3_256(...parts: Uint8Array[]): Uint8Array;
}

const nobleImpl: MlKemImpl = {
  name: 'noble',
  encapsulate: (ek) => ml_kem768.encapsulate(ek),
  fromSeed(seed) {
    const { publicKey, secretKey } = ml_kem768.keygen(seed);
    return { publicKey, decapsulate: (ct) => ml_kem768.decapsulate(ct, secretKey) };
  },
  sha3_256: (...parts) => {
    const h = nobleSha3.create();
    for (const p of parts) h.update(p);
    return h.digest();
  },
};

/** node:crypto's KEM functions (Node ≥ 24.7; not in the Node 20 typings this package builds with). */
interface NodeKem {
  encapsulate(key: import('node:crypto').KeyObject): { sharedKey: Uint8Array; ciphertext: Uint8Array };
  decapsulate(key: import('node:crypto').KeyObject, ciphertext: Uint8Array): Uint8Array;
}

function nodeImpl(c: NodeCrypto & NodeKem): MlKemImpl {
  return {
    name: 'node',
    encapsulate(ek) {
      const key = c.createPublicKey({ key: Buffer.from(concatBytes(SPKI, ek)), format: 'der', type: 'spki' });
      const r = c.encapsulate(key);
      return { cipherText: new Uint8Array(r.ciphertext), sharedSecret: new Uint8Array(r.sharedKey) };
    },
    fromSeed(seed) {
      const der = Buffer.from(concatBytes(PKCS8_SEED, seed));
      const key = c.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
      der.fill(0);
      const publicKey = new Uint8Array(c.createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(SPKI.length));
      return { publicKey, decapsulate: (ct) => new Uint8Array(c.decapsulate(key, ct)) };
    },
    sha3_256: (...parts) => {
      const h = c.createHash('sha3-256');
      for (const p of parts) h.update(p);
      return new Uint8Array(h.digest());
    },
  };
}

function nodeSupportsMlKem(c: NodeCrypto | undefined): c is NodeCrypto & NodeKem {
  if (!c || typeof (c as { encapsulate?: unknown }).encapsulate !== 'function') return false;
  try {
    c.generateKeyPairSync('ml-kem-768' as 'x25519');
    return true;
  } catch {
    return false;
  }
}

export const MLKEM_NOBLE = nobleImpl;
export const MLKEM: MlKemImpl = nodeSupportsMlKem(nodeCrypto) ? nodeImpl(nodeCrypto) : nobleImpl;
