/**
 * X-Wing Encap (draft-connolly-cfrg-xwing-kem §5.3) for OHTTP clients on Node.js with the X25519
 * half in OpenSSL, the client-side twin of ./xwing-split.ts: the ML-KEM-768 half is a Wasm
 * ML-KEM-768 (0x0041) SenderKey of pk_M (parsed and modulus-checked once per config), pk_X an
 * OpenSSL public KeyObject imported once per config (bounded cache, SENDER_MAX, Wasm keys freed on
 * eviction). Per request: ML-KEM-768 Encap in Wasm, a fresh X25519 scalar imported into OpenSSL
 * (its public key ct_X and ss_X = X25519(ek_X, pk_X): two OpenSSL ladders instead of the Wasm's
 * two 32-bit ones), the SHA3-256 combiner in OpenSSL. Measured in bench/README.md (OHTTP seventh
 * pass).
 *
 * Pitfalls:
 *  - Never `generateKeyPairSync('x25519')` for the ephemeral pair (no scalar import, measured
 *    Node 24 setupBaseS 121 -> 89 µs with node:crypto's ML-KEM): on Node 20 exporting the
 *    generated key as JWK deadlocks the process about once per 50,000 encapsulations (GC inside
 *    ExportJWKEdKey, which holds the key's mutex, runs the finished KeyGenJob's destructor, which
 *    takes the same mutex: gdb backtrace in bench/README.md, OHTTP eighth pass).
 *  - Only where OpenSSL's key import is cheap (< 3.5, Node 20 / 22: as ../backend/node-xwing.ts
 *    FAST_KEY_IMPORT; on OpenSSL 3.5 the two imports cost more than they save) and after one
 *    self-test per process (a throwaway Wasm X-Wing key decapsulates a split encapsulation to its
 *    shared secret); otherwise callers keep the whole Wasm Encap.
 *  - The fresh scalar comes from ../backend/random.ts and is wiped; its base64url string handed
 *    to the JWK import cannot be (as in ../backend/node-xwing.ts).
 *  - A bad public key keeps the Wasm path's codes: the ML-KEM modulus check NEN_CRYPTO_KEY (from
 *    the Wasm), a low-order pk_X NEN_CRYPTO_KEY (OpenSSL refuses the all-zero ss_X).
 *  - Encapsulation ahead (issue 23, the cold first request): after each Encap for a config the next
 *    one is computed after the next I/O poll (./after-io.ts: behind a fresh connection's first
 *    write, which a single `setImmediate` preceded; never keeping a process alive) and held in
 *    the config's entry, so a later request, e.g. a fresh client's after an idle spell, finds it
 *    ready instead of running ML-KEM and two X25519 ladders on cold caches. Encap takes no input
 *    but pk, so this changes no byte or distribution. Each held one is handed out once (taken out
 *    of the entry before it is returned), at most one per config is held or pending, and an
 *    evicted entry wipes its held secret. Same CPU per request, off the critical path; never for
 *    derandomized vectors (they do not come here). Through `splitXWingSetupS` (./hpke.ts
 *    setupBaseS) the held one also carries the RFC 9180 key schedule for the (suite_id, info, Nk,
 *    Nn) of the request before (its shared secret wiped once derived), used only for the same
 *    inputs (else wiped and run inline): the key schedule's four HKDF calls left the critical path
 *    as Node 24's Wasm SetupBaseS ahead had (OHTTP eleventh pass).
 */
import type * as Glue from '../../wasm/nen_core.js';
import { randomBytes } from '../backend/random.js';
import { wipe } from '../backend/util.js';
import { callWasm } from '../backend/wasm.js';
import { NenCryptoError } from '../errors.js';
import { afterIo } from './after-io.js';
import type { RawKeySchedule } from './kem-wasm.js';
import { type NodeModules, nodeModules } from './node-x25519.js';

type WasmGlue = typeof Glue;
interface Encapsulation {
  readonly sharedSecret: Uint8Array;
  readonly enc: Uint8Array;
}
/** The RFC 9180 KeySchedule inputs besides the shared secret (one (suite_id, info) per config in practice). */
export interface ScheduleInputs {
  readonly suiteId: Uint8Array;
  readonly info: Uint8Array;
  readonly nk: number;
  readonly nn: number;
}
/** KeySchedule(mode_base, ss, info) (../ohttp/key-schedule.ts through ./hpke.ts): what a sender derives from the secret. */
export type Derive = (sharedSecret: Uint8Array, s: ScheduleInputs) => RawKeySchedule;
/** SetupBaseS computed ahead for the inputs of the request before: enc and its key schedule (the secret already wiped). */
interface Scheduled {
  readonly enc: Uint8Array;
  readonly ks: RawKeySchedule;
  readonly s: ScheduleInputs;
}
interface Entry {
  readonly pk: Uint8Array;
  readonly mlkem: Glue.SenderKey;
  readonly pkX: unknown;
  /** The next request's encapsulation (Encap only, or SetupBaseS with its key schedule), computed ahead (handed out once). */
  ahead: Encapsulation | Scheduled | undefined;
  /** An ahead computation is scheduled. */
  pending: boolean;
  /** Evicted: its Wasm key is freed, nothing more is computed on it. */
  freed: boolean;
}

