/**
 * age ASCII armor (c2sp.org/age "ASCII armor"): strict PEM (RFC 7468 §3) with the label
 * "AGE ENCRYPTED FILE", padded base64 in 64-column lines, the last line shorter (or full, then
 * the END line follows). Push-style encoder / decoder with constant memory.
 *
 * Decoder rules (the CCTV armor vectors): whitespace-only lines before BEGIN and whitespace after
 * END (each at most 1 KiB) are allowed; LF or CRLF line ends; no headers, no empty lines, no
 * whitespace inside lines, no line over 64 columns, a line under 64 columns must be the last,
 * canonical padded base64, nothing but whitespace after END. Any deviation is NEN_SEAL_ARMOR.
 *
 * Pitfall: the armor is malleable unless parsed this strictly (whitespace, padding bits).
 */
import { concatBytes, joinedOrOnly } from '@nen/core';
import { utf8 } from './bytes.js';
import { decodeBase64, encodeBase64Into } from './encoding.js';
import { armorError } from './errors.js';

export const ARMOR_BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----';
export const ARMOR_END = '-----END AGE ENCRYPTED FILE-----';
const BYTES_PER_LINE = 48;
const COLUMNS = 64;
const MAX_WHITESPACE = 1024;
const MAX_LINE = MAX_WHITESPACE + 2;

export class ArmorEncoder {
  private carry = new Uint8Array(0);
  private started = false;

  /** BEGIN line (first call) and every complete 48-byte line, as ASCII bytes. */
  private lines(buf: Uint8Array, final: boolean): Uint8Array {
    const begin = this.started ? 0 : ARMOR_BEGIN.length + 1;
    this.started = true;
    const whole = final ? buf.length : buf.length - (buf.length % BYTES_PER_LINE);
    const nLines = Math.ceil(whole / BYTES_PER_LINE);
    const out = new Uint8Array(begin + nLines * (COLUMNS + 1));
    if (begin) out.set(utf8(`${ARMOR_BEGIN}\n`));
    let o = begin;
    for (let i = 0; i < whole; i += BYTES_PER_LINE) {
      o = encodeBase64Into(buf.subarray(i, Math.min(i + BYTES_PER_LINE, whole)), out, o);
      out[o++] = 0x0a;
    }
    this.carry = buf.slice(whole);
    return out.subarray(0, o);
  }

  push(data: Uint8Array, out: Uint8Array[]): void {
    let buf = data;
    if (this.carry.length > 0) {
      buf = new Uint8Array(this.carry.length + data.length);
      buf.set(this.carry);
      buf.set(data, this.carry.length);
    }
    const text = this.lines(buf, false);
    if (text.length > 0) out.push(text);
  }

  finish(out: Uint8Array[]): void {
    const text = this.lines(this.carry, true);
    out.push(concatBytes(text, utf8(`${ARMOR_END}\n`)));
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

type State = 'before' | 'body' | 'needEnd' | 'after';

const DASH = 0x2d;

export class ArmorDecoder {
  private state: State = 'before';
  private readonly line = new Uint8Array(MAX_LINE);
  private lineLen = 0;
  private whitespace = 0;

  /** Decodes what `data` completes; the decoded lines come out joined as one piece. */
  push(data: Uint8Array, out: Uint8Array[]): void {
    const lines: Uint8Array[] = [];
    try {
      this.lines(data, lines);
    } finally {
      if (lines.length > 0) out.push(joinedOrOnly(lines));
    }
  }

  private lines(data: Uint8Array, out: Uint8Array[]): void {
    let i = 0;
    while (i < data.length) {
      if (this.state === 'after') {
        for (; i < data.length; i++) {
          if (!isSpace(data[i] as number)) throw armorError('data after the END line');
          if (++this.whitespace > MAX_WHITESPACE) throw armorError('too much trailing whitespace');
        }
        return;
      }
      const nl = data.indexOf(0x0a, i);
      const end = nl < 0 ? data.length : nl;
      if (this.lineLen + end - i > MAX_LINE) throw armorError('line too long');
      this.line.set(data.subarray(i, end), this.lineLen);
      this.lineLen += end - i;
      if (nl < 0) return;
      this.endLine(out);
      i = nl + 1;
    }
  }

  private endLine(out: Uint8Array[]): void {
    let n = this.lineLen;
    this.lineLen = 0;
    if (n > 0 && this.line[n - 1] === 0x0d) n--;
    const line = this.line.subarray(0, n);
    const text = () => String.fromCharCode(...line);
    if (this.state === 'before') {
      if (line.every(isSpace)) {
        this.whitespace += n + 1;
        if (this.whitespace > MAX_WHITESPACE) throw armorError('too much leading whitespace');
        return;
      }
      if (text() !== ARMOR_BEGIN) throw armorError('the first line is not the BEGIN line');
      this.state = 'body';
      this.whitespace = 0;
      return;
    }
    if (line[0] === DASH && text() === ARMOR_END) {
      this.state = 'after';
      return;
    }
    if (this.state === 'needEnd') throw armorError('a short line must be the last line');
    if (n === 0) throw armorError('empty line');
    if (n > COLUMNS) throw armorError('line longer than 64 columns');
    const bytes = decodeBase64(line, true);
    if (!bytes) throw armorError('invalid or non-canonical base64');
    if (bytes.length < BYTES_PER_LINE) this.state = 'needEnd';
    out.push(bytes);
  }

  finish(out: Uint8Array[]): void {
    // The END line may end the input without a final line feed.
    if (this.state !== 'after' && this.lineLen > 0) this.endLine(out);
    if (this.state !== 'after') throw armorError('missing END line');
  }
}

/** True when `head` (the first bytes of an input) looks armored: optional whitespace, then "-----". */
export function looksArmored(head: Uint8Array): boolean {
  let i = 0;
  while (i < head.length && isSpace(head[i] as number)) i++;
  return head[i] === 0x2d && head[i + 1] === 0x2d;
}
