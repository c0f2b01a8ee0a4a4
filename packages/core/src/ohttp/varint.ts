/**
 * QUIC variable-length integers (RFC 9000 §16) and a bounded byte reader, for Binary HTTP
 * (RFC 9292) and chunked OHTTP framing.
 *
 * Pitfalls:
 *  - Values are limited to 2^53 - 1 here (JS numbers); 8-byte encodings above that are refused as
 *    malformed, which no bounded Nen message can need.
 *  - Non-minimal encodings are valid (RFC 9292 §3: "need not be encoded on the minimum number of
 *    bytes"); the encoder always writes the minimal form.
 *  - The reader never reads past its end: a short input raises a `Truncated` marker the callers
 *    turn into their own typed error (a truncated message is a protocol error, never a crash).
 */

/** Thrown by ByteReader when the input ends inside a field; callers map it to a typed error. */
export class Truncated extends Error {
  constructor() {
    super('nen: input truncated');
    this.name = 'Truncated';
  }
}

export function varintLength(v: number): number {
  if (v < 0x40) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x40000000) return 4;
  return 8;
}

export function encodeVarint(v: number): Uint8Array {
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError('nen: varint out of range');
  const n = varintLength(v);
  const out = new Uint8Array(n);
  let x = v;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = x % 256;
    x = Math.floor(x / 256);
  }
  out[0] = (out[0] as number) | (n === 1 ? 0 : n === 2 ? 0x40 : n === 4 ? 0x80 : 0xc0);
  return out;
}

/**
 * Decodes one varint at `buf[off]`: [value, bytes used], or null when the buffer ends first.
 * Throws RangeError on a value above 2^53 - 1.
 */
export function decodeVarint(buf: Uint8Array, off: number): [number, number] | null {
  if (off >= buf.length) return null;
  const first = buf[off] as number;
  const n = 1 << (first >> 6);
  if (off + n > buf.length) return null;
  let v = first & 0x3f;
  for (let i = 1; i < n; i++) v = v * 256 + (buf[off + i] as number);
  if (!Number.isSafeInteger(v)) throw new RangeError('nen: varint above 2^53 - 1');
  return [v, n];
}

/** A cursor over bytes; every read is bounds-checked (throws Truncated). */
export class ByteReader {
  readonly buf: Uint8Array;
  pos = 0;
  constructor(buf: Uint8Array) {
    this.buf = buf;
  }
  get remaining(): number {
    return this.buf.length - this.pos;
  }
  varint(): number {
    const r = decodeVarint(this.buf, this.pos);
    if (!r) throw new Truncated();
    this.pos += r[1];
    return r[0];
  }
  bytes(n: number): Uint8Array {
    if (n > this.remaining) throw new Truncated();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  u8(): number {
    return this.bytes(1)[0] as number;
  }
  u16(): number {
    const b = this.bytes(2);
    return ((b[0] as number) << 8) | (b[1] as number);
  }
}
