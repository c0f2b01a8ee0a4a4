/**
 * X-Wing (draft-connolly-cfrg-xwing-kem; HPKE KEM 0x647a) for the node backend: the X25519 half
 * (RFC 7748) runs in node:crypto (OpenSSL), the ML-KEM-768 half, the X-Wing combiner, the HPKE
 * key schedule (RFC 9180 §5.1) and Export (§5.3) run in the Wasm in one call
 * (`setup_base_s_export_x25519`, `RecipientKey.setup_base_r_export_x25519`; single-shot
 * SealBase / OpenBase: `SenderKey.seal_base_x25519`, `RecipientKey.open_base_x25519`).
 *
 * Chosen by measurement (crates/nen-core/README.md "Handshake compute"): an X25519 Montgomery
 * ladder costs ≈ 65 µs in Wasm (curve25519-dalek, 32-bit backend; its u64 backend 2.2x slower,
 * fiat 4 % faster, more inlining 2x slower: bench/README.md "Handshake, X25519 and glue") and
 * ≈ 25 µs in OpenSSL, plus
 * the key import: on Node 20 (OpenSSL 3.0) a JWK public key imports in ≈ 5 µs and a private one
 * (OpenSSL derives its public key: a second ladder) in ≈ 22 µs, on Node 24 (OpenSSL 3.5) in
 * ≈ 13 / 30 µs. So recipient keys (the server's static key: one DH + one import per handshake)
 * use OpenSSL (sk_X imported once, at the first use); on OpenSSL ≥ 3.5 only from the second use
 * on, the first running wholly in the Wasm, so a one-shot key (the Node client's ephemeral) never
 * pays the slower private import there (issue 21, CPU µs, load 10-15: a fresh key + one SetupBaseR
 * on Node 24 143.5 Wasm vs 184.4 imported; a pinned client + server handshake in process 577 ->
 * 522; on Node 20 the import still pays: 485-510 imported vs 523-536 lazy; a static key's
 * SetupBaseR 83.0 vs 84.1 Wasm on Node 24, 72.8 vs 104.1 on Node 20).
 * SetupBaseS (fresh scalar: import + DH + import) only while the imports are fast (OpenSSL < 3.5,
 * FAST_KEY_IMPORT), elsewhere the Wasm does the whole X-Wing encapsulation.
 * Byte-identical to the Wasm backend (cross-tests and the Go HPKE vectors run through this path).
 *
 * Pitfalls:
 *  - Keys are imported as JWK (`{ kty: 'OKP', crv: 'X25519' }`): node:crypto builds a raw
 *    EVP_PKEY from it directly, while SPKI / PKCS#8 DER go through OpenSSL's decoders, which
 *    made an earlier KeyObject attempt slower than the Wasm.
 *  - OpenSSL throws on an all-zero X25519 result (low-order point); that is mapped to
 *    NEN_CRYPTO_KEY, as the Wasm reports it, and the Wasm checks the share again.
 *  - The static scalar sk_X leaves the Wasm once per key (at its first / second use), into an
 *    OpenSSL KeyObject; the byte copy is wiped, but the base64url string handed to the JWK import
 *    (and, per handshake, the ephemeral scalar's, twice: imported, and in the JWK exported for
 *    ct_X) cannot be: strings are immutable and live until garbage collection.
 *    The ML-KEM half never leaves the Wasm, so the X-Wing key stays hybrid-protected.
 *  - A private JWK needs a string `x`, which node:crypto does not read for private keys;
 *    OpenSSL derives the public key, exported here as the X-Wing `ct_X` from the private key's
 *    own JWK (no public KeyObject: issue 21, serverHandshake in process on Node 20, load ~10,
 *    4 runs both orders: unpinned 121-140 -> 108-123 µs, pinned client + server 479-494 ->
 *    454-469).
 *  - The ephemeral scalar is drawn here and imported, never `generateKeyPairSync('x25519')`,
 *    although X-Wing's Encapsulate (draft-connolly-cfrg-xwing-kem §5.3: EncapsulateDerand(pk,
 *    eseed) with eseed random, ek_X = eseed[32:64]) would allow OpenSSL's own key generation (same
 *    distribution): on Node 20 a GC inside the JWK export of a generated key runs the finished
 *    KeyGenJob's destructor, which takes the key's mutex the export holds, and the process hangs
 *    (reproduced within ~5,000 keys, issue 21 sixth pass; see ../ohttp/xwing-split-sender.ts); its
 *    DER export is slower than the import (86-139 vs 29-35 µs). On Node 24 generate + `raw-public`
 *    export / import + DH + the Wasm's rest is 124-132 µs against the all-Wasm 118 (bench/README.md).
 */
