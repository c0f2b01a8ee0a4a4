/**
 * Byte helpers for the Nen wire format: big-endian integers (network byte order, as in RFC 9180
 * I2OSP), strict base64url without padding (RFC 4648 §5), UTF-8, constant-time comparison, and
 * the one byte-array joiner of the packages (concatBytes / joinChunks / joinedOrOnly: @nen/client, @nen/server
 * and @nen/seal import it from @nen/core).
 *
 * Pitfalls:
 *  - base64url decoding is strict: any character outside the alphabet, padding, or non-canonical
 *    trailing bits is rejected (returns null), so two encodings never name the same bytes.
 *  - u64 values are bigint; callers must range-check before encoding.
 *  - joinChunks with a `total` smaller than the chunks' sum throws (RangeError from set()); a larger
 *    one leaves zero bytes at the end: pass the sum counted while reading, or nothing.
 */

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

export function utf8(s: string): Uint8Array {
  return textEncoder.encode(s);
}

/** Strict UTF-8 decode; throws TypeError on invalid sequences. */
export function fromUtf8(b: Uint8Array): string {
  return textDecoder.decode(b);
}

/** The parts copied into one new array, for a few arrays named at the call (joinChunks for a list). */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  return joinChunks(parts);
}

/**
 * The chunks copied into one new array of `total` bytes (their summed length by default): a body's
 * or a stream's chunks, passed as one list (never spread: there may be very many). Always a new
 * array, even for one chunk; a caller whose lone chunk is its own may skip the copy itself.
 */
export function joinChunks(chunks: readonly Uint8Array[], total = byteLength(chunks)): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/**
 * The chunks as one array: a lone chunk handed back as it is (no copy), else joinChunks. Only for
 * chunks the caller owns and no one reuses (a body just read, a stream's output).
 */
export function joinedOrOnly(chunks: readonly Uint8Array[], total = byteLength(chunks)): Uint8Array {
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : joinChunks(chunks, total);
}

function byteLength(chunks: readonly Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}

export function u8(v: number): Uint8Array {
  return Uint8Array.of(v & 0xff);
}

export function u16(v: number): Uint8Array {
  return Uint8Array.of((v >>> 8) & 0xff, v & 0xff);
}

export function u32(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v >>> 0);
  return b;
}

export function u64(v: bigint | number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v));
  return b;
}

/** u16 length prefix followed by the bytes (the "lp" encoding of PROTOCOL.md). */
export function lengthPrefixed(b: Uint8Array): Uint8Array {
  if (b.length > 0xffff) throw new RangeError('nen: length-prefixed field longer than 65535 bytes');
  return concatBytes(u16(b.length), b);
}

/** Constant-time equality for equal-length byte strings (length itself is not secret). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= (a[i] as number) ^ (b[i] as number);
  return d === 0;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64URL_REV = new Int16Array(128).fill(-1);
for (let i = 0; i < B64URL.length; i++) B64URL_REV[B64URL.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += B64URL[(n >>> 18) & 63]! + B64URL[(n >>> 12) & 63]! + B64URL[(n >>> 6) & 63]! + B64URL[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] as number) << 16;
    out += B64URL[(n >>> 18) & 63]! + B64URL[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out += B64URL[(n >>> 18) & 63]! + B64URL[(n >>> 12) & 63]! + B64URL[(n >>> 6) & 63]!;
  }
  return out;
}

/** `Uint8Array.fromBase64` (ES2026; Chromium 140+), newer than TypeScript's lib. */
type FromBase64 = (s: string, o: { alphabet: 'base64url'; lastChunkHandling: 'loose' }) => Uint8Array;
const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;
const B64URL_CHARS = /^[A-Za-z0-9_-]*$/;

/**
 * Strict base64url (no padding) decode; null when the input is not canonical base64url. Where the
 * platform has `Uint8Array.fromBase64` (browsers), it decodes after the same checks (alphabet,
 * length, zero trailing bits): a pin is ~1.6 K characters, which the loop below runs cold, in the
 * interpreter, before a page's first handshake (bench/README.md "Browser", issue 21).
 */
export function fromBase64Url(s: string): Uint8Array | null {
  const len = s.length;
  if (len % 4 === 1) return null;
  if (nativeFromBase64 !== undefined) {
    if (!B64URL_CHARS.test(s)) return null;
    const tail = len % 4 === 0 ? 0 : (B64URL_REV[s.charCodeAt(len - 1)] as number) & (len % 4 === 2 ? 15 : 3);
    return tail === 0 ? nativeFromBase64(s, { alphabet: 'base64url', lastChunkHandling: 'loose' }) : null;
  }
  const out = new Uint8Array(Math.floor((len * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? (B64URL_REV[c] as number) : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
    acc &= (1 << bits) - 1;
  }
  // Non-canonical: leftover bits must be zero.
  if (acc !== 0) return null;
  return o === out.length ? out : out.subarray(0, o);
}

/** Lowercase hex, for logs of non-secret values and the worked example. */
export function toHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export function fromHex(h: string): Uint8Array {
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) throw new TypeError('nen: invalid hex');
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}
