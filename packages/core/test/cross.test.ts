/**
 * Cross-implementation checks on random inputs: every pair of backends must agree byte for byte
 * (ChaCha20-Poly1305 seal/open, SHA-256, HMAC-SHA256, HKDF extract/expand) and interoperate on
 * HPKE in both directions for both KEMs (sender on one backend, recipient on another, same
 * exported secret); ChaCha20-Poly1305 is also checked against node:crypto used directly.
 */
import { createCipheriv } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { KEM_ID, type Backend, type KemId } from '../src/index.js';
import { SMALL_INPUT, SMALL_MESSAGE } from '../src/backend/node.js';
import { loadAll } from './backends.js';
import { toHex } from './vectors.js';

// around node.ts SMALL_MESSAGE too (the Wasm below it, node:crypto from it), whatever it is here
const SIZES = [0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 1000, 4096, 8191, 8192, 8193, 65_537, SMALL_MESSAGE - 1, SMALL_MESSAGE, SMALL_MESSAGE + 1];

describe('cross-backend agreement', () => {
  let backends: Backend[] = [];
  beforeAll(async () => {
    backends = await loadAll();
  });
  const rnd = (n: number) => backends[0]!.randomBytes(n);

  it('loads all backends under test', () => {
    expect(backends.map((b) => b.name)).toEqual(expect.arrayContaining(['noble', 'wasm', 'node']));
  });

  it('ChaCha20-Poly1305 seal/open are byte-identical (and equal node:crypto)', () => {
    for (const size of SIZES) {
      for (let rep = 0; rep < 3; rep++) {
        const key = rnd(32);
        const nonce = rnd(12);
        const aad = rnd(rep * 13);
        const pt = rnd(size);
        const c = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
        c.setAAD(aad, { plaintextLength: pt.length });
        const ref = toHex(Buffer.concat([c.update(pt), c.final(), c.getAuthTag()]));
        for (const b of backends) {
          using aead = b.createAead(key);
          const ct = aead.seal(nonce, aad, pt);
          expect(toHex(ct), `${b.name} size ${size}`).toBe(ref);
          for (const o of backends) {
            using other = o.createAead(key);
            expect(toHex(other.open(nonce, aad, ct)), `${b.name}→${o.name}`).toBe(toHex(pt));
          }
        }
      }
    }
  });

  it('SHA-256, HMAC-SHA256, HKDF extract/expand are byte-identical', () => {
    for (const size of SIZES) {
      const data = rnd(size);
      const key = rnd(size % 100);
      const salt = rnd(size % 70);
      const ref = backends[0]!;
      const prk = ref.hkdfExtract(salt, data);
      const info = rnd(size % 50);
      const len = 1 + ((size * 7) % 400);
      for (const b of backends) {
        expect(toHex(b.sha256(data)), b.name).toBe(toHex(ref.sha256(data)));
        expect(toHex(b.hmacSha256(key, data)), b.name).toBe(toHex(ref.hmacSha256(key, data)));
        expect(toHex(b.hkdfExtract(salt, data)), b.name).toBe(toHex(prk));
        expect(toHex(b.hkdfExpand(prk, info, len)), b.name).toBe(toHex(ref.hkdfExpand(prk, info, len)));
        expect(toHex(b.hkdfExpand(prk, info, 8160)), b.name).toBe(toHex(ref.hkdfExpand(prk, info, 8160)));
      }
    }
    // Both sides of the node backend's small-input threshold (Wasm below, node:crypto above).
    for (const n of [SMALL_INPUT - 40, SMALL_INPUT - 33, SMALL_INPUT, SMALL_INPUT + 1, 3 * SMALL_INPUT]) {
      const prk = rnd(32);
      const info = rnd(n);
      const ref = backends[0]!;
      for (const b of backends) {
        expect(toHex(b.hkdfExpand(prk, info, 100)), `${b.name} info ${n}`).toBe(toHex(ref.hkdfExpand(prk, info, 100)));
        expect(toHex(b.hkdfExtract(info, prk)), `${b.name} salt ${n}`).toBe(toHex(ref.hkdfExtract(info, prk)));
        expect(toHex(b.hmacSha256(info, prk)), `${b.name} key ${n}`).toBe(toHex(ref.hmacSha256(info, prk)));
        expect(toHex(b.sha256(info)), `${b.name} sha ${n}`).toBe(toHex(ref.sha256(info)));
      }
    }
  });

  it('HPKE interoperates in both directions for both KEMs; DeriveKeyPair agrees', () => {
    const kems: KemId[] = [KEM_ID.XWING, KEM_ID.MLKEM768];
    for (const kem of kems) {
      for (const s of backends) {
        for (const r of backends) {
          const kp = r.generateKeyPair(kem);
          const info = rnd(40);
          const ctx = rnd(20);
          const sent = s.setupBaseSExport(kem, kp.publicKey, info, ctx, 48);
          using rk = r.createRecipientKey(kem, kp.privateKey);
          expect(toHex(rk.setupBaseRExport(sent.enc, info, ctx, 48)), `${s.name}→${r.name} kem ${kem}`).toBe(toHex(sent.exported));
          const ikm = rnd(32);
          expect(toHex(s.deriveKeyPair(kem, ikm).publicKey)).toBe(toHex(r.deriveKeyPair(kem, ikm).publicKey));
          using rk2 = s.createRecipientKey(kem, kp.privateKey);
          expect(toHex(rk2.publicKey)).toBe(toHex(kp.publicKey));
        }
      }
    }
  });
});
