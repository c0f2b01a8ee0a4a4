/**
 * Single-shot HPKE SealBase / OpenBase (RFC 9180 §6.1) on every backend: Backend.sealBase,
 * Backend.createSenderKey(...).sealBase and HpkeRecipientKey.openBase.
 *
 * What is checked:
 *  - Go's hpke-pq.json X-Wing / HKDF-SHA256 / ChaCha20-Poly1305 entry (vendored in
 *    vectors/go-hpke/): its first encryption (seq 0 = the single-shot message) opens with the
 *    vector's enc on every backend, and derandomized SealBase(ikmE) (noble's function and the
 *    Wasm hazmat export) reproduces enc and ct byte for byte;
 *  - the ML-KEM-768 entry (an AES-128-GCM suite, so only the KEM part applies): derandomized
 *    SealBase reproduces its enc on noble and Wasm, and noble and Wasm agree on the ciphertext;
 *  - cross-backend round trips for both KEMs (every sender × every recipient backend), for the
 *    one-shot and the parsed sender key, with empty and large messages;
 *  - refusals with stable codes: tampered ct / aad / info / enc → NEN_CRYPTO_AEAD, bad lengths →
 *    NEN_CRYPTO_LENGTH, an ML-KEM key failing the modulus check and an X-Wing low-order share →
 *    NEN_CRYPTO_KEY, use after dispose → NEN_CRYPTO_DISPOSED;
 *  - Wasm objects are freed: thousands of sender keys, seals and opens leave the linear memory as it was.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sealBaseDerand } from '../src/backend/noble.js';
import { wasmMemoryByteLength } from '../src/backend/wasm-embedded.js';
import { KEM_ID, KEM_SIZES, type Backend, type KemId } from '../src/index.js';
import { codeOf, loadAll } from './backends.js';
import { hex, readHpkeVectors, toHex } from './vectors.js';

const pq = readHpkeVectors('hpke-pq');
const xwingVector = pq.find((x) => x.kem_id === 0x647a && x.kdf_id === 1 && x.aead_id === 3);
const mlkemVector = pq.find((x) => x.kem_id === 0x0041 && x.kdf_id === 1 && x.aead_id === 1);
const KEMS: KemId[] = [KEM_ID.XWING, KEM_ID.MLKEM768];

/** An ML-KEM-768 encapsulation key whose first coefficient is 4095 ≥ q (FIPS 203 §7.2 fails). */
function badMlKemKey(pk: Uint8Array): Uint8Array {
  const bad = pk.slice();
  bad[0] = 0xff;
  bad[1] = (bad[1] as number) | 0x0f;
  return bad;
}

describe('HPKE single-shot SealBase / OpenBase', () => {
  const ctx: { backends: Backend[] } = { backends: [] };
  beforeAll(async () => {
    ctx.backends = await loadAll();
  });

  vectorsAndRoundTrips(ctx);

  refusals(ctx);

  memoryBound(ctx);
});

