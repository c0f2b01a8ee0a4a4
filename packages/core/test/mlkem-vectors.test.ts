/**
 * ML-KEM-768 (FIPS 203) known answers through the BUILT Wasm (hazmat entry points, so the
 * bindings are covered), and through every backend's public API where it can express them
 * (keygen from the d || z seed = the HPKE private key; encapsulation-key validation).
 *
 *  - Wycheproof mlkem_768_keygen_seed_test (100): seed → ek, dk.
 *  - Wycheproof mlkem_768_test (193): seed → keygen → decaps(c) = K; invalid (wrong seed or
 *    ciphertext length) rejected with a typed error.
 *  - Wycheproof mlkem_768_semi_expanded_decaps_test (9): 2400-byte dk; invalid lengths and a
 *    failing FIPS 203 §7.3 hash check rejected.
 *  - Wycheproof mlkem_768_encaps_test (265): (ek, m) → (c, K); 132 invalid ek (not reduced mod q,
 *    wrong length) rejected with NEN_CRYPTO_KEY / NEN_CRYPTO_LENGTH.
 *  - NIST ACVP ML-KEM keyGen and encapDecap (ML-KEM-768 groups): AFT keyGen(d, z), encapsulation
 *    (ek, m), decapsulation (seed and expanded formats, incl. modified ciphertexts = implicit
 *    rejection), and the encapsulation / decapsulation key checks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { hazmat, type Hazmat } from '../src/hazmat.js';
import { KEM_ID, NenCryptoError, type Backend } from '../src/index.js';
import { loadAll } from './backends.js';
import { hex, readVector, toHex } from './vectors.js';

type Groups<T> = { testGroups: { parameterSet?: string; function?: string; keyFormat?: string; tests: T[] }[] };
const cases = <T>(file: string): T[] => readVector<Groups<T>>(file).testGroups.flatMap((g) => g.tests);

function rejects(fn: () => unknown, codes = ['NEN_CRYPTO_LENGTH', 'NEN_CRYPTO_KEY']): boolean {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(NenCryptoError);
    expect(codes).toContain((e as NenCryptoError).code);
    return true;
  }
  return false;
}

describe('ML-KEM-768 vectors', () => {
  const ctx = { hz: undefined as unknown as Hazmat, backends: [] as Backend[] };
  beforeAll(async () => {
    ctx.hz = hazmat();
    ctx.backends = await loadAll();
  });

  wycheproofKeygenDecaps(ctx);

  encapsAndAcvpKeygen(ctx);

  acvpEncapDecap(ctx);
});

/** Wycheproof keygen from seed and decapsulation (seed and semi-expanded forms). */
function wycheproofKeygenDecaps(ctx: { hz: Hazmat; backends: Backend[] }): void {
  it('Wycheproof keygen from seed (Wasm hazmat, and every backend via the HPKE private key)', () => {
    const tests = cases<{ tcId: number; seed: string; ek: string; dk: string; result: string }>('wycheproof/mlkem_768_keygen_seed_test.json');
    expect(tests.length).toBe(100);
    for (const t of tests) {
      const kp = ctx.hz.mlkem768KeygenSeed(hex(t.seed));
      expect(toHex(kp.ek), `tcId ${t.tcId}`).toBe(t.ek);
      expect(toHex(kp.dk), `tcId ${t.tcId}`).toBe(t.dk);
    }
    for (const b of ctx.backends) {
      for (const t of tests.slice(0, 20)) {
        using rk = b.createRecipientKey(KEM_ID.MLKEM768, hex(t.seed));
        expect(toHex(rk.publicKey), `${b.name} tcId ${t.tcId}`).toBe(t.ek);
      }
    }
  });

  it('Wycheproof decaps (seed form): valid → K, invalid rejected', () => {
    const tests = cases<{ tcId: number; seed: string; ek?: string; c: string; K: string; result: string }>('wycheproof/mlkem_768_test.json');
    expect(tests.length).toBe(193);
    let valid = 0;
    let invalid = 0;
    for (const t of tests) {
      const label = `tcId ${t.tcId}`;
      if (t.result === 'valid') {
        const kp = ctx.hz.mlkem768KeygenSeed(hex(t.seed));
        if (t.ek) expect(toHex(kp.ek), label).toBe(t.ek);
        expect(toHex(ctx.hz.mlkem768Decaps(kp.dk, hex(t.c))), label).toBe(t.K);
        valid++;
      } else {
        expect(
          rejects(() => ctx.hz.mlkem768Decaps(ctx.hz.mlkem768KeygenSeed(hex(t.seed)).dk, hex(t.c))),
          label,
        ).toBe(true);
        // The public API rejects the same bad lengths (private key / enc).
        for (const b of ctx.backends) {
          expect(
            rejects(() => {
              using rk = b.createRecipientKey(KEM_ID.MLKEM768, hex(t.seed));
              rk.setupBaseRExport(hex(t.c), new Uint8Array(0), new Uint8Array(0), 32);
            }),
            `${b.name} ${label}`,
          ).toBe(true);
        }
        invalid++;
      }
    }
    expect([valid, invalid]).toEqual([153, 40]);
  });

  it('Wycheproof semi-expanded decaps: lengths and the §7.3 hash check', () => {
    const tests = cases<{ tcId: number; dk: string; c: string; K: string; result: string; comment: string }>(
      'wycheproof/mlkem_768_semi_expanded_decaps_test.json',
    );
    expect(tests.length).toBe(9);
    for (const t of tests) {
      if (t.result === 'valid') expect(toHex(ctx.hz.mlkem768Decaps(hex(t.dk), hex(t.c))), t.comment).toBe(t.K);
      else
        expect(
          rejects(() => ctx.hz.mlkem768Decaps(hex(t.dk), hex(t.c))),
          t.comment,
        ).toBe(true);
    }
  });
}

