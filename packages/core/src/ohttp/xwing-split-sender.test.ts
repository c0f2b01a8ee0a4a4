/**
 * ./xwing-split-sender.ts: X-Wing Encap with the X25519 half in OpenSSL (Node.js with OpenSSL
 * < 3.5; elsewhere undefined and the caller keeps the Wasm) decapsulates with the Wasm and the
 * @noble reference keys to its shared secret, keeps the Wasm path's codes for bad public keys
 * (NEN_CRYPTO_KEY) and bounds its per-config cache; setupBaseS through it opens at the gateway.
 * The encapsulation computed ahead is handed out once (every enc distinct, each opens) and is
 * dropped with its evicted config; setupBaseS's ahead carries the key schedule of the inputs it
 * was computed for and is used only for those.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decap as refDecap, expandKey } from '../backend/noble-kem.js';
import { wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import { OHTTP_AEAD, OHTTP_KEM, OhttpPrivateKey, generateOhttpPrivateKey, setupBaseR, setupBaseS } from './hpke.js';
import { splitSenderCount, splitSenderHeld, splitXWingEncap } from './xwing-split-sender.js';

type Glue = NonNullable<ReturnType<typeof wasmGlueIfLoaded>>;
let g: Glue;
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const m = /^(\d+)\.(\d+)/.exec(process.versions.openssl ?? '');
const FAST = !!m && (Number(m[1]) < 3 || (Number(m[1]) === 3 && Number(m[2]) < 5));

describe('X-Wing Encap with the X25519 half in OpenSSL', () => {
  beforeAll(async () => {
    const { loadEmbeddedWasmBackend } = await import('../backend/wasm-embedded.js');
    loadEmbeddedWasmBackend();
    g = wasmGlueIfLoaded() as Glue;
  });

  it(`is used where OpenSSL's key import is cheap (here: ${FAST}); its encapsulations open with the Wasm and @noble keys`, () => {
    const seed = generateOhttpPrivateKey(OHTTP_KEM.XWING);
    const rk = new g.RecipientKey(OHTTP_KEM.XWING, seed);
    const pk = rk.public_key;
    const first = splitXWingEncap(g, pk);
    if (!FAST) {
      expect(first).toBeUndefined();
      rk.free();
      return;
    }
    if (!first) throw new Error('splitXWingEncap gave undefined with OpenSSL < 3.5');
    const ref = expandKey(OHTTP_KEM.XWING, seed);
    for (let i = 0; i < 10; i++) {
      const e = i === 0 ? first : (splitXWingEncap(g, pk) as { sharedSecret: Uint8Array; enc: Uint8Array });
      expect(e.enc.length).toBe(1120);
      expect(toHex(rk.decap(e.enc))).toBe(toHex(e.sharedSecret));
      expect(toHex(refDecap(OHTTP_KEM.XWING, ref, undefined, e.enc))).toBe(toHex(e.sharedSecret));
    }
    rk.free();
  });

  it('bad public keys keep their codes; the per-config cache is bounded', () => {
    if (!FAST) return;
    const pk = new g.RecipientKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING)).public_key;
    const lowOrder = pk.slice();
    lowOrder.fill(0, 1184);
    expect(() => splitXWingEncap(g, lowOrder)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    const badModulus = pk.slice();
    badModulus.fill(0xff, 0, 384);
    expect(() => splitXWingEncap(g, badModulus)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    for (let i = 0; i < 12; i++) {
      const k = new g.RecipientKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));
      splitXWingEncap(g, k.public_key);
      k.free();
    }
    expect(splitSenderCount()).toBeLessThanOrEqual(8);
  });

  it('computes the next encapsulation ahead: handed out once, every enc distinct, each opens; dropped on eviction', async () => {
    if (!FAST) return;
    const rk = new g.RecipientKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));
    const pk = rk.public_key;
    const tick = () => new Promise((r) => setImmediate(() => setImmediate(r))); // ./after-io.ts: after the next poll
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const held = splitSenderHeld(pk);
      const e = splitXWingEncap(g, pk) as { sharedSecret: Uint8Array; enc: Uint8Array };
      if (i > 0) expect(held).toBe(i % 2 === 1); // after a tick the one ahead is there and is taken now
      expect(splitSenderHeld(pk)).toBe(false);
      expect(seen.has(toHex(e.enc))).toBe(false);
      seen.add(toHex(e.enc));
      expect(toHex(rk.decap(e.enc))).toBe(toHex(e.sharedSecret));
      if (i % 2 === 0) await tick();
    }
    expect(splitSenderHeld(pk)).toBe(false);
    await tick();
    expect(splitSenderHeld(pk)).toBe(true);
    for (let i = 0; i < 9; i++) {
      const k = new g.RecipientKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));
      splitXWingEncap(g, k.public_key);
      k.free();
    }
    expect(splitSenderHeld(pk)).toBe(false); // evicted, its held secret wiped
    await tick();
    expect(splitSenderCount()).toBeLessThanOrEqual(8);
    rk.free();
  });

  it('setupBaseS ahead carries its key schedule: held for the same (suite_id, info), handed out once; other inputs run inline; each opens', async () => {
    if (!FAST) return;
    const sk = new OhttpPrivateKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));
    const te = new TextEncoder();
    const infoA = te.encode('message/bhttp request\0A');
    const infoB = te.encode('message/bhttp request\0B');
    const tick = () => new Promise((r) => setImmediate(() => setImmediate(r))); // ./after-io.ts: after the next poll
    const seen = new Set<string>();
    const steps: [Uint8Array, number][] = [
      [infoA, OHTTP_AEAD.CHACHA20_POLY1305],
      [infoA, OHTTP_AEAD.CHACHA20_POLY1305],
      [infoB, OHTTP_AEAD.CHACHA20_POLY1305], // held for A: wiped, B inline
      [infoB, OHTTP_AEAD.AES_128_GCM], // another suite_id / Nk
      [infoB, OHTTP_AEAD.AES_128_GCM],
    ];
    for (const [i, [info, aead]] of steps.entries()) {
      if (i > 0) expect(splitSenderHeld(sk.publicKey)).toBe(true);
      const { enc, ctx } = setupBaseS(OHTTP_KEM.XWING, aead, sk.publicKey, info);
      expect(splitSenderHeld(sk.publicKey)).toBe(false); // handed out once
      expect(seen.has(toHex(enc))).toBe(false);
      seen.add(toHex(enc));
      const r = setupBaseR(sk, aead, enc, info);
      expect([...r.open(new Uint8Array(0), ctx.seal(new Uint8Array(0), Uint8Array.of(i)))]).toEqual([i]);
      const label = te.encode('message/bhttp response');
      expect(toHex(ctx.export(label, 32))).toBe(toHex(r.export(label, 32)));
      await tick();
    }
    sk.dispose();
  });

  it('setupBaseS (through it where used) opens at the gateway', () => {
    const sk = new OhttpPrivateKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));
    const info = new TextEncoder().encode('message/bhttp request');
    const { enc, ctx } = setupBaseS(OHTTP_KEM.XWING, OHTTP_AEAD.AES_128_GCM, sk.publicKey, info);
    const ct = ctx.seal(new Uint8Array(0), new Uint8Array([1, 2, 3]));
    expect([...setupBaseR(sk, OHTTP_AEAD.AES_128_GCM, enc, info).open(new Uint8Array(0), ct)]).toEqual([1, 2, 3]);
    sk.dispose();
  });
});
