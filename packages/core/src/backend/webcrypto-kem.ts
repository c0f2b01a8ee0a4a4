/**
 * The client handshake's KEMs on the platform's WebCrypto (browsers), as native code instead of
 * cold JS on a page's first handshake (bench/README.md "Browser"):
 *  - ML-KEM-768 (FIPS 203) of WICG "Modern Algorithms in WebCrypto": `importKey('raw-seed')` of
 *    the 64-byte seed d || z (FIPS 203 KeyGen_internal input), `getPublicKey`, `exportKey(
 *    'raw-public')`, `importKey('raw-public')` (which runs the FIPS 203 §7.2 modulus check),
 *    `encapsulateBits`, `decapsulateBits`; HPKE KEM 0x0041: private key = that seed;
 *  - X25519 (RFC 7748) of WebCrypto Secure Curves: a private scalar only imports as PKCS#8
 *    (RFC 8410: the fixed 16-byte prefix, then the 32 bytes), public keys as 'raw';
 *  - X-Wing (draft-connolly-cfrg-xwing-kem, HPKE KEM 0x647a) from both, as ./noble-kem.ts does
 *    (the sizes and the combiner of ./xwing.ts; no @noble ML-KEM / X25519 code is imported here):
 *    the 32-byte seed expanded with SHAKE256(seed, 96) into the ML-KEM seed and the X25519 scalar;
 *    enc = ct_M || ct_X; ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || "\.//^\") (@noble's SHA-3).
 *  The HPKE key schedule and Export run on the caller's `ExportSchedule`: the browser backend's is
 *  WebCrypto HMAC (./webcrypto-symmetric.ts), the default ./hpke.ts on @noble's HKDF (same bytes).
 *
 * Pitfalls:
 *  - Only where all of it exists (`detectWebCryptoKem`, one probe): otherwise the caller keeps the
 *    sync @noble path. The X-Wing / ML-KEM HPKE vectors run through this file in Chromium
 *    (test/webcrypto-kem.browser.test.ts); encapsulation randomness is WebCrypto's own, so the
 *    derandomized vectors check it by decapsulating with @noble.
 *  - An invalid encapsulation key (DataError on import) or a low-order X25519 share (deriveBits'
 *    OperationError on the all-zero secret) is NEN_CRYPTO_KEY, as on every backend.
 *  - Private keys are non-extractable CryptoKeys; the seeds and the PKCS#8 copy are wiped here.
 *  - A sender export resolves with `enc` first: the ClientHello needs only enc_static, exported_s
 *    is needed at the ServerHello, so the X-Wing combiner and the key schedule (cold JS on a first
 *    handshake) run in a deferred task, during the handshake's round trip.
 */
import { shake256 } from '@noble/hashes/sha3.js';
import { concatBytes as concat } from '../protocol/bytes.js';
import { keyScheduleExport } from './hpke.js';
import { nobleHkdf } from './noble-symmetric.js';
import { KEM_ID, type AsyncKem, type AsyncRecipientKey, type AsyncSenderExport, type KemId } from './types.js';
import { assertBytes, assertKem, assertLength, assertOutputLength, disposedError, kemSizes, wipe } from './util.js';
import { MLKEM768_CT, MLKEM768_EK, keyError, xwingCombine } from './xwing.js';

/** The parts of SubtleCrypto used here (ML-KEM is newer than TypeScript's DOM types). */
interface ModernSubtle {
  importKey(format: string, data: Uint8Array, alg: { name: string }, extractable: boolean, usages: string[]): Promise<CryptoKey>;
  exportKey(format: string, key: CryptoKey): Promise<ArrayBuffer>;
  getPublicKey(key: CryptoKey, usages: string[]): Promise<CryptoKey>;
  generateKey(alg: { name: string }, extractable: boolean, usages: string[]): Promise<CryptoKeyPair>;
  deriveBits(alg: { name: string; public: CryptoKey }, key: CryptoKey, length: number): Promise<ArrayBuffer>;
  encapsulateBits(alg: { name: string }, key: CryptoKey): Promise<{ ciphertext: ArrayBuffer; sharedKey: ArrayBuffer }>;
  decapsulateBits(alg: { name: string }, key: CryptoKey, ciphertext: Uint8Array): Promise<ArrayBuffer>;
}

const ML = { name: 'ML-KEM-768' };
const X = { name: 'X25519' };
/** RFC 8410 PKCS#8 OneAsymmetricKey for X25519, up to the 32-byte private key. */
const PKCS8_X25519 = /* @__PURE__ */ Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20);

const bytes = (b: ArrayBuffer) => new Uint8Array(b);

