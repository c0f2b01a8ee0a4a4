/**
 * The Wasm backend: wraps the wasm-bindgen (`--target web`) output of crates/nen-core
 * (`packages/core/wasm/nen_core.js`) behind the Backend interface. The Rust side implements
 * HPKE (RFC 9180 base mode: Export, single-shot SealBase / OpenBase) over X-Wing / ML-KEM-768 (draft-ietf-hpke-pq),
 * ChaCha20-Poly1305 (RFC 8439), HKDF-SHA256, HMAC-SHA256 and SHA-256.
 *
 * Pitfalls:
 *  - Objects holding Wasm state (Aead, RecipientKey) must be freed: `dispose()` /
 *    `[Symbol.dispose]` call `.free()`, which zeroizes the key on the Rust side; a
 *    FinalizationRegistry frees what the caller forgot (no timing guarantee).
 *  - The Rust side throws `JsError("NEN_CRYPTO_<X>: nen: ...")`; the code prefix is mapped to a
 *    NenCryptoError with that code. Inputs are also checked here first, so every backend reports
 *    the same code for the same bad input.
 *  - Getters of Vec<u8> fields return fresh copies: read each once.
 *  - SealBase comes back as one buffer `enc || ct` (no result object to free), split at Nenc.
 *  - Initialisation is per runtime (see ./wasm-embedded.ts and ./wasm-url.ts); this module only
 *    needs the initialised glue.
 */
import type * as Glue from '../../wasm/nen_core.js';
import { NenCryptoError } from '../errors.js';
import { setLoadedWasmGlue } from './wasm-loaded.js';
import {
  AEAD_KEY_LENGTH,
  type Aead,
  type Backend,
  type HpkeRecipientKey,
  type HpkeSealed,
  type HpkeSenderExport,
  type HpkeSenderKey,
  type KemId,
  type KemKeyPair,
} from './types.js';
import {
  assertBytes,
  assertKem,
  assertLength,
  assertOutputLength,
  assertSealArgs,
  disposedError,
  kemSizes,
  randomBytes,
  assertCiphertextAndTag,
  useAeadKey,
  KeyHandle,
  type KeyHandleJson,
} from './util.js';

export type WasmGlue = typeof Glue;

const CODE = /^(NEN_CRYPTO_[A-Z_]+):\s*(.*)$/s;

/** Maps an error thrown by the Wasm glue to a NenCryptoError with the code it carries. */
export function mapWasmError(e: unknown): NenCryptoError {
  if (e instanceof NenCryptoError) return e;
  const msg = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  const m = CODE.exec(msg);
  if (m) return new NenCryptoError(m[1] as string, m[2] as string);
  return new NenCryptoError('NEN_CRYPTO_INTERNAL', 'nen: unexpected error in the Wasm crypto core', { cause: e });
}

export function callWasm<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw mapWasmError(e);
  }
}

interface Freeable {
  free(): void;
}
/** Frees the Wasm half of a key object its owner forgot to dispose (shared by every Wasm-backed key). */
export const registry: FinalizationRegistry<Freeable> | undefined =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((inner) => {
        try {
          inner.free();
        } catch {
          /* already freed */
        }
      })
    : undefined;

/** A senderExport / keyPair object: read its fields once, then free it. */
function take<T extends Freeable, R>(obj: T, read: (o: T) => R): R {
  try {
    return read(obj);
  } finally {
    obj.free();
  }
}

/** Frees a key object's Wasm memory now (once; the registry no longer needs to) and returns null for its slot. */
function release(owner: object, inner: Freeable | null): null {
  if (inner) {
    registry?.unregister(owner);
    inner.free();
  }
  return null;
}

