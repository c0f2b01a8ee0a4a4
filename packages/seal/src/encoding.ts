/**
 * Strict encodings of the age format: unpadded standard base64 (RFC 4648 §4, canonical per §3.5,
 * as c2sp.org/age requires for stanzas and the MAC), padded base64 for the ASCII armor, and
 * Bech32 without length limit (BIP 173 as age uses it) for keys.
 *
 * Pitfalls:
 *  - Canonical means the unused low bits of the last character are zero; a decoder that ignores
 *    them makes headers malleable, so decoding re-checks them.
 *  - Bech32 strings are all upper or all lower case; the checksum is over the lower-case form.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** True when `c` (a char code) is in the standard base64 alphabet. */
export function isBase64Char(c: number): boolean {
  return c < 256 && (DECODE[c] as number) >= 0;
}

const ALPHABET_BYTES = new TextEncoder().encode(ALPHABET);
const ASCII = new TextDecoder('latin1');

/** Length of the unpadded base64 of `n` bytes. */
export const base64Length = (n: number): number => Math.floor((n * 4 + 2) / 3);

/**
 * Unpadded (or padded) standard base64, built as bytes and decoded once (no per-character
 * string concatenation: stanza arguments are ~1,500 characters).
 */
export function encodeBase64(bytes: Uint8Array, pad = false): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const n = encodeBase64Into(bytes, out, 0);
  return ASCII.decode(out.subarray(0, pad ? n : base64Length(bytes.length)));
}

/** Padded base64 of `src` written as ASCII bytes into `dst` at `off`; returns the new offset. */
export function encodeBase64Into(src: Uint8Array, dst: Uint8Array, off: number): number {
  const A = ALPHABET_BYTES;
  let i = 0;
  for (; i + 2 < src.length; i += 3) {
    const n = ((src[i] as number) << 16) | ((src[i + 1] as number) << 8) | (src[i + 2] as number);
    dst[off++] = A[n >> 18] as number;
    dst[off++] = A[(n >> 12) & 63] as number;
    dst[off++] = A[(n >> 6) & 63] as number;
    dst[off++] = A[n & 63] as number;
  }
  const rest = src.length - i;
  if (rest > 0) {
    const n = ((src[i] as number) << 16) | (rest === 2 ? (src[i + 1] as number) << 8 : 0);
    dst[off++] = A[n >> 18] as number;
    dst[off++] = A[(n >> 12) & 63] as number;
    dst[off++] = rest === 2 ? (A[(n >> 6) & 63] as number) : 61;
    dst[off++] = 61;
  }
  return off;
}

/**
 * Decodes canonical base64 given as char codes [start, end) of `src` (string or ASCII bytes).
 * `padded`: '=' padding required to a multiple of 4 (armor); else no '=' allowed at all.
 * Returns null for any non-canonical or invalid input.
 */
