/**
 * The age v1 header (c2sp.org/age "Header"): version line, recipient stanzas, MAC line.
 *
 *     age-encryption.org/v1
 *     -> arg1 arg2…         (arguments: 1+ VCHAR each, single spaces)
 *     base64 body, 64 columns per full line, ended by a line of 0-63 columns
 *     --- base64(HMAC-SHA-256(HKDF(file key, "", "header"), header up to and including "---"))
 *
 * Parsing is strict: LF only (a CR is an invalid character), canonical unpadded base64, exact
 * MAC length, at least one stanza. Any deviation is NEN_SEAL_HEADER. `findHeaderEnd` lets a
 * stream reader find where the header stops without parsing it twice.
 *
 * Pitfall: the MAC covers the exact received bytes; it is recomputed over them, not over a
 * re-serialisation (which would hide non-canonical input — though strict parsing refuses it anyway).
 */
import { type Backend, concatBytes } from '@nen/core';
import { timingSafeEqual, utf8 } from './bytes.js';
import { base64Length, decodeBase64, encodeBase64Into, isBase64Char } from './encoding.js';
import { NenSealError, headerError } from './errors.js';
import type { Stanza } from './recipients.js';

const VERSION_LINE = 'age-encryption.org/v1';
const COLUMNS = 64;
const EMPTY = new Uint8Array(0);
const HEADER_INFO = utf8('header');
const LF = 0x0a;

export interface ParsedHeader {
  readonly stanzas: Stanza[];
  readonly mac: Uint8Array;
  /** The bytes the MAC covers: the header up to and including "---". */
  readonly macInput: Uint8Array;
  /** Total header length, including the MAC line's LF. */
  readonly length: number;
}

/**
 * Offset just past the MAC line's LF, or -1 if the header is not complete in `buf` yet.
 * `from` lets a caller resume the search (it must point at a line start or 0).
 */
export function findHeaderEnd(buf: Uint8Array, from = 0): number {
  let i = from;
  for (;;) {
    const nl = buf.indexOf(LF, i);
    if (nl < 0) return -1;
    if (i + 3 <= nl && buf[i] === 0x2d && buf[i + 1] === 0x2d && buf[i + 2] === 0x2d) return nl + 1;
    i = nl + 1;
  }
}

/** Where the last line start at or before `end` is (for resuming findHeaderEnd). */
export function lastLineStart(buf: Uint8Array, end: number): number {
  const nl = buf.lastIndexOf(LF, end - 1);
  return nl < 0 ? 0 : nl + 1;
}

function readLine(buf: Uint8Array, pos: number): { line: Uint8Array; next: number } {
  const nl = buf.indexOf(LF, pos);
  if (nl < 0) throw headerError('unexpected end of header');
  return { line: buf.subarray(pos, nl), next: nl + 1 };
}

function ascii(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += String.fromCharCode(c);
  return s;
}

function parseArgs(line: Uint8Array): string[] {
  const args = ascii(line.subarray(3)).split(' ');
  for (const a of args) {
    if (a.length === 0) throw headerError('empty stanza argument');
    for (let i = 0; i < a.length; i++) {
      const c = a.charCodeAt(i);
      if (c < 0x21 || c > 0x7e) throw headerError('invalid character in stanza argument');
    }
  }
  return args;
}

function parseBody(buf: Uint8Array, pos: number): { body: Uint8Array; next: number } {
  const lines: Uint8Array[] = [];
  for (;;) {
    const { line, next } = readLine(buf, pos);
    pos = next;
    if (line.length > COLUMNS) throw headerError('stanza body line longer than 64 columns');
    for (const c of line) if (!isBase64Char(c)) throw headerError('invalid character in stanza body');
    lines.push(line);
    if (line.length < COLUMNS) break;
  }
  const joined = lines.length === 1 ? (lines[0] as Uint8Array) : concatBytes(...lines);
  const body = decodeBase64(joined);
  if (!body) throw headerError('stanza body is not canonical base64');
  return { body, next: pos };
}