class WasmAead extends KeyHandle implements Aead {
  #inner: Glue.Aead | null;
  constructor(glue: WasmGlue, key: Uint8Array) {
    super();
    assertLength(key, AEAD_KEY_LENGTH, 'ChaCha20-Poly1305 key');
    this.#inner = callWasm(() => new glue.Aead(key));
    registry?.register(this, this.#inner, this);
  }
  seal(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
    const inner = useAeadKey(this.#inner, nonce, aad);
    assertBytes(plaintext, 'plaintext');
    return callWasm(() => inner.seal(nonce, aad, plaintext));
  }
  open(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Uint8Array {
    const inner = useAeadKey(this.#inner, nonce, aad);
    assertCiphertextAndTag(ciphertextAndTag);
    return callWasm(() => inner.open(nonce, aad, ciphertextAndTag));
  }
  dispose(): void {
    this.#inner = release(this, this.#inner);
  }
  toJSON(): KeyHandleJson {
    return { type: 'Aead', backend: 'wasm' };
  }
}

/** The Wasm recipient key; the node backend also uses its X25519-split methods (X-Wing keys). */
export class WasmRecipientKey extends KeyHandle implements HpkeRecipientKey {
  readonly kem: KemId;
  #inner: Glue.RecipientKey | null;
  #publicKey: Uint8Array;
  constructor(glue: WasmGlue, kem: KemId, privateKey: Uint8Array) {
    super();
    assertKem(kem);
    assertLength(privateKey, kemSizes(kem).privateKey, 'private key');
    this.kem = kem;
    const inner = callWasm(() => new glue.RecipientKey(kem, privateKey));
    this.#inner = inner;
    registry?.register(this, inner, this);
    this.#publicKey = inner.public_key;
  }
  get publicKey(): Uint8Array {
    return this.#publicKey.slice();
  }
  setupBaseRExport(enc: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeRecipientKey');
    assertLength(enc, kemSizes(this.kem).enc, 'enc');
    assertBytes(info, 'info');
    assertBytes(exporterContext, 'exporter context');
    assertOutputLength(length, 'export length');
    return callWasm(() => inner.setup_base_r_export(enc, info, exporterContext, length));
  }
  openBase(enc: Uint8Array, info: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeRecipientKey');
    assertLength(enc, kemSizes(this.kem).enc, 'enc');
    assertSealArgs(info, aad, ciphertext, 'ciphertext');
    return callWasm(() => inner.open_base(enc, info, aad, ciphertext));
  }
  /** X-Wing OpenBase with ssX = X25519(sk_X, enc[1088..]) computed by the caller (checked args). */
  openBaseX25519(enc: Uint8Array, ssX: Uint8Array, info: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeRecipientKey');
    return callWasm(() => inner.open_base_x25519(enc, ssX, info, aad, ciphertext));
  }
  /** X-Wing keys: a copy of the X25519 scalar sk_X (secret; the caller wipes it). */
  x25519Secret(): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeRecipientKey');
    return callWasm(() => inner.x25519_secret());
  }
  /** X-Wing SetupBaseR + Export with ssX = X25519(sk_X, enc[1088..]) computed by the caller. */
  setupBaseRExportX25519(enc: Uint8Array, ssX: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeRecipientKey');
    return callWasm(() => inner.setup_base_r_export_x25519(enc, ssX, info, exporterContext, length));
  }
  dispose(): void {
    this.#inner = release(this, this.#inner);
  }
  toJSON(): KeyHandleJson {
    return { type: 'HpkeRecipientKey', backend: 'wasm', kem: this.kem };
  }
}

/** Splits the `enc || ct` buffer of a Wasm SealBase at the KEM's Nenc. */
export function splitSealed(kem: KemId, out: Uint8Array): HpkeSealed {
  const n = kemSizes(kem).enc;
  return { enc: out.subarray(0, n), ciphertext: out.subarray(n) };
}

/** A recipient public key parsed (and validated) once in Wasm memory, for repeated SealBase. */
export class WasmSenderKey extends KeyHandle implements HpkeSenderKey {
  readonly kem: KemId;
  #inner: Glue.SenderKey | null;
  #publicKey: Uint8Array;
  constructor(glue: WasmGlue, kem: KemId, publicKey: Uint8Array) {
    super();
    assertKem(kem);
    assertLength(publicKey, kemSizes(kem).publicKey, 'public key');
    this.kem = kem;
    const inner = callWasm(() => new glue.SenderKey(kem, publicKey));
    this.#inner = inner;
    registry?.register(this, inner, this);
    this.#publicKey = publicKey.slice();
  }
  get publicKey(): Uint8Array {
    return this.#publicKey.slice();
  }
  sealBase(info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): HpkeSealed {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeSenderKey');
    assertSealArgs(info, aad, plaintext, 'plaintext');
    return splitSealed(
      this.kem,
      callWasm(() => inner.seal_base(info, aad, plaintext)),
    );
  }
  /** X-Wing SealBase with the X25519 half (ct_X, ss_X) computed by the caller (checked args). */
  sealBaseX25519(ctX: Uint8Array, ssX: Uint8Array, info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): HpkeSealed {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeSenderKey');
    return splitSealed(
      this.kem,
      callWasm(() => inner.seal_base_x25519(ctX, ssX, info, aad, plaintext)),
    );
  }
  dispose(): void {
    this.#inner = release(this, this.#inner);
  }
  toJSON(): KeyHandleJson {
    return { type: 'HpkeSenderKey', backend: 'wasm', kem: this.kem };
  }
}

function keyPair(kem: KemId, kp: Glue.KeyPair): KemKeyPair {
  return take(kp, (o) => ({ kem, publicKey: o.public_key, privateKey: o.private_key }));
}

export function senderExport(se: Glue.SenderExport): HpkeSenderExport {
  return take(se, (o) => ({ enc: o.enc, exported: o.exported }));
}

/** The glue behind each Wasm backend object (for the node backend's X25519 split). */
const glueOf = new WeakMap<Backend, WasmGlue>();

/** The wasm-bindgen glue a Wasm backend was built on, if `backend` is one. */
export function wasmGlueOf(backend: Backend): WasmGlue | undefined {
  return glueOf.get(backend);
}

/** The Backend over an initialised wasm-bindgen glue module. */
export function createWasmBackend(glue: WasmGlue): Backend {
  const backend: Backend = {
    name: 'wasm' as const,
    randomBytes,
    sha256(data: Uint8Array) {
      assertBytes(data, 'data');
      return callWasm(() => glue.sha256(data));
    },
    hmacSha256(key: Uint8Array, data: Uint8Array) {
      assertBytes(key, 'key');
      assertBytes(data, 'data');
      return callWasm(() => glue.hmac_sha256(key, data));
    },
    hkdfExtract(salt: Uint8Array, ikm: Uint8Array) {
      assertBytes(salt, 'salt');
      assertBytes(ikm, 'ikm');
      return callWasm(() => glue.hkdf_extract(salt, ikm));
    },
    hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number) {
      assertBytes(prk, 'prk');
      assertBytes(info, 'info');
      assertOutputLength(length);
      if (prk.length < 32) throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: prk must be at least 32 bytes');
      return callWasm(() => glue.hkdf_expand(prk, info, length));
    },
    createAead: (key: Uint8Array) => new WasmAead(glue, key),
    generateKeyPair(kem: KemId) {
      assertKem(kem);
      return keyPair(
        kem,
        callWasm(() => glue.generate_key_pair(kem)),
      );
    },
    deriveKeyPair(kem: KemId, ikm: Uint8Array) {
      assertKem(kem);
      assertBytes(ikm, 'ikm');
      return keyPair(
        kem,
        callWasm(() => glue.derive_key_pair(kem, ikm)),
      );
    },
    createRecipientKey: (kem: KemId, privateKey: Uint8Array) => new WasmRecipientKey(glue, kem, privateKey),
    setupBaseSExport(kem: KemId, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number) {
      assertKem(kem);
      assertLength(publicKey, kemSizes(kem).publicKey, 'public key');
      assertBytes(info, 'info');
      assertBytes(exporterContext, 'exporter context');
      assertOutputLength(length, 'export length');
      return senderExport(callWasm(() => glue.setup_base_s_export(kem, publicKey, info, exporterContext, length)));
    },
    sealBase(kem: KemId, publicKey: Uint8Array, info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array) {
      assertKem(kem);
      assertLength(publicKey, kemSizes(kem).publicKey, 'public key');
      assertSealArgs(info, aad, plaintext, 'plaintext');
      return splitSealed(
        kem,
        callWasm(() => glue.seal_base(kem, publicKey, info, aad, plaintext)),
      );
    },
    createSenderKey: (kem: KemId, publicKey: Uint8Array) => new WasmSenderKey(glue, kem, publicKey),
  };
  Object.freeze(backend);
  glueOf.set(backend, glue);
  setLoadedWasmGlue(glue);
  return backend;
}