async function mlkemFromSeed(s: ModernSubtle, seed: Uint8Array): Promise<{ dk: CryptoKey; ek: Uint8Array }> {
  const dk = await s.importKey('raw-seed', seed, ML, false, ['decapsulateBits']);
  const ek = bytes(await s.exportKey('raw-public', await s.getPublicKey(dk, ['encapsulateBits'])));
  return { dk, ek };
}

async function x25519FromScalar(s: ModernSubtle, scalar: Uint8Array): Promise<{ sk: CryptoKey; pk: Uint8Array }> {
  const der = concat(PKCS8_X25519, scalar);
  try {
    const sk = await s.importKey('pkcs8', der, X, false, ['deriveBits']);
    return { sk, pk: bytes(await s.exportKey('raw', await s.getPublicKey(sk, []))) };
  } finally {
    wipe(der);
  }
}

async function x25519Shared(s: ModernSubtle, sk: CryptoKey, pk: Uint8Array, what: string): Promise<Uint8Array> {
  try {
    return bytes(await s.deriveBits({ name: 'X25519', public: await s.importKey('raw', pk, X, true, []) }, sk, 256));
  } catch (e) {
    throw keyError(what, e);
  }
}

async function mlkemEncap(s: ModernSubtle, ek: Uint8Array): Promise<{ ct: Uint8Array; ss: Uint8Array }> {
  let key: CryptoKey;
  try {
    key = await s.importKey('raw-public', ek, ML, false, ['encapsulateBits']);
  } catch (e) {
    throw keyError('ML-KEM-768 encapsulation key', e);
  }
  const r = await s.encapsulateBits(ML, key);
  return { ct: bytes(r.ciphertext), ss: bytes(r.sharedKey) };
}

/**
 * Encap(pkR) with WebCrypto's randomness: ML-KEM (ct, K); X-Wing as draft-connolly-cfrg-xwing-kem
 * §5.4, its combiner (SHA3-256) left to `sharedSecret()`, which the caller runs once (it wipes the
 * component secrets).
 */
async function encap(s: ModernSubtle, kem: KemId, publicKey: Uint8Array): Promise<{ enc: Uint8Array; sharedSecret: () => Uint8Array }> {
  if (kem === KEM_ID.MLKEM768) {
    const m = await mlkemEncap(s, publicKey);
    return { enc: m.ct, sharedSecret: () => m.ss };
  }
  const pkX = publicKey.subarray(MLKEM768_EK);
  const xShare = async () => {
    const e = await s.generateKey(X, false, ['deriveBits']);
    const ctX = bytes(await s.exportKey('raw', e.publicKey));
    return { ctX, ssX: await x25519Shared(s, e.privateKey, pkX, 'X25519 public key') };
  };
  const [m, x] = await Promise.all([mlkemEncap(s, publicKey.subarray(0, MLKEM768_EK)), xShare()]);
  const sharedSecret = () => {
    try {
      return xwingCombine(m.ss, x.ssX, x.ctX, pkX);
    } finally {
      wipe(m.ss, x.ssX);
    }
  };
  return { enc: concat(m.ct, x.ctX), sharedSecret };
}

interface NativeKey {
  dk: CryptoKey;
  sk?: CryptoKey;
  pkX?: Uint8Array;
}

