/**
 * The HPKE contexts OHTTP needs (RFC 9180 §5.1, §5.2, §5.3): a sender / recipient context that
 * seals / opens many messages (sequence numbers) and exports secrets from the same key schedule.
 * The Nen session protocol uses only single-shot export (../backend); RFC 9458 needs Seal + Export
 * on one context, and chunked OHTTP needs Seal with a growing sequence number.
 *
 * Suites:
 *  - KEMs: X-Wing 0x647a (default) and ML-KEM-768 0x0041 on the Wasm core where a runtime entry
 *    has loaded it (./kem-wasm.ts: Node.js, Edge, Workers; the gateway's key expanded once in
 *    Wasm; X-Wing's X25519 half in OpenSSL on Node.js, ./xwing-split.ts, with the key schedule
 *    in ./key-schedule.ts), else on @noble with the matrix expanded once per key (`ml_kem768.prepare`: the
 *    gateway's key per OhttpPrivateKey, a client's per config in a bounded cache), X25519 on
 *    node:crypto where the runtime is Node.js (../backend/x25519-fast.ts), the X-Wing combiner
 *    from ../backend/noble-kem.ts (browsers; derandomized vectors always); DHKEM(X25519,
 *    HKDF-SHA256) 0x0020 (RFC 9180 §4.1, NOT post-quantum: for clients without PQ support);
 *  - KDF: HKDF-SHA256 0x0001 only (Wasm when loaded, else @noble); AEADs: AES-128-GCM 0x0001,
 *    AES-256-GCM 0x0002, ChaCha20-Poly1305 0x0003, on node:crypto where the runtime is Node.js
 *    (../backend/aead-fast.ts; ChaCha20-Poly1305 below 8 KB in Wasm when loaded), @noble/ciphers
 *    elsewhere.
 *
 * Pitfalls:
 *  - nonce = base_nonce XOR I2OSP(seq, Nn); seq never repeats and is bounded (2^32 here, far below
 *    RFC 9180's 2^96 - 1): the context refuses to seal / open past it.
 *  - Decapsulation never fails on a wrong ML-KEM ciphertext; a wrong enc shows up as an AEAD
 *    failure on open. An X25519 low-order share throws NEN_CRYPTO_KEY.
 *  - `sk` for DHKEM(X25519) is the raw 32-byte scalar (RFC 9180 §7.1.2 SerializePrivateKey).
 */
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { expand as hkdfExpand, extract as hkdfExtract } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hpkeSuiteId, kemSuiteId, labeledExpand, labeledExtract, hpkeExport, type HkdfSha256 } from '../backend/hpke.js';
import { ml_kem768, type KEMPrepared } from '@noble/post-quantum/ml-kem.js';
import { MLKEM768_CT, MLKEM768_EK, expandKey, keyError, xwingCombine, type ExpandedKey } from '../backend/noble-kem.js';
import { nodeAead } from '../backend/aead-fast.js';
import { x25519Dh, x25519Public } from '../backend/x25519-fast.js';
import { randomBytes } from '../backend/random.js';
import { type RawKeySchedule, type WasmKemKey, wasmChaCha, wasmEncap, wasmHkdfExpand, wasmHkdfExtract, wasmRecipient, wasmSetupBaseS } from './kem-wasm.js';
import { ohttpKeySchedule } from './key-schedule.js';
import { SplitXWingKey } from './xwing-split.js';
import { type Derive, splitXWingEncap, splitXWingSetupS } from './xwing-split-sender.js';
import { type NodeX25519Static, staticX25519 } from './node-x25519.js';
import { wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import type { KemId } from '../backend/types.js';
import { disposedError, wipe } from '../backend/util.js';
import { NenCryptoError } from '../errors.js';
import { concatBytes } from '../protocol/bytes.js';
import { AEAD_TAG, OHTTP_AEAD, OHTTP_AEAD_INFO, OHTTP_KDF, OHTTP_KEM, OHTTP_KEM_INFO, type OhttpKemId, isOhttpAead, isOhttpKem } from './suites.js';

export { AEAD_TAG, OHTTP_AEAD, OHTTP_AEAD_INFO, OHTTP_KDF, OHTTP_KEM, OHTTP_KEM_INFO, type OhttpKemId, isOhttpAead, isOhttpKem };
const MAX_SEQ = 2 ** 32;

/** HKDF-SHA256: the Wasm core's when loaded (./kem-wasm.ts), else @noble's (same bytes). */
export const hkdf: HkdfSha256 = {
  extract: (salt, ikm) => wasmHkdfExtract(salt, ikm) ?? hkdfExtract(sha256, ikm, salt),
  expand: (prk, info, length) => wasmHkdfExpand(prk, info, length) ?? hkdfExpand(sha256, prk, info, length),
};

/** OpenSSL cipher names of the HPKE AEADs (node:crypto through ../backend/aead-fast.ts). */
const NODE_ALG: Record<number, string> = {
  [OHTTP_AEAD.AES_128_GCM]: 'aes-128-gcm',
  [OHTTP_AEAD.AES_256_GCM]: 'aes-256-gcm',
  [OHTTP_AEAD.CHACHA20_POLY1305]: 'chacha20-poly1305',
};

/** One AEAD call with an explicit key and nonce (the response side of RFC 9458 §4.4 too). */
export function aeadSeal(aeadId: number, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array): Uint8Array {
  const small = aeadId === OHTTP_AEAD.CHACHA20_POLY1305 ? wasmChaCha(true, key, nonce, aad, pt) : undefined;
  if (small) return small;
  const alg = NODE_ALG[aeadId];
  const fast = alg ? nodeAead(alg) : undefined;
  if (fast && alg) return fast.seal(alg, key, nonce, aad, pt);
  return aeadId === OHTTP_AEAD.CHACHA20_POLY1305 ? chacha20poly1305(key, nonce, aad).encrypt(pt) : gcm(key, nonce, aad).encrypt(pt);
}
/** Throws NenCryptoError('NEN_CRYPTO_AEAD') when the tag does not verify. */
export function aeadOpen(aeadId: number, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, ct: Uint8Array): Uint8Array {
  const small = aeadId === OHTTP_AEAD.CHACHA20_POLY1305 ? wasmChaCha(false, key, nonce, aad, ct) : undefined;
  if (small) return small;
  const alg = NODE_ALG[aeadId];
  const fast = alg ? nodeAead(alg) : undefined;
  if (fast && alg) return fast.open(alg, key, nonce, aad, ct);
  try {
    return aeadId === OHTTP_AEAD.CHACHA20_POLY1305 ? chacha20poly1305(key, nonce, aad).decrypt(ct) : gcm(key, nonce, aad).decrypt(ct);
  } catch {
    throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed');
  }
}

/** nonce XOR I2OSP(seq, Nn) (RFC 9180 §5.2; chunked OHTTP's chunk_nonce). */
export function xorNonce(base: Uint8Array, seq: number): Uint8Array {
  const n = base.slice();
  let s = seq;
  for (let i = n.length - 1; i >= 0 && s > 0; i--) {
    n[i] = (n[i] as number) ^ (s & 0xff);
    s = Math.floor(s / 256);
  }
  return n;
}

/** RFC 9180 §4.1 ExtractAndExpand for DHKEM(X25519, HKDF-SHA256). */
function dhkemSharedSecret(dh: Uint8Array, enc: Uint8Array, pkR: Uint8Array): Uint8Array {
  const sid = kemSuiteId(OHTTP_KEM.X25519);
  const prk = labeledExtract(hkdf, sid, new Uint8Array(0), 'eae_prk', dh);
  try {
    return labeledExpand(hkdf, sid, prk, 'shared_secret', concatBytes(enc, pkR), 32);
  } finally {
    wipe(prk, dh);
  }
}

/** Encap(pkR) with caller-given randomness: X-Wing 64 bytes, ML-KEM-768 32, X25519 the 32-byte skE. */
export function encap(kem: OhttpKemId, pkR: Uint8Array, randomness?: Uint8Array): { sharedSecret: Uint8Array; enc: Uint8Array } {
  if (pkR.length !== OHTTP_KEM_INFO[kem].publicKey) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: public key has the wrong length');
  if (kem !== OHTTP_KEM.X25519) {
    const fast = randomness ? undefined : (splitEncap(kem, pkR) ?? wasmEncap(kem, pkR));
    if (fast) return fast;
    const rnd = randomness ?? randomBytes(kem === OHTTP_KEM.XWING ? 64 : 32);
    if (rnd.length !== (kem === OHTTP_KEM.XWING ? 64 : 32)) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: encapsulation randomness has the wrong length');
    return pqEncap(kem, pkR, rnd);
  }
  const skE = randomness ?? randomBytes(32);
  const enc = x25519Public(skE);
  return { sharedSecret: dhkemSharedSecret(x25519Dh(skE, pkR), enc, pkR), enc };
}

/** noble's ML-KEM encapsulation keys with the matrix expanded once (bounded: the few configs a client talks to). */
const PREPARED_MAX = 8;
const prepared = new Map<string, KEMPrepared>();
function preparedEk(ek: Uint8Array): KEMPrepared {
  let key = '';
  for (let i = 0; i < 32; i++) key += String.fromCharCode(ek[i] as number);
  const hit = prepared.get(key);
  if (hit && equalBytes(hit.publicKey, ek)) return hit;
  let p: KEMPrepared;
  try {
    p = ml_kem768.prepare(ek);
  } catch (e) {
    throw keyError('ML-KEM-768 encapsulation key', e);
  }
  if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value as string);
  prepared.set(key, p);
  return p;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** X-Wing / ML-KEM-768 Encap with the given randomness: ML-KEM on a prepared @noble key, X25519 via ../backend/x25519-fast. */
function pqEncap(kem: OhttpKemId, pkR: Uint8Array, rnd: Uint8Array): { sharedSecret: Uint8Array; enc: Uint8Array } {
  const ekM = kem === OHTTP_KEM.XWING ? pkR.subarray(0, MLKEM768_EK) : pkR;
  const m = preparedEk(ekM).encapsulate(rnd.subarray(0, 32));
  if (kem === OHTTP_KEM.MLKEM768) return { sharedSecret: m.sharedSecret, enc: m.cipherText };
  const pkX = pkR.subarray(MLKEM768_EK);
  const eskX = rnd.subarray(32, 64);
  let ssX: Uint8Array;
  try {
    ssX = x25519Dh(eskX, pkX);
  } catch (e) {
    wipe(m.sharedSecret);
    throw e;
  }
  const ctX = x25519Public(eskX);
  try {
    return { sharedSecret: xwingCombine(m.sharedSecret, ssX, ctX, pkX), enc: concatBytes(m.cipherText, ctX) };
  } finally {
    wipe(m.sharedSecret, ssX);
  }
}

/**
 * A recipient private key (gateway side), expanded once: in Wasm when it is loaded (at
 * construction or at a later decap), else on @noble. Secret: dispose() wipes / frees it.
 */
export class OhttpPrivateKey {
  readonly kem: OhttpKemId;
  readonly publicKey: Uint8Array;
  #sk: Uint8Array;
  #wasm: WasmKemKey | undefined;
  /** X-Wing on Node.js: the X25519 half in OpenSSL (./xwing-split.ts); null once tried and unusable. */
  #split: SplitXWingKey | null | undefined;
  /** DHKEM(X25519) on Node.js: the scalar imported once into OpenSSL (./node-x25519.ts). */
  #x25519: NodeX25519Static | undefined;
  #disposed = false;
  #noble: { expanded: ExpandedKey; prepared: KEMPrepared } | undefined;
  constructor(kem: OhttpKemId, sk: Uint8Array) {
    if (!isOhttpKem(kem)) throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', `nen: unsupported OHTTP KEM ${String(kem)}`);
    if (sk.length !== OHTTP_KEM_INFO[kem].privateKey) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: private key has the wrong length');
    this.kem = kem;
    this.#sk = sk.slice();
    if (kem === OHTTP_KEM.X25519) {
      this.publicKey = x25519Public(this.#sk);
      this.#x25519 = staticX25519(this.#sk, this.publicKey);
      return;
    }
    this.#wasm = wasmRecipient(kem, this.#sk);
    this.publicKey = this.#wasm ? this.#wasm.publicKey : this.#nobleKey().expanded.publicKey;
    this.#splitKey(); // its self-test here, not on the first request
  }
  #nobleKey(): { expanded: ExpandedKey; prepared: KEMPrepared } {
    if (!this.#noble) {
      const expanded = expandKey(this.kem as KemId, this.#sk);
      this.#noble = { expanded, prepared: ml_kem768.prepare(expanded.publicKey.subarray(0, MLKEM768_EK)) };
    }
    return this.#noble;
  }
  /**
   * Decap(enc) and the key schedule in one Wasm call, or undefined without the Wasm (or for X25519).
   * @internal setupBaseR's fast path.
   */
  setupBaseRInWasm(enc: Uint8Array, suiteId: Uint8Array, info: Uint8Array, nk: number): RawKeySchedule | undefined {
    if (this.#disposed) throw disposedError('OhttpPrivateKey');
    if (enc.length !== OHTTP_KEM_INFO[this.kem].enc) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: enc has the wrong length');
    if (this.kem === OHTTP_KEM.X25519) return undefined;
    const split = this.#splitKey();
    if (split) {
      const ss = split.decap(enc);
      try {
        return ohttpKeySchedule(hkdf, suiteId, ss, info, nk, 12);
      } finally {
        wipe(ss);
      }
    }
    this.#wasm ??= wasmRecipient(this.kem, this.#sk);
    return this.#wasm?.setupBaseR(enc, suiteId, info, nk);
  }
  /** The X-Wing split key, made once the Wasm is loaded (one self-test); undefined elsewhere. */
  #splitKey(): SplitXWingKey | undefined {
    if (this.#split === undefined && this.kem === OHTTP_KEM.XWING) {
      const g = wasmGlueIfLoaded();
      if (g) this.#split = SplitXWingKey.create(g, this.#sk, this.publicKey) ?? null;
    }
    return this.#split ?? undefined;
  }
  /** Decap(enc). */
  decap(enc: Uint8Array): Uint8Array {
    if (this.#disposed) throw disposedError('OhttpPrivateKey');
    if (enc.length !== OHTTP_KEM_INFO[this.kem].enc) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: enc has the wrong length');
    if (this.kem === OHTTP_KEM.X25519) return dhkemSharedSecret(this.#x25519 ? this.#x25519.dh(enc) : x25519Dh(this.#sk, enc), enc, this.publicKey);
    const split = this.#splitKey();
    if (split) return split.decap(enc);
    this.#wasm ??= wasmRecipient(this.kem, this.#sk);
    if (this.#wasm) return this.#wasm.decap(enc);
    const { expanded: x, prepared: p } = this.#nobleKey();
    if (this.kem === OHTTP_KEM.MLKEM768) return p.decapsulate(enc, x.dkM);
    const ctX = enc.subarray(MLKEM768_CT);
    const ssM = p.decapsulate(enc.subarray(0, MLKEM768_CT), x.dkM);
    let ssX: Uint8Array;
    try {
      ssX = x25519Dh(x.skX as Uint8Array, ctX);
    } catch (e) {
      wipe(ssM);
      throw e;
    }
    try {
      return xwingCombine(ssM, ssX, ctX, x.pkX as Uint8Array);
    } finally {
      wipe(ssM, ssX);
    }
  }
  dispose(): void {
    wipe(this.#sk, this.#noble?.expanded.dkM, this.#noble?.expanded.skX);
    this.#noble?.prepared.clean();
    this.#noble = undefined;
    this.#wasm?.dispose();
    this.#split?.dispose();
    this.#split = null;
    this.#x25519?.dispose();
    this.#disposed = true;
  }
}

/** RFC 9180 §5.2 encryption context (either role) with §5.3 Export. */
export class HpkeContext {
  readonly aeadId: number;
  #key: Uint8Array;
  #baseNonce: Uint8Array;
  #exporterSecret: Uint8Array;
  #suiteId: Uint8Array;
  #seq = 0;
  /**
   * From the KEM shared secret (the key schedule runs here) or a key schedule computed in Wasm.
   * @internal made by setupBaseS / setupBaseR.
   */
  constructor(kem: OhttpKemId, aeadId: number, secret: Uint8Array | RawKeySchedule, info: Uint8Array) {
    const a = aeadInfo(aeadId);
    this.aeadId = aeadId;
    this.#suiteId = suiteIdOf(kem, aeadId);
    const ks = secret instanceof Uint8Array ? ohttpKeySchedule(hkdf, this.#suiteId, secret, info, a.nk, a.nn) : secret;
    this.#key = ks.key;
    this.#baseNonce = ks.baseNonce;
    this.#exporterSecret = ks.exporterSecret;
  }
  #nonce(): Uint8Array {
    if (this.#seq >= MAX_SEQ) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: HPKE sequence number exhausted');
    return xorNonce(this.#baseNonce, this.#seq++);
  }
  seal(aad: Uint8Array, pt: Uint8Array): Uint8Array {
    return aeadSeal(this.aeadId, this.#key, this.#nonce(), aad, pt);
  }
  /** The sequence number advances only when the tag verifies (RFC 9180 §5.2 ContextR.Open). */
  open(aad: Uint8Array, ct: Uint8Array): Uint8Array {
    if (this.#seq >= MAX_SEQ) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: HPKE sequence number exhausted');
    const pt = aeadOpen(this.aeadId, this.#key, xorNonce(this.#baseNonce, this.#seq), aad, ct);
    this.#seq++;
    return pt;
  }
  export(exporterContext: Uint8Array, length: number): Uint8Array {
    return hpkeExport(hkdf, this.#suiteId, this.#exporterSecret, exporterContext, length);
  }
  dispose(): void {
    wipe(this.#key, this.#baseNonce, this.#exporterSecret);
  }
}

function aeadInfo(aeadId: number): { nk: number; nn: number } {
  const a = OHTTP_AEAD_INFO[aeadId];
  if (!a) throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', `nen: unsupported AEAD ${aeadId}`);
  return a;
}

/**
 * suite_id = "HPKE" || kem || kdf || aead, built once per (KEM, AEAD): at most 3 x 3 entries, as
 * only supported ids reach here (callers check them first). Shared: never mutated (only copied).
 */
const suiteIds = new Map<number, Uint8Array>();
function suiteIdOf(kem: OhttpKemId, aeadId: number): Uint8Array {
  aeadInfo(aeadId);
  if (!isOhttpKem(kem)) throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', `nen: unsupported OHTTP KEM ${String(kem)}`);
  const k = kem * 0x10000 + aeadId;
  let id = suiteIds.get(k);
  if (!id) {
    id = hpkeSuiteId(kem, OHTTP_KDF.HKDF_SHA256, aeadId);
    suiteIds.set(k, id);
  }
  return id;
}

/** X-Wing Encap with the X25519 half in OpenSSL (./xwing-split-sender.ts), or undefined. */
function splitEncap(kem: OhttpKemId, pkR: Uint8Array): { sharedSecret: Uint8Array; enc: Uint8Array } | undefined {
  const g = kem === OHTTP_KEM.XWING ? wasmGlueIfLoaded() : undefined;
  return g ? splitXWingEncap(g, pkR) : undefined;
}
/** The key schedule the split sender runs on its shared secret (also ahead, for the next request). */
const deriveSchedule: Derive = (ss, s) => ohttpKeySchedule(hkdf, s.suiteId, ss, s.info, s.nk, s.nn);

/** SetupBaseS(pkR, info): the sender context and enc. `randomness` only for vectors / tests. */
export function setupBaseS(kem: OhttpKemId, aeadId: number, pkR: Uint8Array, info: Uint8Array, randomness?: Uint8Array): { enc: Uint8Array; ctx: HpkeContext } {
  if (!randomness && kem !== OHTTP_KEM.X25519 && pkR.length === OHTTP_KEM_INFO[kem].publicKey) {
    const g = kem === OHTTP_KEM.XWING ? wasmGlueIfLoaded() : undefined;
    const a = aeadInfo(aeadId);
    const split = g && splitXWingSetupS(g, pkR, { suiteId: suiteIdOf(kem, aeadId), info, nk: a.nk, nn: a.nn }, deriveSchedule);
    if (split) return { enc: split.enc, ctx: new HpkeContext(kem, aeadId, split.ks, info) };
    const w = wasmSetupBaseS(kem, pkR, suiteIdOf(kem, aeadId), info, a.nk, OHTTP_KEM_INFO[kem].enc);
    if (w) return { enc: w.enc, ctx: new HpkeContext(kem, aeadId, w.ks, info) };
  }
  const { sharedSecret, enc } = encap(kem, pkR, randomness);
  try {
    return { enc, ctx: new HpkeContext(kem, aeadId, sharedSecret, info) };
  } finally {
    wipe(sharedSecret);
  }
}

/** SetupBaseR(enc, skR, info). */
export function setupBaseR(sk: OhttpPrivateKey, aeadId: number, enc: Uint8Array, info: Uint8Array): HpkeContext {
  const raw = sk.setupBaseRInWasm(enc, suiteIdOf(sk.kem, aeadId), info, aeadInfo(aeadId).nk);
  if (raw) return new HpkeContext(sk.kem, aeadId, raw, info);
  const ss = sk.decap(enc);
  try {
    return new HpkeContext(sk.kem, aeadId, ss, info);
  } finally {
    wipe(ss);
  }
}

/** GenerateKeyPair() serialized private key: X-Wing / ML-KEM seed, X25519 scalar (random bytes). */
export function generateOhttpPrivateKey(kem: OhttpKemId): Uint8Array {
  return randomBytes(OHTTP_KEM_INFO[kem].privateKey);
}
