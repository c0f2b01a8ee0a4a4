/**
 * OHTTP's Wasm KEM path (./kem-wasm.ts, used by ./hpke.ts once the Wasm is loaded): Decap of Go's
 * draft-ietf-hpke-pq vectors (vendored in vectors/go-hpke/hpke-pq.json) gives their
 * shared_secret; fresh Wasm encapsulations open with the @noble reference KEM and @noble's open
 * with the Wasm key (both directions, full OHTTP request / response too); HKDF, SHA-256 and small
 * ChaCha20-Poly1305 messages equal their references; a key made before the Wasm loaded switches
 * to it; bad keys keep their codes; Wasm objects are freed and bounded.
 */
import { readFileSync } from 'node:fs';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { decap as refDecap, encapDerand as refEncap, expandKey } from '../backend/noble-kem.js';
import { randomBytes } from '../backend/random.js';
import { wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import { decapsulateRequest, encapsulateRequest } from './encapsulation.js';
import { ohttpReplayId } from './date.js';
import { OHTTP_AEAD, OHTTP_KEM, OhttpPrivateKey, aeadOpen, aeadSeal, encap, generateOhttpPrivateKey, hkdf, setupBaseR, setupBaseS } from './hpke.js';
import { OhttpGatewayKeys, generateOhttpKey } from './key-config.js';
import { senderAheadHeld, senderKeyCount, wasmSetupBaseS } from './kem-wasm.js';

interface PqVector {
  kem_id: number;
  kdf_id: number;
  aead_id: number;
  mode: number;
  info: string;
  skRm: string;
  pkRm: string;
  enc: string;
  shared_secret: string;
  encryptions: { aad: string; ct: string; pt: string }[];
  exports: { exporter_context: string; L: number; exported_value: string }[];
}
const vectors = JSON.parse(readFileSync(new URL('../../../../vectors/go-hpke/hpke-pq.json', import.meta.url), 'utf8')) as PqVector[];
const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const KEMS = [OHTTP_KEM.XWING, OHTTP_KEM.MLKEM768] as const;

// Made before the Wasm is loaded: on @noble until a decap finds the Wasm loaded.
const early = new OhttpPrivateKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));

describe('OHTTP KEM on the Wasm core', () => {
  beforeAll(async () => {
    expect(wasmGlueIfLoaded()).toBeUndefined();
    const { loadEmbeddedWasmBackend } = await import('../backend/wasm-embedded.js');
    loadEmbeddedWasmBackend();
    expect(wasmGlueIfLoaded()).toBeDefined();
  });

  perKem();

  primitivesAndKeys();
});

