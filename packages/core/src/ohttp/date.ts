/**
 * The Date window of OHTTP anti-replay (RFC 9458 §6.5.1, §6.5.2): the gateway accepts an inner
 * request whose `Date` is within ±window of its clock, and remembers each request's `enc` for
 * as long as such a request could be accepted (replayIdTtlMs).
 *
 * Public API: checkOhttpDate(headers, nowMs, windowMs), replayIdTtlMs(windowMs),
 * ohttpReplayId(enc), OHTTP_PROBLEM (the two problem types), problemJson(type, title).
 *
 * Pitfalls:
 *  - A request without `Date` is refused too when a window is configured: otherwise a relay could
 *    replay any request stripped of its Date past the time its enc is remembered. The client must
 *    send `Date` (RFC 9458 §6.5.1 "SHOULD").
 *  - The window is not secret (§6.5.1); the refusal carries the gateway's Date so that a client
 *    with a skewed clock retries once with a fresh encapsulation (§6.5.2).
 *  - The enc must be remembered for 2 * window: a request dated now + window stays acceptable
 *    until now + 2 * window (plus slack for the store's clock).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { wireError } from '../protocol/codes.js';
import type { FieldLine } from './bhttp.js';
import { wasmSha256 } from './kem-wasm.js';
import { nodeSha256Hex } from './node-sha256.js';

export const OHTTP_PROBLEM = {
  DATE: 'https://iana.org/assignments/http-problem-types#date',
  KEY: 'https://iana.org/assignments/http-problem-types#ohttp-key',
} as const;

/** The default accepted skew between the client's Date and the gateway's clock. */
export const DEFAULT_OHTTP_DATE_WINDOW_MS = 60_000;

export function problemJson(type: string, title: string): string {
  return JSON.stringify({ type, title });
}

/** How long a replay id must be kept so that no replay can fall back inside the window. */
export function replayIdTtlMs(windowMs: number): number {
  return 2 * windowMs + 5_000;
}

/**
 * The replay id of an encapsulated request (§6.5): hex SHA-256 of its enc (64 characters, for
 * the store's key; the 1,120-byte X-Wing enc itself would make long keys). Synchronous: OpenSSL's
 * SHA-256 on Node.js (./node-sha256.ts), else the Wasm core's when loaded, else @noble's
 * (WebCrypto's digest costs a thread-pool round trip). Every path gives the same string: stores
 * shared by instances of different versions see the same id.
 */
export function ohttpReplayId(enc: Uint8Array): string {
  const hex = nodeSha256Hex(enc);
  if (hex !== undefined) return hex;
  const d = wasmSha256(enc) ?? sha256(enc);
  let h = '';
  for (let i = 0; i < d.length; i++) h += HEX[d[i] as number] as string;
  return h;
}

/** Lowercase two-digit hex of each byte value (ohttpReplayId: one lookup per byte). */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Returns the request's Date (ms); throws NEN_OHTTP_DATE (400) when absent, unparsable or outside ±windowMs. */
export function checkOhttpDate(headers: readonly FieldLine[], nowMs: number, windowMs: number): number {
  const dates = headers.filter(([n]) => n === 'date');
  const t = dates.length === 1 ? Date.parse((dates[0] as FieldLine)[1]) : Number.NaN;
  if (!Number.isFinite(t)) throw wireError('NEN_OHTTP_DATE', dates.length === 0 ? 'no Date in the inner request' : 'invalid Date in the inner request');
  if (Math.abs(t - nowMs) > windowMs) throw wireError('NEN_OHTTP_DATE', `inner Date ${Math.round((t - nowMs) / 1000)} s from the gateway clock`);
  return t;
}
