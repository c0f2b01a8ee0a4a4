/**
 * ./webcrypto-symmetric.ts and ./webcrypto-aead.ts on Node's WebCrypto (HMAC / SHA-256 on Node 20
 * and 24; ChaCha20-Poly1305 on Node 24 only, so those cases skip on Node 20; real Chromium runs the
 * same code in test/webcrypto-kem.browser.test.ts): RFC 4231 / 5869 / FIPS 180-4 known answers,
 * every value equal to the @noble backend's (HKDF of any length, the HPKE key schedule + Export),
 * the Aead's async seal / open byte-identical to @noble's and refusing tampering with
 * NEN_CRYPTO_AEAD, inputs consumed at the call (a caller may wipe them at once), and dispose.
 */
import { describe, expect, it } from 'vitest';
import { keyScheduleExport } from './hpke.js';
import { nobleHkdf, nobleSymmetric } from './noble-symmetric.js';
import { randomBytes } from './random.js';
import { KEM_ID } from './types.js';
import { WebCryptoAead } from './webcrypto-aead.js';
import { detectWebCryptoSymmetric, keyScheduleExportWith } from './webcrypto-symmetric.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const unhex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const enc = (s: string) => new TextEncoder().encode(s);

const sym = await detectWebCryptoSymmetric();
const chacha = sym?.chacha;

describe('WebCrypto symmetric', () => {
  it('is detected on Node (HMAC, SHA-256); not on an object without SubtleCrypto', async () => {
    expect(sym).toBeDefined();
    expect(await detectWebCryptoSymmetric({})).toBeUndefined();
    expect(await detectWebCryptoSymmetric(null)).toBeUndefined();
  });

  it('known answers (RFC 4231 case 2, RFC 5869 case 1, FIPS 180-4 "abc")', async () => {
    const s = sym!;
    expect(hex(await s.sha256(enc('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(await s.hmacSha256(enc('Jefe'), enc('what do ya want for nothing?')))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    const prk = await s.hkdfExtract(unhex('000102030405060708090a0b0c'), new Uint8Array(22).fill(0x0b));
    expect(hex(prk)).toBe('077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5');
    expect(hex(await s.hkdfExpand(prk, unhex('f0f1f2f3f4f5f6f7f8f9'), 42))).toBe(
      '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
    );
  });

  it('equals @noble: HKDF of 0..100 bytes (empty salt too), the HPKE key schedule + Export; bad lengths refused', async () => {
    const s = sym!;
    for (const len of [0, 1, 12, 31, 32, 33, 64, 100]) {
      const salt = randomBytes(len % 3 === 0 ? 0 : 32);
      const ikm = randomBytes(len + 1);
      const info = randomBytes(len % 5);
      const prk = await s.hkdfExtract(salt, ikm);
      expect(prk).toEqual(nobleSymmetric.hkdfExtract(salt, ikm));
      expect(await s.hkdfExpand(prk, info, len)).toEqual(nobleHkdf.expand(prk, info, len));
      for (const kem of [KEM_ID.XWING, KEM_ID.MLKEM768]) {
        expect(await keyScheduleExportWith(s.hmacSha256, kem, ikm, info, salt, 32)).toEqual(keyScheduleExport(nobleHkdf, kem, ikm, info, salt, 32));
      }
    }
    await expect(s.hkdfExpand(new Uint8Array(32), new Uint8Array(0), 255 * 32 + 1)).rejects.toMatchObject({ code: 'NEN_CRYPTO_LENGTH' });
  });

  it('consumes its inputs at the call: wiping them right after gives the same values', async () => {
    const s = sym!;
    const key = randomBytes(32);
    const data = randomBytes(100);
    const want = nobleSymmetric.hmacSha256(key, data);
    const p = s.hmacSha256(key, data);
    key.fill(0);
    data.fill(0);
    expect(await p).toEqual(want);
  });
});

describe.skipIf(!chacha)('WebCrypto ChaCha20-Poly1305 Aead (Node 24, Chromium)', () => {
  const make = (key: Uint8Array) => new WebCryptoAead(chacha!, key, nobleSymmetric.createAead(key));

  it('seals / opens like @noble (0 B .. 70 KB), before and after the key import resolved; sync methods are @noble', async () => {
    for (const len of [0, 1, 1024, 70_000]) {
      const key = randomBytes(32);
      const ref = nobleSymmetric.createAead(key);
      const a = make(key);
      const nonce = randomBytes(12);
      const aad = randomBytes(len % 7);
      const pt = randomBytes(len);
      const want = ref.seal(nonce, aad, pt);
      const early = a.sealAsync(nonce, aad, pt); // key import still pending: inputs copied
      const n2 = nonce.slice();
      const a2 = aad.slice();
      const p2 = pt.slice();
      nonce.fill(0);
      aad.fill(0);
      pt.fill(0);
      expect(await early).toEqual(want);
      expect(await a.sealAsync(n2, a2, p2)).toEqual(want); // key resolved
      expect(await a.openAsync(n2, a2, want)).toEqual(p2);
      expect(a.open(n2, a2, want)).toEqual(p2);
      expect(a.seal(n2, a2, p2)).toEqual(want);
      const bad = want.slice();
      bad[len % bad.length] = (bad[len % bad.length] as number) ^ 1;
      await expect(a.openAsync(n2, a2, bad)).rejects.toMatchObject({ code: 'NEN_CRYPTO_AEAD' });
      await expect(a.openAsync(n2, a2, want.subarray(0, 15))).rejects.toMatchObject({ code: 'NEN_CRYPTO_LENGTH' });
      await expect(a.sealAsync(n2.subarray(0, 11), a2, p2)).rejects.toMatchObject({ code: 'NEN_CRYPTO_LENGTH' });
      a.dispose();
      ref.dispose();
    }
  });

  it('dispose: later calls and a call pending on the key import refuse (NEN_CRYPTO_DISPOSED)', async () => {
    const a = make(randomBytes(32));
    const pending = a.sealAsync(new Uint8Array(12), new Uint8Array(0), new Uint8Array(3));
    a.dispose();
    await expect(pending).rejects.toMatchObject({ code: 'NEN_CRYPTO_DISPOSED' });
    await expect(a.sealAsync(new Uint8Array(12), new Uint8Array(0), new Uint8Array(3))).rejects.toMatchObject({ code: 'NEN_CRYPTO_DISPOSED' });
    expect(() => a.seal(new Uint8Array(12), new Uint8Array(0), new Uint8Array(3))).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_DISPOSED' }));
    expect(String(a)).toBe('[Aead noble]');
  });

  it('a WebCrypto that fails the key import or the seal: NEN_CRYPTO_UNSUPPORTED; a failed open NEN_CRYPTO_AEAD', async () => {
    const broken = { ...chacha!, importKey: () => Promise.reject(new Error('no')) } as unknown as typeof chacha & object;
    const a = new WebCryptoAead(broken, randomBytes(32), nobleSymmetric.createAead(randomBytes(32)));
    await expect(a.sealAsync(new Uint8Array(12), new Uint8Array(0), new Uint8Array(3))).rejects.toMatchObject({ code: 'NEN_CRYPTO_UNSUPPORTED' });
    await expect(a.openAsync(new Uint8Array(12), new Uint8Array(0), new Uint8Array(20))).rejects.toMatchObject({ code: 'NEN_CRYPTO_AEAD' });
    a.dispose();
  });
});