class WebCryptoRecipientKey implements AsyncRecipientKey {
  readonly kem: KemId;
  readonly #s: ModernSubtle;
  readonly #export: ExportSchedule;
  #key: NativeKey | null;
  #publicKey: Uint8Array;
  constructor(s: ModernSubtle, exp: ExportSchedule, kem: KemId, key: NativeKey, publicKey: Uint8Array) {
    this.#s = s;
    this.#export = exp;
    this.kem = kem;
    this.#key = key;
    this.#publicKey = publicKey;
  }
  get publicKey(): Uint8Array {
    return this.#publicKey.slice();
  }
  async #decap(enc: Uint8Array, k: NativeKey): Promise<Uint8Array> {
    if (this.kem === KEM_ID.MLKEM768) return bytes(await this.#s.decapsulateBits(ML, k.dk, enc));
    const ctX = enc.subarray(MLKEM768_CT);
    const [ssM, ssX] = await Promise.all([
      this.#s.decapsulateBits(ML, k.dk, enc.subarray(0, MLKEM768_CT)).then(bytes),
      x25519Shared(this.#s, k.sk as CryptoKey, ctX, 'X25519 share in enc'),
    ]);
    try {
      return xwingCombine(ssM, ssX, ctX, k.pkX as Uint8Array);
    } finally {
      wipe(ssM, ssX);
    }
  }
  async setupBaseRExport(enc: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Promise<Uint8Array> {
    const k = this.#key;
    if (!k) throw disposedError('HpkeRecipientKey');
    assertLength(enc, kemSizes(this.kem).enc, 'enc');
    checkExportArgs(info, exporterContext, length);
    const ss = await this.#decap(enc, k);
    try {
      return await this.#export(this.kem, ss, info, exporterContext, length);
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
}

function checkExportArgs(info: Uint8Array, exporterContext: Uint8Array, length: number): void {
  assertBytes(info, 'info');
  assertBytes(exporterContext, 'exporter context');
  assertOutputLength(length, 'export length');
}

async function createRecipientKey(s: ModernSubtle, exp: ExportSchedule, kem: KemId, privateKey: Uint8Array): Promise<AsyncRecipientKey> {
  assertKem(kem);
  assertLength(privateKey, kemSizes(kem).privateKey, 'private key');
  if (kem === KEM_ID.MLKEM768) {
    const { dk, ek } = await mlkemFromSeed(s, privateKey);
    return new WebCryptoRecipientKey(s, exp, kem, { dk }, ek);
  }
  const expanded = shake256(privateKey, { dkLen: 96 });
  try {
    const [m, x] = await Promise.all([mlkemFromSeed(s, expanded.subarray(0, 64)), x25519FromScalar(s, expanded.subarray(64, 96))]);
    return new WebCryptoRecipientKey(s, exp, kem, { dk: m.dk, sk: x.sk, pkX: x.pk }, concat(m.ek, x.pk));
  } finally {
    wipe(expanded);
  }
}

/** Runs a task later (browsers: a zero-delay timer, so that a request carrying `enc` leaves first). */
export type Defer = (task: () => void) => void;

/** The HPKE key schedule + Export of a shared secret (RFC 9180 §5.1, §5.3), sync or not. */
export type ExportSchedule = (kem: KemId, ss: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number) => Uint8Array | Promise<Uint8Array>;

/** ./hpke.ts on @noble's HKDF (the default). */
export const nobleExport: ExportSchedule = (kem, ss, info, ctx, length) => keyScheduleExport(nobleHkdf, kem, ss, info, ctx, length);

/** The detected KEMs, plus the bare Encap (OHTTP's sender runs its own HPKE key schedule: ../ohttp/encap-async.ts). */
export interface WebCryptoKem extends AsyncKem {
  /** Encap(pkR) (pkR's length checked by the caller); `sharedSecret()` runs the X-Wing combiner once, wiping the parts. */
  encapsulate(kem: KemId, publicKey: Uint8Array): Promise<{ enc: Uint8Array; sharedSecret: () => Uint8Array }>;
}

function webCryptoKem(s: ModernSubtle, defer: Defer, exp: ExportSchedule): WebCryptoKem {
  return Object.freeze({
    encapsulate: (kem: KemId, publicKey: Uint8Array) => encap(s, kem, publicKey),
    createRecipientKey: (kem: KemId, privateKey: Uint8Array) => createRecipientKey(s, exp, kem, privateKey),
    async setupBaseSExport(kem: KemId, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Promise<AsyncSenderExport> {
      assertKem(kem);
      assertLength(publicKey, kemSizes(kem).publicKey, 'public key');
      checkExportArgs(info, exporterContext, length);
      const { enc, sharedSecret } = await encap(s, kem, publicKey);
      const exported = new Promise<Uint8Array>((resolve, reject) =>
        defer(() => {
          let ss: Uint8Array | undefined;
          try {
            ss = sharedSecret();
            const secret = ss;
            void Promise.resolve(exp(kem, secret, info, exporterContext, length))
              .then(resolve, reject)
              .finally(() => wipe(secret));
          } catch (e) {
            wipe(ss);
            reject(e);
          }
        }),
      );
      return { enc, exported };
    },
  });
}

/**
 * The WebCrypto KEMs if this platform has every operation used here (one probe: an X25519 and an
 * ML-KEM-768 key, native and sub-millisecond), else undefined. Never throws. `defer` schedules a
 * sender export's combiner and key schedule (default: a zero-delay timer).
 */
export async function detectWebCryptoKem(
  subtle: unknown = globalThis.crypto?.subtle,
  defer: Defer = (task) => void setTimeout(task, 0),
  exp: ExportSchedule = nobleExport,
): Promise<WebCryptoKem | undefined> {
  const s = subtle as Partial<ModernSubtle> | undefined;
  if (!s || typeof s.getPublicKey !== 'function' || typeof s.encapsulateBits !== 'function' || typeof s.decapsulateBits !== 'function') return undefined;
  const full = s as ModernSubtle;
  try {
    const seed = new Uint8Array(96);
    await Promise.all([mlkemFromSeed(full, seed.subarray(0, 64)), x25519FromScalar(full, seed.subarray(64).fill(9))]);
    return webCryptoKem(full, defer, exp);
  } catch {
    return undefined;
  }
}