/** Per KEM (X-Wing, ML-KEM-768): the vectors' Decap and SetupBaseR, Encap both ways, a full request / response. */
function perKem(): void {
  for (const kem of KEMS) {
    it(`0x${kem.toString(16)}: Decap of the hpke-pq vector's enc is its shared_secret`, () => {
      const v = vectors.find((x) => x.kem_id === kem && x.kdf_id === 1 && x.mode === 0);
      if (!v) throw new Error(`hpke-pq.json has no 0x${kem.toString(16)} entry`);
      const sk = new OhttpPrivateKey(kem, hex(v.skRm));
      expect(Buffer.from(sk.publicKey).toString('hex')).toBe(v.pkRm);
      expect(Buffer.from(sk.decap(hex(v.enc))).toString('hex')).toBe(v.shared_secret);
      sk.dispose();
    });

    it(`0x${kem.toString(16)}: SetupBaseR in Wasm with the vector's own suite opens its encryptions, equals its exports`, () => {
      const v = vectors.find((x) => x.kem_id === kem && x.kdf_id === 1 && x.mode === 0);
      if (!v) throw new Error(`hpke-pq.json has no 0x${kem.toString(16)} entry`);
      const sk = new OhttpPrivateKey(kem, hex(v.skRm));
      const ctx = setupBaseR(sk, v.aead_id, hex(v.enc), hex(v.info)); // X-Wing: ChaCha20-Poly1305; ML-KEM-768: AES-128-GCM
      expect(sk.setupBaseRInWasm(hex(v.enc), new Uint8Array(10), new Uint8Array(0), 16)).toBeDefined();
      for (const e of v.encryptions) expect(Buffer.from(ctx.open(hex(e.aad), hex(e.ct))).toString('hex')).toBe(e.pt);
      for (const x of v.exports) expect(Buffer.from(ctx.export(hex(x.exporter_context), x.L)).toString('hex')).toBe(x.exported_value);
      // A fresh Wasm SetupBaseS to the same key: the recipient opens what it seals, under this suite.
      const s2 = setupBaseS(kem, v.aead_id, sk.publicKey, hex(v.info));
      const r2 = setupBaseR(sk, v.aead_id, s2.enc, hex(v.info));
      expect(new TextDecoder().decode(r2.open(new Uint8Array(0), s2.ctx.seal(new Uint8Array(0), new TextEncoder().encode('x'))))).toBe('x');
      expect(() => setupBaseR(sk, v.aead_id, s2.enc, new Uint8Array(1)).open(new Uint8Array(0), s2.ctx.seal(new Uint8Array(0), new Uint8Array(3)))).toThrow(
        expect.objectContaining({ code: 'NEN_CRYPTO_AEAD' }),
      );
      sk.dispose();
    });

    it(`0x${kem.toString(16)}: Wasm Encap opens with the @noble reference, @noble Encap with the Wasm key`, () => {
      const seed = generateOhttpPrivateKey(kem);
      const sk = new OhttpPrivateKey(kem, seed);
      const ref = expandKey(kem, seed);
      expect(sk.publicKey).toEqual(ref.publicKey);
      for (let i = 0; i < 3; i++) {
        const mine = encap(kem, sk.publicKey);
        expect(refDecap(kem, ref, undefined, mine.enc)).toEqual(mine.sharedSecret);
        expect(sk.decap(mine.enc)).toEqual(mine.sharedSecret);
        const theirs = refEncap(kem, sk.publicKey, randomBytes(kem === OHTTP_KEM.XWING ? 64 : 32));
        expect(sk.decap(theirs.enc)).toEqual(theirs.sharedSecret);
      }
      expect(encap(kem, sk.publicKey).enc).not.toEqual(encap(kem, sk.publicKey).enc);
      sk.dispose();
    });

    it(`0x${kem.toString(16)}: a full OHTTP request / response, Wasm client to Wasm gateway`, () => {
      const keys = OhttpGatewayKeys.parse(generateOhttpKey(3, kem));
      const config = keys.configs()[0];
      if (!config) throw new Error('no config');
      const c = encapsulateRequest(config, new TextEncoder().encode('inner request'));
      const d = decapsulateRequest(keys, c.encapsulatedRequest);
      expect(new TextDecoder().decode(d.request)).toBe('inner request');
      expect(new TextDecoder().decode(c.openResponse(d.sealResponse(new TextEncoder().encode('inner response'))))).toBe('inner response');
      const tampered = c.encapsulatedRequest.slice();
      tampered[20] = (tampered[20] as number) ^ 1; // inside enc: implicit rejection, then the AEAD fails
      expect(() => decapsulateRequest(keys, tampered)).toThrow(expect.objectContaining({ code: 'NEN_OHTTP_DECRYPT' }));
    });
  }
}