/** Parses a complete header at the start of `buf` (strict). */
export function parseHeader(buf: Uint8Array): ParsedHeader {
  let { line, next: pos } = readLine(buf, 0);
  if (ascii(line) !== VERSION_LINE) throw headerError('unsupported version line');
  const stanzas: Stanza[] = [];
  for (;;) {
    const start = pos;
    ({ line, next: pos } = readLine(buf, pos));
    if (line[0] === 0x2d && line[1] === 0x2d && line[2] === 0x2d) {
      if (stanzas.length === 0) throw headerError('no recipient stanza');
      if (line.length !== 4 + 43 || line[3] !== 0x20) throw headerError('malformed MAC line');
      const mac = decodeBase64(line, false, 4);
      if (!mac || mac.length !== 32) throw headerError('MAC is not canonical base64 of 32 bytes');
      return { stanzas, mac, macInput: buf.subarray(0, start + 3), length: pos };
    }
    if (!(line[0] === 0x2d && line[1] === 0x3e && line[2] === 0x20)) throw headerError('expected a stanza or the MAC line');
    const args = parseArgs(line);
    const { body, next } = parseBody(buf, pos);
    pos = next;
    stanzas.push({ type: args[0] as string, args, body });
  }
}

const ARG = /^[\x21-\x7e]+$/;
const ARROW = [0x2d, 0x3e, 0x20];

/** Bytes of one stanza: "-> args\n" then the body in 64-column lines, ended by a 0-63 column line. */
function stanzaLength(s: Stanza): number {
  let n = ARROW.length + s.args.length; // separators and the LF
  for (const a of s.args) {
    if (!ARG.test(a)) throw new NenSealError('NEN_SEAL_RECIPIENT', 'nen: invalid stanza argument from a recipient');
    n += a.length;
  }
  const b64 = base64Length(s.body.length);
  return n + b64 + Math.floor(b64 / COLUMNS) + 1;
}

function writeAscii(text: string, out: Uint8Array, off: number): number {
  for (let i = 0; i < text.length; i++) out[off++] = text.charCodeAt(i);
  return off;
}

/** Writes a stanza at `off` (its size is stanzaLength); returns the new offset. */
function writeStanza(s: Stanza, out: Uint8Array, off: number): number {
  out.set(ARROW, off);
  off += ARROW.length;
  s.args.forEach((a, i) => {
    if (i > 0) out[off++] = 0x20;
    off = writeAscii(a, out, off);
  });
  out[off++] = LF;
  // 48 bytes are exactly one 64-column line of base64; the last line holds the rest (0-47 bytes).
  const full = s.body.length - (s.body.length % 48);
  for (let i = 0; i < full; i += 48) {
    off = encodeBase64Into(s.body.subarray(i, i + 48), out, off);
    out[off++] = LF;
  }
  const rest = s.body.subarray(full);
  const end = off + base64Length(rest.length);
  encodeBase64Into(rest, out, off); // padding, if any, is overwritten by the LF / next stanza
  out[end] = LF;
  return end + 1;
}

export function headerMacKey(b: Backend, fileKey: Uint8Array): Uint8Array {
  const prk = b.hkdfExtract(EMPTY, fileKey);
  try {
    return b.hkdfExpand(prk, HEADER_INFO, 32);
  } finally {
    prk.fill(0);
  }
}

/** Serialises stanzas and the MAC under `fileKey` straight into bytes; returns the full header. */
export function serializeHeader(b: Backend, fileKey: Uint8Array, stanzas: readonly Stanza[]): Uint8Array {
  const MAC_LINE = 4 + base64Length(32) + 1; // "--- " + 43 + LF
  let n = VERSION_LINE.length + 1;
  for (const s of stanzas) n += stanzaLength(s);
  // +2: room for the base64 padding the last stanza's final group may write past its LF.
  const out = new Uint8Array(n + MAC_LINE + 2);
  let off = writeAscii(`${VERSION_LINE}\n`, out, 0);
  for (const s of stanzas) off = writeStanza(s, out, off);
  off = writeAscii('---', out, off);
  const key = headerMacKey(b, fileKey);
  const mac = b.hmacSha256(key, out.subarray(0, off));
  key.fill(0);
  out[off++] = 0x20;
  encodeBase64Into(mac, out, off);
  off += base64Length(32);
  out[off++] = LF;
  return out.subarray(0, off);
}

/** Throws NEN_SEAL_HMAC unless the header MAC verifies under `fileKey`. */
export function verifyHeaderMac(b: Backend, fileKey: Uint8Array, h: ParsedHeader): void {
  const key = headerMacKey(b, fileKey);
  const mac = b.hmacSha256(key, h.macInput);
  key.fill(0);
  if (!timingSafeEqual(mac, h.mac)) throw new NenSealError('NEN_SEAL_HMAC', 'nen: age header MAC does not verify (the header was altered)');
}
