/**
 * ./xwing-split.ts: the gateway's X-Wing Decap with the X25519 half in OpenSSL gives the Wasm
 * X-Wing Decap's bytes (Go's hpke-pq vector, fresh Wasm and @noble encapsulations), keeps the
 * codes (low-order ct_X NEN_CRYPTO_KEY, disposed NEN_CRYPTO_DISPOSED), is what an
 * OhttpPrivateKey uses on Node.js, and is skipped (whole Wasm Decap, same bytes) where
 * node:crypto is not reachable.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { encapDerand as refEncap } from '../backend/noble-kem.js';
import { randomBytes } from '../backend/random.js';
import { wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import { OHTTP_KEM, OhttpPrivateKey, generateOhttpPrivateKey } from './hpke.js';
import { SplitXWingKey } from './xwing-split.js';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const vectors = JSON.parse(readFileSync(new URL('../../../../vectors/go-hpke/hpke-pq.json', import.meta.url), 'utf8')) as {
  kem_id: number;
  mode: number;
  skRm: string;
  pkRm: string;
  enc: string;
  shared_secret: string;
}[];

type Glue = NonNullable<ReturnType<typeof wasmGlueIfLoaded>>;
let g: Glue;

function split(sk: Uint8Array): { key: SplitXWingKey; whole: InstanceType<Glue['RecipientKey']> } {
  const whole = new g.RecipientKey(OHTTP_KEM.XWING, sk);
  const key = SplitXWingKey.create(g, sk, whole.public_key);
  if (!key) throw new Error('SplitXWingKey.create gave undefined on Node.js');
  return { key, whole };
}

describe('X-Wing Decap with the X25519 half in OpenSSL', () => {
  beforeAll(async () => {
    const { loadEmbeddedWasmBackend } = await import('../backend/wasm-embedded.js');
    loadEmbeddedWasmBackend();
    g = wasmGlueIfLoaded() as Glue;
    expect(g).toBeDefined();
  });

  it("Decap of Go's hpke-pq X-Wing vector is its shared_secret", () => {
    const v = vectors.find((x) => x.kem_id === OHTTP_KEM.XWING && x.mode === 0);
    if (!v) throw new Error('hpke-pq.json has no X-Wing entry');
    const { key, whole } = split(hex(v.skRm));
    expect(toHex(whole.public_key)).toBe(v.pkRm);
    expect(toHex(key.decap(hex(v.enc)))).toBe(v.shared_secret);
    key.dispose();
    whole.free();
  });

  it('equals the whole Wasm Decap for fresh Wasm and @noble encapsulations', () => {
    const { key, whole } = split(generateOhttpPrivateKey(OHTTP_KEM.XWING));
    const sender = new g.SenderKey(OHTTP_KEM.XWING, whole.public_key);
    for (let i = 0; i < 20; i++) {
      const out = sender.encap();
      const enc = out.subarray(32);
      expect(toHex(key.decap(enc))).toBe(toHex(out.subarray(0, 32)));
      expect(toHex(key.decap(enc))).toBe(toHex(whole.decap(enc)));
      const ref = refEncap(OHTTP_KEM.XWING, whole.public_key, randomBytes(64));
      expect(toHex(key.decap(ref.enc))).toBe(toHex(ref.sharedSecret));
    }
    // A modified ML-KEM ciphertext: implicit rejection, same bytes as the Wasm.
    const enc = sender.encap().slice(32);
    enc[5] = (enc[5] as number) ^ 1;
    expect(toHex(key.decap(enc))).toBe(toHex(whole.decap(enc)));
    sender.free();
    key.dispose();
    whole.free();
  });

  it('a low-order ct_X is NEN_CRYPTO_KEY; a disposed key NEN_CRYPTO_DISPOSED', () => {
    const { key, whole } = split(generateOhttpPrivateKey(OHTTP_KEM.XWING));
    const enc = new g.SenderKey(OHTTP_KEM.XWING, whole.public_key).encap().slice(32);
    const lowOrder = enc.slice();
    lowOrder.fill(0, 1088);
    expect(() => key.decap(lowOrder)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    lowOrder[1088] = 1; // u = 1: order 1
    expect(() => key.decap(lowOrder)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_KEY' }));
    key.dispose();
    expect(() => key.decap(enc)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_DISPOSED' }));
    whole.free();
  });

  it('a public key whose halves do not match the seed is refused (the caller keeps the whole Wasm Decap)', () => {
    const sk = generateOhttpPrivateKey(OHTTP_KEM.XWING);
    const other = new g.RecipientKey(OHTTP_KEM.XWING, generateOhttpPrivateKey(OHTTP_KEM.XWING));
    expect(SplitXWingKey.create(g, sk, other.public_key)).toBeUndefined();
    other.free();
  });

  it('OhttpPrivateKey uses it on Node.js; without node:crypto it keeps the Wasm Decap, same bytes', () => {
    const seed = generateOhttpPrivateKey(OHTTP_KEM.XWING);
    const p = process as { getBuiltinModule?: (id: string) => unknown };
    const saved = p.getBuiltinModule;
    const asked: string[] = [];
    p.getBuiltinModule = (id: string) => {
      asked.push(id);
      return saved?.call(process, id);
    };
    let a: OhttpPrivateKey;
    try {
      a = new OhttpPrivateKey(OHTTP_KEM.XWING, seed); // the Wasm is loaded: the split key is made here
    } finally {
      p.getBuiltinModule = saved;
    }
    expect(asked).toContain('node:crypto');
    const sender = new g.SenderKey(OHTTP_KEM.XWING, a.publicKey);
    const out = sender.encap();
    sender.free();
    let b: OhttpPrivateKey;
    let viaWasm: Uint8Array;
    p.getBuiltinModule = undefined;
    try {
      expect(SplitXWingKey.create(g, seed, a.publicKey)).toBeUndefined();
      b = new OhttpPrivateKey(OHTTP_KEM.XWING, seed);
      viaWasm = b.decap(out.subarray(32));
    } finally {
      p.getBuiltinModule = saved;
    }
    expect(toHex(a.decap(out.subarray(32)))).toBe(toHex(out.subarray(0, 32)));
    expect(toHex(viaWasm)).toBe(toHex(out.subarray(0, 32)));
    a.dispose();
    b.dispose();
  });
});
