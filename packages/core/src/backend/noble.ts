/**
 * The pure-JS backend on @noble (post-quantum, ciphers, hashes, curves): the fallback where Wasm
 * cannot load (e.g. a strict CSP without 'wasm-unsafe-eval') and the reference the Wasm and
 * node:crypto backends are cross-tested against.
 *
 * Implements:
 *  - ML-KEM-768 (FIPS 203) as HPKE KEM 0x0041 of draft-ietf-hpke-pq: private key = the 64-byte
 *    seed d || z (FIPS 203 ML-KEM.KeyGen_internal input), DeriveKeyPair(ikm) =
 *    LabeledDerive_SHAKE256(ikm, "DeriveKeyPair", "", 64), shared_secret = K;
 *  - X-Wing / MLKEM768-X25519 (draft-connolly-cfrg-xwing-kem, HPKE KEM 0x647a of
 *    draft-ietf-hpke-pq): private key = 32-byte seed, expanded with SHAKE256(seed, 96) into the
 *    ML-KEM seed (64) and the X25519 scalar (32); pk = ek_M || pk_X; enc = ct_M || ct_X;
 *    ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || "\.//^\"); DeriveKeyPair(ikm) =
 *    LabeledDerive_SHAKE256(ikm, "DeriveKeyPair", "", 32);
 *  - HPKE base mode + Export (RFC 9180 §5.1, §5.3) via ./hpke.ts, and single-shot SealBase /
 *    OpenBase (§6.1: key schedule, then ChaCha20-Poly1305 at nonce = base_nonce, seq 0);
 *  - ChaCha20-Poly1305 (RFC 8439 §2.8), HKDF-SHA256 (RFC 5869), HMAC-SHA256, SHA-256: the
 *    symmetric half, ./noble-symmetric.ts (a browser with WebCrypto KEMs loads only that half).
 *
 * X-Wing is built here from noble's ML-KEM-768 and X25519 rather than noble's `ml_kem768_x25519`
 * preset so that a recipient key is expanded once (noble's preset re-expands the seed on every
 * decapsulation); a test proves both agree byte for byte.
 *
 * Pitfalls:
 *  - Decapsulation never fails on a wrong ML-KEM ciphertext (implicit rejection, FIPS 203 §6.3):
 *    a wrong ciphertext yields an unrelated key; authenticity comes from key confirmation above.
 *  - The encapsulation key is checked (FIPS 203 §7.2 modulus check) before use: NEN_CRYPTO_KEY.
 *  - X25519 low-order points are rejected by noble (all-zero shared secret): NEN_CRYPTO_KEY.
 *  - JS cannot guarantee zeroization; secrets are wiped on dispose on a best-effort basis.
 *  - With `defer` (browsers), a recipient key's matrix expansion runs in a later task, or at its
 *    first decapsulation if that comes first; a task that runs after dispose does nothing.
 */
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { ml_kem768, type KEMPrepared } from '@noble/post-quantum/ml-kem.js';
import { NenCryptoError } from '../errors.js';
import { hpkeSuiteId, keyScheduleBase, keyScheduleExport, kemSuiteId, labeledDeriveShake256, type HkdfSha256 } from './hpke.js';
import {
  KEM_ID,
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
  wipe,
  KeyHandle,
  type KeyHandleJson,
} from './util.js';
import { MLKEM768_EK, decap, encapDerand, expandKey, keyError, type ExpandedKey } from './noble-kem.js';
import { nobleHkdf, nobleSymmetric } from './noble-symmetric.js';

export { encapDerand, nobleHkdf };

function checkExportArgs(info: Uint8Array, exporterContext: Uint8Array, length: number): void {
  assertBytes(info, 'info');
  assertBytes(exporterContext, 'exporter context');
  assertOutputLength(length, 'export length');
}

