/**
 * The Node.js server fast path: node:crypto (OpenSSL) for ChaCha20-Poly1305 (RFC 8439 §2.8),
 * HKDF-SHA256 (RFC 5869), HMAC-SHA256 and SHA-256 on large inputs; the KEM and HPKE operations
 * (X-Wing, ML-KEM-768, RFC 9180 base mode + Export) and small messages / hash inputs are
 * delegated to the Wasm backend. Delegated calls are byte-identical to the Wasm backend by construction;
 * cross-tests check the rest against the Wasm and @noble backends and node:crypto.
 *
 * Chosen by measurement (bench/crypto/run.js and ad-hoc runs on the 2-core VM, Nov 2026):
 *  - AEAD: node:crypto 1 MB seal+open ≈ 3–5× the Wasm's throughput, equal to raw node:crypto;
 *    below SMALL_MESSAGE bytes the Wasm is faster (per-call cipher setup), so it does those.
 *    OpenSSL takes its AVX-512 ChaCha20 and IFMA Poly1305 here (5.0 GB/s in place, `openssl
 *    speed`: 20.5 µs per 100 KB); through node:crypto ~3 GB/s (seal 34, open 30 µs), the rest
 *    being the fresh zero-filled output each `update` allocates (no output-buffer form in Node 20).
 *  - Hashes: per call, node:crypto costs ≈ 1.5–6 µs (createHash/createHmac objects), the Wasm
 *    ≈ 0.4–1.2 µs on 64-byte inputs; node:crypto wins from a few KB (SHA-256 of 64 KB: 33 vs
 *    119 µs). Inputs below SMALL_INPUT bytes go to the Wasm.
 *  - ML-KEM-768 on Node 24 (OpenSSL 3.5) was tried and dropped: raw encaps/decaps are faster
 *    (≈ 42 / 56 µs vs 52 / 88 µs) but importing raw keys as KeyObjects plus a key schedule over
 *    createHmac made full HPKE SetupBaseS/R ≈ 150 / 116 µs (best) vs the Wasm's 40 / 38 µs.
 *    Tried again for the static key (issue 21, bench/README.md "handshake third pass"): a
 *    `raw-seed` key imported once, `decapsulate` 25 µs vs ≈ 50, but the X-Wing combiner and the
 *    HPKE schedule outside the Wasm took it back (SetupBaseR 91 vs 84 µs, medians). A fourth
 *    time with ./node-mlkem.ts (import once, Encaps / Decaps, SHA3-256 combiner and X25519 in
 *    OpenSSL, export-only schedule): still slower than the Wasm's libcrux on every HPKE use
 *    (figures in ./node-mlkem.ts), so the KEM stays in the Wasm on every runtime.
 *  - X25519 through node:crypto KeyObjects imported from DER (ephemeral keygen + DH + export
 *    ≈ 220 µs on the loaded VM) was no faster than the Wasm; imported as JWK (raw EVP_PKEY) it
 *    is ≈ 2× faster than the Wasm's ladder, so X-Wing's X25519 half runs here (./node-xwing.ts).
 *
 * Pitfalls:
 *  - `createCipheriv('chacha20-poly1305')` must get `authTagLength: 16`, and the decipher needs
 *    `setAAD(aad, { plaintextLength })` before `update`; `final()` throws when the tag is wrong,
 *    which is mapped to NEN_CRYPTO_AEAD. Never release plaintext before `final()` succeeded.
 *  - HKDF-Expand alone is not offered by node:crypto (`hkdfSync` always extracts first), so it is
 *    the RFC 5869 §2.3 HMAC chain here.
 *  - Key bytes are kept in a JS-owned copy and wiped on dispose. node:crypto's AEAD gets a secret
 *    KeyObject, made on the first message that goes to it and dropped on dispose: OpenSSL's copy
 *    lives until that object is collected (as each Cipher context's copy did with a byte key).
 *    Why: Node 24's `prepareSecretKey` tells a byte key from a KeyObject / CryptoKey by catching
 *    two thrown TypeErrors per `createCipheriv`, ~9 µs per call and their garbage (issue 21, Node
 *    24: 1 KB seal 11.9 → 3.0 µs; this backend's seal + open alternated in one process, 4 KB 16.6 →
 *    12.4 µs, 100 KB 138 → 113; Node 20 unchanged, 73.2 / 73.8).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { NenCryptoError } from '../errors.js';
import { FAST_KEY_IMPORT, NodeXWingRecipientKey, NodeXWingSenderKey, xwingSealBase, xwingSetupBaseSExport } from './node-xwing.js';
import { AEAD_KEY_LENGTH, AEAD_TAG_LENGTH, KEM_ID, type Aead, type Backend } from './types.js';
import {
  assertBytes,
  assertKem,
  assertLength,
  assertOutputLength,
  assertSealArgs,
  kemSizes,
  randomBytes,
  wipe,
  assertCiphertextAndTag,
  useAeadKey,
  KeyHandle,
  type KeyHandleJson,
} from './util.js';
import { WasmRecipientKey, WasmSenderKey, splitSealed, wasmGlueOf } from './wasm.js';

const copy = (b: Uint8Array): Uint8Array => new Uint8Array(b);
const textEncoder = new TextEncoder();

/**
 * A plain Uint8Array over a Buffer's bytes: a zero-copy view when the Buffer owns its whole
 * ArrayBuffer, a copy when it is a slice of Node's shared pool (so callers never see, or wipe,
 * unrelated pooled bytes through `.buffer`).
 */
