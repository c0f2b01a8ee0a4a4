/**
 * node:crypto's ML-KEM-768 (src/backend/node-mlkem.ts) against the Wycheproof vectors and the
 * Wasm (FIPS 203 KeyGen_internal / Encaps / Decaps through the hazmat entry points). Runs where
 * the runtime has ML-KEM in node:crypto (Node 24 / OpenSSL 3.5); elsewhere the detection must
 * say no and the rest is skipped with the reason in its name (the suite runs vitest on both).
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../test/backends.js';
import { hex, readVector, toHex } from '../../test/vectors.js';
import { hazmat, type Hazmat } from '../hazmat.js';
import { loadBackend } from '../index.js';
import { MLKEM768, nativeMlKem768 } from './node-mlkem.js';

type Groups<T> = { testGroups: { tests: T[] }[] };
const cases = <T>(file: string): T[] => readVector<Groups<T>>(file).testGroups.flatMap((g) => g.tests);
const nodeHasMlKem = typeof (createRequire(import.meta.url)('node:crypto') as { encapsulate?: unknown }).encapsulate === 'function';
const native = nativeMlKem768();

it(`detection: native ML-KEM-768 ${nodeHasMlKem ? 'present' : 'absent'} on Node ${process.versions.node} (OpenSSL ${process.versions.openssl})`, () => {
  expect(native !== undefined).toBe(nodeHasMlKem);
  expect(nativeMlKem768()).toBe(native); // detected once
});

describe.skipIf(!native)(`node:crypto ML-KEM-768${native ? '' : ` (skipped: Node ${process.versions.node} has no ML-KEM in node:crypto)`}`, () => {
  const m = native as NonNullable<typeof native>;
  let hz: Hazmat;
  beforeAll(async () => {
    await loadBackend('wasm');
    hz = hazmat();
  });

  it('Wycheproof keygen from seed (100): ek; and the Wasm derives the same ek from random seeds', () => {
    const tests = cases<{ tcId: number; seed: string; ek: string }>('wycheproof/mlkem_768_keygen_seed_test.json');
    expect(tests.length).toBe(100);
    for (const t of tests) expect(toHex(m.importPrivateKeySeed(hex(t.seed)).publicKey), `tcId ${t.tcId}`).toBe(t.ek);
    for (let i = 0; i < 8; i++) {
      const seed = crypto.getRandomValues(new Uint8Array(64));
      expect(toHex(m.importPrivateKeySeed(seed).publicKey)).toBe(toHex(hz.mlkem768KeygenSeed(seed).ek));
    }
  });

  it('Wycheproof decaps (seed form, 153 valid incl. implicit rejection): K; bad lengths typed', () => {
    const tests = cases<{ tcId: number; seed: string; c: string; K: string; result: string }>('wycheproof/mlkem_768_test.json');
    let valid = 0;
    let invalid = 0;
    for (const t of tests) {
      const seed = hex(t.seed);
      const c = hex(t.c);
      if (t.result === 'valid') {
        expect(toHex(m.decapsulate(m.importPrivateKeySeed(seed).privateKey, c)), `tcId ${t.tcId}`).toBe(t.K);
        valid++;
      } else {
        const code = codeOf(() => m.decapsulate(m.importPrivateKeySeed(seed).privateKey, c));
        expect(code, `tcId ${t.tcId}`).toBe('NEN_CRYPTO_LENGTH');
        invalid++;
      }
    }
    expect([valid, invalid]).toEqual([153, 40]);
  });

  it('Wycheproof encaps keys: the 132 invalid (not reduced mod q, wrong length) refused with the Wasm codes', () => {
    const tests = cases<{ tcId: number; ek: string; result: string }>('wycheproof/mlkem_768_encaps_test.json');
    let refused = 0;
    for (const t of tests) {
      const ek = hex(t.ek);
      const code = codeOf(() => m.importPublicKey(ek));
      if (t.result === 'valid') expect(code, `tcId ${t.tcId}`).toBeUndefined();
      else {
        expect(code, `tcId ${t.tcId}`).toBe(ek.length === MLKEM768.publicKey ? 'NEN_CRYPTO_KEY' : 'NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => hz.mlkem768Encaps(ek, new Uint8Array(32))),
          `Wasm tcId ${t.tcId}`,
        ).toBe(code);
        refused++;
      }
    }
    expect(refused).toBe(132);
  });

  it('Encaps / Decaps interoperate with the Wasm both ways', () => {
    for (let i = 0; i < 8; i++) {
      const seed = crypto.getRandomValues(new Uint8Array(64));
      const wasm = hz.mlkem768KeygenSeed(seed);
      const { privateKey } = m.importPrivateKeySeed(seed);
      const e = m.encapsulate(m.importPublicKey(wasm.ek));
      expect(e.ciphertext.length).toBe(MLKEM768.ciphertext);
      expect(toHex(hz.mlkem768Decaps(wasm.dk, e.ciphertext))).toBe(toHex(e.sharedSecret));
      const w = hz.mlkem768Encaps(wasm.ek, crypto.getRandomValues(new Uint8Array(32)));
      expect(toHex(m.decapsulate(privateKey, w.c))).toBe(toHex(w.k));
    }
  });

  it('argument checks: lengths and types are NEN_CRYPTO_LENGTH', () => {
    const { privateKey } = m.importPrivateKeySeed(new Uint8Array(64));
    expect(codeOf(() => m.importPublicKey(new Uint8Array(1183)))).toBe('NEN_CRYPTO_LENGTH');
    expect(codeOf(() => m.importPrivateKeySeed(new Uint8Array(32)))).toBe('NEN_CRYPTO_LENGTH');
    expect(codeOf(() => m.decapsulate(privateKey, new Uint8Array(1089)))).toBe('NEN_CRYPTO_LENGTH');
    expect(codeOf(() => m.decapsulate(privateKey, 'x' as unknown as Uint8Array))).toBe('NEN_CRYPTO_LENGTH');
  });
});