/** The hpke-pq vectors' single-shot messages and round trips across every sender x recipient backend. */
function vectorsAndRoundTrips(ctx: { backends: Backend[] }): void {
  it('hpke-pq X-Wing: the seq-0 encryption opens on every backend; derandomized SealBase reproduces enc and ct', async () => {
    const v = xwingVector;
    if (!v?.encryptions?.length) throw new Error('hpke-pq.json has no X-Wing ChaCha20-Poly1305 entry with encryptions');
    const e = v.encryptions[0] as { aad: string; ct: string; pt: string };
    for (const b of ctx.backends) {
      using rk = b.createRecipientKey(KEM_ID.XWING, hex(v.skRm));
      expect(toHex(rk.openBase(hex(v.enc), hex(v.info), hex(e.aad), hex(e.ct))), b.name).toBe(e.pt);
    }
    const noble = sealBaseDerand(KEM_ID.XWING, hex(v.pkRm), hex(v.info), hex(e.aad), hex(e.pt), hex(v.ikmE));
    const { hazmat } = await import('../src/hazmat.js');
    const wasm = hazmat().sealBaseDerand(KEM_ID.XWING, hex(v.pkRm), hex(v.info), hex(e.aad), hex(e.pt), hex(v.ikmE));
    for (const s of [noble, wasm]) {
      expect(toHex(s.enc)).toBe(v.enc);
      expect(toHex(s.ciphertext)).toBe(e.ct);
    }
  });

  it('hpke-pq ML-KEM-768: derandomized SealBase reproduces enc; noble and Wasm agree; every backend opens it', async () => {
    const v = mlkemVector;
    if (!v) throw new Error('hpke-pq.json has no ML-KEM-768 entry');
    const pt = new Uint8Array(100).fill(7);
    const aad = new Uint8Array([1, 2, 3]);
    const noble = sealBaseDerand(KEM_ID.MLKEM768, hex(v.pkRm), hex(v.info), aad, pt, hex(v.ikmE));
    const { hazmat } = await import('../src/hazmat.js');
    const wasm = hazmat().sealBaseDerand(KEM_ID.MLKEM768, hex(v.pkRm), hex(v.info), aad, pt, hex(v.ikmE));
    expect(toHex(noble.enc)).toBe(v.enc);
    expect(toHex(wasm.enc)).toBe(v.enc);
    expect(toHex(wasm.ciphertext)).toBe(toHex(noble.ciphertext));
    for (const b of ctx.backends) {
      using rk = b.createRecipientKey(KEM_ID.MLKEM768, hex(v.skRm));
      expect(toHex(rk.openBase(noble.enc, hex(v.info), aad, noble.ciphertext)), b.name).toBe(toHex(pt));
    }
  });

  it('round-trips across every sender × recipient backend, one-shot and parsed sender key', () => {
    for (const kem of KEMS) {
      const kp = ctx.backends[0]?.generateKeyPair(kem);
      if (!kp) throw new Error('no backend');
      for (const size of [0, 16, 9000]) {
        const pt = ctx.backends[0]?.randomBytes(size) as Uint8Array;
        const info = new Uint8Array([kem & 0xff, size & 0xff]);
        const aad = new Uint8Array(size % 7);
        for (const sender of ctx.backends) {
          using sk = sender.createSenderKey(kem, kp.publicKey);
          expect(toHex(sk.publicKey)).toBe(toHex(kp.publicKey));
          const sealed = [sender.sealBase(kem, kp.publicKey, info, aad, pt), sk.sealBase(info, aad, pt), sk.sealBase(info, aad, pt)];
          expect(toHex(sealed[1]?.enc as Uint8Array)).not.toBe(toHex(sealed[2]?.enc as Uint8Array));
          for (const s of sealed) {
            expect(s.enc.length).toBe(KEM_SIZES[kem].enc);
            expect(s.ciphertext.length).toBe(size + 16);
            for (const recipient of ctx.backends) {
              using rk = recipient.createRecipientKey(kem, kp.privateKey);
              expect(toHex(rk.openBase(s.enc, info, aad, s.ciphertext)), `${sender.name} → ${recipient.name}`).toBe(toHex(pt));
            }
          }
        }
      }
    }
  });
}

