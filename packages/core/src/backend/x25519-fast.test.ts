/**
 * ./x25519-fast.ts against @noble's X25519: same public keys and shared secrets on random
 * scalars, a low-order share refused with NEN_CRYPTO_KEY (RFC 7748 §6.1).
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { randomBytes } from './random.js';
import { x25519Dh, x25519Public } from './x25519-fast.js';

describe('x25519-fast', () => {
  it('matches noble on random scalars (public key and DH)', () => {
    for (let i = 0; i < 32; i++) {
      const a = randomBytes(32);
      const b = randomBytes(32);
      expect(x25519Public(a)).toEqual(x25519.getPublicKey(a));
      expect(x25519Dh(a, x25519.getPublicKey(b))).toEqual(x25519.getSharedSecret(a, x25519.getPublicKey(b)));
    }
  });
  it('refuses a low-order share with NEN_CRYPTO_KEY', () => {
    for (const u of [new Uint8Array(32), Uint8Array.of(1, ...new Uint8Array(31))]) {
      expect(() => x25519Dh(randomBytes(32), u)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    }
  });
});
