/**
 * ./aead-fast.ts (node:crypto) against @noble/ciphers: same ciphertext || tag for ChaCha20-Poly1305
 * and AES-128/256-GCM, round trips, any flipped bit or a short input is NEN_CRYPTO_AEAD.
 */
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { describe, expect, it } from 'vitest';
import { nodeAead } from './aead-fast.js';
import { randomBytes } from './random.js';

const SUITES = [
  ['chacha20-poly1305', 32, chacha20poly1305],
  ['aes-128-gcm', 16, gcm],
  ['aes-256-gcm', 32, gcm],
] as const;

describe('aead-fast', () => {
  const a = nodeAead('chacha20-poly1305');
  it('is available on Node.js (each cipher passed its known answer), not for an unknown cipher', () => {
    for (const [alg] of SUITES) expect(nodeAead(alg)).toBeDefined();
    expect(nodeAead('no-such-cipher')).toBeUndefined();
  });
  for (const [alg, nk, ref] of SUITES) {
    it(`${alg}: equals @noble/ciphers, round trips, refuses tampering`, () => {
      if (!a) throw new Error('no node:crypto');
      for (const len of [0, 1, 1024, 70_000]) {
        const key = randomBytes(nk);
        const nonce = randomBytes(12);
        const aad = randomBytes(len % 7);
        const pt = randomBytes(len);
        const ct = a.seal(alg, key, nonce, aad, pt);
        expect(ct).toEqual(ref(key, nonce, aad).encrypt(pt));
        expect(a.open(alg, key, nonce, aad, ct)).toEqual(pt);
        const bad = ct.slice();
        bad[bad.length - 1 - (len % bad.length)] = (bad[bad.length - 1 - (len % bad.length)] as number) ^ 1;
        expect(() => a.open(alg, key, nonce, aad, bad)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_AEAD' }));
        expect(() => a.open(alg, key, nonce, aad, ct.subarray(0, 15))).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_AEAD' }));
      }
    });
  }
});
