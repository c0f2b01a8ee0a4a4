/**
 * The OHTTP HPKE KEMs (./hpke.ts: prepared @noble ML-KEM, node:crypto X25519) against the @noble
 * backend's reference KEM (../backend/noble-kem.ts): byte-identical Encap for given randomness,
 * Decap recovers the secret, a bad public key is NEN_CRYPTO_KEY.
 */
import { describe, expect, it } from 'vitest';
import { decap as refDecap, encapDerand as refEncap, expandKey } from '../backend/noble-kem.js';
import { randomBytes } from '../backend/random.js';
import { OHTTP_KEM, OhttpPrivateKey, encap, generateOhttpPrivateKey } from './hpke.js';

describe('OHTTP HPKE KEMs', () => {
  for (const kem of [OHTTP_KEM.XWING, OHTTP_KEM.MLKEM768] as const) {
    it(`0x${kem.toString(16)}: encap equals the @noble reference, decap agrees both ways`, () => {
      for (let i = 0; i < 4; i++) {
        const seed = generateOhttpPrivateKey(kem);
        const sk = new OhttpPrivateKey(kem, seed);
        const ref = expandKey(kem, seed);
        expect(sk.publicKey).toEqual(ref.publicKey);
        const rnd = randomBytes(kem === OHTTP_KEM.XWING ? 64 : 32);
        const mine = encap(kem, sk.publicKey, rnd);
        const theirs = refEncap(kem, sk.publicKey, rnd);
        expect(mine.enc).toEqual(theirs.enc);
        expect(mine.sharedSecret).toEqual(theirs.sharedSecret);
        expect(sk.decap(mine.enc)).toEqual(mine.sharedSecret);
        expect(refDecap(kem, ref, undefined, mine.enc)).toEqual(mine.sharedSecret);
        sk.dispose();
      }
    });
  }
  it('an X-Wing key with a low-order X25519 half is NEN_CRYPTO_KEY', () => {
    const pk = new OhttpPrivateKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING)).publicKey.slice();
    pk.fill(0, 1184);
    expect(() => encap(OHTTP_KEM.XWING, pk)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
  });
  it('a wrong-length randomness is NEN_CRYPTO_LENGTH', () => {
    const pk = new OhttpPrivateKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING)).publicKey;
    expect(() => encap(OHTTP_KEM.XWING, pk, new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_LENGTH' }));
  });
});