import { createPrivateKey, createPublicKey, diffieHellman, type KeyObject } from 'node:crypto';
import { NenCryptoError } from '../errors.js';
import { KEM_ID, KEM_SIZES, type HpkeRecipientKey, type HpkeSealed, type HpkeSenderExport, type HpkeSenderKey } from './types.js';
import { assertBytes, assertLength, assertOutputLength, assertSealArgs, disposedError, randomBytes, wipe, KeyHandle, type KeyHandleJson } from './util.js';
import { callWasm, senderExport, type WasmGlue, type WasmRecipientKey, type WasmSenderKey } from './wasm.js';

/** OpenSSL older than 3.5 (Node 20 / 22): key import cheap enough for SetupBaseS here. */
export const FAST_KEY_IMPORT = ((v: string | undefined): boolean => {
  const m = /^(\d+)\.(\d+)/.exec(v ?? '');
  return !!m && (Number(m[1]) < 3 || (Number(m[1]) === 3 && Number(m[2]) < 5));
})(process.versions.openssl);

/** Offset of ct_X in an X-Wing ciphertext and of pk_X in an X-Wing public key. */
const CT_X_OFFSET = 1088;
const PK_X_OFFSET = 1184;

const b64url = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64url');

function x25519Public(u: Uint8Array): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64url(u) }, format: 'jwk' });
}

function x25519Private(scalar: Uint8Array, pub: Uint8Array | undefined): KeyObject {
  return createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64url(scalar), x: pub ? b64url(pub) : '' }, format: 'jwk' });
}

/** X25519(k, u) as a fresh Uint8Array; a low-order u (all-zero result) is NEN_CRYPTO_KEY. */
function x25519(k: KeyObject, u: Uint8Array): Uint8Array {
  return dh(k, x25519Public(u));
}

function dh(k: KeyObject, u: KeyObject): Uint8Array {
  let out: Buffer;
  try {
    out = diffieHellman({ privateKey: k, publicKey: u });
  } catch (cause) {
    throw new NenCryptoError('NEN_CRYPTO_KEY', 'nen: X25519 share is a low-order point', { cause });
  }
  const copy = new Uint8Array(out);
  out.fill(0);
  return copy;
}

/**
 * An X-Wing recipient key: ML-KEM-768 half in the Wasm key object, X25519 half in OpenSSL (on
 * OpenSSL ≥ 3.5 from the key's second use on: its first use runs wholly in the Wasm, so a one-shot
 * key, e.g. a Node client's ephemeral key, never pays the private import, a second ladder).
 */
export class NodeXWingRecipientKey extends KeyHandle implements HpkeRecipientKey {
  readonly kem = KEM_ID.XWING;
  #inner: WasmRecipientKey | null;
  /**
   * sk_X in OpenSSL, or where this key's next use runs: 'import' (OpenSSL, importing sk_X first),
   * 'wasm-once' (the Wasm, then 'import': a first use on OpenSSL ≥ 3.5), 'wasm' (for good: the
   * import failed, which a Node.js runtime should never do; the bytes are the same either way).
   */
  #skX: KeyObject | 'import' | 'wasm-once' | 'wasm' = FAST_KEY_IMPORT ? 'import' : 'wasm-once';
  constructor(inner: WasmRecipientKey) {
    super();
    this.#inner = inner;
  }
  get publicKey(): Uint8Array {
    if (!this.#inner) throw disposedError('HpkeRecipientKey');
    return this.#inner.publicKey;
  }
  /** sk_X as an OpenSSL KeyObject, or undefined: this call runs wholly in the Wasm. */
  #opensslKey(inner: WasmRecipientKey): KeyObject | undefined {
    const k = this.#skX;
    if (typeof k !== 'string') return k;
    if (k !== 'import') {
      if (k === 'wasm-once') this.#skX = 'import';
      return undefined;
    }
    const skX = inner.x25519Secret();
    try {
      this.#skX = x25519Private(skX, inner.publicKey.subarray(PK_X_OFFSET));
      return this.#skX;
    } catch {
      this.#skX = 'wasm';
      return undefined;
    } finally {
      wipe(skX);
    }
  }
  setupBaseRExport(enc: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeRecipientKey');
    assertLength(enc, KEM_SIZES[KEM_ID.XWING].enc, 'enc');
    assertBytes(info, 'info');
    assertBytes(exporterContext, 'exporter context');
    assertOutputLength(length, 'export length');
    const skX = this.#opensslKey(inner);
    if (!skX) return inner.setupBaseRExport(enc, info, exporterContext, length);
    const ssX = x25519(skX, enc.subarray(CT_X_OFFSET));
    try {
      return inner.setupBaseRExportX25519(enc, ssX, info, exporterContext, length);
    } finally {
      wipe(ssX);
    }
  }
  openBase(enc: Uint8Array, info: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeRecipientKey');
    assertLength(enc, KEM_SIZES[KEM_ID.XWING].enc, 'enc');
    assertSealArgs(info, aad, ciphertext, 'ciphertext');
    const skX = this.#opensslKey(inner);
    if (!skX) return inner.openBase(enc, info, aad, ciphertext);
    const ssX = x25519(skX, enc.subarray(CT_X_OFFSET));
    try {
      return inner.openBaseX25519(enc, ssX, info, aad, ciphertext);
    } finally {
      wipe(ssX);
    }
  }
  dispose(): void {
    this.#inner?.dispose();
    this.#inner = null;
    this.#skX = 'wasm';
  }
  toJSON(): KeyHandleJson {
    return { type: 'HpkeRecipientKey', backend: 'node', kem: this.kem };
  }
}

