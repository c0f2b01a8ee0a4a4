/**
 * The symmetric primitives on the platform's WebCrypto, asynchronously: SHA-256, HMAC-SHA256,
 * HKDF-SHA256 (RFC 5869: Extract = HMAC(salt, IKM), Expand's T(i) = HMAC(PRK, T(i-1) || info || i)),
 * the RFC 9180 §5.1 / §5.3 key schedule and Export over that HKDF, and, where the platform has it,
 * ChaCha20-Poly1305 (RFC 8439) of WICG "Modern Algorithms in WebCrypto" ('raw-secret' keys:
 * Chromium 156, Node 24). Native code instead of @noble's cold JS on a page's first handshake and
 * request (bench/README.md "Browser": at 4x CPU, cold, @noble HKDF + a 1 KB seal and open 52.7 ms
 * against 5.3 ms on WebCrypto). The browser backend (./index.browser.ts) runs the client
 * handshake's key schedule, S_0 / confirm and the epoch keys here (`Backend.asyncSymmetric`), and
 * single sealed messages on `Aead.sealAsync` / `openAsync` (./webcrypto-aead.ts): a cold session
 * page's handshake answered -> request sent 48 / 54 -> 34 / 28 ms, over plain +265 / +246 -> +250 /
 * +209 ms (bench/browser/cold-ab.js, 20 rounds, both orders, load 9-16).
 *
 * Pitfalls:
 *  - WebCrypto refuses zero-length HMAC keys: an empty salt is HashLen zeros (RFC 5869 §2.2; the
 *    same HMAC key, as HMAC zero-pads keys to the block size).
 *  - Every method copies its inputs synchronously (WebCrypto does, at the call): a caller may wipe
 *    or reuse its buffers as soon as the promise exists.
 *  - Same bytes as ./hpke.ts over @noble's HKDF (webcrypto-symmetric.test.ts; RFC 5869 and the
 *    hpke-pq vectors through the browser backend in Chromium).
 */
import { NenCryptoError } from '../errors.js';
import { concatBytes, utf8 } from '../protocol/bytes.js';
import { hpkeSuiteId } from './hpke.js';
import type { AsyncSymmetricMethods } from './types.js';
import { HKDF_SHA256_MAX_OUTPUT, wipe } from './util.js';

