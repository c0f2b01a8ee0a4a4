/**
 * HPKE vectors (RFC 9180 base mode + draft-ietf-hpke-pq), from Go's crypto/hpke testdata, vendored
 * in `vectors/go-hpke/`.
 *
 * What is checked:
 *  - hpke-pq.json X-Wing / HKDF-SHA256 / ChaCha20-Poly1305 (0x647a, 0x0001, 0x0003), our suite,
 *    through every backend's public API: DeriveKeyPair(ikmR) = (skRm, pkRm); a recipient key
 *    from skRm reproduces pkRm and every Export from enc; and through each backend's hazmat
 *    derandomized SetupBaseS(ikmE): enc and every Export.
 *  - hpke-pq.json ML-KEM-768 entry (0x0041, 0x0001, AES-128-GCM 0x0001): the KEM part (DeriveKeyPair,
 *    derandomized Encap = enc and shared_secret) and, through the noble key-schedule functions with
 *    aead_id 0x0001 / Nk 16, key, base_nonce, exporter_secret, every Export and every encryption
 *    (AES-128-GCM from @noble/ciphers, test-only). The public backend API cannot reproduce this
 *    entry's exports because our suite_id fixes aead_id 0x0003: it is checked indirectly.
 *  - rfc9180.json DHKEM(X25519) + HKDF-SHA256 entries (all four AEAD ids): our RFC 9180 §5.1 key
 *    schedule and §5.3 Export over a test-only DHKEM(X25519) (RFC 9180 §4.1, @noble/curves), against
 *    Go's accumulated exports (1000 exports) and, for ChaCha20-Poly1305, the accumulated
 *    encryptions (1000 seals with nonce = base_nonce XOR seq). Other KEMs/KDFs are out of scope.
 * A missing vector file fails the suite (nothing is skipped).
 */
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { shake128 } from '@noble/hashes/sha3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { hpkeExport, hpkeSuiteId, kemSuiteId, keyScheduleBase, labeledExpand, labeledExtract } from '../src/backend/hpke.js';
import { encapDerand, nobleHkdf, setupBaseSExportDerand } from '../src/backend/noble.js';
import { KEM_ID, type Backend, type KemId } from '../src/index.js';
import { loadAll } from './backends.js';
import { derandSetupS } from './derand.js';
import { hex, readHpkeVectors, toHex, type HpkeVector } from './vectors.js';

const pq = readHpkeVectors('hpke-pq');
const rfc = readHpkeVectors('rfc9180');

const findPq = (kem: number, kdf: number, aead: number): HpkeVector => {
  const v = pq.find((x) => x.kem_id === kem && x.kdf_id === kdf && x.aead_id === aead);
  if (!v) throw new Error(`hpke-pq.json has no ${kem}/${kdf}/${aead} entry`);
  return v;
};

describe('HPKE vectors', () => {
  const ctx: { backends: Backend[] } = { backends: [] };
  beforeAll(async () => {
    ctx.backends = await loadAll();
  });

  xwingVectors(ctx);

  otherSuites(ctx);
});

/** RFC 9180 §5.2: nonce = base_nonce XOR I2OSP(seq, Nn). */
function nonceFor(baseNonce: Uint8Array, seq: number): Uint8Array {
  const n = baseNonce.slice();
  const view = new DataView(n.buffer);
  view.setUint32(8, view.getUint32(8) ^ seq);
  return n;
}

function makeDraw(xof: ReturnType<typeof shake128.create>): () => Uint8Array {
  return () => {
    const n = xof.xof(1)[0] as number;
    return xof.xof(n);
  };
}

const DHKEM_X25519: KemId | 0x0020 = 0x0020;
/** RFC 9180 §7.1.3 DeriveKeyPair for DHKEM(X25519, HKDF-SHA256). */
function dhkemDeriveSk(ikm: Uint8Array): Uint8Array {
  const sid = kemSuiteId(DHKEM_X25519);
  const prk = labeledExtract(nobleHkdf, sid, new Uint8Array(0), 'dkp_prk', ikm);
  return labeledExpand(nobleHkdf, sid, prk, 'sk', new Uint8Array(0), 32);
}
/** RFC 9180 §4.1 ExtractAndExpand(dh, kem_context = enc || pkR). */
function dhkemSharedSecret(dh: Uint8Array, enc: Uint8Array, pkR: Uint8Array): Uint8Array {
  const sid = kemSuiteId(DHKEM_X25519);
  const eae = labeledExtract(nobleHkdf, sid, new Uint8Array(0), 'eae_prk', dh);
  const ctx = new Uint8Array(enc.length + pkR.length);
  ctx.set(enc);
  ctx.set(pkR, enc.length);
  return labeledExpand(nobleHkdf, sid, eae, 'shared_secret', ctx, 32);
}

