/**
 * RFC 9180 §5.1 KeySchedule(mode_base, shared_secret, info) for OHTTP's HPKE contexts, with the
 * parts that depend only on (suite_id, info, Nk, Nn) built once: psk_id_hash, info_hash, the
 * key_schedule_context and the three labeled HKDF infos. OHTTP's info is a label and the 7-byte
 * key config header (RFC 9458 §4.3), so a gateway sees a handful of distinct ones; per request
 * only LabeledExtract(shared_secret, "secret", "") and the three LabeledExpands remain (four HKDF
 * calls instead of six plus their concatenations). Same bytes as ../backend/hpke.ts
 * keyScheduleBase (RFC 9458 Appendix A and the hpke-pq vectors run through this).
 *
 * Pitfalls:
 *  - The cache is bounded (MAX_ENTRIES, oldest evicted): info comes from a request header, even
 *    if only validated headers reach here.
 *  - Cached parts are public (hashes of public inputs); the shared secret and `secret` are not
 *    cached, and `secret` is wiped after use. Callers never mutate the cached arrays.
 *  - psk = psk_id = "" (mode_base only).
 */
import type { HkdfSha256 } from '../backend/hpke.js';
import { labeledExtract } from '../backend/hpke.js';
import { wipe } from '../backend/util.js';
import { concatBytes } from '../protocol/bytes.js';
import type { RawKeySchedule } from './kem-wasm.js';

const MAX_ENTRIES = 32;
const HPKE_V1 = /* @__PURE__ */ new TextEncoder().encode('HPKE-v1');

interface Parts {
  /** "HPKE-v1" || suite_id || "secret" (the labeled ikm of the empty psk). */
  readonly secretIkm: Uint8Array;
  readonly keyInfo: Uint8Array;
  readonly nonceInfo: Uint8Array;
  readonly expInfo: Uint8Array;
}

const cache = new Map<string, Parts>();

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const u16 = (n: number): Uint8Array => Uint8Array.of(n >> 8, n & 0xff);

function build(h: HkdfSha256, suiteId: Uint8Array, info: Uint8Array, nk: number, nn: number): Parts {
  const empty = new Uint8Array(0);
  const ctx = concatBytes(Uint8Array.of(0), labeledExtract(h, suiteId, empty, 'psk_id_hash', empty), labeledExtract(h, suiteId, empty, 'info_hash', info));
  const expandInfo = (label: string, length: number): Uint8Array => concatBytes(u16(length), HPKE_V1, suiteId, enc(label), ctx);
  return {
    secretIkm: concatBytes(HPKE_V1, suiteId, enc('secret')),
    keyInfo: expandInfo('key', nk),
    nonceInfo: expandInfo('base_nonce', nn),
    expInfo: expandInfo('exp', 32),
  };
}

function partsFor(h: HkdfSha256, suiteId: Uint8Array, info: Uint8Array, nk: number, nn: number): Parts {
  let id = `${nk}:${nn}:`;
  for (let i = 0; i < suiteId.length; i++) id += String.fromCharCode(suiteId[i] as number);
  id += ':';
  for (let i = 0; i < info.length; i++) id += String.fromCharCode(info[i] as number);
  let p = cache.get(id);
  if (!p) {
    p = build(h, suiteId, info, nk, nn);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(id, p);
  }
  return p;
}

/** KeySchedule(mode_base): key (Nk), base_nonce (Nn), exporter_secret (Nh = 32). */
export function ohttpKeySchedule(h: HkdfSha256, suiteId: Uint8Array, sharedSecret: Uint8Array, info: Uint8Array, nk: number, nn: number): RawKeySchedule {
  const p = partsFor(h, suiteId, info, nk, nn);
  const secret = h.extract(sharedSecret, p.secretIkm);
  try {
    return { key: h.expand(secret, p.keyInfo, nk), baseNonce: h.expand(secret, p.nonceInfo, nn), exporterSecret: h.expand(secret, p.expInfo, 32) };
  } finally {
    wipe(secret);
  }
}

/** How many (suite_id, info) entries the cache holds (tests: it stays bounded). */
export function keyScheduleCacheSize(): number {
  return cache.size;
}