/** HKDF, the replay id and ChaCha20-Poly1305 through the Wasm; keys made early, bad keys, freed objects. */
function primitivesAndKeys(): void {
  it('HKDF-SHA256 and the replay id through the Wasm equal @noble (RFC 5869 A.1, FIPS 180-2 "abc")', () => {
    const ikm = new Uint8Array(22).fill(0x0b);
    const salt = Uint8Array.from(Array.from({ length: 13 }, (_, i) => i));
    const info = Uint8Array.from(Array.from({ length: 10 }, (_, i) => 0xf0 + i));
    const prk = hkdf.extract(salt, ikm);
    expect(Buffer.from(prk).toString('hex')).toBe('077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5');
    expect(Buffer.from(hkdf.expand(prk, info, 42)).toString('hex')).toBe(
      '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
    );
    expect(ohttpReplayId(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('small ChaCha20-Poly1305 messages through the Wasm equal @noble/ciphers; a bad tag is NEN_CRYPTO_AEAD', () => {
    for (const n of [0, 1, 1024, 8191, 8192, 20_000]) {
      const [key, nonce, aad, pt] = [randomBytes(32), randomBytes(12), randomBytes(7), randomBytes(n)];
      const ct = aeadSeal(OHTTP_AEAD.CHACHA20_POLY1305, key, nonce, aad, pt);
      expect(ct).toEqual(chacha20poly1305(key, nonce, aad).encrypt(pt));
      expect(aeadOpen(OHTTP_AEAD.CHACHA20_POLY1305, key, nonce, aad, ct)).toEqual(pt);
      ct[ct.length - 1] = (ct[ct.length - 1] as number) ^ 1;
      expect(() => aeadOpen(OHTTP_AEAD.CHACHA20_POLY1305, key, nonce, aad, ct)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_AEAD' }));
    }
    expect(() => aeadOpen(OHTTP_AEAD.CHACHA20_POLY1305, randomBytes(32), randomBytes(12), new Uint8Array(0), new Uint8Array(5))).toThrow(
      expect.objectContaining({ code: 'NEN_CRYPTO_AEAD' }),
    );
  });

  it('a key made before the Wasm loaded switches to it and agrees with @noble', () => {
    const theirs = refEncap(OHTTP_KEM.XWING, early.publicKey, randomBytes(64));
    expect(early.decap(theirs.enc)).toEqual(theirs.sharedSecret);
    const mine = encap(OHTTP_KEM.XWING, early.publicKey);
    expect(early.decap(mine.enc)).toEqual(mine.sharedSecret);
    early.dispose();
    expect(() => early.decap(mine.enc)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_DISPOSED' }));
  });

  it('bad public keys and encapsulations keep their codes on the Wasm path', () => {
    const sk = new OhttpPrivateKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));
    const lowOrder = sk.publicKey.slice();
    lowOrder.fill(0, 1184);
    expect(() => encap(OHTTP_KEM.XWING, lowOrder)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    const notModQ = new Uint8Array(1184).fill(0xff); // coefficients >= q: FIPS 203 §7.2 modulus check
    expect(() => encap(OHTTP_KEM.MLKEM768, notModQ)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    const enc = encap(OHTTP_KEM.XWING, sk.publicKey).enc;
    enc.fill(0, 1088);
    expect(() => sk.decap(enc)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    expect(() => sk.decap(enc.subarray(1))).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_LENGTH' }));
    sk.dispose();
  });

  it('SetupBaseS ahead: handed out once and only for the same inputs, every enc distinct, each opens; dropped on eviction', async () => {
    const sk = new OhttpPrivateKey(OHTTP_KEM.MLKEM768, generateOhttpPrivateKey(OHTTP_KEM.MLKEM768));
    const sid = new Uint8Array([0x48, 0x50, 0x4b, 0x45, 0, 0x41, 0, 1, 0, 3]); // "HPKE" || ML-KEM-768 || HKDF-SHA256 || ChaCha20-Poly1305
    const info = new TextEncoder().encode('message/bhttp request');
    const tick = () => new Promise((r) => setImmediate(() => setImmediate(r))); // ./after-io.ts: after the next poll
    const seen = new Set<string>();
    const one = (i: Uint8Array) => {
      const w = wasmSetupBaseS(OHTTP_KEM.MLKEM768, sk.publicKey, sid, i, 32, 1088) as NonNullable<ReturnType<typeof wasmSetupBaseS>>;
      const hex = Buffer.from(w.enc).toString('hex');
      expect(seen.has(hex)).toBe(false);
      seen.add(hex);
      const ct = aeadSeal(OHTTP_AEAD.CHACHA20_POLY1305, w.ks.key, w.ks.baseNonce, new Uint8Array(0), new Uint8Array([7]));
      expect([...setupBaseR(sk, OHTTP_AEAD.CHACHA20_POLY1305, w.enc, i).open(new Uint8Array(0), ct)]).toEqual([7]);
    };
    one(info);
    await tick();
    expect(senderAheadHeld(OHTTP_KEM.MLKEM768, sk.publicKey)).toBe(true);
    one(info); // takes it
    expect(senderAheadHeld(OHTTP_KEM.MLKEM768, sk.publicKey)).toBe(false);
    await tick();
    one(new TextEncoder().encode('message/bhttp chunked request')); // another info: the held one is wiped, not used
    await tick();
    one(info);
    for (let i = 0; i < 9; i++) {
      const other = new OhttpPrivateKey(OHTTP_KEM.MLKEM768, generateOhttpPrivateKey(OHTTP_KEM.MLKEM768));
      encap(OHTTP_KEM.MLKEM768, other.publicKey);
      other.dispose();
    }
    expect(senderAheadHeld(OHTTP_KEM.MLKEM768, sk.publicKey)).toBe(false); // evicted
    await tick();
    sk.dispose();
  });

  it('sender keys are cached per public key and bounded; disposed recipient keys are freed', async () => {
    const { wasmMemoryByteLength } = await import('../backend/wasm-embedded.js');
    const pks = Array.from({ length: 12 }, () => new OhttpPrivateKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING)));
    const round = (): void => {
      for (const k of pks) encap(OHTTP_KEM.XWING, k.publicKey);
      for (const kem of [OHTTP_KEM.MLKEM768, OHTTP_KEM.XWING]) {
        const sk = new OhttpPrivateKey(kem, generateOhttpPrivateKey(kem));
        sk.decap(encap(kem, sk.publicKey).enc);
        sk.dispose();
      }
    };
    // Warm-up rounds first: the Wasm allocator's free lists settle (X-Wing keys on Node.js also
    // hold ./xwing-split.ts's ML-KEM-768 key; an encapsulation ahead, ./after-io.ts, may run in
    // the pause and shift where they settle), then 30 rounds must not grow the memory.
    round();
    round();
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 30; i++) round();
    expect(senderKeyCount()).toBeLessThanOrEqual(8);
    const before = wasmMemoryByteLength();
    for (let i = 0; i < 30; i++) round();
    expect(senderKeyCount()).toBeLessThanOrEqual(8);
    expect(wasmMemoryByteLength()).toBe(before);
    for (const k of pks) k.dispose();
  });
}