/** A fresh X25519 scalar in OpenSSL: ct_X = its public key, ss_X = X25519(ek_X, pk_X). */
function x25519Ephemeral(pkX: KeyObject | Uint8Array): { ctX: Uint8Array; ssX: Uint8Array } {
  const ek = randomBytes(32);
  try {
    const ekKey = x25519Private(ek, undefined);
    const ctX = Buffer.from(ekKey.export({ format: 'jwk' }).x as string, 'base64url'); // OpenSSL derived it on import
    return { ctX, ssX: pkX instanceof Uint8Array ? x25519(ekKey, pkX) : dh(ekKey, pkX) };
  } finally {
    wipe(ek);
  }
}

/**
 * An X-Wing sender key: the Wasm SenderKey (ML-KEM-768 ek parsed once) and pk_X imported into
 * OpenSSL once; each SealBase draws a fresh X25519 scalar here and the rest runs in the Wasm.
 */
export class NodeXWingSenderKey extends KeyHandle implements HpkeSenderKey {
  readonly kem = KEM_ID.XWING;
  #inner: WasmSenderKey | null;
  #pkX: KeyObject;
  constructor(inner: WasmSenderKey) {
    super();
    this.#inner = inner;
    try {
      this.#pkX = x25519Public(inner.publicKey.subarray(PK_X_OFFSET));
    } catch (cause) {
      inner.dispose();
      throw new NenCryptoError('NEN_CRYPTO_KEY', 'nen: invalid X25519 public key', { cause });
    }
  }
  get publicKey(): Uint8Array {
    if (!this.#inner) throw disposedError('HpkeSenderKey');
    return this.#inner.publicKey;
  }
  sealBase(info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): HpkeSealed {
    const inner = this.#inner;
    if (!inner) throw disposedError('HpkeSenderKey');
    assertSealArgs(info, aad, plaintext, 'plaintext');
    const { ctX, ssX } = x25519Ephemeral(this.#pkX);
    try {
      return inner.sealBaseX25519(ctX, ssX, info, aad, plaintext);
    } finally {
      wipe(ssX);
    }
  }
  dispose(): void {
    this.#inner?.dispose();
    this.#inner = null;
  }
  toJSON(): KeyHandleJson {
    return { type: 'HpkeSenderKey', backend: 'node', kem: this.kem };
  }
}

/** X-Wing single-shot SealBase with the X25519 half in OpenSSL (caller checked the arguments). */
export function xwingSealBase(glue: WasmGlue, publicKey: Uint8Array, info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const { ctX, ssX } = x25519Ephemeral(publicKey.subarray(PK_X_OFFSET));
  try {
    return callWasm(() => glue.seal_base_x25519(publicKey, ctX, ssX, info, aad, plaintext));
  } finally {
    wipe(ssX);
  }
}

/**
 * X-Wing SetupBaseS(pkR, info) + Export: a fresh X25519 scalar ek_X imported into OpenSSL,
 * ct_X = its public key, ss_X = X25519(ek_X, pk_X); the Wasm draws the ML-KEM randomness,
 * validates pkR and does the rest. The caller has checked the argument types and lengths.
 */
export function xwingSetupBaseSExport(glue: WasmGlue, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): HpkeSenderExport {
  const { ctX, ssX } = x25519Ephemeral(publicKey.subarray(PK_X_OFFSET));
  try {
    return senderExport(callWasm(() => glue.setup_base_s_export_x25519(publicKey, ctX, ssX, info, exporterContext, length)));
  } finally {
    wipe(ssX);
  }
}
