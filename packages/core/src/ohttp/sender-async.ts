/**
 * OHTTP's client-side sender on the platform's WebCrypto (browsers): SetupBaseS (RFC 9180
 * §5.1.1) with the KEM on WebCrypto where it has ML-KEM-768 and X25519 (../backend/webcrypto-kem.ts,
 * detected once with the same probe as the session handshake), and, where WebCrypto also has the
 * suite's AEAD (AES-GCM everywhere; ChaCha20-Poly1305 of WICG "Modern Algorithms in WebCrypto",
 * 'raw-secret' keys: Chromium, Node 24), the whole request encapsulation and response opening
 * (RFC 9458 §4.3, §4.4) too: the RFC 9180 key schedule, Export and the response's HKDF on
 * WebCrypto HMAC-SHA256 (../backend/webcrypto-symmetric.ts, shared with the session path), Seal /
 * Open on its AEAD. Native code instead of @noble's cold JS on a page's first
 * request: at 4x CPU, cold, @noble HKDF + a 1 KB ChaCha20-Poly1305 seal and open took 52.7 ms
 * against 5.3 on WebCrypto; `encapsulateRequestAsync` on a cold page 37-39 -> 8-11 ms, the page's
 * script running -> response read 204 -> 145 ms (bench/README.md "Browser"). X-Wing
 * (draft-connolly-cfrg-xwing-kem): ML-KEM-768 encapsulateBits + an X25519 ephemeral, the SHA3-256
 * combiner on @noble (no SHA-3 in WebCrypto).
 *
 * Pitfalls:
 *  - Where the Wasm core is loaded (Node.js, Edge, Workers) or WebCrypto lacks the KEMs (Node 20,
 *    older browsers), and for DHKEM(X25519), this is ./hpke.ts setupBaseS: same bytes, same errors;
 *    where it has the KEMs but not the AEAD, the KEM is native and the context ./hpke.ts's.
 *  - ./hpke.ts (and the @noble AES-GCM, ML-KEM, X25519 behind it) is reached only through the
 *    dynamic import of ./fallback.ts on those paths; nothing here may import it statically: on a
 *    cold Chromium page its import-time tables cost ~30 ms of script evaluation at 4x that a
 *    WebCrypto page never uses (the OHTTP entry page 41.0 -> 29.6 KB gzip, navigation -> script
 *    running 295 -> 269 ms; bench/README.md "Browser"; test/ohttp-sender.browser.test.ts).
 *  - That import is one module-level promise (onceRetrying), not an `import()` per request (~0.05 ms
 *    each in a cold browser); a rejected import (the chunk's fetch failed) is dropped, so it fails
 *    the requests waiting on it and the next request imports again.
 *  - Encapsulation randomness is WebCrypto's own: derandomized vectors keep the sync path; the
 *    WebCrypto path is checked byte for byte against ./hpke.ts's context for a given shared secret
 *    and by the gateway opening what it sealed (sender-async.test.ts).
 *  - A bad key keeps the codes of every path: the ML-KEM modulus check on import and an X25519
 *    low-order share are NEN_CRYPTO_KEY, a wrong length NEN_CRYPTO_LENGTH; a short response is
 *    NEN_OHTTP_MALFORMED, a tampered one NEN_OHTTP_DECRYPT. Secrets are wiped once used.
 *  - WebCrypto refuses zero-length HMAC keys: an empty salt is HashLen zeros (RFC 5869 §2.2; the
 *    same HMAC key, as HMAC zero-pads keys to the block size).
 */
import type { WebCryptoKem } from '../backend/webcrypto-kem.js';
import { hpkeSuiteId } from '../backend/hpke.js';
import type { KemId } from '../backend/types.js';
import { wipe } from '../backend/util.js';
import { hkdfExpandWith, keyScheduleWith, labeledExpandWith, webCryptoHmac } from '../backend/webcrypto-symmetric.js';
import { concatBytes, utf8 } from '../protocol/bytes.js';
import { wireError } from '../protocol/codes.js';
import type { OhttpKeyConfig, SymmetricSuite } from './key-config-codec.js';
import { OHTTP_LABEL, labelBytes, pickSuite, requestHeader, requestInfo } from './request-header.js';
import { kemOnWebCrypto, nativeKem, ohttpWebCryptoKem } from './native-kem.js';
import { AEAD_TAG, OHTTP_AEAD, OHTTP_AEAD_INFO, OHTTP_KDF, type OhttpKemId } from './suites.js';

export { ohttpWebCryptoKem };

/**
 * `load` behind one promise: the first call starts it, later calls share it; a rejected promise
 * reaches every caller holding it and is then dropped, so the next call loads again.
 */
export function onceRetrying<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (pending) return pending;
    const p = load();
    pending = p;
    p.catch(() => {
      if (pending === p) pending = undefined;
    });
    return p;
  };
}

/** ./fallback.ts once its import has resolved (the synchronous path of encapsulateRequestAsync). */
let fallbackLoaded: typeof import('./fallback.js') | undefined;