const KEM_XWING = 0x647a;
const KEM_MLKEM768 = 0x0041;
const PK_M = 1184;
const LABEL = /* @__PURE__ */ Uint8Array.of(0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c);
const SENDER_MAX = 8;
const cache = new Map<string, Entry>();
let verdict: boolean | undefined;

const fastImport = (v: string | undefined): boolean => {
  const m = /^(\d+)\.(\d+)/.exec(v ?? '');
  return !!m && (Number(m[1]) < 3 || (Number(m[1]) === 3 && Number(m[2]) < 5));
};

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameInputs(a: ScheduleInputs, b: ScheduleInputs): boolean {
  return a.nk === b.nk && a.nn === b.nn && equalBytes(a.suiteId, b.suiteId) && equalBytes(a.info, b.info);
}

function wipeAhead(a: Encapsulation | Scheduled): void {
  if ('ks' in a) wipe(a.ks.key, a.ks.baseNonce, a.ks.exporterSecret);
  else wipe(a.sharedSecret);
}

function makeEntry(g: WasmGlue, m: NodeModules, pk: Uint8Array): Entry {
  const mlkem = callWasm(() => new g.SenderKey(KEM_MLKEM768, pk.subarray(0, PK_M)));
  try {
    const pkX = m.crypto.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: m.b64url(pk.subarray(PK_M)) }, format: 'jwk' });
    return { pk: pk.slice(), mlkem, pkX, ahead: undefined, pending: false, freed: false };
  } catch (cause) {
    mlkem.free();
    throw new NenCryptoError('NEN_CRYPTO_KEY', 'nen: invalid X25519 public key', { cause });
  }
}

function entryFor(g: WasmGlue, m: NodeModules, pk: Uint8Array): Entry {
  let id = '';
  for (let i = 0; i < 32; i++) id += String.fromCharCode(pk[i] as number);
  const hit = cache.get(id);
  if (hit && equalBytes(hit.pk, pk)) return hit;
  const e = makeEntry(g, m, pk);
  if (hit) {
    cache.delete(id);
    release(hit);
  } else if (cache.size >= SENDER_MAX) {
    const [oldest, old] = cache.entries().next().value as [string, Entry];
    cache.delete(oldest);
    release(old);
  }
  cache.set(id, e);
  return e;
}

/** An evicted entry: its Wasm key freed, its held secret wiped. */
function release(e: Entry): void {
  e.freed = true;
  e.mlkem.free();
  if (e.ahead) wipeAhead(e.ahead);
  e.ahead = undefined;
}

/**
 * Schedules the entry's next encapsulation (one held or pending at most), with the key schedule
 * for `s` when given; a failure leaves it to the next request, which throws its own error.
 */
function computeAhead(m: NodeModules, e: Entry, s?: { readonly inputs: ScheduleInputs; readonly derive: Derive }): void {
  if (e.pending || e.ahead) return;
  const inputs = s && { suiteId: s.inputs.suiteId.slice(), info: s.inputs.info.slice(), nk: s.inputs.nk, nn: s.inputs.nn };
  e.pending = afterIo(() => {
    e.pending = false;
    if (e.freed || e.ahead) return;
    try {
      const x = encapWith(m, e);
      if (!s || !inputs) e.ahead = x;
      else e.ahead = { enc: x.enc, ks: withWiped(x.sharedSecret, () => s.derive(x.sharedSecret, inputs)), s: inputs };
    } catch {
      // the next request encapsulates inline and reports the error there
    }
  });
}

function withWiped<T>(secret: Uint8Array, f: () => T): T {
  try {
    return f();
  } finally {
    wipe(secret);
  }
}

