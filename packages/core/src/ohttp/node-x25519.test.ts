/**
 * ./node-x25519.ts: a static X25519 scalar held in OpenSSL gives RFC 7748 §6.1's answer and
 * @noble's for fresh shares, refuses low-order shares with NEN_CRYPTO_KEY and a disposed key with
 * NEN_CRYPTO_DISPOSED, and is skipped where node:crypto is not reachable; DHKEM(X25519)
 * OhttpPrivateKeys decapsulate to the same bytes either way (RFC 9458 Appendix A runs through it
 * in ../../test/rfc9458-appendix-a.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from '../backend/random.js';
import { x25519 as nobleX25519 } from '../backend/x25519-noble.js';
import { OHTTP_KEM, OhttpPrivateKey, encap, generateOhttpPrivateKey } from './hpke.js';
import { NodeX25519Static, staticX25519 } from './node-x25519.js';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const BASE = hex('0900000000000000000000000000000000000000000000000000000000000000');

describe('static X25519 scalars in OpenSSL', () => {
  it('RFC 7748 §6.1: Alice and Bob agree on K', () => {
    const a = hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
    const pubA = hex('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
    const pubB = hex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
    const key = staticX25519(a, pubA);
    if (!key) throw new Error('staticX25519 gave undefined on Node.js');
    expect(toHex(key.dh(pubB))).toBe('4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742');
    key.dispose();
    expect(() => key.dh(pubB)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_DISPOSED' }));
  });

  it("equals @noble's X25519 for fresh shares; low-order shares are NEN_CRYPTO_KEY", () => {
    const sk = randomBytes(32);
    const key = staticX25519(sk, nobleX25519.scalarMult(sk, BASE)) as NodeX25519Static;
    for (let i = 0; i < 20; i++) {
      const u = nobleX25519.scalarMult(randomBytes(32), BASE);
      expect(toHex(key.dh(u))).toBe(toHex(nobleX25519.getSharedSecret(sk, u)));
    }
    const one = new Uint8Array(32);
    one[0] = 1;
    for (const u of [new Uint8Array(32), one]) expect(() => key.dh(u)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    key.dispose();
  });

  it('OhttpPrivateKey(X25519) decapsulates to the same bytes with and without node:crypto', () => {
    const sk = generateOhttpPrivateKey(OHTTP_KEM.X25519);
    const p = process as { getBuiltinModule?: unknown };
    const saved = p.getBuiltinModule;
    let plain: OhttpPrivateKey;
    p.getBuiltinModule = undefined;
    try {
      expect(NodeX25519Static.create(sk, new Uint8Array(32))).toBeUndefined();
      plain = new OhttpPrivateKey(OHTTP_KEM.X25519, sk);
    } finally {
      p.getBuiltinModule = saved;
    }
    const fast = new OhttpPrivateKey(OHTTP_KEM.X25519, sk);
    for (let i = 0; i < 5; i++) {
      const e = encap(OHTTP_KEM.X25519, fast.publicKey);
      expect(toHex(fast.decap(e.enc))).toBe(toHex(e.sharedSecret));
      expect(toHex(plain.decap(e.enc))).toBe(toHex(e.sharedSecret));
    }
    expect(() => fast.decap(new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    fast.dispose();
    plain.dispose();
    expect(() => fast.decap(new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_DISPOSED' }));
  });
});
