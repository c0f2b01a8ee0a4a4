/**
 * Backend entry for browsers (`browser` export condition): 'auto' = @noble (pure JS); 'wasm' on
 * request: the .wasm is then fetched as a bundler asset and compiled asynchronously, its glue in a
 * chunk of its own (dynamic imports), so a page that never asks for it never downloads it.
 *
 * Where WebCrypto has ML-KEM-768 and X25519 (Chromium 156: ./webcrypto-kem.ts), the @noble
 * backend carries them as `asyncKem` for the client handshake. @noble's own ML-KEM / X25519
 * (./noble.js, the fallback for Firefox / Safari and the synchronous KEM methods) is a lazily
 * imported chunk: the client loads with `{ syncKem: false }`, so on such a browser the page's
 * initial chunk is WebCrypto's KEMs + the symmetric half (./noble-symmetric.ts) and the chunk is
 * never fetched (bench/README.md "Browser": initial 34.7 -> 28.3 KB gzip, and @noble/post-quantum
 * + @noble/curves' ~15 ms of evaluation at 4x gone from the cold page's profile).
 *
 * Pitfalls:
 *  - nothing here may import ./wasm-url.js, ./wasm.js, ./noble.js or ./noble-kem.js statically,
 *    or every page pays them; bench/browser/size.js fails on the Wasm, and lists the initial inputs.
 *  - A `{ syncKem: false }` backend's sync KEM methods delegate to the complete backend once one
 *    has been loaded, else throw NEN_CRYPTO_UNSUPPORTED (after the usual KEM id check).
 *  - Without WebCrypto's KEMs the handshake waits for the chunk (one more fetch on Firefox /
 *    Safari; the Node tests and a forced-fallback Chromium test cover that path).
 *  - Where WebCrypto has HMAC / SHA-256 (all browsers), the backend carries `asyncSymmetric`
 *    (./webcrypto-symmetric.ts): the handshake's key schedules, S_0 / confirm and the epoch keys run
 *    there; where it also has ChaCha20-Poly1305 (Chromium 156), `createAead` gives Aeads whose
 *    single messages seal / open natively (./webcrypto-aead.ts), so the first request compiles none
 *    of @noble's SHA-256 / HMAC / ChaCha20 / Poly1305 JS (bench/README.md "Browser", issue 21).
 *  - The handshake's round trip also compiles ChaCha20-Poly1305 (`deferWarm`: one seal + open of
 *    zeros): S_0 -> the first 1 KB sealed 13.1 / 10.3 -> 5.0 / 4.2 ms at 4x
 *    (bench/browser/handshake-async-ab.js, 16 pages per build, both orders, load 15-19), only
 *    where WebCrypto lacks ChaCha20-Poly1305 (Firefox / Safari).
 */
import { NenCryptoError } from '../errors.js';
import { createLoadBackend } from './load.js';
import { nobleSymmetric } from './noble-symmetric.js';
import type { AsyncKem, Backend } from './types.js';
import { assertKem } from './util.js';
import { WebCryptoAead } from './webcrypto-aead.js';
import { type ExportSchedule, detectWebCryptoKem, nobleExport } from './webcrypto-kem.js';
import { type AsyncSymmetric, detectWebCryptoSymmetric, keyScheduleExportWith } from './webcrypto-symmetric.js';

export * from './types.js';
export type { BackendKind } from './load.js';

/** The complete @noble backend, once a caller has loaded it (the sync KEMs of a `{ syncKem: false }` backend use it). */
let complete: Backend | undefined;

const completeBackend = (kem: unknown): Backend => {
  assertKem(kem);
  if (complete) return complete;
  throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', 'nen: backend loaded with { syncKem: false }: load it without the option for the synchronous KEMs');
};

/**
 * `b` with WebCrypto's symmetric half where the platform has it: `asyncSymmetric` (the handshake's
 * key schedule, S_0 / confirm, the epoch keys) and, with its ChaCha20-Poly1305, Aeads whose single
 * messages seal / open natively (./webcrypto-aead.ts; stream records stay on @noble).
 */
