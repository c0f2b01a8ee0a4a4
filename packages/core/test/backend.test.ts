/**
 * Behaviour every backend must have, whatever its implementation: HPKE round trips for both
 * KEMs, typed errors with stable codes on bad input (lengths, invalid keys, tampering), secret
 * hygiene (disposed objects refuse use, inputs are not mutated, no key bytes in JSON / String /
 * util.inspect), and the loader's contract.
 */
import { inspect } from 'node:util';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { encapDerand } from '../src/backend/noble.js';
import { KEM_ID, KEM_SIZES, loadBackend, type Backend, type KemId } from '../src/index.js';
import { codeOf, loadAll } from './backends.js';
import { toHex } from './vectors.js';

const KEMS: KemId[] = [KEM_ID.XWING, KEM_ID.MLKEM768];
const enc = (s: string) => new TextEncoder().encode(s);

describe('every backend', () => {
  const ctx: { backends: Backend[] } = { backends: [] };
  beforeAll(async () => {
    ctx.backends = await loadAll();
  });

  roundTrips(ctx);

  badLengths(ctx);

  badKeysAndTampering(ctx);

  hygiene(ctx);
});

describe('noble backend internals', () => {
  it('our X-Wing equals @noble/post-quantum ml_kem768_x25519 (keygen, encaps, decaps)', async () => {
    const b = await loadBackend('noble');
    for (let i = 0; i < 3; i++) {
      const seed = b.randomBytes(32);
      const ref = ml_kem768_x25519.keygen(seed);
      const ours = b.createRecipientKey(KEM_ID.XWING, seed);
      expect(toHex(ours.publicKey)).toBe(toHex(ref.publicKey));
      const rnd = b.randomBytes(64);
      const refEnc = ml_kem768_x25519.encapsulate(ref.publicKey, rnd);
      const mine = encapDerand(KEM_ID.XWING, ref.publicKey, rnd);
      expect(toHex(mine.enc)).toBe(toHex(refEnc.cipherText));
      expect(toHex(mine.sharedSecret)).toBe(toHex(refEnc.sharedSecret));
      expect(toHex(ml_kem768_x25519.decapsulate(mine.enc, seed))).toBe(toHex(mine.sharedSecret));
      ours.dispose();
    }
  });

  it('ML-KEM-768 private key is the 64-byte d||z seed of FIPS 203 KeyGen_internal', async () => {
    const b = await loadBackend('noble');
    const seed = b.randomBytes(64);
    using rk = b.createRecipientKey(KEM_ID.MLKEM768, seed);
    expect(toHex(rk.publicKey)).toBe(toHex(ml_kem768.keygen(seed).publicKey));
  });
});

describe('loadBackend', () => {
  it('caches per kind and rejects unknown kinds with a typed error', async () => {
    expect(await loadBackend('noble')).toBe(await loadBackend('noble'));
    await expect(loadBackend('bogus' as 'noble')).rejects.toMatchObject({ code: 'NEN_CRYPTO_UNSUPPORTED' });
  });
});

/** HPKE round trips and DeriveKeyPair on every backend. */
function roundTrips(ctx: { backends: Backend[] }): void {
  it('HPKE SetupBaseS/SetupBaseR + Export round trip, both KEMs, correct sizes', () => {
    for (const b of ctx.backends) {
      for (const kem of KEMS) {
        const kp = b.generateKeyPair(kem);
        expect(kp.kem).toBe(kem);
        expect(kp.publicKey.length).toBe(KEM_SIZES[kem].publicKey);
        expect(kp.privateKey.length).toBe(KEM_SIZES[kem].privateKey);
        using rk = b.createRecipientKey(kem, kp.privateKey);
        expect(toHex(rk.publicKey)).toBe(toHex(kp.publicKey));
        const s = b.setupBaseSExport(kem, kp.publicKey, enc('info'), enc('ctx'), 64);
        expect(s.enc.length).toBe(KEM_SIZES[kem].enc);
        expect(s.exported.length).toBe(64);
        expect(toHex(rk.setupBaseRExport(s.enc, enc('info'), enc('ctx'), 64))).toBe(toHex(s.exported));
        // Different info or context → different secret (they are bound by the key schedule).
        expect(toHex(rk.setupBaseRExport(s.enc, enc('infO'), enc('ctx'), 64))).not.toBe(toHex(s.exported));
        expect(toHex(rk.setupBaseRExport(s.enc, enc('info'), enc('ctX'), 64))).not.toBe(toHex(s.exported));
        // A tampered ML-KEM ciphertext decapsulates to an unrelated secret (implicit rejection).
        const bad = s.enc.slice();
        bad[5] = (bad[5] as number) ^ 1;
        expect(toHex(rk.setupBaseRExport(bad, enc('info'), enc('ctx'), 64))).not.toBe(toHex(s.exported));
        // Fresh randomness per SetupBaseS.
        expect(toHex(b.setupBaseSExport(kem, kp.publicKey, enc('info'), enc('ctx'), 64).enc)).not.toBe(toHex(s.enc));
      }
    }
  });

  it('DeriveKeyPair is deterministic and ikm-sensitive', () => {
    for (const b of ctx.backends) {
      for (const kem of KEMS) {
        const a = b.deriveKeyPair(kem, new Uint8Array(32).fill(7));
        const a2 = b.deriveKeyPair(kem, new Uint8Array(32).fill(7));
        const c = b.deriveKeyPair(kem, new Uint8Array(32).fill(8));
        expect(toHex(a.publicKey)).toBe(toHex(a2.publicKey));
        expect(toHex(a.privateKey)).not.toBe(toHex(c.privateKey));
      }
    }
  });
}