/** hpke-pq X-Wing / HKDF-SHA256 / ChaCha20-Poly1305: keys, exports, key schedule, encryptions. */
function xwingVectors(ctx: { backends: Backend[] }): void {
  it('hpke-pq X-Wing/HKDF-SHA256/ChaCha20-Poly1305: DeriveKeyPair, SetupBaseR + Export (every backend)', () => {
    const v = findPq(0x647a, 1, 3);
    expect(v.exports?.length).toBeGreaterThan(0);
    for (const b of ctx.backends) {
      const kp = b.deriveKeyPair(KEM_ID.XWING, hex(v.ikmR));
      expect(toHex(kp.privateKey), b.name).toBe(v.skRm);
      expect(toHex(kp.publicKey), b.name).toBe(v.pkRm);
      using rk = b.createRecipientKey(KEM_ID.XWING, hex(v.skRm));
      expect(toHex(rk.publicKey)).toBe(v.pkRm);
      for (const e of v.exports ?? []) {
        expect(toHex(rk.setupBaseRExport(hex(v.enc), hex(v.info), hex(e.exporter_context), e.L)), b.name).toBe(e.exported_value);
      }
    }
  });

  it('hpke-pq X-Wing: derandomized SetupBaseS(ikmE) gives enc and every Export (every backend)', async () => {
    const v = findPq(0x647a, 1, 3);
    for (const b of ctx.backends) {
      for (const e of v.exports ?? []) {
        const s = await derandSetupS(b, KEM_ID.XWING, hex(v.pkRm), hex(v.info), hex(e.exporter_context), e.L, hex(v.ikmE));
        expect(toHex(s.enc), b.name).toBe(v.enc);
        expect(toHex(s.exported), b.name).toBe(e.exported_value);
      }
    }
  });

  it('hpke-pq X-Wing: key schedule intermediates and encryptions (noble key schedule)', () => {
    const v = findPq(0x647a, 1, 3);
    const { sharedSecret, enc } = encapDerand(KEM_ID.XWING, hex(v.pkRm), hex(v.ikmE));
    expect(toHex(enc)).toBe(v.enc);
    expect(toHex(sharedSecret)).toBe(v.shared_secret);
    const sid = hpkeSuiteId(0x647a, 1, 3);
    expect(toHex(sid)).toBe(v.suite_id);
    const ks = keyScheduleBase(nobleHkdf, sid, sharedSecret, hex(v.info));
    expect(toHex(ks.key)).toBe(v.key);
    expect(toHex(ks.baseNonce)).toBe(v.base_nonce);
    expect(toHex(ks.exporterSecret)).toBe(v.exporter_secret);
    for (const [i, e] of (v.encryptions ?? []).entries()) {
      expect(toHex(nonceFor(ks.baseNonce, i))).toBe(e.nonce);
      expect(toHex(chacha20poly1305(ks.key, hex(e.nonce), hex(e.aad)).encrypt(hex(e.pt)))).toBe(e.ct);
    }
  });
}