function plain(b: Buffer): Uint8Array {
  return b.byteOffset === 0 && b.buffer.byteLength === b.length ? new Uint8Array(b.buffer, 0, b.length) : copy(b);
}

/**
 * Messages shorter than this (bytes) are sealed/opened by the Wasm: createCipheriv's per-call
 * setup dominates there. Measured per call (CPU µs, seal / open, medians of 5 rounds, Nov 2026):
 * node:crypto is ahead from ~2-3 KB (Node 20: 1 KB 4.3 / 3.4 vs the Wasm's 2.9 / 3.0; 3 KB 5.5 /
 * 4.1 vs 6.6 / 6.5; 4 KB 5.8 / 4.2 vs 8.2 / 8.3). Node 24 with a KeyObject key, the same
 * (`bench/aead-crossover.mjs`, load ~7: 1 KB 4.7-4.9 / 3.4-3.5 vs 2.8 / 3.1-3.2; 4 KB 4.9 / 4.1-4.3
 * vs 7.7-7.9 / 7.5-7.7); with a byte key it had ≈ 9 µs more per call, so 8192 was its threshold.
 * node:crypto is 2–4× faster from 16–64 KB.
 */
export const SMALL_MESSAGE = 3072;

class NodeAead extends KeyHandle implements Aead {
  #key: Uint8Array | null;
  #small: Aead | null;
  /** node:crypto's key (module header): made on first use, only by messages of SMALL_MESSAGE or more. */
  #keyObject: KeyObject | null = null;
  constructor(key: Uint8Array, wasm: Backend) {
    super();
    assertLength(key, AEAD_KEY_LENGTH, 'ChaCha20-Poly1305 key');
    this.#small = wasm.createAead(key);
    this.#key = key.slice();
  }
  seal(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
    const parts = this.sealChunks(nonce, aad, plaintext);
    if (parts.length === 1) return parts[0] as Uint8Array;
    // One copy into a fresh (unpooled for large sizes) buffer: ciphertext || tag.
    return plain(Buffer.concat(parts, plaintext.length + AEAD_TAG_LENGTH));
  }
  /** [ciphertext || tag] below SMALL_MESSAGE (the Wasm), else node:crypto's [ciphertext, tag] unjoined. */
  sealChunks(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array[] {
    const key = useAeadKey(this.#key, nonce, aad);
    assertBytes(plaintext, 'plaintext');
    if (plaintext.length < SMALL_MESSAGE) return [(this.#small as Aead).seal(nonce, aad, plaintext)];
    this.#keyObject ??= createSecretKey(key);
    const c = createCipheriv('chacha20-poly1305', this.#keyObject, nonce, { authTagLength: AEAD_TAG_LENGTH });
    c.setAAD(aad, { plaintextLength: plaintext.length });
    const body = c.update(plaintext);
    const fin = c.final(); // empty for a stream cipher; kept in order if not
    const tag = c.getAuthTag();
    // plain(): no view into Node's shared pool is handed out (zero-copy for these own buffers).
    return fin.length ? [plain(body), plain(fin), plain(tag)] : [plain(body), plain(tag)];
  }
  /**
   * sealChunks of `text`'s UTF-8 bytes (protocol/message.ts TextSealingAead): from SMALL_MESSAGE
   * UTF-16 units on, node:crypto encodes the text itself into native memory it frees at once, so
   * the caller's body-sized encoded copy (a 100 KB `TextEncoder.encode`: ~20-45 µs and an
   * ArrayBuffer for the GC on Node 20) is never made. Shorter texts are encoded for the Wasm.
   */
  sealTextChunks(nonce: Uint8Array, aad: Uint8Array, text: string): Uint8Array[] {
    if (typeof text !== 'string') throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: text must be a string');
    if (text.length < SMALL_MESSAGE) return this.sealChunks(nonce, aad, textEncoder.encode(text));
    const key = useAeadKey(this.#key, nonce, aad);
    this.#keyObject ??= createSecretKey(key);
    const c = createCipheriv('chacha20-poly1305', this.#keyObject, nonce, { authTagLength: AEAD_TAG_LENGTH });
    // No plaintextLength: node:crypto reads it for CCM only (its type asks for it on every AEAD),
    // and the text's UTF-8 length would cost a pass over it (Buffer.byteLength).
    (c as unknown as { setAAD(aad: Uint8Array): unknown }).setAAD(aad);
    const body = c.update(text, 'utf8');
    const fin = c.final();
    const tag = c.getAuthTag();
    return fin.length ? [plain(body), plain(fin), plain(tag)] : [plain(body), plain(tag)];
  }
  open(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Uint8Array {
    const key = useAeadKey(this.#key, nonce, aad);
    assertCiphertextAndTag(ciphertextAndTag);
    const n = ciphertextAndTag.length - AEAD_TAG_LENGTH;
    if (n < SMALL_MESSAGE) return (this.#small as Aead).open(nonce, aad, ciphertextAndTag);
    this.#keyObject ??= createSecretKey(key);
    const d = createDecipheriv('chacha20-poly1305', this.#keyObject, nonce, { authTagLength: AEAD_TAG_LENGTH });
    d.setAAD(aad, { plaintextLength: n });
    d.setAuthTag(ciphertextAndTag.subarray(n));
    const body = d.update(ciphertextAndTag.subarray(0, n));
    let fin: Buffer;
    try {
      fin = d.final();
    } catch {
      wipe(body); // never release unauthenticated plaintext
      throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed');
    }
    return plain(fin.length ? Buffer.concat([body, fin]) : body);
  }
  dispose(): void {
    wipe(this.#key);
    this.#key = null;
    this.#keyObject = null;
    this.#small?.dispose();
    this.#small = null;
  }
  toJSON(): KeyHandleJson {
    return { type: 'Aead', backend: 'node' };
  }
}

function hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  return copy(createHmac('sha256', key).update(data).digest());
}

/** RFC 5869 §2.3 HKDF-Expand: T(i) = HMAC(PRK, T(i-1) || info || i). */
function hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let t: Uint8Array = new Uint8Array(0);
  const counter = new Uint8Array(1);
  for (let i = 0, off = 0; off < length; i++) {
    counter[0] = i + 1;
    t = createHmac('sha256', prk).update(t).update(info).update(counter).digest();
    out.set(t.subarray(0, Math.min(32, length - off)), off);
    off += 32;
  }
  wipe(t);
  return out;
}

/** Inputs shorter than this (bytes) are hashed by the Wasm: per-call overhead dominates there. */
export const SMALL_INPUT = 2048;

/**
 * node:crypto for AEAD, large hashes and X-Wing's X25519 half (./node-xwing.ts); `wasm` (the
 * Wasm backend) for ML-KEM, HPKE, small hashes. A `wasm` that is not a Wasm backend (no glue)
 * keeps X-Wing wholly in it.
 */
export function createNodeBackend(wasm: Backend): Backend {
  const kem = wasm;
  const glue = wasmGlueOf(wasm);
  const backend: Backend = {
    name: 'node' as const,
    randomBytes,
    sha256(data: Uint8Array) {
      assertBytes(data, 'data');
      return data.length < SMALL_INPUT ? wasm.sha256(data) : copy(createHash('sha256').update(data).digest());
    },
    hmacSha256(key: Uint8Array, data: Uint8Array) {
      assertBytes(key, 'key');
      assertBytes(data, 'data');
      return key.length + data.length < SMALL_INPUT ? wasm.hmacSha256(key, data) : hmacSha256(key, data);
    },
    hkdfExtract(salt: Uint8Array, ikm: Uint8Array) {
      assertBytes(salt, 'salt');
      assertBytes(ikm, 'ikm');
      // RFC 5869 §2.2: an empty salt is HashLen zeros; HMAC pads short keys with zeros anyway.
      return salt.length + ikm.length < SMALL_INPUT ? wasm.hkdfExtract(salt, ikm) : hmacSha256(salt, ikm);
    },
    hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number) {
      assertBytes(prk, 'prk');
      assertBytes(info, 'info');
      assertOutputLength(length);
      if (prk.length < 32) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: prk must be at least 32 bytes');
      // Each of the ceil(length / 32) HMAC blocks hashes prk, the previous block and info.
      return prk.length + info.length + 33 < SMALL_INPUT ? wasm.hkdfExpand(prk, info, length) : hkdfExpand(prk, info, length);
    },
    createAead: (key: Uint8Array) => new NodeAead(key, wasm),
    generateKeyPair: (k) => kem.generateKeyPair(k),
    deriveKeyPair: (k, ikm) => kem.deriveKeyPair(k, ikm),
    createRecipientKey(k, sk) {
      const key = kem.createRecipientKey(k, sk);
      return glue && key.kem === KEM_ID.XWING && key instanceof WasmRecipientKey ? new NodeXWingRecipientKey(key) : key;
    },
    setupBaseSExport(k, pk, info, ctx, length) {
      if (!glue || k !== KEM_ID.XWING || !FAST_KEY_IMPORT) return kem.setupBaseSExport(k, pk, info, ctx, length);
      assertKem(k);
      assertLength(pk, kemSizes(k).publicKey, 'public key');
      assertBytes(info, 'info');
      assertBytes(ctx, 'exporter context');
      assertOutputLength(length, 'export length');
      return xwingSetupBaseSExport(glue, pk, info, ctx, length);
    },
    sealBase(k, pk, info, aad, pt) {
      if (!glue || k !== KEM_ID.XWING || !FAST_KEY_IMPORT) return kem.sealBase(k, pk, info, aad, pt);
      assertLength(pk, kemSizes(k).publicKey, 'public key');
      assertSealArgs(info, aad, pt, 'plaintext');
      return splitSealed(k, xwingSealBase(glue, pk, info, aad, pt));
    },
    createSenderKey(k, pk) {
      const key = kem.createSenderKey(k, pk);
      return glue && FAST_KEY_IMPORT && key.kem === KEM_ID.XWING && key instanceof WasmSenderKey ? new NodeXWingSenderKey(key) : key;
    },
  };
  return Object.freeze(backend);
}
