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
import { utf8 } from './bytes.js';
import { decodeBase64, encodeBase64 } from './encoding.js';
import { armorError } from './errors.js';

export const ARMOR_BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----';
export const ARMOR_END = '-----END AGE ENCRYPTED FILE-----';
const BYTES_PER_LINE = 48;
const COLUMNS = 64;
const MAX_WHITESPACE = 1024;
const MAX_LINE = 128;

export class ArmorEncoder {
  private carry = new Uint8Array(0);
  private started = false;

  push(data: Uint8Array, out: Uint8Array[]): void {
    let text = this.started ? '' : `${ARMOR_BEGIN}\n`;
    this.started = true;
    let buf = data;
    if (this.carry.length > 0) {
      buf = new Uint8Array(this.carry.length + data.length);
      buf.set(this.carry);
      buf.set(data, this.carry.length);
    }
    const whole = buf.length - (buf.length % BYTES_PER_LINE);
    for (let i = 0; i < whole; i += BYTES_PER_LINE) text += `${encodeBase64(buf.subarray(i, i + BYTES_PER_LINE), true)}\n`;
    this.carry = buf.slice(whole);
    if (text) out.push(utf8(text));
  }

  finish(out: Uint8Array[]): void {
    let text = this.started ? '' : `${ARMOR_BEGIN}\n`;
    this.started = true;
    if (this.carry.length > 0) text += `${encodeBase64(this.carry, true)}\n`;
    out.push(utf8(`${text}${ARMOR_END}\n`));
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

type State = 'before' | 'body' | 'needEnd' | 'after';

export class ArmorDecoder {
  private state: State = 'before';
  private line: number[] = [];
  private whitespace = 0;

  push(data: Uint8Array, out: Uint8Array[]): void {
    for (let i = 0; i < data.length; i++) {
      const c = data[i] as number;
      if (this.state === 'after') {
        if (!isSpace(c)) throw armorError('data after the END line');
        if (++this.whitespace > MAX_WHITESPACE) throw armorError('too much trailing whitespace');
        continue;
      }
      if (c === 0x0a) {
        this.endLine(out);
        continue;
      }
      if (this.line.length >= MAX_LINE) throw armorError('line too long');
      this.line.push(c);
    }
  }

  private endLine(out: Uint8Array[]): void {
    let line = this.line;
    this.line = [];
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.slice(0, -1);
    const text = String.fromCharCode(...line);
    if (this.state === 'before') {
      if (text.trim() === '') {
        this.whitespace += text.length + 1;
        if (this.whitespace > MAX_WHITESPACE) throw armorError('too much leading whitespace');
        return;
      }
      if (text !== ARMOR_BEGIN) throw armorError('the first line is not the BEGIN line');
      this.state = 'body';
      this.whitespace = 0;
      return;
    }
    if (text === ARMOR_END) {
      this.state = 'after';
      return;
    }
    if (this.state === 'needEnd') throw armorError('a short line must be the last line');
    if (text.length === 0) throw armorError('empty line');
    if (text.length > COLUMNS) throw armorError('line longer than 64 columns');
    const bytes = decodeBase64(text, true);
    if (!bytes) throw armorError('invalid or non-canonical base64');
    if (bytes.length < BYTES_PER_LINE) this.state = 'needEnd';
    out.push(bytes);
  }

  finish(out: Uint8Array[]): void {
    if (this.state !== 'after' && this.line.length > 0) {
      // The END line may end the input without a final line feed.
      this.endLine(out);
    }
    if (this.state !== 'after') throw armorError('missing END line');
  }
}

/** True when `head` (the first bytes of an input) looks armored: optional whitespace, then "-----". */
export function looksArmored(head: Uint8Array): boolean {
  let i = 0;
  while (i < head.length && isSpace(head[i] as number)) i++;
  return head[i] === 0x2d && head[i + 1] === 0x2d;
}
