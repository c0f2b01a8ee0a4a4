/**
 * The Node.js server fast path: node:crypto (OpenSSL) for ChaCha20-Poly1305 (RFC 8439 §2.8),
 * HKDF-SHA256 (RFC 5869), HMAC-SHA256 and SHA-256; the KEM and HPKE operations (X-Wing, ML-KEM-768,
 * RFC 9180 base mode + Export) are delegated to the Wasm backend, since Node 20 has no ML-KEM
 * (except ML-KEM-768 on Node ≥ 24, see below). Delegated calls are byte-identical to the Wasm
 * backend by construction; cross-tests check everything else (AEAD, HKDF, native ML-KEM HPKE)
 * against the Wasm and @noble backends and node:crypto.
 *
 * Pitfalls:
 *  - `createCipheriv('chacha20-poly1305')` must get `authTagLength: 16`, and the decipher needs
 *    `setAAD(aad, { plaintextLength })` before `update`; `final()` throws when the tag is wrong,
 *    which is mapped to NEN_CRYPTO_AEAD. Never release plaintext before `final()` succeeded.
 *  - HKDF-Expand alone is not offered by node:crypto (`hkdfSync` always extracts first), so it is
 *    the RFC 5869 §2.3 HMAC chain here.
 *  - Key bytes are kept in a JS-owned copy and wiped on dispose (OpenSSL's copy lives only for
 *    the duration of one call).
 *  - On Node ≥ 24 (OpenSSL 3.5) the ML-KEM-768 suite (KEM 0x0041) runs natively: the 64-byte
 *    d || z seed is imported with `createPrivateKey({ format: 'raw-seed' })`, the encapsulation
 *    key with `format: 'raw-public'` (which applies the FIPS 203 §7.2 check: NEN_CRYPTO_KEY),
 *    and the RFC 9180 key schedule runs in JS over node:crypto HKDF (./hpke.ts). A KeyObject
 *    cannot be wiped from JS: dispose() drops the reference and OpenSSL frees it on GC.
 *    X-Wing stays in Wasm: node:crypto's X25519 through KeyObjects measured no faster than the
 *    Wasm's (≈ 220 µs for ephemeral keygen + DH + export on the loaded VM).
 */
import * as nodeCrypto from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, createHmac, type KeyObject } from 'node:crypto';
import { NenCryptoError } from '../errors.js';
import { keyScheduleExport, type HkdfSha256 } from './hpke.js';
import {
  AEAD_KEY_LENGTH,
  AEAD_NONCE_LENGTH,
  AEAD_TAG_LENGTH,
  KEM_ID,
  type Aead,
  type Backend,
  type HpkeRecipientKey,
  type HpkeSenderExport,
  type KemId,
} from './types.js';
import { assertBytes, assertKem, assertLength, assertOutputLength, disposedError, INSPECT, kemSizes, randomBytes, wipe } from './util.js';

const copy = (b: Uint8Array): Uint8Array => new Uint8Array(b);

/**
 * A plain Uint8Array over a Buffer's bytes: a zero-copy view when the Buffer owns its whole
 * ArrayBuffer, a copy when it is a slice of Node's shared pool (so callers never see, or wipe,
 * unrelated pooled bytes through `.buffer`).
 */
function plain(b: Buffer): Uint8Array {
  return b.byteOffset === 0 && b.buffer.byteLength === b.length ? new Uint8Array(b.buffer, 0, b.length) : copy(b);
}

