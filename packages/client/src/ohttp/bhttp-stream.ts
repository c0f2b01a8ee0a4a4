/**
 * Incremental reader of an indeterminate-length Binary HTTP response (RFC 9292 §3.2, §3.8) as
 * chunked OHTTP delivers it: plaintext arrives in pieces of any size; the head (informational
 * responses, final status, header section) is returned once complete, then content bytes as they
 * arrive. Whole messages are decoded by @nen/core's decodeBhttpResponse; this module only exists
 * because a streamed answer must be handed to the application before it ends.
 *
 * Pitfalls:
 *  - Only the indeterminate form (framing indicator 3) can stream; a known-length response (1) in
 *    a chunked answer is buffered whole (bounded by `maxBuffered`) and decoded at the end.
 *  - Bounds: field sections and buffered bytes are limited (`maxBuffered`); a varint or length
 *    past them is NEN_OHTTP_BHTTP before allocating. Content is passed through, never buffered.
 *  - `finish()` after the final OHTTP chunk: a message cut before its content terminator is
 *    NEN_OHTTP_TRUNCATED (the chunk layer already proved the stream was not cut by a relay).
 */
import { NenProtocolError, WIRE_ERRORS } from '@nen/core';
import { type FieldLine, decodeBhttpResponse } from '@nen/core/ohttp/client';

export interface ResponseHead {
  readonly status: number;
  readonly headers: readonly FieldLine[];
}

function fail(code: 'NEN_OHTTP_BHTTP' | 'NEN_OHTTP_TRUNCATED', reason: string): NenProtocolError {
  return new NenProtocolError(code, `nen: ${WIRE_ERRORS[code].message}: ${reason}`, { status: 400 });
}

class NeedMore extends Error {}

/** A cursor over the buffered bytes; running past the end throws NeedMore (wait for input). */
class Cursor {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  varint(): number {
    const first = this.buf[this.pos];
    if (first === undefined) throw new NeedMore();
    const n = 1 << (first >> 6);
    if (this.pos + n > this.buf.length) throw new NeedMore();
    let v = first & 0x3f;
    for (let i = 1; i < n; i++) v = v * 256 + (this.buf[this.pos + i] as number);
    if (!Number.isSafeInteger(v)) throw fail('NEN_OHTTP_BHTTP', 'varint too large');
    this.pos += n;
    return v;
  }
  bytes(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new NeedMore();
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
}

const text = new TextDecoder();

export class BhttpResponseStream {
  #buf: Uint8Array = new Uint8Array(0);
  #state: 'head' | 'content' | 'trailers' | 'done' | 'known' = 'head';
  readonly #max: number;
  constructor(maxBuffered = 256 * 1024) {
    this.#max = maxBuffered;
  }