/** The parts of SubtleCrypto used here ('raw-secret' and ChaCha20-Poly1305 are newer than TypeScript's DOM types). */
export interface SymmetricSubtle {
  importKey(format: string, key: Uint8Array, alg: unknown, extractable: boolean, usages: string[]): Promise<CryptoKey>;
  sign(alg: string, key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  digest(alg: string, data: Uint8Array): Promise<ArrayBuffer>;
  encrypt(alg: unknown, key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  decrypt(alg: unknown, key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
}

/** HMAC-SHA256(key, data). */
export type AsyncHmac = (key: Uint8Array, data: Uint8Array) => Promise<Uint8Array>;

/** The symmetric Backend methods, asynchronous, on WebCrypto. */
export interface AsyncSymmetric extends AsyncSymmetricMethods {
  readonly hmacSha256: AsyncHmac;
  /** The SubtleCrypto whose ChaCha20-Poly1305 passed the probe, else undefined. */
  readonly chacha: SymmetricSubtle | undefined;
}

const HMAC = { name: 'HMAC', hash: 'SHA-256' };
const NH = 32;
const ZERO_SALT = /* @__PURE__ */ new Uint8Array(NH);
export const CHACHA = { name: 'ChaCha20-Poly1305' };

/** The key is consumed by importKey at the call; the data is copied, as sign() sees it a task later. */
export const webCryptoHmac =
  (s: Pick<SymmetricSubtle, 'importKey' | 'sign'>): AsyncHmac =>
  (k, data) => {
    const d = data.slice();
    return s.importKey('raw', k.length > 0 ? k : ZERO_SALT, HMAC, false, ['sign']).then(async (key) => new Uint8Array(await s.sign('HMAC', key, d)));
  };

/** RFC 5869 §2.3 Expand, L <= 255 * HashLen. */
export async function hkdfExpandWith(hmac: AsyncHmac, prk: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array> {
  if (!Number.isInteger(length) || length < 0 || length > HKDF_SHA256_MAX_OUTPUT) {
    throw new NenCryptoError('NEN_CRYPTO_LENGTH', `nen: HKDF output length must be in 0..${HKDF_SHA256_MAX_OUTPUT}`);
  }
  if (length <= NH) return (await hmac(prk, concatBytes(info, Uint8Array.of(1)))).subarray(0, length);
  const out = new Uint8Array(Math.ceil(length / NH) * NH);
  let t: Uint8Array = new Uint8Array(0);
  for (let i = 1, at = 0; at < length; i++, at += NH) {
    const block = concatBytes(t, info, Uint8Array.of(i));
    t = await hmac(prk, block);
    out.set(t, at);
  }
  wipe(out.subarray(length));
  return out.subarray(0, length);
}

const HPKE_V1 = /* @__PURE__ */ utf8('HPKE-v1');
const i2osp2 = (n: number) => Uint8Array.of(n >> 8, n & 0xff);

/** RFC 9180 §4 LabeledExtract. */
export const labeledExtractWith = (hmac: AsyncHmac, suiteId: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array): Promise<Uint8Array> =>
  hmac(salt, concatBytes(HPKE_V1, suiteId, utf8(label), ikm));

/** RFC 9180 §4 LabeledExpand. */
export const labeledExpandWith = (
  hmac: AsyncHmac,
  suiteId: Uint8Array,
  prk: Uint8Array,
  label: string,
  info: Uint8Array,
  length: number,
): Promise<Uint8Array> => hkdfExpandWith(hmac, prk, concatBytes(i2osp2(length), HPKE_V1, suiteId, utf8(label), info), length);

/** RFC 9180 §5.1 KeySchedule(mode_base, shared_secret, info) (psk = psk_id = ""); nk / nn the AEAD's sizes. */
export async function keyScheduleWith(hmac: AsyncHmac, suiteId: Uint8Array, ss: Uint8Array, info: Uint8Array, nk: number, nn: number) {
  const empty = new Uint8Array(0);
  const [pskIdHash, infoHash, secret] = await Promise.all([
    labeledExtractWith(hmac, suiteId, empty, 'psk_id_hash', empty),
    labeledExtractWith(hmac, suiteId, empty, 'info_hash', info),
    labeledExtractWith(hmac, suiteId, ss, 'secret', empty),
  ]);
  const ctx = concatBytes(Uint8Array.of(0), pskIdHash, infoHash);
  try {
    const [key, baseNonce, exporterSecret] = await Promise.all([
      labeledExpandWith(hmac, suiteId, secret, 'key', ctx, nk),
      labeledExpandWith(hmac, suiteId, secret, 'base_nonce', ctx, nn),
      labeledExpandWith(hmac, suiteId, secret, 'exp', ctx, NH),
    ]);
    return { key, baseNonce, exporterSecret };
  } finally {
    wipe(secret);
  }
}

/** ./hpke.ts keyScheduleExport (Nen's suite: HKDF-SHA256, ChaCha20-Poly1305) on an async HMAC. */
export async function keyScheduleExportWith(
  hmac: AsyncHmac,
  kemId: number,
  ss: Uint8Array,
  info: Uint8Array,
  exporterContext: Uint8Array,
  length: number,
): Promise<Uint8Array> {
  const suiteId = hpkeSuiteId(kemId);
  const ks = await keyScheduleWith(hmac, suiteId, ss, info, 32, 12);
  wipe(ks.key, ks.baseNonce);
  try {
    return await labeledExpandWith(hmac, suiteId, ks.exporterSecret, 'sec', exporterContext, length);
  } finally {
    wipe(ks.exporterSecret);
  }
}

function asyncSymmetric(s: SymmetricSubtle, chacha: boolean): AsyncSymmetric {
  const hmac = webCryptoHmac(s);
  return Object.freeze({
    hmacSha256: hmac,
    sha256: async (data: Uint8Array) => new Uint8Array(await s.digest('SHA-256', data)),
    hkdfExtract: (salt: Uint8Array, ikm: Uint8Array) => hmac(salt, ikm),
    hkdfExpand: (prk: Uint8Array, info: Uint8Array, length: number) => hkdfExpandWith(hmac, prk, info, length),
    chacha: chacha ? s : undefined,
  });
}

/** Whether this SubtleCrypto seals ChaCha20-Poly1305 ('raw-secret' keys): a 1-byte seal's length (two native calls). */
async function hasChaCha(s: SymmetricSubtle): Promise<boolean> {
  try {
    const k = await s.importKey('raw-secret', ZERO_SALT, CHACHA, false, ['encrypt', 'decrypt']);
    return (await s.encrypt({ ...CHACHA, iv: ZERO_SALT.subarray(0, 12) }, k, ZERO_SALT.subarray(0, 1))).byteLength === 17;
  } catch {
    return false;
  }
}

/**
 * HMAC / SHA-256 (every WebCrypto has them: only their presence is checked) and ChaCha20-Poly1305
 * where present, on this platform's WebCrypto; undefined without SubtleCrypto. One probe (the
 * ChaCha20-Poly1305 seal), concurrent with the KEM probe: it must not delay the ClientHello. Never throws.
 */
export async function detectWebCryptoSymmetric(subtle: unknown = globalThis.crypto?.subtle): Promise<AsyncSymmetric | undefined> {
  const s = subtle as SymmetricSubtle | undefined;
  if (!s || typeof s.importKey !== 'function' || typeof s.sign !== 'function' || typeof s.digest !== 'function') return undefined;
  return asyncSymmetric(s, typeof s.encrypt === 'function' && typeof s.decrypt === 'function' && (await hasChaCha(s)));
}