/** Tampering, bad lengths, bad keys and disposed objects: stable codes on every backend. */
function refusals(ctx: { backends: Backend[] }): void {
  it('refuses tampering, bad lengths, bad keys and disposed objects with stable codes on every backend', () => {
    for (const kem of KEMS) {
      const kp = ctx.backends[0]?.generateKeyPair(kem);
      if (!kp) throw new Error('no backend');
      const info = new Uint8Array([1]);
      const aad = new Uint8Array([2]);
      const pt = new Uint8Array([3, 4, 5]);
      for (const b of ctx.backends) {
        const s = b.sealBase(kem, kp.publicKey, info, aad, pt);
        using rk = b.createRecipientKey(kem, kp.privateKey);
        const flip = (x: Uint8Array, i: number) => {
          const y = x.slice();
          y[i] = (y[i] as number) ^ 1;
          return y;
        };
        expect(
          codeOf(() => rk.openBase(s.enc, info, aad, flip(s.ciphertext, 0))),
          b.name,
        ).toBe('NEN_CRYPTO_AEAD');
        expect(
          codeOf(() => rk.openBase(s.enc, info, flip(aad, 0), s.ciphertext)),
          b.name,
        ).toBe('NEN_CRYPTO_AEAD');
        expect(
          codeOf(() => rk.openBase(s.enc, flip(info, 0), aad, s.ciphertext)),
          b.name,
        ).toBe('NEN_CRYPTO_AEAD');
        expect(
          codeOf(() => rk.openBase(flip(s.enc, 5), info, aad, s.ciphertext)),
          b.name,
        ).toBe('NEN_CRYPTO_AEAD');
        expect(
          codeOf(() => rk.openBase(s.enc.subarray(1), info, aad, s.ciphertext)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => rk.openBase(s.enc, info, aad, s.ciphertext.subarray(0, 15))),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => b.sealBase(kem, kp.publicKey.subarray(1), info, aad, pt)),
          b.name,
        ).toBe('NEN_CRYPTO_LENGTH');
        expect(
          codeOf(() => b.sealBase(kem, badMlKemKey(kp.publicKey), info, aad, pt)),
          b.name,
        ).toBe('NEN_CRYPTO_KEY');
        expect(
          codeOf(() => b.createSenderKey(kem, badMlKemKey(kp.publicKey))),
          b.name,
        ).toBe('NEN_CRYPTO_KEY');
        expect(
          codeOf(() => b.sealBase(0x20 as KemId, kp.publicKey, info, aad, pt)),
          b.name,
        ).toBe('NEN_CRYPTO_UNSUPPORTED');
        if (kem === KEM_ID.XWING) {
          // ct_X = 0 (a low-order point): X25519 yields all zeros, which X-Wing refuses here.
          const lowOrder = s.enc.slice();
          lowOrder.fill(0, KEM_SIZES[kem].enc - 32);
          expect(
            codeOf(() => rk.openBase(lowOrder, info, aad, s.ciphertext)),
            b.name,
          ).toBe('NEN_CRYPTO_KEY');
        }
        const sk = b.createSenderKey(kem, kp.publicKey);
        expect(String(sk)).toMatch(new RegExp(`^\\[HpkeSenderKey (${b.name}|wasm) kem=0x${kem.toString(16)}\\]$`));
        sk.dispose();
        sk.dispose();
        expect(
          codeOf(() => sk.sealBase(info, aad, pt)),
          b.name,
        ).toBe('NEN_CRYPTO_DISPOSED');
        rk.dispose();
        expect(
          codeOf(() => rk.openBase(s.enc, info, aad, s.ciphertext)),
          b.name,
        ).toBe('NEN_CRYPTO_DISPOSED');
      }
    }
  });
}

/** Sender keys, SealBase and OpenBase free their Wasm objects. */
function memoryBound(ctx: { backends: Backend[] }): void {
  it('sender keys, SealBase and OpenBase do not grow the Wasm linear memory (objects are freed)', () => {
    const wasm = ctx.backends.find((b) => b.name === 'wasm') as Backend;
    const node = ctx.backends.find((b) => b.name === 'node') as Backend;
    const kp = wasm.generateKeyPair(KEM_ID.XWING);
    using rk = wasm.createRecipientKey(KEM_ID.XWING, kp.privateKey);
    using nrk = node.createRecipientKey(KEM_ID.XWING, kp.privateKey);
    const e = new Uint8Array(0);
    const pt = new Uint8Array(16);
    const cycle = (n: number) => {
      for (let i = 0; i < n; i++) {
        for (const b of [wasm, node]) {
          using sk = b.createSenderKey(KEM_ID.XWING, kp.publicKey);
          const s = sk.sealBase(e, e, pt);
          const t = b.sealBase(KEM_ID.XWING, kp.publicKey, e, e, pt);
          rk.openBase(s.enc, e, e, s.ciphertext);
          nrk.openBase(t.enc, e, e, t.ciphertext);
        }
      }
    };
    cycle(100); // warm-up: allocator high-water mark
    const before = wasmMemoryByteLength();
    cycle(400);
    expect(wasmMemoryByteLength()).toBe(before);
  });
}