  /** Feeds plaintext; returns the head (once) and any content bytes now available. */
  push(pt: Uint8Array): { head?: ResponseHead; content: Uint8Array[] } {
    this.#append(pt);
    const out: { head?: ResponseHead; content: Uint8Array[] } = { content: [] };
    if (this.#state === 'head') {
      const head = this.#tryHead();
      if (!head) return out;
      out.head = head;
    }
    if (this.#state === 'content') this.#drainContent(out.content);
    if (this.#state === 'trailers') this.#tryTrailers();
    return out;
  }

  /** After the last plaintext: a known-length message decoded whole; otherwise proof it was complete. */
  finish(): { head?: ResponseHead; content: Uint8Array[] } {
    if (this.#state === 'known') {
      const r = decodeBhttpResponse(this.#buf);
      this.#state = 'done';
      return { head: { status: r.status, headers: r.headers }, content: r.content.length ? [r.content] : [] };
    }
    if (this.#state !== 'done') throw fail('NEN_OHTTP_TRUNCATED', `binary HTTP response ended in its ${this.#state}`);
    if (this.#buf.length !== 0 && this.#buf.some((b) => b !== 0)) throw fail('NEN_OHTTP_BHTTP', 'bytes after the trailers that are not padding');
    return { content: [] };
  }

  #append(pt: Uint8Array): void {
    if (pt.length === 0) return;
    if (this.#state !== 'content' && this.#state !== 'known' && this.#buf.length + pt.length > this.#max) {
      throw fail('NEN_OHTTP_BHTTP', 'field section over the client limit');
    }
    if (this.#state === 'known' && this.#buf.length + pt.length > 64 * 1024 * 1024) throw fail('NEN_OHTTP_BHTTP', 'known-length response too large');
    const b = new Uint8Array(this.#buf.length + pt.length);
    b.set(this.#buf);
    b.set(pt, this.#buf.length);
    this.#buf = b;
  }

  #fields(c: Cursor): FieldLine[] {
    const fields: FieldLine[] = [];
    for (;;) {
      const nl = c.varint();
      if (nl === 0) return fields;
      if (nl > this.#max) throw fail('NEN_OHTTP_BHTTP', 'field name too long');
      const name = text.decode(c.bytes(nl));
      const vl = c.varint();
      if (vl > this.#max) throw fail('NEN_OHTTP_BHTTP', 'field value too long');
      fields.push([name, text.decode(c.bytes(vl))]);
      if (fields.length > 256) throw fail('NEN_OHTTP_BHTTP', 'too many fields');
    }
  }

  #tryHead(): ResponseHead | null {
    const c = new Cursor(this.#buf);
    try {
      const framing = c.varint();
      if (framing === 1) {
        this.#state = 'known';
        return null;
      }
      if (framing !== 3) throw fail('NEN_OHTTP_BHTTP', `framing indicator ${framing} is not a response`);
      for (let i = 0; ; i++) {
        const status = c.varint();
        const headers = this.#fields(c);
        if (status < 100 || status > 599) throw fail('NEN_OHTTP_BHTTP', `status ${status}`);
        if (status >= 200) {
          this.#consume(c.pos);
          this.#state = 'content';
          return { status, headers };
        }
        if (i >= 8) throw fail('NEN_OHTTP_BHTTP', 'too many informational responses');
      }
    } catch (e) {
      if (e instanceof NeedMore) return null;
      throw e;
    }
  }

  /** Content chunks: varint length + bytes, until a zero length. A chunk is passed on as it arrives. */
  #drainContent(out: Uint8Array[]): void {
    for (;;) {
      const c = new Cursor(this.#buf);
      let len: number;
      try {
        len = c.varint();
      } catch (e) {
        if (e instanceof NeedMore) return;
        throw e;
      }
      if (len === 0) {
        this.#consume(c.pos);
        this.#state = 'trailers';
        return;
      }
      if (this.#buf.length - c.pos < len) {
        // hand over what arrived of a long chunk, keeping its remaining length as a fresh prefix
        const have = this.#buf.length - c.pos;
        if (have === 0) return;
        out.push(this.#buf.slice(c.pos));
        this.#buf = encodeLength(len - have);
        return;
      }
      out.push(this.#buf.slice(c.pos, c.pos + len));
      this.#consume(c.pos + len);
    }
  }

  #tryTrailers(): void {
    const c = new Cursor(this.#buf);
    try {
      this.#fields(c);
    } catch (e) {
      if (e instanceof NeedMore) return;
      throw e;
    }
    this.#consume(c.pos);
    this.#state = 'done';
  }

  #consume(n: number): void {
    this.#buf = this.#buf.slice(n);
  }
}

/** An 8-byte varint (the form is not authenticated separately: any form of a length is valid). */
function encodeLength(v: number): Uint8Array {
  const b = new Uint8Array(8);
  let x = v;
  for (let i = 7; i > 0; i--) {
    b[i] = x % 256;
    x = Math.floor(x / 256);
  }
  b[0] = 0xc0 | x;
  return b;
}
