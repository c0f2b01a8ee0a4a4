/**
 * Per-request protection (PROTOCOL.md "Requests and responses", "Streams"; THREAT_MODEL.md
 * properties 4-6, 9, 10): the `nen` header codec, the canonical request / response associated
 * data, and ChaCha20-Poly1305 (RFC 8439 §2.8) sealing of messages and stream records.
 *
 * Pitfalls:
 *  - The AAD binds everything an intermediary could change and the handler relies on: version,
 *    session id, epoch, sequence number, timestamp, flags, method, full path + query string and
 *    the plaintext content type (responses: request seq, status, flags, content type).
 *  - Body overhead is exactly the 16-byte tag; stream records add a 4-byte length each.
 *  - Stream records carry their index in the nonce and the AAD and the last one is marked final
 *    in the AAD: reordering, duplication and truncation all fail authentication or the final check
 *    (the record sealer and opener are in ./records.ts, re-exported here).
 *  - Parsers are strict and total: bad input raises NenProtocolError, never anything else.
 */
import type { Aead } from '../backend/types.js';
import { AEAD_NONCE_LENGTH, AEAD_TAG_LENGTH } from '../backend/types.js';
import { concatBytes, fromBase64Url, toBase64Url, u16, u32, u8, utf8 } from './bytes.js';
import { wireError } from './codes.js';
import { LABEL, PROTOCOL_VERSION, REQ_FLAG, REQ_FLAGS_ALL, RES_FLAGS_ALL, SESSION_ID_LENGTH } from './constants.js';
import { computeNonce } from './keys.js';

const U64_MAX = (1n << 64n) - 1n;

export interface RequestMeta {
  readonly sessionId: Uint8Array;
  readonly epoch: number;
  readonly seq: bigint;
  /** Client timestamp, ms since the Unix epoch. */
  readonly timestamp: number;
  readonly flags: number;
}

export function formatRequestHeader(m: RequestMeta): string {
  return `${PROTOCOL_VERSION}.${toBase64Url(m.sessionId)}.${m.epoch}.${m.seq}.${m.timestamp}.${m.flags}`;
}

const DEC = /^(0|[1-9][0-9]{0,19})$/;

/** Strict parse of the request `nen` header; throws NEN_MALFORMED / NEN_UNSUPPORTED_VERSION. */
export function parseRequestHeader(value: string | null): RequestMeta {
  if (value === null) throw wireError('NEN_NOT_ENCRYPTED', 'missing nen header');
  if (value.length > 100) throw wireError('NEN_MALFORMED', 'nen header too long');
  const f = value.split('.');
  if (f.length !== 6) throw wireError('NEN_MALFORMED', `nen header has ${f.length} fields, want 6`);
  const [v, sid, epoch, seq, ts, flags] = f as [string, string, string, string, string, string];
  if (v !== String(PROTOCOL_VERSION)) throw wireError('NEN_UNSUPPORTED_VERSION', `nen header version ${JSON.stringify(v.slice(0, 8))}`);
  const sessionId = fromBase64Url(sid);
  if (!sessionId || sessionId.length !== SESSION_ID_LENGTH) throw wireError('NEN_MALFORMED', 'nen header session id is not 16 bytes of base64url');
  for (const x of [epoch, seq, ts, flags]) if (!DEC.test(x)) throw wireError('NEN_MALFORMED', 'nen header number is not canonical decimal');
  const e = Number(epoch);
  const s = BigInt(seq);
  const t = Number(ts);
  const fl = Number(flags);
  if (e > 0xffffffff) throw wireError('NEN_MALFORMED', 'nen header epoch out of range');
  if (s < 1n || s > U64_MAX) throw wireError('NEN_MALFORMED', 'nen header seq out of range');
  if (!Number.isSafeInteger(t)) throw wireError('NEN_MALFORMED', 'nen header timestamp out of range');
  if (fl & ~REQ_FLAGS_ALL || fl > REQ_FLAGS_ALL) throw wireError('NEN_MALFORMED', 'nen header has unknown flag bits');
  return { sessionId, epoch: e, seq: s, timestamp: t, flags: fl };
}

export function formatResponseHeader(flags: number): string {
  return `${PROTOCOL_VERSION}.${flags}`;
}

/** Client side: null when absent or malformed (the caller rejects the response). */
export function parseResponseHeader(value: string | null): { flags: number } | null {
  if (value === null) return null;
  const m = /^1\.([0-9])$/.exec(value);
  if (!m) return null;
  const flags = Number(m[1]);
  if (flags & ~RES_FLAGS_ALL) return null;
  return { flags };
}