class NodeAead implements Aead {
  #key: Uint8Array | null;
  constructor(key: Uint8Array) {
    assertLength(key, AEAD_KEY_LENGTH, 'ChaCha20-Poly1305 key');
    this.#key = key.slice();
  }
  #use(nonce: Uint8Array, aad: Uint8Array): Uint8Array {
    if (!this.#key) throw disposedError('Aead');
    assertLength(nonce, AEAD_NONCE_LENGTH, 'nonce');
    assertBytes(aad, 'associated data');
    return this.#key;
  }
  seal(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
    const key = this.#use(nonce, aad);
    assertBytes(plaintext, 'plaintext');
    const c = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: AEAD_TAG_LENGTH });
    c.setAAD(aad, { plaintextLength: plaintext.length });
    const body = c.update(plaintext);
    const fin = c.final();
    // One copy into a fresh (unpooled for large sizes) buffer: ciphertext || tag.
    return plain(Buffer.concat([body, fin, c.getAuthTag()], plaintext.length + AEAD_TAG_LENGTH));
  }
  open(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Uint8Array {
    const key = this.#use(nonce, aad);
    assertBytes(ciphertextAndTag, 'ciphertext');
    const n = ciphertextAndTag.length - AEAD_TAG_LENGTH;
    if (n < 0) throw new NenCryptoError('NEN_CRYPTO_LENGTH', `nen: ciphertext shorter than the ${AEAD_TAG_LENGTH}-byte tag`);
    const d = createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: AEAD_TAG_LENGTH });
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
  }
  [Symbol.dispose](): void {
    this.dispose();
  }
  toJSON(): object {
    return { type: 'Aead', backend: 'node' };
  }
  toString(): string {
    return '[Aead node]';
  }
  [INSPECT](): string {
    return this.toString();
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


export const nodeHkdf: HkdfSha256 = { extract: hmacSha256, expand: hkdfExpand };

/** The subset of Node ≥ 24's crypto API used for native ML-KEM (absent from @types/node 20). */
interface NativeMlKem {
  createPrivateKey(o: { key: Uint8Array; format: 'raw-seed'; asymmetricKeyType: 'ml-kem-768' }): KeyObject;
  createPublicKey(o: KeyObject | { key: Uint8Array; format: 'raw-public'; asymmetricKeyType: 'ml-kem-768' }): KeyObject;
  encapsulate(key: KeyObject): { sharedKey: Buffer; ciphertext: Buffer };
  decapsulate(key: KeyObject, ciphertext: Uint8Array): Buffer;
}
const exportRawPublic = (k: KeyObject): Uint8Array => copy((k as unknown as { export(o: { format: 'raw-public' }): Buffer }).export({ format: 'raw-public' }));

/** Node's native ML-KEM-768 when present and working (a round-trip probe), else undefined. */
export function detectNativeMlKem(): NativeMlKem | undefined {
  const c = nodeCrypto as unknown as Partial<NativeMlKem>;
  if (typeof c.encapsulate !== 'function' || typeof c.decapsulate !== 'function') return undefined;
  const n = c as NativeMlKem;
  try {
    const sk = n.createPrivateKey({ key: new Uint8Array(64), format: 'raw-seed', asymmetricKeyType: 'ml-kem-768' });
    const pk = n.createPublicKey({ key: exportRawPublic(n.createPublicKey(sk)), format: 'raw-public', asymmetricKeyType: 'ml-kem-768' });
    const { sharedKey, ciphertext } = n.encapsulate(pk);
    return ciphertext.length === 1088 && n.decapsulate(sk, ciphertext).equals(sharedKey) ? n : undefined;
  } catch {
    return undefined;
  }
}

class NodeMlKemRecipientKey implements HpkeRecipientKey {
  readonly kem = KEM_ID.MLKEM768;
  #key: KeyObject | null;
  #publicKey: Uint8Array;
  constructor(
    private readonly native: NativeMlKem,
    privateKey: Uint8Array,
  ) {
    assertLength(privateKey, kemSizes(KEM_ID.MLKEM768).privateKey, 'private key');
    this.#key = native.createPrivateKey({ key: privateKey, format: 'raw-seed', asymmetricKeyType: 'ml-kem-768' });
    this.#publicKey = exportRawPublic(native.createPublicKey(this.#key));
  }
  get publicKey(): Uint8Array {
    return this.#publicKey.slice();
  }
  setupBaseRExport(enc: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Uint8Array {
    if (!this.#key) throw disposedError('HpkeRecipientKey');
    assertLength(enc, kemSizes(KEM_ID.MLKEM768).enc, 'enc');
    assertBytes(info, 'info');
    assertBytes(exporterContext, 'exporter context');
    assertOutputLength(length, 'export length');
    const ss = this.native.decapsulate(this.#key, enc);
    try {
      return keyScheduleExport(nodeHkdf, KEM_ID.MLKEM768, ss, info, exporterContext, length);
    } finally {
      wipe(ss);
    }
  }
  dispose(): void {
    this.#key = null;
  }
  [Symbol.dispose](): void {
    this.dispose();
  }
  toJSON(): object {
    return { type: 'HpkeRecipientKey', backend: 'node', kem: this.kem };
  }
  toString(): string {
    return `[HpkeRecipientKey node kem=0x${this.kem.toString(16)}]`;
  }
  [INSPECT](): string {
    return this.toString();
  }
}

function nativeSetupBaseS(native: NativeMlKem, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): HpkeSenderExport {
  assertLength(publicKey, kemSizes(KEM_ID.MLKEM768).publicKey, 'public key');
  assertBytes(info, 'info');
  assertBytes(exporterContext, 'exporter context');
  assertOutputLength(length, 'export length');
  let pk: KeyObject;
  try {
    pk = native.createPublicKey({ key: publicKey, format: 'raw-public', asymmetricKeyType: 'ml-kem-768' });
  } catch (cause) {
    throw new NenCryptoError('NEN_CRYPTO_KEY', 'nen: invalid ML-KEM-768 encapsulation key', { cause });
  }
  const { sharedKey, ciphertext } = native.encapsulate(pk);
  try {
    return { enc: copy(ciphertext), exported: keyScheduleExport(nodeHkdf, KEM_ID.MLKEM768, sharedKey, info, exporterContext, length) };
  } finally {
    wipe(sharedKey);
  }
}

export interface NodeBackendOptions {
  /** Use Node's native ML-KEM-768 when available (default: detect). */
  nativeMlKem?: boolean;
}

/**
 * node:crypto for symmetric primitives (and ML-KEM-768 on Node ≥ 24), `kem` (the Wasm backend)
 * for the other KEM and HPKE operations.
 */
export function createNodeBackend(kem: Backend, options: NodeBackendOptions = {}): Backend {
  const native = options.nativeMlKem === false ? undefined : detectNativeMlKem();
  const backend: Backend = {
    name: 'node' as const,
    randomBytes,
    sha256(data: Uint8Array) {
      assertBytes(data, 'data');
      return copy(createHash('sha256').update(data).digest());
    },
    hmacSha256(key: Uint8Array, data: Uint8Array) {
      assertBytes(key, 'key');
      assertBytes(data, 'data');
      return hmacSha256(key, data);
    },
    hkdfExtract(salt: Uint8Array, ikm: Uint8Array) {
      assertBytes(salt, 'salt');
      assertBytes(ikm, 'ikm');
      // RFC 5869 §2.2: an empty salt is HashLen zeros; HMAC pads short keys with zeros anyway.
      return hmacSha256(salt, ikm);
    },
    hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number) {
      assertBytes(prk, 'prk');
      assertBytes(info, 'info');
      assertOutputLength(length);
      if (prk.length < 32) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: prk must be at least 32 bytes');
      return hkdfExpand(prk, info, length);
    },
    createAead: (key: Uint8Array) => new NodeAead(key),
    generateKeyPair: (k) => kem.generateKeyPair(k),
    deriveKeyPair: (k, ikm) => kem.deriveKeyPair(k, ikm),
    createRecipientKey(k: KemId, sk: Uint8Array) {
      assertKem(k);
      return native && k === KEM_ID.MLKEM768 ? new NodeMlKemRecipientKey(native, sk) : kem.createRecipientKey(k, sk);
    },
    setupBaseSExport(k: KemId, pk: Uint8Array, info: Uint8Array, ctx: Uint8Array, length: number) {
      assertKem(k);
      return native && k === KEM_ID.MLKEM768 ? nativeSetupBaseS(native, pk, info, ctx, length) : kem.setupBaseSExport(k, pk, info, ctx, length);
    },
  };
  return Object.freeze(backend);
}