export function decodeBase64(src: string | Uint8Array, padded = false, start = 0, end = src.length): Uint8Array | null {
  if (typeof src !== 'string') return decodeBytes(src, padded, start, end);
  const at = (i: number) => src.charCodeAt(i);
  let len = end - start;
  if (padded) {
    if (len % 4 !== 0) return null;
    if (len > 0 && at(end - 1) === 61) len--;
    if (len > 0 && at(start + len - 1) === 61) len--;
  }
  if (len % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((len * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < len; i++) {
    const c = at(start + i);
    const v = c < 256 ? (DECODE[c] as number) : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) return null;
  if (padded && end - start - len !== (len % 4 === 0 ? 0 : 4 - (len % 4))) return null;
  return out;
}

/** decodeBase64 for ASCII bytes (the hot path of the armor decoder). */
function decodeBytes(src: Uint8Array, padded: boolean, start: number, end: number): Uint8Array | null {
  let len = end - start;
  if (padded) {
    if (len % 4 !== 0) return null;
    if (len > 0 && src[end - 1] === 61) len--;
    if (len > 0 && src[start + len - 1] === 61) len--;
  }
  if (len % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((len * 3) / 4));
  let o = 0;
  let i = start;
  const stop = start + len;
  for (; i + 3 < stop; i += 4) {
    const a = DECODE[src[i] as number] as number;
    const b = DECODE[src[i + 1] as number] as number;
    const c = DECODE[src[i + 2] as number] as number;
    const d = DECODE[src[i + 3] as number] as number;
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  const rest = stop - i;
  if (rest > 0) {
    const a = DECODE[src[i] as number] as number;
    const b = DECODE[src[i + 1] as number] as number;
    const c = rest === 3 ? (DECODE[src[i + 2] as number] as number) : 0;
    if ((a | b | c) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >> 16;
    if (rest === 3) out[o++] = (n >> 8) & 0xff;
    // Canonical: the unused low bits of the last character are zero.
    if ((rest === 2 ? n & 0xffff : n & 0xff) !== 0) return null;
  }
  if (padded && end - start - len !== (len % 4 === 0 ? 0 : 4 - (len % 4))) return null;
  return out;
}

// Bech32 (BIP 173) written out here rather than through @scure/base: a 1216-byte age1pq key is
// ~1,950 characters, and a group seal parses one per recipient (scure's generic word arrays made
// that ≈ 25 % of sealing to 1,000 recipients). Same rules as scure's `bech32.decode(s, false)`.
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CHARSET_REV = new Int8Array(128).fill(-1);
for (let i = 0; i < 32; i++) CHARSET_REV[CHARSET.charCodeAt(i)] = i;
/** GEN_XOR[b] = XOR of the BIP 173 generators selected by the 5 bits of b. */
const GEN_XOR = new Int32Array(32);
for (let b = 0; b < 32; b++) {
  const g = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let x = 0;
  for (let i = 0; i < 5; i++) if ((b >> i) & 1) x ^= g[i] as number;
  GEN_XOR[b] = x;
}
const polymodStep = (chk: number, v: number): number => (((chk & 0x1ffffff) << 5) ^ v ^ (GEN_XOR[chk >>> 25] as number)) >>> 0;

/** The checksum state after the expanded HRP (BIP 173 hrp_expand). */
function hrpPolymod(hrp: string): number {
  let chk = 1;
  for (let i = 0; i < hrp.length; i++) chk = polymodStep(chk, hrp.charCodeAt(i) >> 5);
  chk = polymodStep(chk, 0);
  for (let i = 0; i < hrp.length; i++) chk = polymodStep(chk, hrp.charCodeAt(i) & 31);
  return chk;
}

/** Bech32 (BIP 173, no length limit) of `bytes` under `hrp`; upper-cased when `upper`. */
export function encodeBech32(hrp: string, bytes: Uint8Array, upper = false): string {
  const h = hrp.toLowerCase();
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const x of bytes) {
    acc = ((acc << 8) | x) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  let chk = hrpPolymod(h);
  let out = `${h}1`;
  for (const w of words) {
    chk = polymodStep(chk, w);
    out += CHARSET[w];
  }
  for (let i = 0; i < 6; i++) chk = polymodStep(chk, 0);
  chk ^= 1;
  for (let i = 0; i < 6; i++) out += CHARSET[(chk >>> (5 * (5 - i))) & 31];
  return upper ? out.toUpperCase() : out;
}

/** Decodes a Bech32 string; returns the lower-case HRP and the data bytes, or null. */
export function decodeBech32(s: string): { hrp: string; bytes: Uint8Array } | null {
  if (typeof s !== 'string' || s.length < 8) return null;
  const lower = s.toLowerCase();
  if (s !== lower && s !== s.toUpperCase()) return null;
  const sep = lower.lastIndexOf('1');
  if (sep <= 0 || lower.length - sep - 1 < 6) return null;
  const hrp = lower.slice(0, sep);
  const dataEnd = lower.length - 6;
  const out = new Uint8Array(Math.floor(((dataEnd - sep - 1) * 5) / 8));
  let chk = hrpPolymod(hrp);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = sep + 1; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    const v = c < 128 ? (CHARSET_REV[c] as number) : -1;
    if (v < 0) return null;
    chk = polymodStep(chk, v);
    if (i >= dataEnd) continue;
    acc = ((acc << 5) | v) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // BIP 173 checksum constant 1; at most 4 zero padding bits (no excess or non-zero padding).
  if (chk !== 1 || bits >= 5 || (acc & ((1 << bits) - 1)) !== 0) return null;
  return { hrp, bytes: out };
}