const aadEncoder = new TextEncoder();

/**
 * Writes lp(s) (u16 length + UTF-8) at `o`; returns the new offset. ASCII (every method, almost
 * every path and content type) is copied code unit by code unit: on Node 20 that is several times
 * faster than TextEncoder.encodeInto for strings this short; the first non-ASCII unit hands the
 * rest to encodeInto (the bytes are the same UTF-8 either way).
 */
function putField(out: Uint8Array, dv: DataView, o: number, s: string, what: string): number {
  const n = s.length;
  const base = o + 2;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    out[base + i] = c;
  }
  let written = i;
  if (i < n) {
    const r = aadEncoder.encodeInto(s.slice(i), out.subarray(base + i));
    if (r.read !== n - i) throw wireError('NEN_MALFORMED', `${what} longer than 65535 bytes`);
    written += r.written;
  }
  if (written > 0xffff) throw wireError('NEN_MALFORMED', `${what} longer than 65535 bytes`);
  dv.setUint16(o, written);
  return base + written;
}

/**
 * The request target as bound in the AAD: the path as sent, and the query in its WHATWG
 * `application/x-www-form-urlencoded` serialization (`new URLSearchParams(query).toString()`);
 * an empty query ("?" alone) is dropped. Pitfall this exists for: Next.js rebuilds
 * `request.url` through URLSearchParams before a route handler sees it (`%20` → `+`, `~` → `%7E`,
 * `?flag` → `?flag=`), so both ends bind the form the handler actually reads. The serialization is
 * idempotent, so a client that sends the canonical form and a server that re-canonicalises what it
 * received agree; two raw queries with the same canonical form mean the same to the handler.
 */
export function canonicalTarget(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return target;
  const query = new URLSearchParams(target.slice(q + 1)).toString();
  return query === '' ? target.slice(0, q) : `${target.slice(0, q)}?${query}`;
}

/**
 * One AAD buffer for the single-message paths (`scratch`: sealMessage/openMessage consume the AAD
 * synchronously and every Aead copies it, as with NONCE below). Pitfall: a scratch AAD must never
 * be kept or handed out: the exported builders and the stream paths (once per stream) get a fresh one.
 */
const AAD = new Uint8Array(1024);
const AAD_VIEW: [Uint8Array, DataView] = [AAD, new DataView(AAD.buffer)];

function aadBuffer(max: number, scratch: boolean): [Uint8Array, DataView] {
  if (scratch && max <= AAD.length) return AAD_VIEW;
  const out = new Uint8Array(max);
  return [out, new DataView(out.buffer)];
}

/**
 * Canonical request AAD:
 * "nen/1 request" || u8 version || sid[16] || u32 epoch || u64 seq || u64 ts || u8 flags
 *   || lp(method) || lp(target) || lp(content type)
 * target = canonicalTarget(path + ("?" + query when the query travels in the URL));
 * lp = u16 length || bytes. Built in one allocation, or none with `scratch` (see AAD above).
 */
export function requestAad(m: RequestMeta, method: string, rawTarget: string, contentType: string, retry = '', scratch = false): Uint8Array {
  const target = canonicalTarget(rawTarget);
  const withRetry = (m.flags & REQ_FLAG.RETRY) !== 0;
  // UTF-8 needs at most 3 bytes per UTF-16 code unit.
  const max = LABEL.request.length + 1 + SESSION_ID_LENGTH + 4 + 8 + 8 + 1 + 8 + 3 * (method.length + target.length + contentType.length + retry.length);
  if (method.length > 0xffff) throw wireError('NEN_MALFORMED', 'method longer than 65535 bytes');
  if (target.length > 0xffff) throw wireError('NEN_MALFORMED', 'request target longer than 65535 bytes');
  if (contentType.length > 0xffff) throw wireError('NEN_MALFORMED', 'content type longer than 65535 bytes');
  const [out, dv] = aadBuffer(max, scratch);
  out.set(LABEL.request, 0);
  let o = LABEL.request.length;
  out[o++] = PROTOCOL_VERSION;
  out.set(m.sessionId, o);
  o += SESSION_ID_LENGTH;
  dv.setUint32(o, m.epoch);
  dv.setBigUint64(o + 4, m.seq);
  dv.setBigUint64(o + 12, BigInt(m.timestamp));
  out[o + 20] = m.flags;
  o += 21;
  o = putField(out, dv, o, method, 'method');
  o = putField(out, dv, o, target, 'request target');
  o = putField(out, dv, o, contentType, 'content type');
  // Protocol 1.1: a retry binds the `nen-retry` value (absent otherwise: 1.0 AADs are unchanged).
  if (withRetry) o = putField(out, dv, o, retry, 'nen-retry');
  return out.subarray(0, o);
}