/** hpke-pq ML-KEM-768 and RFC 9180 DHKEM(X25519) entries. */
function otherSuites(ctx: { backends: Backend[] }): void {
  it('hpke-pq ML-KEM-768 entry (AES-128-GCM suite): KEM, key schedule, exports, encryptions', async () => {
    const v = findPq(0x0041, 1, 1);
    // KEM part through every backend (independent of the AEAD id).
    for (const b of ctx.backends) {
      const kp = b.deriveKeyPair(KEM_ID.MLKEM768, hex(v.ikmR));
      expect(toHex(kp.privateKey), b.name).toBe(v.skRm);
      expect(toHex(kp.publicKey), b.name).toBe(v.pkRm);
      const s = await derandSetupS(b, KEM_ID.MLKEM768, hex(v.pkRm), hex(v.info), new Uint8Array(0), 32, hex(v.ikmE));
      expect(toHex(s.enc), b.name).toBe(v.enc);
    }
    const { sharedSecret } = encapDerand(KEM_ID.MLKEM768, hex(v.pkRm), hex(v.ikmE));
    expect(toHex(sharedSecret)).toBe(v.shared_secret);
    const sid = hpkeSuiteId(0x0041, 1, 1);
    expect(toHex(sid)).toBe(v.suite_id);
    const ks = keyScheduleBase(nobleHkdf, sid, sharedSecret, hex(v.info), 16, 12);
    expect(toHex(ks.key)).toBe(v.key);
    expect(toHex(ks.baseNonce)).toBe(v.base_nonce);
    expect(toHex(ks.exporterSecret)).toBe(v.exporter_secret);
    for (const e of v.exports ?? []) {
      expect(toHex(hpkeExport(nobleHkdf, sid, ks.exporterSecret, hex(e.exporter_context), e.L))).toBe(e.exported_value);
    }
    for (const [i, e] of (v.encryptions ?? []).entries()) {
      expect(toHex(nonceFor(ks.baseNonce, i))).toBe(e.nonce);
      expect(toHex(gcm(ks.key, hex(e.nonce), hex(e.aad)).encrypt(hex(e.pt)))).toBe(e.ct);
    }
  });

  it('noble hazmat SetupBaseS matches the ML-KEM-768 entry with our own suite (sender = recipient)', () => {
    const v = findPq(0x0041, 1, 1);
    const s = setupBaseSExportDerand(KEM_ID.MLKEM768, hex(v.pkRm), hex(v.info), new Uint8Array(3), 48, hex(v.ikmE));
    expect(toHex(s.enc)).toBe(v.enc);
    for (const b of ctx.backends) {
      using rk = b.createRecipientKey(KEM_ID.MLKEM768, hex(v.skRm));
      expect(toHex(rk.setupBaseRExport(s.enc, hex(v.info), new Uint8Array(3), 48)), b.name).toBe(toHex(s.exported));
    }
  });

  it('rfc9180 DHKEM(X25519)/HKDF-SHA256: key schedule + Export (accumulated) for every AEAD id', () => {
    const vs = rfc.filter((x) => x.mode === 0 && x.kem_id === 0x0020 && x.kdf_id === 0x0001);
    expect(vs.map((x) => x.aead_id).sort((a, b) => a - b)).toEqual([1, 2, 3, 0xffff]);
    for (const v of vs) {
      const skR = dhkemDeriveSk(hex(v.ikmR));
      expect(toHex(x25519.getPublicKey(skR))).toBe(v.pkRm);
      const skE = dhkemDeriveSk(hex(v.ikmE));
      const enc = x25519.getPublicKey(skE);
      expect(toHex(enc)).toBe(v.enc);
      const ss = dhkemSharedSecret(x25519.getSharedSecret(skE, hex(v.pkRm)), enc, hex(v.pkRm));
      expect(toHex(dhkemSharedSecret(x25519.getSharedSecret(skR, enc), enc, hex(v.pkRm)))).toBe(toHex(ss));
      const nk = v.aead_id === 1 ? 16 : 32;
      const sid = hpkeSuiteId(0x0020, 1, v.aead_id);
      const ks = keyScheduleBase(nobleHkdf, sid, ss, hex(v.info), nk, 12);
      // Go's accumulation: 1000 exports, context and length drawn from SHAKE128, outputs into SHAKE128.
      const source = shake128.create({});
      const sink = shake128.create({});
      const draw = makeDraw(source);
      for (let l = 0; l < 1000; l++) {
        const context = draw();
        sink.update(hpkeExport(nobleHkdf, sid, ks.exporterSecret, context, l));
      }
      expect(toHex(sink.xof(16)), `aead ${v.aead_id}`).toBe(v.exports_accumulated);
      if (v.aead_id === 3) {
        const src = shake128.create({});
        const out = shake128.create({});
        const drawE = makeDraw(src);
        for (let i = 0; i < 1000; i++) {
          const aad = drawE();
          const pt = drawE();
          out.update(chacha20poly1305(ks.key, nonceFor(ks.baseNonce, i), aad).encrypt(pt));
        }
        expect(toHex(out.xof(16))).toBe(v.encryptions_accumulated);
      }
    }
  });
}
