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
 */
import { x25519 as nobleX25519 } from '@noble/curves/ed25519.js';
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
  const g = globalThis as { EdgeRuntime?: unknown; process?: { getBuiltinModule?: (id: string) => unknown } };
  if (typeof g.EdgeRuntime === 'string') return undefined;
  try {
    const p = g.process;
    const get = p?.getBuiltinModule;
    const c = typeof get === 'function' ? (get.call(p, 'node:crypto') as NodeCrypto | undefined) : undefined;
    return c && typeof c.diffieHellman === 'function' && typeof c.createPrivateKey === 'function' ? c : undefined;
  } catch {
    return undefined;
  }
}

let cached: NodeCrypto | null | undefined;
function node(): NodeCrypto | undefined {
  if (cached === undefined) cached = nodeCrypto() ?? null;
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

/** X25519(k, u): the shared secret; a low-order u is NEN_CRYPTO_KEY. */
export function x25519Dh(k: Uint8Array, u: Uint8Array): Uint8Array {
  const c = node();
  if (!c) {
    try {
      return nobleX25519.getSharedSecret(k, u);
    } catch (e) {
      throw lowOrder(e);
    }
  }
  let out: Uint8Array & { fill(v: number): unknown };
  try {
    const privateKey = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64url(k), x: '' }, format: 'jwk' });
    const publicKey = c.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64url(u) }, format: 'jwk' });
    out = c.diffieHellman({ privateKey, publicKey });
  } catch (e) {
    throw lowOrder(e);
  }
  const copy = new Uint8Array(out);
  out.fill(0);
  return copy;
}

/** X25519(k, 9): the public key of scalar k. */
export function x25519Public(k: Uint8Array): Uint8Array {
  const c = node();
  if (!c) return nobleX25519.scalarMult(k, BASE);
  const sk = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64url(k), x: '' }, format: 'jwk' });
  const x = c.createPublicKey(sk).export({ format: 'jwk' }).x as string;
  const bin = atob(x.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
