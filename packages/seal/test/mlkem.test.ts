/**
 * The ML-KEM-768 providers: node:crypto (OpenSSL ≥ 3.5, Node ≥ 24.7) where present, @noble
 * otherwise. Whichever runs here is cross-checked against @noble byte for byte (keygen from the
 * seed, encapsulation one way / decapsulation the other); on Node 20 both are @noble and the
 * check still runs (the Node 24 stage of scripts/test.sh exercises the node:crypto path).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MLKEM, MLKEM_NOBLE } from '../src/mlkem.js';

function nodeHasMlKem(): boolean {
  try {
    generateKeyPairSync('ml-kem-768' as 'x25519');
    return true;
  } catch {
    return false;
  }
}

describe('ML-KEM-768 providers', () => {
  it('uses node:crypto exactly when the runtime supports ML-KEM-768', () => {
    expect(MLKEM.name).toBe(nodeHasMlKem() ? 'node' : 'noble');
  });

  it('agrees with @noble: same ek from a seed, encaps ↔ decaps both ways, same SHA3-256', () => {
    for (let i = 0; i < 10; i++) {
      const seed = new Uint8Array(randomBytes(64));
      const a = MLKEM.fromSeed(seed);
      const b = MLKEM_NOBLE.fromSeed(seed);
      expect(Buffer.from(a.publicKey).equals(Buffer.from(b.publicKey))).toBe(true);
      const e1 = MLKEM.encapsulate(a.publicKey);
      expect(Buffer.from(b.decapsulate(e1.cipherText)).equals(Buffer.from(e1.sharedSecret))).toBe(true);
      const e2 = MLKEM_NOBLE.encapsulate(b.publicKey);
      expect(Buffer.from(a.decapsulate(e2.cipherText)).equals(Buffer.from(e2.sharedSecret))).toBe(true);
      const parts = [new Uint8Array(randomBytes(33)), new Uint8Array(randomBytes(7))];
      expect(Buffer.from(MLKEM.sha3_256(...parts)).equals(Buffer.from(MLKEM_NOBLE.sha3_256(...parts)))).toBe(true);
    }
  });

  it('refuses an encapsulation key that fails the FIPS 203 modulus check', () => {
    const ek = MLKEM_NOBLE.fromSeed(new Uint8Array(64)).publicKey.slice();
    ek.fill(0xff, 0, 3);
    expect(() => MLKEM.encapsulate(ek)).toThrow();
    expect(() => MLKEM_NOBLE.encapsulate(ek)).toThrow();
  });
});
