/**
 * The node backend's X-Wing runs its X25519 half in node:crypto (OpenSSL) and the rest in the
 * Wasm (src/backend/node-xwing.ts). These checks pin OpenSSL's X25519 to curve25519-dalek's (in
 * the Wasm) and @noble's on the inputs where implementations could differ: random shares with the
 * top bit set, non-canonical u >= p, and every low-order point (all-zero result → NEN_CRYPTO_KEY
 * on both the sender and the recipient side). Vectors and cross-tests cover the regular path.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { KEM_ID, type Backend } from '../index.js';
import { codeOf, loadAll } from '../../test/backends.js';
import { toHex } from '../../test/vectors.js';

const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
/** u-coordinates whose X25519 with any scalar is all-zero (order 1, 2, 4, 8; and u ≡ those mod p). */
const LOW_ORDER = [
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0100000000000000000000000000000000000000000000000000000000000000',
  'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800',
  '5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p - 1
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p + 1
  'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880', // order-8 point, bit 255 set
  '5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7', // order-8 point, bit 255 set
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // p, bit 255 set
];
/** Non-canonical or top-bit-set u that are not low order: X25519 masks bit 255 and reduces mod p. */
const ODD = [
  'efffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p + 2
  'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // 2^256 - 1
  '0900000000000000000000000000000000000000000000000000000000000080', // base point, top bit set
];

describe('node backend X-Wing: OpenSSL X25519 agrees with the Wasm and @noble', () => {
  let backends: Backend[] = [];
  beforeAll(async () => {
    backends = await loadAll();
  });

  it('recipient: same export or same error for random, non-canonical and low-order ct_X', () => {
    const seed = backends[0]!.randomBytes(32);
    const keys = backends.map((b) => b.createRecipientKey(KEM_ID.XWING, seed));
    expect(String(keys[backends.findIndex((b) => b.name === 'node')])).toBe('[HpkeRecipientKey node kem=0x647a]');
    const base = backends[0]!.setupBaseSExport(KEM_ID.XWING, keys[0]!.publicKey, new Uint8Array(0), new Uint8Array(0), 32).enc;
    const shares: Uint8Array[] = [...LOW_ORDER, ...ODD].map(hex);
    for (let i = 0; i < 12; i++) shares.push(backends[0]!.randomBytes(32));
    for (const u of shares) {
      const enc = base.slice();
      enc.set(u, 1088);
      const out = keys.map((k) => {
        const code = codeOf(() => k.setupBaseRExport(enc, new Uint8Array(1), new Uint8Array(2), 32));
        return code ?? toHex(k.setupBaseRExport(enc, new Uint8Array(1), new Uint8Array(2), 32));
      });
      expect(new Set(out).size, `ct_X ${toHex(u)}: ${out.join(' / ')}`).toBe(1);
      if (LOW_ORDER.includes(toHex(u))) expect(out[0]).toBe('NEN_CRYPTO_KEY');
    }
    for (const k of keys) k.dispose();
  });

  it('sender: a low-order pk_X is NEN_CRYPTO_KEY; a non-canonical one still encapsulates', () => {
    const kp = backends[0]!.generateKeyPair(KEM_ID.XWING);
    for (const b of backends) {
      for (const u of LOW_ORDER) {
        const pk = kp.publicKey.slice();
        pk.set(hex(u), 1184);
        expect(
          codeOf(() => b.setupBaseSExport(KEM_ID.XWING, pk, new Uint8Array(0), new Uint8Array(0), 32)),
          `${b.name} ${u}`,
        ).toBe('NEN_CRYPTO_KEY');
      }
      for (const u of ODD) {
        const pk = kp.publicKey.slice();
        pk.set(hex(u), 1184);
        expect(b.setupBaseSExport(KEM_ID.XWING, pk, new Uint8Array(0), new Uint8Array(0), 32).enc.length, `${b.name} ${u}`).toBe(1120);
      }
    }
  });

  it('sender on node, recipient on every backend (and back) agree for many keys', () => {
    const node = backends.find((b) => b.name === 'node')!;
    for (let i = 0; i < 8; i++) {
      for (const b of backends) {
        const kp = b.generateKeyPair(KEM_ID.XWING);
        using rk = b.createRecipientKey(KEM_ID.XWING, kp.privateKey);
        using nk = node.createRecipientKey(KEM_ID.XWING, kp.privateKey);
        const s = node.setupBaseSExport(KEM_ID.XWING, kp.publicKey, new Uint8Array([i]), new Uint8Array(0), 48);
        expect(toHex(rk.setupBaseRExport(s.enc, new Uint8Array([i]), new Uint8Array(0), 48)), b.name).toBe(toHex(s.exported));
        const t = b.setupBaseSExport(KEM_ID.XWING, kp.publicKey, new Uint8Array(0), new Uint8Array([i]), 32);
        expect(toHex(nk.setupBaseRExport(t.enc, new Uint8Array(0), new Uint8Array([i]), 32)), b.name).toBe(toHex(t.exported));
      }
    }
  });

  it('a node key: first use in the Wasm (OpenSSL ≥ 3.5) or OpenSSL, later uses with sk_X in OpenSSL: the same bytes and codes (SetupBaseR, OpenBase)', () => {
    const node = backends.find((b) => b.name === 'node')!;
    const wasm = backends.find((b) => b.name === 'wasm')!;
    const kp = wasm.generateKeyPair(KEM_ID.XWING);
    const low = wasm.setupBaseSExport(KEM_ID.XWING, kp.publicKey, new Uint8Array(0), new Uint8Array(0), 32).enc;
    low.set(hex(LOW_ORDER[2]!), 1088);
    for (const firstCall of ['export', 'open', 'low-order'] as const) {
      using nk = node.createRecipientKey(KEM_ID.XWING, kp.privateKey);
      using wk = wasm.createRecipientKey(KEM_ID.XWING, kp.privateKey);
      for (let i = 0; i < 4; i++) {
        const op = i === 0 ? firstCall : (['export', 'open', 'low-order'] as const)[i % 3];
        if (op === 'low-order') {
          expect(
            codeOf(() => nk.setupBaseRExport(low, new Uint8Array(0), new Uint8Array(0), 32)),
            `${firstCall} #${i}`,
          ).toBe('NEN_CRYPTO_KEY');
          expect(
            codeOf(() => nk.openBase(low, new Uint8Array(0), new Uint8Array(0), new Uint8Array(16))),
            `${firstCall} #${i}`,
          ).toBe('NEN_CRYPTO_KEY');
        } else if (op === 'export') {
          const s = wasm.setupBaseSExport(KEM_ID.XWING, kp.publicKey, new Uint8Array([i]), new Uint8Array(1), 32);
          expect(toHex(nk.setupBaseRExport(s.enc, new Uint8Array([i]), new Uint8Array(1), 32))).toBe(toHex(s.exported));
          expect(toHex(wk.setupBaseRExport(s.enc, new Uint8Array([i]), new Uint8Array(1), 32))).toBe(toHex(s.exported));
        } else {
          const s = wasm.sealBase(KEM_ID.XWING, kp.publicKey, new Uint8Array([i]), new Uint8Array(2), new Uint8Array([1, 2, 3]));
          expect(toHex(nk.openBase(s.enc, new Uint8Array([i]), new Uint8Array(2), s.ciphertext))).toBe('010203');
        }
      }
    }
  });
});