/** Wycheproof encapsulation and NIST ACVP keyGen. */
function encapsAndAcvpKeygen(ctx: { hz: Hazmat; backends: Backend[] }): void {
  it('Wycheproof encaps: valid (ek, m) → (c, K); invalid ek rejected (Wasm hazmat and every backend)', () => {
    const tests = cases<{ tcId: number; ek: string; m: string; c: string; K: string; result: string }>('wycheproof/mlkem_768_encaps_test.json');
    expect(tests.length).toBe(265);
    let invalid = 0;
    for (const t of tests) {
      const label = `tcId ${t.tcId}`;
      if (t.result === 'valid') {
        const r = ctx.hz.mlkem768Encaps(hex(t.ek), hex(t.m));
        expect(toHex(r.c), label).toBe(t.c);
        expect(toHex(r.k), label).toBe(t.K);
      } else {
        expect(
          rejects(() => ctx.hz.mlkem768Encaps(hex(t.ek), hex(t.m))),
          label,
        ).toBe(true);
        for (const b of ctx.backends) {
          const ek = hex(t.ek);
          const code = ek.length === 1184 ? ['NEN_CRYPTO_KEY'] : ['NEN_CRYPTO_LENGTH'];
          expect(
            rejects(() => b.setupBaseSExport(KEM_ID.MLKEM768, ek, new Uint8Array(0), new Uint8Array(0), 32), code),
            `${b.name} ${label}`,
          ).toBe(true);
          if (ek.length === 1184) {
            // The same invalid ML-KEM part inside an X-Wing public key.
            const xw = new Uint8Array(1216);
            xw.set(ek);
            xw.set(b.generateKeyPair(KEM_ID.XWING).publicKey.subarray(1184), 1184);
            expect(
              rejects(() => b.setupBaseSExport(KEM_ID.XWING, xw, new Uint8Array(0), new Uint8Array(0), 32), ['NEN_CRYPTO_KEY']),
              `${b.name} X-Wing ${label}`,
            ).toBe(true);
          }
        }
        invalid++;
      }
    }
    expect(invalid).toBe(132);
  });

  it('NIST ACVP keyGen (ML-KEM-768): KeyGen_internal(d, z) → ek, dk', () => {
    const d = readVector<Groups<{ tcId: number; d: string; z: string; ek: string; dk: string }>>('acvp/ML-KEM-keyGen-FIPS203.internalProjection.json');
    const tests = d.testGroups.filter((g) => g.parameterSet === 'ML-KEM-768').flatMap((g) => g.tests);
    expect(tests.length).toBe(25);
    for (const t of tests) {
      const kp = ctx.hz.mlkem768Keygen(hex(t.d), hex(t.z));
      expect(toHex(kp.ek).toUpperCase(), `tcId ${t.tcId}`).toBe(t.ek);
      expect(toHex(kp.dk).toUpperCase(), `tcId ${t.tcId}`).toBe(t.dk);
    }
  });
}

/** NIST ACVP encapDecap. */
function acvpEncapDecap(ctx: { hz: Hazmat; backends: Backend[] }): void {
  it('NIST ACVP encapDecap (ML-KEM-768): encaps, decaps (seed/expanded), key checks', () => {
    type T = { tcId: number; ek: string; dk: string; m?: string; c?: string; k?: string; d?: string; z?: string; testPassed?: boolean | string };
    const d = readVector<Groups<T>>('acvp/ML-KEM-encapDecap-FIPS203.internalProjection.json');
    const groups = d.testGroups.filter((g) => g.parameterSet === 'ML-KEM-768');
    const seen: Record<string, number> = {};
    for (const g of groups) {
      for (const t of g.tests) {
        const key = `${g.function}/${g.keyFormat}`;
        seen[key] = (seen[key] ?? 0) + 1;
        const label = `${key} tcId ${t.tcId}`;
        const passed = String(t.testPassed).toLowerCase() === 'true';
        switch (g.function) {
          case 'encapsulation': {
            const r = ctx.hz.mlkem768Encaps(hex(t.ek), hex(t.m as string));
            expect(toHex(r.c).toUpperCase(), label).toBe(t.c);
            expect(toHex(r.k).toUpperCase(), label).toBe(t.k);
            break;
          }
          case 'decapsulation': {
            const dk = g.keyFormat === 'seed' ? ctx.hz.mlkem768Keygen(hex(t.d as string), hex(t.z as string)).dk : hex(t.dk);
            expect(toHex(ctx.hz.mlkem768Decaps(dk, hex(t.c as string))).toUpperCase(), label).toBe(t.k);
            break;
          }
          case 'encapsulationKeyCheck':
            expect(
              rejects(() => ctx.hz.mlkem768Encaps(hex(t.ek), new Uint8Array(32))),
              label,
            ).toBe(!passed);
            break;
          case 'decapsulationKeyCheck':
            expect(
              rejects(() => ctx.hz.mlkem768Decaps(hex(t.dk), new Uint8Array(1088))),
              label,
            ).toBe(!passed);
            break;
          default:
            throw new Error(`unexpected ACVP function ${g.function}`);
        }
      }
    }
    expect(seen).toEqual({
      'encapsulation/none': 25,
      'decapsulation/seed': 10,
      'decapsulation/expanded': 10,
      'encapsulationKeyCheck/none': 10,
      'decapsulationKeyCheck/none': 10,
    });
  });
}
