/**
 * Synchronous X25519 (RFC 7748 §5, §6.1) on OpenSSL where the runtime is Node.js, @noble's
 * Montgomery ladder elsewhere (browsers, Edge, Workers). For synchronous callers that cannot await
 * a loaded backend (the OHTTP HPKE in ../ohttp/hpke.ts). On the loaded 2-core machine a noble
 * ladder costs 1.5-2 ms, node:crypto ≈ 50 µs (keys imported as JWK, see ./node-xwing.ts).
 *
 * Pitfalls:
 *  - node:crypto is reached through `process.getBuiltinModule` (Node ≥ 20.16), never a static
 *    `node:` import, so bundlers for the browser / Edge never see it; Edge's `process` is skipped.
 *  - A low-order peer share gives an all-zero secret: OpenSSL refuses it, noble throws; both are
 *    NEN_CRYPTO_KEY. Both paths give the same bytes (the RFC 9458 / X-Wing vectors run through this).
 *  - The base64url strings handed to the JWK import cannot be wiped (as in ./node-xwing.ts).
 *  - Runtimes with a partial node:crypto behind `getBuiltinModule` (workerd with nodejs_compat,
 *    Bun, Deno) must not get wrong bytes: node:crypto is used only after the RFC 7748 §6.1
 *    known answer passed once, else noble.
 */
import { x25519 as nobleX25519 } from './x25519-noble.js';
import { nodeBuiltin } from './node-builtin.js';
import { NenCryptoError } from '../errors.js';

interface NodeCrypto {
  createPrivateKey(o: { key: object; format: 'jwk' }): unknown;
  createPublicKey(o: { key: object; format: 'jwk' } | unknown): { export(o: { format: 'jwk' }): { x?: string } };
  diffieHellman(o: { privateKey: unknown; publicKey: unknown }): Uint8Array & { fill(v: number): unknown };
}

/** The X25519 base point u = 9 (RFC 7748 §4.1). */
const BASE = /* @__PURE__ */ (() => {
  const u = new Uint8Array(32);
  u[0] = 9;
  return u;
})();

function nodeCrypto(): NodeCrypto | undefined {
  const c = nodeBuiltin<NodeCrypto>('node:crypto');
  return c && typeof c.diffieHellman === 'function' && typeof c.createPrivateKey === 'function' ? c : undefined;
}

const hex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

/** RFC 7748 §6.1 known answer: runtimes with a partial node:crypto (workerd, Bun, Deno) that fail it use noble. */
function passesKnownAnswer(c: NodeCrypto): boolean {
  try {
    const a = hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
    const pubB = hex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
    const k = hex('4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742');
    const pubA = hex('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
    return equal(nodeDh(c, a, pubB), k) && equal(nodePublic(c, a), pubA);
  } catch {
    return false;
  }
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

let cached: NodeCrypto | null | undefined;
function node(): NodeCrypto | undefined {
  if (cached === undefined) {
    const c = nodeCrypto();
    cached = c && passesKnownAnswer(c) ? c : null;
  }
  return cached ?? undefined;
}

const b64url = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i] as number);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

function lowOrder(cause: unknown): NenCryptoError {
  return new NenCryptoError('NEN_CRYPTO_KEY', 'nen: invalid X25519 share', { cause });
}

function nodeDh(c: NodeCrypto, k: Uint8Array, u: Uint8Array): Uint8Array {
  const privateKey = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64url(k), x: '' }, format: 'jwk' });
  const publicKey = c.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64url(u) }, format: 'jwk' });
  const out = c.diffieHellman({ privateKey, publicKey });
  const copy = new Uint8Array(out);
  out.fill(0);
  return copy;
}

function nodePublic(c: NodeCrypto, k: Uint8Array): Uint8Array {
  const sk = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64url(k), x: '' }, format: 'jwk' });
  const x = c.createPublicKey(sk).export({ format: 'jwk' }).x as string;
  const bin = atob(x.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** X25519(k, u): the shared secret; a low-order u is NEN_CRYPTO_KEY. */
export function x25519Dh(k: Uint8Array, u: Uint8Array): Uint8Array {
  const c = node();
  try {
    return c ? nodeDh(c, k, u) : nobleX25519.getSharedSecret(k, u);
  } catch (e) {
    throw lowOrder(e);
  }
}

/** X25519(k, 9): the public key of scalar k. */
export function x25519Public(k: Uint8Array): Uint8Array {
  const c = node();
  return c ? nodePublic(c, k) : nobleX25519.scalarMult(k, BASE);
}
