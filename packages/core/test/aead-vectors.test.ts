/**
 * ChaCha20-Poly1305 (RFC 8439 §2.8) known answers through every backend: the two RFC 8439
 * examples and all 325 Wycheproof cases (invalid ones must be rejected with NEN_CRYPTO_AEAD or
 * NEN_CRYPTO_LENGTH), plus the same cases through node:crypto directly as a control.
 */
import { createDecipheriv } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { NenCryptoError, type Backend } from '../src/index.js';
import { loadAll } from './backends.js';
import { hex, readVector, toHex, wycheproofChaCha } from './vectors.js';

const cases = wycheproofChaCha();
const rfc = readVector<{ vectors: { id: string; key: string; nonce: string; aad: string; plaintext: string; ciphertext: string; tag: string }[] }>(
  'rfc8439/rfc8439_aead_vectors.json',
).vectors;

function expectCode(fn: () => unknown, codes: string[]): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(NenCryptoError);
  expect(codes).toContain((err as NenCryptoError).code);
}

describe('ChaCha20-Poly1305 vectors', () => {
  let backends: Backend[] = [];
  beforeAll(async () => {
    backends = await loadAll();
  });

  it('has the expected vector counts', () => {
    expect(cases.length).toBe(325);
    expect(cases.filter((c) => c.result === 'invalid').length).toBe(69);
    expect(rfc.length).toBe(2);
  });

  it('RFC 8439 §2.8.2 and A.5 through every backend', () => {
    for (const b of backends) {
      for (const v of rfc) {
        const aead = b.createAead(hex(v.key));
        const sealed = aead.seal(hex(v.nonce), hex(v.aad), hex(v.plaintext));
        expect(toHex(sealed), `${b.name} ${v.id}`).toBe(v.ciphertext + v.tag);
        expect(toHex(aead.open(hex(v.nonce), hex(v.aad), sealed))).toBe(v.plaintext);
        aead.dispose();
      }
    }
  });

  it('all Wycheproof cases through every backend', () => {
    for (const b of backends) {
      let valid = 0;
      let rejected = 0;
      for (const c of cases) {
        const label = `${b.name} tcId ${c.tcId}`;
        let aead;
        try {
          aead = b.createAead(hex(c.key));
        } catch (e) {
          expect(c.result, label).toBe('invalid');
          expect((e as NenCryptoError).code).toBe('NEN_CRYPTO_LENGTH');
          rejected++;
          continue;
        }
        const ctTag = hex(c.ct + c.tag);
        if (c.result === 'valid') {
          expect(toHex(aead.seal(hex(c.iv), hex(c.aad), hex(c.msg))), label).toBe(c.ct + c.tag);
          expect(toHex(aead.open(hex(c.iv), hex(c.aad), ctTag)), label).toBe(c.msg);
          valid++;
        } else {
          expectCode(() => aead.open(hex(c.iv), hex(c.aad), ctTag), ['NEN_CRYPTO_AEAD', 'NEN_CRYPTO_LENGTH']);
          rejected++;
        }
        aead.dispose();
      }
      expect(valid).toBe(256);
      expect(rejected).toBe(69);
    }
  });

  it('the valid Wycheproof cases also pass through node:crypto directly (control)', () => {
    for (const c of cases.filter((x) => x.result === 'valid')) {
      const d = createDecipheriv('chacha20-poly1305', hex(c.key), hex(c.iv), { authTagLength: 16 });
      d.setAAD(hex(c.aad), { plaintextLength: c.msg.length / 2 });
      d.setAuthTag(hex(c.tag));
      const pt = Buffer.concat([d.update(hex(c.ct)), d.final()]);
      expect(pt.toString('hex')).toBe(c.msg);
    }
  });
});