/** The original request a retry names (`nen-retry`, PROTOCOL.md "Retries"). */
export interface RetryRef {
  readonly sessionId: Uint8Array;
  readonly epoch: number;
  readonly seq: bigint;
  /** The original's timestamp (ms since the Unix epoch), as in its `nen` header. */
  readonly timestamp: number;
}

export function formatRetryRef(r: RetryRef): string {
  return `${toBase64Url(r.sessionId)}.${r.epoch}.${r.seq}.${r.timestamp}`;
}

/** Parses `nen-retry` (server): NEN_MALFORMED when absent or not `<sid>.<epoch>.<seq>.<ts>`. */
export function parseRetryRef(value: string | null): RetryRef {
  if (value === null || value.length > 80) throw wireError('NEN_MALFORMED', 'RETRY flag without a valid nen-retry header');
  const f = value.split('.');
  if (f.length !== 4) throw wireError('NEN_MALFORMED', 'nen-retry has the wrong number of fields');
  const [sid, epoch, seq, ts] = f as [string, string, string, string];
  const sessionId = fromBase64Url(sid);
  if (!sessionId || sessionId.length !== SESSION_ID_LENGTH) throw wireError('NEN_MALFORMED', 'nen-retry session id is not 16 bytes of base64url');
  for (const x of [epoch, seq, ts]) if (!DEC.test(x)) throw wireError('NEN_MALFORMED', 'nen-retry number is not canonical decimal');
  const e = Number(epoch);
  const s = BigInt(seq);
  const t = Number(ts);
  if (e > 0xffffffff || s < 1n || s > U64_MAX || !Number.isSafeInteger(t)) throw wireError('NEN_MALFORMED', 'nen-retry number out of range');
  return { sessionId, epoch: e, seq: s, timestamp: t };
}

/**
 * Canonical response AAD:
 * "nen/1 response" || u8 version || sid[16] || u32 epoch || u64 request seq || u16 status
 *   || u8 flags || lp(content type)
 */
export function responseAad(
  sessionId: Uint8Array,
  epoch: number,
  seq: bigint,
  status: number,
  flags: number,
  contentType: string,
  scratch = false,
): Uint8Array {
  if (contentType.length > 0xffff) throw wireError('NEN_MALFORMED', 'content type longer than 65535 bytes');
  const [out, dv] = aadBuffer(LABEL.response.length + 1 + SESSION_ID_LENGTH + 4 + 8 + 2 + 1 + 2 + 3 * contentType.length, scratch);
  out.set(LABEL.response, 0);
  let o = LABEL.response.length;
  out[o++] = PROTOCOL_VERSION;
  out.set(sessionId, o);
  o += SESSION_ID_LENGTH;
  dv.setUint32(o, epoch);
  dv.setBigUint64(o + 4, seq);
  dv.setUint16(o + 12, status);
  out[o + 14] = flags;
  o = putField(out, dv, o + 15, contentType, 'content type');
  return out.subarray(0, o);
}

/** Stream record AAD = message AAD || u32 index || u8 final. */
export function recordAad(baseAad: Uint8Array, index: number, final: boolean): Uint8Array {
  return concatBytes(baseAad, u32(index), u8(final ? 1 : 0));
}

/**
 * One nonce buffer for every sealMessage/openMessage: each Aead call is synchronous and copies its
 * nonce before returning (Wasm glue, node:crypto, @noble), and the buffer is never handed out, so
 * no two operations share it mid-call (saves one ~150 B typed array per message).
 */
const NONCE = new Uint8Array(AEAD_NONCE_LENGTH);

export function sealMessage(aead: Aead, baseIv: Uint8Array, seq: bigint, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
  return aead.seal(computeNonce(baseIv, seq, 0, NONCE), aad, plaintext);
}

