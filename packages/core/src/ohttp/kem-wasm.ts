/**
 * OHTTP's HPKE KEMs (X-Wing 0x647a, ML-KEM-768 0x0041; RFC 9180 §4 Encap / Decap) on the Wasm
 * core (crates/nen-core `SenderKey.encap` / `setup_base_s_raw`, `RecipientKey.decap` /
 * `setup_base_r_raw`: Encap / Decap and the RFC 9180 KeySchedule in one call) wherever a runtime entry has
 * loaded it (../backend/wasm-loaded.ts: Node.js, Edge, Workers): the gateway's private key is
 * expanded once inside Wasm, a client's public keys are parsed (and validated) once. ./hpke.ts
 * runs the key schedule on the raw shared secret and falls back to @noble where this returns
 * undefined (browsers, or before the Wasm has loaded). The same for HKDF-SHA256 and SHA-256
 * (one Wasm call instead of @noble's JS HMAC chain: the key schedule is ~10 HMACs per request),
 * and ChaCha20-Poly1305 below 8 KB (OpenSSL's per-call cipher setup costs more there).
 *
 * Pitfalls:
 *  - Wasm objects must be freed: a recipient key's `dispose()` frees it (a FinalizationRegistry
 *    frees what a caller forgot); sender keys live in a bounded cache (SENDER_MAX) whose evicted
 *    entries are freed.
 *  - `SenderKey.encap()` returns `shared_secret (32) || enc` in one buffer; the secret is copied
 *    out and the buffer wiped here.
 *  - SetupBaseS ahead (issue 23, the cold first request; as ./xwing-split-sender.ts does for its
 *    split Encap): after each SetupBaseS the next one for the same (suite_id, info, Nk) is computed
 *    after the next I/O poll (./after-io.ts: behind a fresh connection's first write, which a
 *    single `setImmediate` preceded) and held in the sender's entry, handed out once and only for
 *    the same inputs (else wiped), at most one held or pending per key, wiped on eviction. Encap
 *    needs no message, so no byte or distribution changes; the same CPU, off the critical path.
 *  - Errors keep the codes of every other path: a bad public key NEN_CRYPTO_KEY (ML-KEM modulus
 *    check, X-Wing low-order X25519 half), wrong lengths NEN_CRYPTO_LENGTH.
 */