function withWebCrypto<B extends Pick<Backend, 'createAead'>>(b: B, sym: AsyncSymmetric | undefined): B & Pick<Backend, 'asyncSymmetric'> {
  if (!sym) return b;
  const { chacha } = sym;
  const createAead = chacha ? (key: Uint8Array) => new WebCryptoAead(chacha, key, b.createAead(key)) : b.createAead;
  return { ...b, asyncSymmetric: sym, createAead };
}

/** @noble's symmetric half + WebCrypto's KEMs; the sync KEM methods only once the complete backend is loaded. */
function asyncKemBackend(asyncKem: AsyncKem, sym: AsyncSymmetric | undefined): Backend {
  return Object.freeze({
    ...withWebCrypto(nobleSymmetric, sym),
    asyncKem,
    generateKeyPair: (kem) => completeBackend(kem).generateKeyPair(kem),
    deriveKeyPair: (kem, ikm) => completeBackend(kem).deriveKeyPair(kem, ikm),
    createRecipientKey: (kem, sk) => completeBackend(kem).createRecipientKey(kem, sk),
    setupBaseSExport: (kem, pk, info, ctx, length) => completeBackend(kem).setupBaseSExport(kem, pk, info, ctx, length),
    sealBase: (kem, pk, info, aad, pt) => completeBackend(kem).sealBase(kem, pk, info, aad, pt),
    createSenderKey: (kem, pk) => completeBackend(kem).createSenderKey(kem, pk),
  } satisfies Backend);
}

/**
 * A sender export's deferred task (the X-Wing combiner and key schedule of exported_s, during the
 * handshake's round trip), then, once per page, one ChaCha20-Poly1305 seal + open of zeros under
 * an all-zero key: V8 compiles the AEAD's code in the idle round trip instead of on the first
 * request after the ServerHello. Public constants only: nothing secret is touched.
 */
let aeadWarm = false; // also set where WebCrypto seals single messages (nothing of @noble's AEAD to warm)
const deferWarm = (task: () => void): void =>
  void setTimeout(() => {
    task();
    if (aeadWarm) return;
    aeadWarm = true;
    const z = new Uint8Array(64);
    const aead = nobleSymmetric.createAead(z.subarray(0, 32));
    aead.open(z.subarray(0, 12), z.subarray(0, 16), aead.seal(z.subarray(0, 12), z.subarray(0, 16), z));
    aead.dispose();
  }, 0);

export const loadBackend = createLoadBackend({
  auto: 'noble',
  noble: async ({ syncKem }) => {
    const symP = detectWebCryptoSymmetric();
    const exp: ExportSchedule = async (kem, ss, info, ctx, length) => {
      const sym = await symP;
      return sym ? keyScheduleExportWith(sym.hmacSha256, kem, ss, info, ctx, length) : nobleExport(kem, ss, info, ctx, length);
    };
    const probe = detectWebCryptoKem(undefined, deferWarm, exp);
    // a recipient key's ML-KEM matrix expands in a later task (the client's ephemeral key: during
    // the handshake's round trip, after the ClientHello is sent; bench/browser/cold-ab.js)
    const load = async () => {
      const [{ createNobleBackend }, sym] = await Promise.all([import('./noble.js'), symP]);
      complete ??= Object.freeze(withWebCrypto(createNobleBackend({ defer: (task) => void setTimeout(task, 0) }), sym));
      return complete;
    };
    const sym = await symP;
    if (sym?.chacha) aeadWarm = true;
    if (syncKem) {
      const [asyncKem, backend] = await Promise.all([probe, load()]);
      return asyncKem ? Object.freeze({ ...backend, asyncKem }) : backend;
    }
    const asyncKem = await probe;
    return asyncKem ? asyncKemBackend(asyncKem, sym) : load();
  },
  wasm: async () => {
    const [{ loadWasmGlue }, { createWasmBackend }] = await Promise.all([import('./wasm-url.js'), import('./wasm.js')]);
    return createWasmBackend(await loadWasmGlue());
  },
});