/** ./fallback.ts, imported on the first request that needs it (never statically: see the header; also ./client-entry.ts's streamed requests). */
export const loadFallback = onceRetrying(() =>
  import('./fallback.js').then((m) => {
    fallbackLoaded = m;
    return m;
  }),
);

/**
 * encapsulateRequest (./encapsulation.ts) on WebCrypto where the platform has it (browsers): the
 * KEM, key schedule, AEAD and response opening where it has them all (encapsulateOnWebCrypto),
 * else ./encapsulation.ts's sealing after ./setup-async.ts setupBaseSAsync (./fallback.ts, imported on that path only);
 * once ./fallback.ts is loaded, a request no WebCrypto step applies to makes the same two calls without the awaits.
 */
export async function encapsulateRequestAsync(
  config: OhttpKeyConfig,
  request: Uint8Array,
  opts: { readonly suite?: SymmetricSuite } = {},
): Promise<AsyncClientEncapsulation> {
  const suite = pickSuite(config, opts.suite);
  const hdr = requestHeader(config.keyId, config.kemId, suite.kdfId, suite.aeadId);
  const info = requestInfo(OHTTP_LABEL.REQUEST, hdr);
  if (fallbackLoaded && !kemOnWebCrypto(config.kemId)) {
    // no WebCrypto step can apply (the Wasm core is loaded: Node, Edge, workerd; or DHKEM(X25519)) and
    // ./fallback.ts is here: its SetupBaseS and sealing without the awaits of the path below, which
    // ends in the same two calls (issue 23, the cold request: -0.013 / -0.027 ms before the fetch)
    const sync = fallbackLoaded.sealRequest(hdr, suite, fallbackLoaded.setupBaseS(config.kemId, suite.aeadId, config.publicKey, info), request);
    return { encapsulatedRequest: sync.encapsulatedRequest, enc: sync.enc, openResponse: async (wire) => sync.openResponse(wire) };
  }
  const native = await encapsulateOnWebCrypto(
    { kem: config.kemId, aeadId: suite.aeadId, publicKey: config.publicKey, hdr, info, responseLabel: labelBytes(OHTTP_LABEL.RESPONSE) },
    request,
  );
  if (native) return native;
  const { sealRequest, setupBaseSAsync } = await loadFallback();
  const sync = sealRequest(hdr, suite, await setupBaseSAsync(config.kemId, suite.aeadId, config.publicKey, info), request);
  return { encapsulatedRequest: sync.encapsulatedRequest, enc: sync.enc, openResponse: async (wire) => sync.openResponse(wire) };
}