import type * as Glue from '../../wasm/nen_core.js';
import { disposedError, wipe } from '../backend/util.js';
import { callWasm, registry } from '../backend/wasm.js';
import { loadWasmGlueInBackground, wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import { NenCryptoError } from '../errors.js';
import { afterIo } from './after-io.js';

type WasmGlue = typeof Glue;
const SS_LEN = 32;

/** The loaded glue, or undefined after starting its load (the caller takes its @noble path this time). */
function glue(): WasmGlue | undefined {
  const g = wasmGlueIfLoaded();
  if (!g) void loadWasmGlueInBackground();
  return g;
}

/** Starts loading the Wasm KEM where the runtime has it (a key config was parsed: encapsulations follow). */
export function preloadWasmKem(): void {
  glue();
}

/**
 * Resolves once the Wasm KEM is loaded, or at once where the runtime has no loader (browsers) or
 * the load failed (callers then take @noble). A client awaits it before its first encapsulation:
 * in a fresh Node.js process the load (started when the key config was parsed) finishes sooner
 * than @noble's cold ML-KEM (bench/README.md, OHTTP: first request 88 -> 81 ms, second 36 -> 18).
 */
export async function ohttpKemReady(): Promise<void> {
  if (!wasmGlueIfLoaded()) await loadWasmGlueInBackground();
}

const SENDER_MAX = 8;
/** The next SetupBaseS output computed ahead, with the inputs it was computed for. */
interface Ahead {
  readonly out: Uint8Array;
  readonly suiteId: Uint8Array;
  readonly info: Uint8Array;
  readonly nk: number;
}
interface Sender {
  readonly pk: Uint8Array;
  readonly key: Glue.SenderKey;
  ahead: Ahead | undefined;
  pending: boolean;
  freed: boolean;
}
const senders = new Map<string, Sender>();

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sender(g: WasmGlue, kem: number, pk: Uint8Array): Sender {
  let id = `${kem}:`;
  for (let i = 0; i < 32; i++) id += String.fromCharCode(pk[i] as number);
  const hit = senders.get(id);
  if (hit && equalBytes(hit.pk, pk)) return hit;
  const key = callWasm(() => new g.SenderKey(kem, pk));
  if (hit) {
    senders.delete(id);
    release(hit);
  } else if (senders.size >= SENDER_MAX) {
    const [oldest, entry] = senders.entries().next().value as [string, Sender];
    senders.delete(oldest);
    release(entry);
  }
  const s: Sender = { pk: pk.slice(), key, ahead: undefined, pending: false, freed: false };
  senders.set(id, s);
  return s;
}

/** An evicted sender: its Wasm key freed, a held SetupBaseS output wiped. */
function release(s: Sender): void {
  s.freed = true;
  s.key.free();
  if (s.ahead) wipe(s.ahead.out);
  s.ahead = undefined;
}

/** The held output when it was computed for these inputs (handed out once), else undefined (a stale one is wiped). */
function takeAhead(s: Sender, suiteId: Uint8Array, info: Uint8Array, nk: number): Uint8Array | undefined {
  const a = s.ahead;
  if (!a) return undefined;
  s.ahead = undefined;
  if (a.nk === nk && equalBytes(a.suiteId, suiteId) && equalBytes(a.info, info)) return a.out;
  wipe(a.out);
  return undefined;
}

/** Schedules the sender's next SetupBaseS for the same inputs (one held or pending at most). */
function computeAhead(s: Sender, suiteId: Uint8Array, info: Uint8Array, nk: number): void {
  if (s.pending || s.ahead) return;
  const a = { suiteId: suiteId.slice(), info: info.slice(), nk };
  s.pending = afterIo(() => {
    s.pending = false;
    if (s.freed || s.ahead) return;
    try {
      s.ahead = { ...a, out: callWasm(() => s.key.setup_base_s_raw(a.suiteId, a.info, a.nk)) };
    } catch {
      // the next request runs it inline and reports the error there
    }
  });
}

/** RFC 9180 §5.1 KeySchedule output (secret): the AEAD key (Nk), base_nonce (12), exporter_secret (32). */
export interface RawKeySchedule {
  readonly key: Uint8Array;
  readonly baseNonce: Uint8Array;
  readonly exporterSecret: Uint8Array;
}

/** Splits `key || base_nonce || exporter_secret` at `at` into copies and wipes the buffer. */
function keySchedule(buf: Uint8Array, at: number, nk: number): RawKeySchedule {
  const ks = { key: buf.slice(at, at + nk), baseNonce: buf.slice(at + nk, at + nk + 12), exporterSecret: buf.slice(at + nk + 12, at + nk + 44) };
  wipe(buf);
  return ks;
}

/**
 * SetupBaseS(pkR, info) in Wasm (Encap and the KeySchedule under `suiteId` with Nk = `nk` in one
 * call), or undefined when the Wasm is not loaded. The caller checked pkR's length.
 */
export function wasmSetupBaseS(
  kem: number,
  pkR: Uint8Array,
  suiteId: Uint8Array,
  info: Uint8Array,
  nk: number,
  encLength: number,
): { enc: Uint8Array; ks: RawKeySchedule } | undefined {
  const g = glue();
  if (!g) return undefined;
  const s = sender(g, kem, pkR);
  const out = takeAhead(s, suiteId, info, nk) ?? callWasm(() => s.key.setup_base_s_raw(suiteId, info, nk));
  computeAhead(s, suiteId, info, nk);
  return { enc: out.slice(0, encLength), ks: keySchedule(out, encLength, nk) };
}

/** Whether a SetupBaseS output for `pk` is held ahead (tests). */
export function senderAheadHeld(kem: number, pk: Uint8Array): boolean {
  for (const [id, s] of senders) if (id.startsWith(`${kem}:`) && equalBytes(s.pk, pk)) return !!s.ahead;
  return false;
}

/** How many sender keys the cache holds (tests: it stays bounded). */
export function senderKeyCount(): number {
  return senders.size;
}

/** Encap(pkR) in Wasm, or undefined when the Wasm is not loaded. The caller checked pkR's length. */
export function wasmEncap(kem: number, pkR: Uint8Array): { sharedSecret: Uint8Array; enc: Uint8Array } | undefined {
  const g = glue();
  if (!g) return undefined;
  const key = sender(g, kem, pkR).key;
  const out = callWasm(() => key.encap());
  const sharedSecret = out.slice(0, SS_LEN);
  const enc = out.slice(SS_LEN);
  wipe(out);
  return { sharedSecret, enc };
}

/** HKDF-Extract(salt, ikm) (RFC 5869) in Wasm, or undefined when the Wasm is not loaded. */
export function wasmHkdfExtract(salt: Uint8Array, ikm: Uint8Array): Uint8Array | undefined {
  const g = wasmGlueIfLoaded();
  return g ? callWasm(() => g.hkdf_extract(salt, ikm)) : undefined;
}

/** HKDF-Expand(prk, info, length) in Wasm (prk >= 32 bytes), or undefined when the Wasm is not loaded. */
export function wasmHkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array | undefined {
  const g = wasmGlueIfLoaded();
  return g && prk.length >= 32 ? callWasm(() => g.hkdf_expand(prk, info, length)) : undefined;
}

/** SHA-256(data) in Wasm, or undefined when the Wasm is not loaded. */
export function wasmSha256(data: Uint8Array): Uint8Array | undefined {
  const g = wasmGlueIfLoaded();
  return g ? callWasm(() => g.sha256(data)) : undefined;
}

/**
 * Below this many bytes ChaCha20-Poly1305 runs in Wasm: OpenSSL's per-call cipher setup
 * dominates small messages (../backend/node.ts SMALL_MESSAGE, measured there).
 */
const SMALL_MESSAGE = 8192;

/**
 * ChaCha20-Poly1305 seal / open of a small message in Wasm (a key object per call, freed), or
 * undefined when the Wasm is not loaded or the message is large. Open throws NEN_CRYPTO_AEAD.
 */
export function wasmChaCha(seal: boolean, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, data: Uint8Array): Uint8Array | undefined {
  const g = data.length < SMALL_MESSAGE ? wasmGlueIfLoaded() : undefined;
  if (!g) return undefined;
  const a = callWasm(() => new g.Aead(key));
  try {
    return seal ? callWasm(() => a.seal(nonce, aad, data)) : a.open(nonce, aad, data);
  } catch (e) {
    throw new NenCryptoError('NEN_CRYPTO_AEAD', 'nen: message authentication failed', { cause: e });
  } finally {
    a.free();
  }
}

/** A recipient private key expanded once in Wasm memory. */
export class WasmKemKey {
  readonly publicKey: Uint8Array;
  #inner: Glue.RecipientKey | null;
  constructor(inner: Glue.RecipientKey) {
    this.#inner = inner;
    this.publicKey = inner.public_key;
    registry?.register(this, inner, this);
  }
  /** Decap(enc, skR): the 32-byte shared secret (the caller wipes it). The caller checked enc's length. */
  decap(enc: Uint8Array): Uint8Array {
    const inner = this.#inner;
    if (!inner) throw disposedError('OhttpPrivateKey');
    return callWasm(() => inner.decap(enc));
  }
  /** SetupBaseR(enc, skR, info)'s key schedule under `suiteId` with Nk = `nk` (Decap included). */
  setupBaseR(enc: Uint8Array, suiteId: Uint8Array, info: Uint8Array, nk: number): RawKeySchedule {
    const inner = this.#inner;
    if (!inner) throw disposedError('OhttpPrivateKey');
    return keySchedule(
      callWasm(() => inner.setup_base_r_raw(enc, suiteId, info, nk)),
      0,
      nk,
    );
  }
  dispose(): void {
    if (this.#inner) {
      registry?.unregister(this);
      this.#inner.free();
      this.#inner = null;
    }
  }
}

/** The private key (seed form) loaded into Wasm, or undefined when the Wasm is not loaded. */
export function wasmRecipient(kem: number, sk: Uint8Array): WasmKemKey | undefined {
  const g = glue();
  if (!g) return undefined;
  return new WasmKemKey(callWasm(() => new g.RecipientKey(kem, sk)));
}