/** Wrong lengths and non-byte inputs: NEN_CRYPTO_LENGTH, never a crash. */
function badLengths(ctx: { backends: Backend[] }): void {
  it('wrong lengths are NEN_CRYPTO_LENGTH', () => {
    for (const b of ctx.backends) {
      expect(codeOf(() => b.createAead(new Uint8Array(31)))).toBe('NEN_CRYPTO_LENGTH');
      expect(codeOf(() => b.createAead(new Uint8Array(33)))).toBe('NEN_CRYPTO_LENGTH');
      using aead = b.createAead(new Uint8Array(32));
      expect(codeOf(() => aead.seal(new Uint8Array(11), new Uint8Array(0), new Uint8Array(1)))).toBe('NEN_CRYPTO_LENGTH');
      expect(codeOf(() => aead.seal(new Uint8Array(24), new Uint8Array(0), new Uint8Array(1)))).toBe('NEN_CRYPTO_LENGTH');
      expect(codeOf(() => aead.open(new Uint8Array(12), new Uint8Array(0), new Uint8Array(15)))).toBe('NEN_CRYPTO_LENGTH');
      for (const kem of KEMS) {
        const { publicKey, privateKey } = b.generateKeyPair(kem);
        expect(codeOf(() => b.createRecipientKey(kem, privateKey.subarray(1)))).toBe('NEN_CRYPTO_LENGTH');
        expect(codeOf(() => b.createRecipientKey(kem, new Uint8Array(privateKey.length + 1)))).toBe('NEN_CRYPTO_LENGTH');
        expect(codeOf(() => b.setupBaseSExport(kem, publicKey.subarray(1), new Uint8Array(0), new Uint8Array(0), 32))).toBe('NEN_CRYPTO_LENGTH');
        expect(codeOf(() => b.setupBaseSExport(kem, publicKey, new Uint8Array(0), new Uint8Array(0), 8161))).toBe('NEN_CRYPTO_LENGTH');
        expect(codeOf(() => b.setupBaseSExport(kem, publicKey, new Uint8Array(0), new Uint8Array(0), -1))).toBe('NEN_CRYPTO_LENGTH');
        using rk = b.createRecipientKey(kem, privateKey);
        const s = b.setupBaseSExport(kem, publicKey, new Uint8Array(0), new Uint8Array(0), 32);
        expect(codeOf(() => rk.setupBaseRExport(s.enc.subarray(1), new Uint8Array(0), new Uint8Array(0), 32))).toBe('NEN_CRYPTO_LENGTH');
        expect(codeOf(() => rk.setupBaseRExport(new Uint8Array(s.enc.length + 1), new Uint8Array(0), new Uint8Array(0), 32))).toBe('NEN_CRYPTO_LENGTH');
      }
      expect(codeOf(() => b.hkdfExpand(new Uint8Array(32), new Uint8Array(0), 255 * 32 + 1))).toBe('NEN_CRYPTO_LENGTH');
      expect(codeOf(() => b.generateKeyPair(0x0020 as KemId))).toBe('NEN_CRYPTO_UNSUPPORTED');
      expect(codeOf(() => b.deriveKeyPair(0x0042 as KemId, new Uint8Array(32)))).toBe('NEN_CRYPTO_UNSUPPORTED');
    }
  });

  it('non-byte inputs (string, null, number[]) are NEN_CRYPTO_LENGTH, never a crash', () => {
    const bad = ['x'.repeat(32), null, Array.from({ length: 32 }, () => 0), undefined] as unknown as Uint8Array[];
    for (const b of ctx.backends) {
      for (const v of bad) {
        expect(
          codeOf(() => b.sha256(v)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => b.createAead(v)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => b.deriveKeyPair(KEM_ID.XWING, v)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => b.createRecipientKey(KEM_ID.MLKEM768, v)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => b.setupBaseSExport(KEM_ID.XWING, v, new Uint8Array(0), new Uint8Array(0), 32)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        using aead = b.createAead(new Uint8Array(32));
        expect(
          codeOf(() => aead.seal(new Uint8Array(12), v, new Uint8Array(0))),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => aead.open(new Uint8Array(12), new Uint8Array(0), v)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
      }
      expect(
        codeOf(() => b.hkdfExpand(new Uint8Array(32), new Uint8Array(0), 1.5)),
        b.name,
      ).toBe('NEN_CRYPTO_LENGTH');
      expect(
        codeOf(() => b.randomBytes(-1)),
        b.name,
      ).toBe('NEN_CRYPTO_LENGTH');
    }
  });
}

/** Invalid keys (ML-KEM coefficient >= q, X25519 low order) and AEAD tampering. */
function badKeysAndTampering(ctx: { backends: Backend[] }): void {
  it('an invalid ML-KEM encapsulation key (coefficient >= q) is NEN_CRYPTO_KEY, for both KEMs', () => {
    for (const b of ctx.backends) {
      for (const kem of KEMS) {
        const pk = b.generateKeyPair(kem).publicKey.slice();
        pk[0] = 0xff;
        pk[1] = 0xff; // first 12-bit coefficient = 4095 >= 3329
        expect(
          codeOf(() => b.setupBaseSExport(kem, pk, new Uint8Array(0), new Uint8Array(0), 32)),
          `${b.name} ${kem}`,
        ).toBe('NEN_CRYPTO_KEY');
      }
    }
  });

  it('an X25519 low-order share (all-zero u) in an X-Wing public key or enc is NEN_CRYPTO_KEY', () => {
    for (const b of ctx.backends) {
      const kp = b.generateKeyPair(KEM_ID.XWING);
      const pk = kp.publicKey.slice();
      pk.fill(0, 1184);
      expect(
        codeOf(() => b.setupBaseSExport(KEM_ID.XWING, pk, new Uint8Array(0), new Uint8Array(0), 32)),
        b.name,
      ).toBe('NEN_CRYPTO_KEY');
      const s = b.setupBaseSExport(KEM_ID.XWING, kp.publicKey, new Uint8Array(0), new Uint8Array(0), 32);
      const e = s.enc.slice();
      e.fill(0, 1088);
      using rk = b.createRecipientKey(KEM_ID.XWING, kp.privateKey);
      expect(
        codeOf(() => rk.setupBaseRExport(e, new Uint8Array(0), new Uint8Array(0), 32)),
        b.name,
      ).toBe('NEN_CRYPTO_KEY');
    }
  });

  it('tampered ciphertext, tag, nonce or AAD is NEN_CRYPTO_AEAD', () => {
    for (const b of ctx.backends) {
      using aead = b.createAead(b.randomBytes(32));
      const nonce = b.randomBytes(12);
      const aad = enc('aad');
      const ct = aead.seal(nonce, aad, enc('hello world'));
      for (let i = 0; i < ct.length; i++) {
        const t = ct.slice();
        t[i] = (t[i] as number) ^ 0x80;
        expect(codeOf(() => aead.open(nonce, aad, t))).toBe('NEN_CRYPTO_AEAD');
      }
      const n2 = nonce.slice();
      n2[0] = (n2[0] as number) ^ 1;
      expect(codeOf(() => aead.open(n2, aad, ct))).toBe('NEN_CRYPTO_AEAD');
      expect(codeOf(() => aead.open(nonce, enc('aaD'), ct))).toBe('NEN_CRYPTO_AEAD');
      expect(codeOf(() => aead.open(nonce, aad, ct.subarray(0, ct.length - 1)))).toBe('NEN_CRYPTO_AEAD');
      expect(new TextDecoder().decode(aead.open(nonce, aad, ct))).toBe('hello world');
    }
  });
}

/** Secret hygiene (dispose, no mutation, no key bytes printed) and hash / MAC / KDF known answers. */
function hygiene(ctx: { backends: Backend[] }): void {
  it('disposed objects refuse use (NEN_CRYPTO_DISPOSED); dispose is idempotent', () => {
    for (const b of ctx.backends) {
      const aead = b.createAead(new Uint8Array(32));
      aead.dispose();
      aead.dispose();
      expect(codeOf(() => aead.seal(new Uint8Array(12), new Uint8Array(0), new Uint8Array(0)))).toBe('NEN_CRYPTO_DISPOSED');
      for (const kem of KEMS) {
        const kp = b.generateKeyPair(kem);
        const s = b.setupBaseSExport(kem, kp.publicKey, new Uint8Array(0), new Uint8Array(0), 32);
        let rk;
        {
          using scoped = b.createRecipientKey(kem, kp.privateKey);
          rk = scoped;
        }
        expect(codeOf(() => rk.setupBaseRExport(s.enc, new Uint8Array(0), new Uint8Array(0), 32))).toBe('NEN_CRYPTO_DISPOSED');
      }
    }
  });

  it('inputs are not mutated and key bytes are copied', () => {
    for (const b of ctx.backends) {
      const key = b.randomBytes(32);
      const keyCopy = key.slice();
      const aead = b.createAead(key);
      const nonce = b.randomBytes(12);
      const aad = b.randomBytes(20);
      const pt = b.randomBytes(100);
      const [n0, a0, p0] = [toHex(nonce), toHex(aad), toHex(pt)];
      const ct = aead.seal(nonce, aad, pt);
      const ct0 = toHex(ct);
      key.fill(0); // the caller wipes its copy: the Aead still works
      expect(toHex(aead.open(nonce, aad, ct))).toBe(p0);
      expect([toHex(nonce), toHex(aad), toHex(pt), toHex(ct)]).toEqual([n0, a0, p0, ct0]);
      expect(toHex(b.createAead(keyCopy).seal(nonce, aad, pt))).toBe(ct0);
      aead.dispose();
      for (const kem of KEMS) {
        const kp = b.generateKeyPair(kem);
        const sk0 = toHex(kp.privateKey);
        const pk0 = toHex(kp.publicKey);
        const rk = b.createRecipientKey(kem, kp.privateKey);
        const info = enc('info');
        const ctx = enc('ctx');
        const s = b.setupBaseSExport(kem, kp.publicKey, info, ctx, 32);
        const e0 = toHex(s.enc);
        rk.setupBaseRExport(s.enc, info, ctx, 32);
        rk.publicKey.fill(0); // a returned public key is a copy
        expect([toHex(kp.privateKey), toHex(kp.publicKey), toHex(s.enc), toHex(info), toHex(ctx), toHex(rk.publicKey)]).toEqual([
          sk0,
          pk0,
          e0,
          toHex(enc('info')),
          toHex(enc('ctx')),
          pk0,
        ]);
        rk.dispose();
        expect(toHex(kp.privateKey)).toBe(sk0); // dispose wipes the backend's copy, not the caller's
      }
    }
  });

  it('JSON.stringify / String / util.inspect of key objects contain no key bytes', () => {
    for (const b of ctx.backends) {
      const keyBytes = new Uint8Array(32).fill(0xab);
      const aead = b.createAead(keyBytes);
      for (const s of [JSON.stringify(aead), String(aead), inspect(aead, { showHidden: true, depth: 5 })]) {
        expect(s).not.toMatch(/abab|171,\s*171/);
      }
      aead.dispose();
      for (const kem of KEMS) {
        const kp = b.deriveKeyPair(kem, new Uint8Array(32).fill(1));
        const rk = b.createRecipientKey(kem, kp.privateKey);
        const skHex = toHex(kp.privateKey);
        const skDec = Array.from(kp.privateKey.subarray(0, 8)).join(',');
        for (const s of [JSON.stringify(rk), String(rk), inspect(rk, { showHidden: true, depth: 5 })]) {
          expect(s).not.toContain(skHex.slice(0, 16));
          expect(s.replace(/\s/g, '')).not.toContain(skDec);
        }
        rk.dispose();
      }
    }
  });

  it('hash / MAC / KDF known answers (RFC 4231 case 2, RFC 5869 case 1, FIPS 180-4 "abc")', () => {
    for (const b of ctx.backends) {
      expect(toHex(b.sha256(enc('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(toHex(b.hmacSha256(enc('Jefe'), enc('what do ya want for nothing?')))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
      const prk = b.hkdfExtract(Uint8Array.from(Buffer.from('000102030405060708090a0b0c', 'hex')), new Uint8Array(22).fill(0x0b));
      expect(toHex(prk)).toBe('077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5');
      expect(toHex(b.hkdfExpand(prk, Uint8Array.from(Buffer.from('f0f1f2f3f4f5f6f7f8f9', 'hex')), 42))).toBe(
        '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
      );
      expect(b.randomBytes(33).length).toBe(33);
    }
  });
}
