/**
 * Stream records (PROTOCOL.md "Streams"; THREAT_MODEL.md property 10): the record sealer and the
 * incremental record parser + opener. Each record is u32 length || ChaCha20-Poly1305(sealed),
 * nonce = computeNonce(baseIv, seq, index), AAD = message AAD || u32 index || u8 final.
 *
 * Pitfalls:
 *  - Reordering, duplication and truncation all fail authentication or the final check; nothing
 *    of a record (or of a coalesced batch of records) is returned before it authenticates.
 *  - Hot path: an AI answer is thousands of ~50-byte records, so the per-record nonce and AAD are
 *    rewritten in place (RecordNonceAad) and one frame is allocated per sealed chunk.
 *  - Buffered bytes never exceed one record (MAX_RECORD_PLAINTEXT + 20).
 */
import type { Aead } from '../backend/types.js';
import { AEAD_TAG_LENGTH } from '../backend/types.js';
import { concatBytes } from './bytes.js';
import { MAX_RECORD_PLAINTEXT, RECORD_HEADER_LENGTH } from './constants.js';
import { computeNonce } from './keys.js';

const EMPTY_BYTES = new Uint8Array(0);

/**
 * One stream's per-record nonce and AAD, rewritten in place for each record (an AI answer is
 * thousands of ~50-byte records: per-record allocations and DataViews cost more than the AEAD).
 * `nonce` = computeNonce(baseIv, seq, index), `aad` = recordAad(baseAad, index, final). Safe to
 * reuse because every Aead copies its inputs before returning (Wasm glue, node:crypto, @noble).
 * Exported for the tests only (public.ts does not name it).
 */
export class RecordNonceAad {
  readonly nonce: Uint8Array;
  readonly aad: Uint8Array;
  readonly #iv: Uint8Array;
  constructor(baseIv: Uint8Array, seq: bigint, baseAad: Uint8Array) {
    this.#iv = baseIv;
    this.nonce = computeNonce(baseIv, seq, 0);
    this.aad = new Uint8Array(baseAad.length + 5);
    this.aad.set(baseAad, 0);
  }
  set(index: number, final: boolean): void {
    const n = this.nonce;
    const iv = this.#iv;
    n[0] = (iv[0] as number) ^ (index >>> 24);
    n[1] = (iv[1] as number) ^ ((index >>> 16) & 0xff);
    n[2] = (iv[2] as number) ^ ((index >>> 8) & 0xff);
    n[3] = (iv[3] as number) ^ (index & 0xff);
    const a = this.aad;
    const o = a.length - 5;
    a[o] = index >>> 24;
    a[o + 1] = (index >>> 16) & 0xff;
    a[o + 2] = (index >>> 8) & 0xff;
    a[o + 3] = index & 0xff;
    a[o + 4] = final ? 1 : 0;
  }
}

/** Seals a sequence of records; call `seal(chunk, false)` repeatedly, then `seal(last, true)` once. */
export class RecordSealer {
  #index = 0;
  #finished = false;
  readonly #na: RecordNonceAad;
  constructor(
    private readonly aead: Aead,
    baseIv: Uint8Array,
    seq: bigint,
    baseAad: Uint8Array,
  ) {
    this.#na = new RecordNonceAad(baseIv, seq, baseAad);
  }

