/**
 * QUIC variable-length integers (RFC 9000 §16) and a bounded byte reader, for Binary HTTP
 * (RFC 9292) and chunked OHTTP framing.
 *
 * Pitfalls:
 *  - Values are limited to 2^53 - 1 here (JS numbers); 8-byte encodings above that are refused as
 *    malformed, which no bounded Nen message can need.
 *  - Non-minimal encodings are valid (RFC 9292 §3: "need not be encoded on the minimum number of
 *    bytes"); the encoder always writes the minimal form.
 *  - ByteWriter writes into one buffer of a size its caller computed exactly (varintLength):
 *    writing past it is a bug and throws, never a silent reallocation.
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
  /** Inline decodeVarint (no [value, length] pair per call: Binary HTTP reads ~4 per field line). */
  varint(): number {
    const buf = this.buf;
    const off = this.pos;
    if (off >= buf.length) throw new Truncated();
    const first = buf[off] as number;
    const n = 1 << (first >> 6);
    if (off + n > buf.length) throw new Truncated();
    let v = first & 0x3f;
    for (let i = 1; i < n; i++) v = v * 256 + (buf[off + i] as number);
    if (!Number.isSafeInteger(v)) throw new RangeError('nen: varint above 2^53 - 1');
    this.pos = off + n;
    return v;
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

/** Writes varints, bytes and latin1 strings into one buffer of exactly `size` bytes. */
export class ByteWriter {
  readonly buf: Uint8Array;
  pos = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(size);
  }
  #room(n: number): void {
    if (this.pos + n > this.buf.length) throw new RangeError('nen: ByteWriter overflow');
  }
  varint(v: number): void {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError('nen: varint out of range');
    const n = varintLength(v);
    this.#room(n);
    const b = this.buf;
    let x = v;
    for (let i = this.pos + n - 1; i > this.pos; i--) {
      b[i] = x % 256;
      x = Math.floor(x / 256);
    }
    b[this.pos] = x | (n === 1 ? 0 : n === 2 ? 0x40 : n === 4 ? 0x80 : 0xc0);
    this.pos += n;
  }
  bytes(src: Uint8Array): void {
    this.#room(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }
  /** One byte per code unit; false (nothing meaningful written) when a code unit is above 0xff. */
  latin1(s: string): boolean {
    this.#room(s.length);
    const b = this.buf;
    const o = this.pos;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) return false;
      b[o + i] = c;
    }
    this.pos = o + s.length;
    return true;
  }
  /** The written bytes: the buffer itself when the computed size was exact. */
  finish(): Uint8Array {
    if (this.pos !== this.buf.length) throw new RangeError('nen: ByteWriter size mismatch');
    return this.buf;
  }
}