function encapWith(m: NodeModules, e: Entry): Encapsulation {
  const out = callWasm(() => e.mlkem.encap()); // ss_M (32) || ct_M (1088)
  const ek = randomBytes(32);
  let ctX: Uint8Array;
  let ssX: Uint8Array;
  try {
    const k = m.crypto.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: m.b64url(ek), x: '' }, format: 'jwk' });
    ctX = m.fromB64url(m.crypto.createPublicKey(k).export({ format: 'jwk' }).x as string);
    ssX = m.crypto.diffieHellman({ privateKey: k, publicKey: e.pkX });
  } catch (cause) {
    wipe(out);
    throw new NenCryptoError('NEN_CRYPTO_KEY', 'nen: X25519 share is a low-order point', { cause });
  } finally {
    wipe(ek);
  }
  const pkX = e.pk.subarray(PK_M);
  const d = m.crypto.createHash('sha3-256').update(out.subarray(0, 32)).update(ssX).update(ctX).update(pkX).update(LABEL).digest();
  const sharedSecret = new Uint8Array(d);
  const enc = new Uint8Array(out.length - 32 + 32);
  enc.set(out.subarray(32));
  enc.set(ctX, out.length - 32);
  wipe(d, out, ssX);
  return { sharedSecret, enc };
}

/** A throwaway Wasm X-Wing key decapsulates a split encapsulation to its shared secret. */
function selfTest(g: WasmGlue, m: NodeModules): boolean {
  let kp: Glue.KeyPair | undefined;
  let rk: Glue.RecipientKey | undefined;
  let e: Entry | undefined;
  try {
    kp = g.generate_key_pair(KEM_XWING);
    const sk = kp.private_key;
    rk = new g.RecipientKey(KEM_XWING, sk);
    wipe(sk);
    e = makeEntry(g, m, kp.public_key);
    const { sharedSecret, enc } = encapWith(m, e);
    const ss = rk.decap(enc);
    const ok = ss.length === 32 && ss.every((v, i) => v === sharedSecret[i]);
    wipe(ss, sharedSecret);
    return ok;
  } catch {
    return false;
  } finally {
    e?.mlkem.free();
    rk?.free();
    kp?.free();
  }
}

/**
 * Encap(pkR) for X-Wing with the X25519 half in OpenSSL, or undefined where it is not used (the
 * caller takes the whole Wasm Encap). The caller checked pkR's length.
 */
export function splitXWingEncap(g: WasmGlue, pk: Uint8Array): Encapsulation | undefined {
  const m = splitModules(g);
  if (!m) return undefined;
  const e = entryFor(g, m, pk);
  const ready = e.ahead;
  e.ahead = undefined; // handed out once
  if (ready && 'ks' in ready) wipeAhead(ready); // computed for SetupBaseS: its secret is gone
  const out = ready && !('ks' in ready) ? ready : encapWith(m, e);
  computeAhead(m, e);
  return out;
}

/**
 * SetupBaseS(pk, info) for X-Wing with the X25519 half in OpenSSL: enc and the key schedule
 * (`derive` on the shared secret, which is wiped), or undefined where the split is not used. The
 * next one is computed ahead with its key schedule for the same inputs (Node 20 / 22: the key
 * schedule's four HKDF calls leave the request's critical path too, as Node 24's Wasm SetupBaseS
 * ahead in ./kem-wasm.ts); one held for other inputs is wiped and this one runs inline.
 */
export function splitXWingSetupS(g: WasmGlue, pk: Uint8Array, inputs: ScheduleInputs, derive: Derive): { enc: Uint8Array; ks: RawKeySchedule } | undefined {
  const m = splitModules(g);
  if (!m) return undefined;
  const e = entryFor(g, m, pk);
  const ready = e.ahead;
  e.ahead = undefined; // handed out once
  let out: { enc: Uint8Array; ks: RawKeySchedule };
  if (ready && 'ks' in ready && sameInputs(ready.s, inputs)) out = ready;
  else {
    if (ready && 'ks' in ready) wipeAhead(ready);
    const x = ready && !('ks' in ready) ? ready : encapWith(m, e);
    out = { enc: x.enc, ks: withWiped(x.sharedSecret, () => derive(x.sharedSecret, inputs)) };
  }
  computeAhead(m, e, { inputs, derive });
  return { enc: out.enc, ks: out.ks };
}

/** node:crypto where the split is used (self-tested once per process), else undefined. */
function splitModules(g: WasmGlue): NodeModules | undefined {
  if (verdict === false) return undefined;
  const m = nodeModules();
  if (verdict === undefined)
    verdict = !!m && fastImport((globalThis as { process?: { versions?: { openssl?: string } } }).process?.versions?.openssl) && selfTest(g, m);
  return verdict && m ? m : undefined;
}

/** How many configs the cache holds (tests: it stays bounded). */
export function splitSenderCount(): number {
  return cache.size;
}

/** Whether an encapsulation to `pk` is held ahead (tests). */
export function splitSenderHeld(pk: Uint8Array): boolean {
  for (const e of cache.values()) if (equalBytes(e.pk, pk)) return !!e.ahead;
  return false;
}