  /**
   * Returns framed records (u32 length || sealed) in one buffer; splits chunks above
   * MAX_RECORD_PLAINTEXT. One allocation for the frame plus the AEAD's own output.
   */
  seal(chunk: Uint8Array, final: boolean): Uint8Array {
    if (this.#finished) throw new Error('nen: stream already finished');
    const records = Math.max(1, Math.ceil(chunk.length / MAX_RECORD_PLAINTEXT));
    if (this.#index + records > 0xffffffff) throw new Error('nen: too many stream records');
    const out = new Uint8Array(chunk.length + records * (RECORD_HEADER_LENGTH + AEAD_TAG_LENGTH));
    let o = 0;
    let w = 0;
    do {
      const end = Math.min(chunk.length, o + MAX_RECORD_PLAINTEXT);
      this.#na.set(this.#index, final && end === chunk.length);
      const sealed = this.aead.seal(this.#na.nonce, this.#na.aad, chunk.subarray(o, end));
      this.#index++;
      const len = sealed.length;
      out[w] = len >>> 24;
      out[w + 1] = (len >>> 16) & 0xff;
      out[w + 2] = (len >>> 8) & 0xff;
      out[w + 3] = len & 0xff;
      out.set(sealed, w + RECORD_HEADER_LENGTH);
      w += RECORD_HEADER_LENGTH + len;
      o = end;
    } while (o < chunk.length);
    if (final) this.#finished = true;
    return out;
  }
}

/**
 * Incremental record parser + opener. Feed bytes with `push`; it yields plaintext chunks.
 * Buffered bytes never exceed one record (MAX_RECORD_PLAINTEXT + 20). `end()` throws when the
 * final record was not seen. Errors are produced by `onError(kind, detail)` so each side maps them
 * to its own codes (server: NEN_MALFORMED/NEN_AUTH_FAILED, client: NEN_STREAM_*).
 */
export class RecordOpener {
  #index = 0;
  #final = false;
  #buf: Uint8Array = new Uint8Array(0);
  readonly #na: RecordNonceAad;
  /** Reused by pushCoalesced (emptied after each call and on error). */
  readonly #parts: Uint8Array[] = [];
  constructor(
    private readonly aead: Aead,
    baseIv: Uint8Array,
    seq: bigint,
    baseAad: Uint8Array,
    private readonly onError: (kind: 'malformed' | 'auth' | 'truncated' | 'trailing', detail: string) => Error,
  ) {
    this.#na = new RecordNonceAad(baseIv, seq, baseAad);
  }

  get finished(): boolean {
    return this.#final;
  }

  get recordsOpened(): number {
    return this.#index;
  }

  /** Opens every complete record in the bytes so far; returns their non-empty plaintexts in order. */
  push(data: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    this.#openAll(data, out);
    return out;
  }

  /**
   * As `push`, but the plaintexts of all the records completed by `data` come back as ONE chunk
   * (EMPTY when none carried bytes): when a network read holds many small records (an AI answer's
   * tokens), the application reads once instead of once per record. Every record is still opened
   * and checked in order before any of its bytes are returned (THREAT_MODEL.md property 10); a
   * failing record throws and nothing of the batch is returned.
   */
  pushCoalesced(data: Uint8Array): Uint8Array {
    const parts = this.#parts;
    const total = this.#openAll(data, parts);
    try {
      if (parts.length <= 1) return parts.length === 1 ? (parts[0] as Uint8Array) : EMPTY_BYTES;
      const out = new Uint8Array(total);
      let w = 0;
      for (const p of parts) {
        out.set(p, w);
        w += p.length;
      }
      return out;
    } finally {
      parts.length = 0;
    }
  }

  /** Parses and opens the complete records of buffered bytes + `data` into `out`; returns their plaintext bytes. */
  #openAll(data: Uint8Array, out: Uint8Array[]): number {
    const buf = this.#buf.length ? concatBytes(this.#buf, data) : data;
    let o = 0;
    let total = 0;
    try {
      for (;;) {
        if (buf.length - o < RECORD_HEADER_LENGTH) break;
        const len = (((buf[o] as number) << 24) | ((buf[o + 1] as number) << 16) | ((buf[o + 2] as number) << 8) | (buf[o + 3] as number)) >>> 0;
        if (len < AEAD_TAG_LENGTH || len > MAX_RECORD_PLAINTEXT + AEAD_TAG_LENGTH) throw this.onError('malformed', `record length ${len}`);
        if (buf.length - o - RECORD_HEADER_LENGTH < len) break;
        if (this.#final) throw this.onError('trailing', 'data after the final record');
        const sealed = buf.subarray(o + RECORD_HEADER_LENGTH, o + RECORD_HEADER_LENGTH + len);
        o += RECORD_HEADER_LENGTH + len;
        const plain = this.#open(sealed);
        this.#index++;
        if (plain.length) {
          out.push(plain);
          total += plain.length;
        }
      }
    } catch (e) {
      out.length = 0;
      throw e;
    }
    if (this.#final && o < buf.length) {
      out.length = 0;
      throw this.onError('trailing', 'data after the final record');
    }
    this.#buf = o === buf.length ? EMPTY_BYTES : buf.slice(o);
    return total;
  }

  /**
   * Opens record #index under both values of the AAD's final byte (PROTOCOL.md §6.1); neither →
   * 'auth'. An empty record (tag only) is tried as final first: withNenStream ends every stream
   * with one, and a failed attempt costs a Wasm error object (~60 µs measured) instead of ~1 µs.
   * The order changes nothing but speed: at most one of the two AADs verifies.
   */
  #open(sealed: Uint8Array): Uint8Array {
    const finalFirst = sealed.length === AEAD_TAG_LENGTH;
    const first = this.#tryOpen(sealed, finalFirst);
    if (first !== null) return first;
    const second = this.#tryOpen(sealed, !finalFirst);
    if (second !== null) return second;
    throw this.onError('auth', `record ${this.#index} failed authentication (tampered, reordered or duplicated)`);
  }

  /** The plaintext when record #index opens with the AAD's final byte = `final`, else null. */
  #tryOpen(sealed: Uint8Array, final: boolean): Uint8Array | null {
    const na = this.#na;
    na.set(this.#index, final);
    let plain: Uint8Array;
    try {
      plain = this.aead.open(na.nonce, na.aad, sealed);
    } catch {
      return null;
    }
    if (final) this.#final = true;
    return plain;
  }

  end(): void {
    if (!this.#final) throw this.onError('truncated', this.#buf.length ? 'partial record at end of stream' : 'no final record');
  }
}