/** SetupBaseS + Export with caller-given encapsulation randomness (tests / vectors only). */
export function setupBaseSExportDerand(
  kem: KemId,
  publicKey: Uint8Array,
  info: Uint8Array,
  exporterContext: Uint8Array,
  length: number,
  randomness: Uint8Array,
  h: HkdfSha256 = nobleHkdf,
): HpkeSenderExport {
  checkExportArgs(info, exporterContext, length);
  const { sharedSecret, enc } = encapDerand(kem, publicKey, randomness);
  try {
    return { enc, exported: keyScheduleExport(h, kem, sharedSecret, info, exporterContext, length) };
  } finally {
    wipe(sharedSecret);
  }
}

/** RFC 9180 §6.1 single-shot Seal / Open body: key schedule, then the AEAD at seq 0 (nonce = base_nonce). */
function withBaseAead<T>(kem: KemId, sharedSecret: Uint8Array, info: Uint8Array, aad: Uint8Array, f: (c: ReturnType<typeof chacha20poly1305>) => T): T {
  const ks = keyScheduleBase(nobleHkdf, hpkeSuiteId(kem), sharedSecret, info);
  try {
    return f(chacha20poly1305(ks.key, ks.baseNonce, aad));
  } finally {
    wipe(ks.key, ks.baseNonce, ks.exporterSecret);
  }
}

/** SealBase with caller-given encapsulation randomness (tests / vectors; production passes fresh randomness). */
export function sealBaseDerand(
  kem: KemId,
  publicKey: Uint8Array,
  info: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
  randomness: Uint8Array,
  prepared?: KEMPrepared,
): HpkeSealed {
  assertSealArgs(info, aad, plaintext, 'plaintext');
  const { sharedSecret, enc } = encapDerand(kem, publicKey, randomness, prepared);
  try {
    return { enc, ciphertext: withBaseAead(kem, sharedSecret, info, aad, (c) => c.encrypt(plaintext)) };
  } finally {
    wipe(sharedSecret);
  }
}

function sealBase(kem: KemId, publicKey: Uint8Array, info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, prepared?: KEMPrepared): HpkeSealed {
  assertKem(kem);
  const rnd = randomBytes(kem === KEM_ID.XWING ? 64 : 32);
  try {
    return sealBaseDerand(kem, publicKey, info, aad, plaintext, rnd, prepared);
  } finally {
    wipe(rnd);
  }
}