/** sealMessage as arrays whose concatenation is its result (Aead.sealChunks where the backend has it). */
export function sealMessageChunks(aead: Aead, baseIv: Uint8Array, seq: bigint, aad: Uint8Array, plaintext: Uint8Array): Uint8Array[] {
  const nonce = computeNonce(baseIv, seq, 0, NONCE);
  return aead.sealChunks ? aead.sealChunks(nonce, aad, plaintext) : [aead.seal(nonce, aad, plaintext)];
}

/**
 * An Aead that seals a string's UTF-8 bytes itself (node:crypto: `update(text, 'utf8')` encodes
 * into native memory freed at once): the caller makes no body-sized encoded copy. Same bytes out
 * as `sealChunks(nonce, aad, utf8(text))`.
 */
export interface TextSealingAead extends Aead {
  sealTextChunks(nonce: Uint8Array, aad: Uint8Array, text: string): Uint8Array[];
}

/** sealMessageChunks of `text`'s UTF-8 bytes (encoded by the Aead where it can: TextSealingAead). */
export function sealTextMessageChunks(aead: Aead, baseIv: Uint8Array, seq: bigint, aad: Uint8Array, text: string): Uint8Array[] {
  const nonce = computeNonce(baseIv, seq, 0, NONCE);
  if (typeof (aead as Partial<TextSealingAead>).sealTextChunks === 'function') return (aead as TextSealingAead).sealTextChunks(nonce, aad, text);
  const plaintext = utf8(text);
  return aead.sealChunks ? aead.sealChunks(nonce, aad, plaintext) : [aead.seal(nonce, aad, plaintext)];
}

/** Throws NenCryptoError from the backend when the tag does not verify. */
export function openMessage(aead: Aead, baseIv: Uint8Array, seq: bigint, aad: Uint8Array, sealed: Uint8Array): Uint8Array {
  if (sealed.length < AEAD_TAG_LENGTH) throw wireError('NEN_MALFORMED', `sealed body shorter than the tag (${sealed.length} bytes)`);
  return aead.open(computeNonce(baseIv, seq, 0, NONCE), aad, sealed);
}

/**
 * sealMessage / openMessage on the Aead's native async AEAD where it has one (browsers' WebCrypto:
 * `sealAsync` / `openAsync` consume the scratch nonce and AAD at the call), else synchronous.
 */
export function sealMessageNative(aead: Aead, baseIv: Uint8Array, seq: bigint, aad: Uint8Array, plaintext: Uint8Array): Uint8Array | Promise<Uint8Array> {
  return aead.sealAsync ? aead.sealAsync(computeNonce(baseIv, seq, 0, NONCE), aad, plaintext) : sealMessage(aead, baseIv, seq, aad, plaintext);
}

export function openMessageNative(aead: Aead, baseIv: Uint8Array, seq: bigint, aad: Uint8Array, sealed: Uint8Array): Uint8Array | Promise<Uint8Array> {
  if (!aead.openAsync) return openMessage(aead, baseIv, seq, aad, sealed);
  if (sealed.length < AEAD_TAG_LENGTH) throw wireError('NEN_MALFORMED', `sealed body shorter than the tag (${sealed.length} bytes)`);
  return aead.openAsync(computeNonce(baseIv, seq, 0, NONCE), aad, sealed);
}

/** Confidential query: plaintext = u16 len || query || body. */
export function packConfidentialQuery(query: string, body: Uint8Array): Uint8Array {
  const q = utf8(query);
  if (q.length > 0xffff) throw new RangeError('nen: query longer than 65535 bytes');
  return concatBytes(u16(q.length), q, body);
}

export function unpackConfidentialQuery(plain: Uint8Array): { query: Uint8Array; body: Uint8Array } {
  if (plain.length < 2) throw wireError('NEN_MALFORMED', 'confidential query envelope too short');
  const n = ((plain[0] as number) << 8) | (plain[1] as number);
  if (plain.length < 2 + n) throw wireError('NEN_MALFORMED', 'confidential query length exceeds the body');
  return { query: plain.subarray(2, 2 + n), body: plain.subarray(2 + n) };
}

/** Base64url of a sealed record for the `nen-body` header (bodyless methods / statuses). */
export function encodeHeaderRecord(sealed: Uint8Array): string {
  return toBase64Url(sealed);
}

export function decodeHeaderRecord(value: string): Uint8Array | null {
  if (value.length > 16384) return null;
  return fromBase64Url(value);
}

// ---------------------------------------------------------------- streams

// The record sealer / opener live in ./records.ts (stream-only); re-exported for existing importers.
export { RecordNonceAad, RecordOpener, RecordSealer } from './records.js';
