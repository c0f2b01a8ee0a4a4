/**
 * X25519 (RFC 7748) for the age recipients: node:crypto (OpenSSL) where the runtime has it,
 * @noble/curves elsewhere (browsers, edge). Both compute the same function; a test checks it.
 *
 * node:crypto is reached with process.getBuiltinModule (Node ≥ 20.16), so no import of a
 * `node:` module reaches browser bundles; older Node falls back to noble.
 *
 * Pitfalls: never `generateKeyPairSync('x25519')` on Node 20: the key-generation job's destructor,
 * run by the GC, locks the key's mutex; a GC during an export of that key deadlocks the process.
 * The all-zero shared secret (low-order share) is rejected on both paths (age
 * requires it); raw 32-byte keys go to OpenSSL wrapped in fixed PKCS#8 / SPKI DER prefixes.
 */
import { x25519 as noble } from '@noble/curves/ed25519.js';
import { concatBytes } from '@nen/core';

type NodeCrypto = typeof import('node:crypto');
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | NodeCrypto
  | undefined;

const PKCS8 = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20]);
const SPKI = new Uint8Array([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00]);

/** Thrown when X25519 yields the all-zero shared secret (or the share is rejected outright). */
export class LowOrderError extends Error {}

function isZero(b: Uint8Array): boolean {
  let acc = 0;
  for (const x of b) acc |= x;
  return acc === 0;
}

export interface X25519Impl {
  readonly name: 'node' | 'noble';
  publicKey(secretKey: Uint8Array): Uint8Array;
  /** X25519(sk, pk); throws LowOrderError on the all-zero result. */
  shared(secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
  /** A fresh ephemeral pair: its public share and the shared secret with `peer`. */
  ephemeral(peer: Uint8Array): { share: Uint8Array; shared: Uint8Array };
  /** `shared` with `secretKey` prepared once (identities decapsulate many times). */
  bind(secretKey: Uint8Array): (publicKey: Uint8Array) => Uint8Array;
}

const nobleImpl: X25519Impl = {
  name: 'noble',
  publicKey: (sk) => noble.getPublicKey(sk),
  shared(sk, pk) {
    let ss: Uint8Array;
    try {
      ss = noble.getSharedSecret(sk, pk);
    } catch {
      throw new LowOrderError('X25519 all-zero shared secret');
    }
    if (isZero(ss)) throw new LowOrderError('X25519 all-zero shared secret');
    return ss;
  },
  ephemeral(peer) {
    const esk = crypto.getRandomValues(new Uint8Array(32));
    try {
      return { share: noble.getPublicKey(esk), shared: this.shared(esk, peer) };
    } finally {
      esk.fill(0);
    }
  },
  bind(sk) {
    const copy = sk.slice();
    return (pk) => nobleImpl.shared(copy, pk);
  },
};

function nodeImpl(c: NodeCrypto): X25519Impl {
  const priv = (sk: Uint8Array) => c.createPrivateKey({ key: Buffer.from(concatBytes(PKCS8, sk)), format: 'der', type: 'pkcs8' });
  const pub = (pk: Uint8Array) => c.createPublicKey({ key: Buffer.from(concatBytes(SPKI, pk)), format: 'der', type: 'spki' });
  const raw = (k: import('node:crypto').KeyObject) => new Uint8Array(k.export({ format: 'der', type: 'spki' }).subarray(SPKI.length));
  const derive = (privateKey: import('node:crypto').KeyObject, pk: Uint8Array) => {
    let ss: Uint8Array;
    try {
      ss = new Uint8Array(c.diffieHellman({ privateKey, publicKey: pub(pk) }));
    } catch {
      throw new LowOrderError('X25519 all-zero shared secret');
    }
    if (isZero(ss)) throw new LowOrderError('X25519 all-zero shared secret');
    return ss;
  };
  return {
    name: 'node',
    publicKey: (sk) => raw(c.createPublicKey(priv(sk))),
    shared: (sk, pk) => derive(priv(sk), pk),
    ephemeral(peer) {
      // A random scalar imported, not generateKeyPairSync: on Node 20 the KeyGenJob's destructor
      // (run by GC) takes the key's mutex, and a GC during an export of that key deadlocks.
      const sk = c.randomBytes(32);
      try {
        const privateKey = priv(sk);
        return { share: raw(c.createPublicKey(privateKey)), shared: derive(privateKey, peer) };
      } finally {
        sk.fill(0);
      }
    },
    bind(sk) {
      const k = priv(sk);
      return (pk) => derive(k, pk);
    },
  };
}

export const X25519_NOBLE = nobleImpl;
export const X25519: X25519Impl = nodeCrypto?.diffieHellman ? nodeImpl(nodeCrypto) : nobleImpl;