/** A recipient public key with noble's ML-KEM matrix expanded once (`prepare`, which validates ek). */
class NobleSenderKey extends KeyHandle implements HpkeSenderKey {
  readonly kem: KemId;
  #publicKey: Uint8Array;
  #prepared: KEMPrepared | null;
  constructor(kem: KemId, publicKey: Uint8Array) {
    super();
    assertKem(kem);
    assertLength(publicKey, kemSizes(kem).publicKey, 'public key');
    this.kem = kem;
    this.#publicKey = publicKey.slice();
    try {
      this.#prepared = ml_kem768.prepare(this.#publicKey.subarray(0, MLKEM768_EK));
    } catch (e) {
      throw keyError('ML-KEM-768 encapsulation key', e);
    }
  }
  get publicKey(): Uint8Array {
    return this.#publicKey.slice();
  }
  sealBase(info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): HpkeSealed {
    if (!this.#prepared) throw disposedError('HpkeSenderKey');
    return sealBase(this.kem, this.#publicKey, info, aad, plaintext, this.#prepared);
  }
  dispose(): void {
    this.#prepared?.clean();
    this.#prepared = null;
  }
  toJSON(): KeyHandleJson {
    return { type: 'HpkeSenderKey', backend: 'noble', kem: this.kem };
  }
}

class NobleRecipientKey extends KeyHandle implements HpkeRecipientKey {
  readonly kem: KemId;
  #key: ExpandedKey | null;
  #prepared: KEMPrepared | undefined;
  #publicKey: Uint8Array;
  constructor(kem: KemId, privateKey: Uint8Array, defer: NobleOptions['defer']) {
    super();
    assertKem(kem);
    assertLength(privateKey, kemSizes(kem).privateKey, 'private key');
    this.kem = kem;
    this.#key = expandKey(kem, privateKey);
    this.#publicKey = this.#key.publicKey;
    if (!defer) this.#prepare();
    else
      defer(() => {
        try {
          this.#prepare();
        } catch {
          // never for a key expanded here; decapsulation would prepare again and throw there
        }
      });
  }
  /** The public matrix expanded once, for faster decapsulation (public data only; none after dispose). */
  #prepare(): KEMPrepared | undefined {
    if (this.#key) this.#prepared ??= ml_kem768.prepare(this.#publicKey.subarray(0, MLKEM768_EK));
    return this.#prepared;
  }
  get publicKey(): Uint8Array {
    return this.#publicKey.slice();
  }
  setupBaseRExport(enc: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Uint8Array {
    if (!this.#key) throw disposedError('HpkeRecipientKey');
    assertLength(enc, kemSizes(this.kem).enc, 'enc');
    checkExportArgs(info, exporterContext, length);
    const ss = decap(this.kem, this.#key, this.#prepare(), enc);
    try {
      return keyScheduleExport(nobleHkdf, this.kem, ss, info, exporterContext, length);
    } finally {
      wipe(ss);
    }
  }
  openBase(enc: Uint8Array, info: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
    if (!this.#key) throw disposedError('HpkeRecipientKey');
    assertLength(enc, kemSizes(this.kem).enc, 'enc');
    assertSealArgs(info, aad, ciphertext, 'ciphertext');
    const ss = decap(this.kem, this.#key, this.#prepare(), enc);
    try {
      return withBaseAead(this.kem, ss, info, aad, (c) => c.decrypt(ciphertext));
    } catch {
      throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed');
    } finally {
      wipe(ss);
    }
  }
  dispose(): void {
    if (this.#key) wipe(this.#key.dkM, this.#key.skX);
    this.#prepared?.clean();
    this.#prepared = undefined;
    this.#key = null;
  }
  toJSON(): KeyHandleJson {
    return { type: 'HpkeRecipientKey', backend: 'noble', kem: this.kem };
  }
}

function deriveKeyPair(kem: KemId, ikm: Uint8Array): KemKeyPair {
  assertKem(kem);
  assertBytes(ikm, 'ikm');
  const sk = labeledDeriveShake256(kemSuiteId(kem), ikm, 'DeriveKeyPair', new Uint8Array(0), kemSizes(kem).privateKey);
  return keyPairFromPrivate(kem, sk);
}

function keyPairFromPrivate(kem: KemId, privateKey: Uint8Array): KemKeyPair {
  const k = expandKey(kem, privateKey);
  wipe(k.dkM, k.skX);
  return { kem, publicKey: k.publicKey, privateKey };
}

export interface NobleOptions {
  /**
   * Runs a recipient key's ML-KEM matrix expansion later instead of in createRecipientKey (it is
   * done at the first decapsulation if still pending). Browsers pass a zero-delay timer: the
   * client's ephemeral key then expands during the handshake's round trip instead of before the
   * ClientHello is sent. Default: at once.
   */
  defer?: (task: () => void) => void;
}

export function createNobleBackend(options: NobleOptions = {}): Backend {
  const backend: Backend = {
    ...nobleSymmetric,
    generateKeyPair(kem: KemId) {
      assertKem(kem);
      return keyPairFromPrivate(kem, randomBytes(kemSizes(kem).privateKey));
    },
    deriveKeyPair,
    createRecipientKey: (kem: KemId, privateKey: Uint8Array) => new NobleRecipientKey(kem, privateKey, options.defer),
    setupBaseSExport(kem: KemId, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number) {
      assertKem(kem);
      const rnd = randomBytes(kem === KEM_ID.XWING ? 64 : 32);
      try {
        return setupBaseSExportDerand(kem, publicKey, info, exporterContext, length, rnd);
      } finally {
        wipe(rnd);
      }
    },
    sealBase: (kem, publicKey, info, aad, plaintext) => sealBase(kem, publicKey, info, aad, plaintext),
    createSenderKey: (kem: KemId, publicKey: Uint8Array) => new NobleSenderKey(kem, publicKey),
  };
  return Object.freeze(backend);
}