/** The parts of SubtleCrypto used here ('raw-secret' and ChaCha20-Poly1305 are newer than TypeScript's DOM types). */
interface SymmetricSubtle {
  importKey(format: string, key: Uint8Array, alg: unknown, extractable: boolean, usages: string[]): Promise<CryptoKey>;
  sign(alg: string, key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  encrypt(alg: unknown, key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
  decrypt(alg: unknown, key: CryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
}

/** A suite's AEAD on WebCrypto: Seal / Open with a raw key (RFC 9180 §5.2). */
export interface WebCryptoSymmetric {
  hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array>;
  seal(key: Uint8Array, nonce: Uint8Array, pt: Uint8Array): Promise<Uint8Array>;
  open(key: Uint8Array, nonce: Uint8Array, ct: Uint8Array): Promise<Uint8Array>;
}

const NH = 32;
const ZERO_SALT = /* @__PURE__ */ new Uint8Array(NH);
/** The AEAD's WebCrypto name and key format per HPKE AEAD id. */
const AEAD_ALG: Record<number, { name: string; format: string }> = {
  [OHTTP_AEAD.AES_128_GCM]: { name: 'AES-GCM', format: 'raw' },
  [OHTTP_AEAD.AES_256_GCM]: { name: 'AES-GCM', format: 'raw' },
  [OHTTP_AEAD.CHACHA20_POLY1305]: { name: 'ChaCha20-Poly1305', format: 'raw-secret' },
};

function webCryptoSymmetric(s: SymmetricSubtle, aeadId: number): WebCryptoSymmetric {
  const a = AEAD_ALG[aeadId] as { name: string; format: string };
  const key = (k: Uint8Array, usage: string) => s.importKey(a.format, k, { name: a.name }, false, [usage]);
  return {
    hmac: webCryptoHmac(s),
    seal: async (k, iv, pt) => new Uint8Array(await s.encrypt({ name: a.name, iv }, await key(k, 'encrypt'), pt)),
    open: async (k, iv, ct) => new Uint8Array(await s.decrypt({ name: a.name, iv }, await key(k, 'decrypt'), ct)),
  };
}

const symmetricProbes = new Map<number, Promise<WebCryptoSymmetric | undefined>>(); // at most the 3 AEAD ids

/** HMAC-SHA256 and the AEAD `aeadId` on this platform's WebCrypto (one probe per AEAD id), or undefined. */
export function ohttpWebCryptoSymmetric(aeadId: number, subtle: unknown = globalThis.crypto?.subtle): Promise<WebCryptoSymmetric | undefined> {
  const a = AEAD_ALG[aeadId];
  const s = subtle as SymmetricSubtle | undefined;
  if (!a || !s || typeof s.importKey !== 'function') return Promise.resolve(undefined);
  const cached = subtle === globalThis.crypto?.subtle ? symmetricProbes.get(aeadId) : undefined;
  if (cached) return cached;
  const probe = (async () => {
    try {
      const sym = webCryptoSymmetric(s, aeadId);
      const k = new Uint8Array((OHTTP_AEAD_INFO[aeadId] as { nk: number }).nk);
      const iv = new Uint8Array(12);
      const [ct] = await Promise.all([sym.seal(k, iv, new Uint8Array(1)), sym.hmac(ZERO_SALT, iv)]);
      return (await sym.open(k, iv, ct)).length === 1 ? sym : undefined;
    } catch {
      return undefined;
    }
  })();
  if (subtle === globalThis.crypto?.subtle) symmetricProbes.set(aeadId, probe);
  return probe;
}

/** The client's half of RFC 9458 §4.3 / §4.4 with an async response opener. */
export interface AsyncClientEncapsulation {
  readonly encapsulatedRequest: Uint8Array;
  readonly enc: Uint8Array;
  /** Opens the matching message/ohttp-res body: the binary HTTP response bytes. */
  openResponse(encapsulatedResponse: Uint8Array): Promise<Uint8Array>;
}

export interface WebCryptoRequest {
  readonly kem: OhttpKemId;
  readonly aeadId: number;
  readonly publicKey: Uint8Array;
  /** The 7-byte request header (key id, KEM, KDF, AEAD). */
  readonly hdr: Uint8Array;
  /** The HPKE info: the request label, 0x00, hdr. */
  readonly info: Uint8Array;
  /** The response label ("message/bhttp response"), the exporter context of §4.4. */
  readonly responseLabel: Uint8Array;
}

/**
 * RFC 9458 §4.3 encapsulation (hdr || enc || ct) and §4.4 response opening with the KEM, the key
 * schedule and the AEAD all on WebCrypto; undefined where any of them is missing (the caller
 * takes setupBaseSAsync and ./hpke.ts's context). `webCrypto` / `subtle` are for tests.
 */
export async function encapsulateOnWebCrypto(
  r: WebCryptoRequest,
  request: Uint8Array,
  webCrypto: () => Promise<WebCryptoKem | undefined> = ohttpWebCryptoKem,
  subtle: unknown = globalThis.crypto?.subtle,
): Promise<AsyncClientEncapsulation | undefined> {
  if (!kemOnWebCrypto(r.kem)) return undefined; // DHKEM(X25519), or the Wasm core is loaded (Node.js): no WebCrypto probe at all
  const [wc, sym] = await Promise.all([nativeKem(r.kem, r.publicKey, webCrypto), ohttpWebCryptoSymmetric(r.aeadId, subtle)]);
  if (!wc || !sym) return undefined;
  const { nk, nn } = OHTTP_AEAD_INFO[r.aeadId] as { nk: number; nn: number };
  const suiteId = hpkeSuiteId(r.kem, OHTTP_KDF.HKDF_SHA256, r.aeadId);
  const { enc, sharedSecret } = await wc.encapsulate(r.kem as KemId, r.publicKey); // nativeKem: never X25519
  const ss = sharedSecret();
  let ks: { key: Uint8Array; baseNonce: Uint8Array; exporterSecret: Uint8Array };
  try {
    ks = await keyScheduleWith(sym.hmac, suiteId, ss, r.info, nk, nn);
  } finally {
    wipe(ss);
  }
  const ct = await sym.seal(ks.key, ks.baseNonce, request); // seq 0: the nonce is base_nonce
  wipe(ks.key, ks.baseNonce);
  const exporterSecret = ks.exporterSecret;
  return {
    encapsulatedRequest: concatBytes(r.hdr, enc, ct),
    enc,
    async openResponse(wire: Uint8Array): Promise<Uint8Array> {
      const n = Math.max(nk, nn);
      if (wire.length < n + AEAD_TAG) throw wireError('NEN_OHTTP_MALFORMED', 'encapsulated response too short');
      const secret = await labeledExpandWith(sym.hmac, suiteId, exporterSecret, 'sec', r.responseLabel, n);
      const prk = await sym.hmac(concatBytes(enc, wire.subarray(0, n)), secret);
      const [key, nonce] = await Promise.all([hkdfExpandWith(sym.hmac, prk, utf8('key'), nk), hkdfExpandWith(sym.hmac, prk, utf8('nonce'), nn)]);
      try {
        return await sym.open(key, nonce, wire.subarray(n));
      } catch (e) {
        throw wireError('NEN_OHTTP_DECRYPT', 'encapsulated response failed authentication', e);
      } finally {
        wipe(secret, prk, key, nonce);
      }
    },
  };
}
