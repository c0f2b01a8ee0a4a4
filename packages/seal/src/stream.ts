/**
 * The age payload (c2sp.org/age "Payload"): a 16-byte nonce, then STREAM: 64 KiB plaintext
 * chunks, each ChaCha20-Poly1305 under HKDF(file key, salt = nonce, info "payload") with nonce
 * = 11-byte big-endian counter || last-chunk flag (0x01 on the final chunk).
 *
 * PayloadEncryptor / PayloadDecryptor are push-style state machines over byte pieces of any size;
 * they hold at most one chunk, so memory is constant whatever the input size.
 *
 * Decryption release rule (same as the reference implementation, and what the CCTV `payload`
 * hashes of failing vectors encode): a chunk's plaintext is released only after its tag
 * verifies. A full-size chunk is tried as non-final first, then as final (a full final chunk is
 * legal). A short chunk must be the final one. After the final chunk any byte is an error; a
 * stream that ends without a final chunk is an error (truncation); an empty final chunk is
 * allowed only as the only chunk. Reordered or duplicated chunks fail their tag (the counter is
 * in the nonce).
 *
 * Pitfall: STREAM releases verified non-final chunks before the end is known: a truncated file
 * yields a verified prefix and then an error. Callers that must not act on partial plaintext
 * buffer the output until the end (open() does; openStream() documents it).
 */
import type { Aead, Backend } from '@nen/core';
import { utf8 } from './bytes.js';
import { headerError, payloadError } from './errors.js';

export const CHUNK_SIZE = 64 * 1024;
export const TAG_SIZE = 16;
export const ENC_CHUNK_SIZE = CHUNK_SIZE + TAG_SIZE;
export const PAYLOAD_NONCE_SIZE = 16;
const PAYLOAD_INFO = utf8('payload');
const EMPTY = new Uint8Array(0);

export function payloadKey(b: Backend, fileKey: Uint8Array, nonce: Uint8Array): Aead {
  const prk = b.hkdfExtract(nonce, fileKey);
  const key = b.hkdfExpand(prk, PAYLOAD_INFO, 32);
  prk.fill(0);
  try {
    return b.createAead(key);
  } finally {
    key.fill(0);
  }
}

/** Counter nonce: 11-byte big-endian counter || flag. */
class ChunkNonce {
  readonly bytes = new Uint8Array(12);
  private counter = 0;
  set(last: boolean): Uint8Array {
    this.bytes[11] = last ? 1 : 0;
    return this.bytes;
  }
  get first(): boolean {
    return this.counter === 0;
  }
  next(): void {
    this.counter++;
    if (this.counter > Number.MAX_SAFE_INTEGER) throw payloadError('chunk counter overflow');
    let c = this.counter;
    for (let i = 10; i >= 0 && c > 0; i--) {
      this.bytes[i] = c % 256;
      c = Math.floor(c / 256);
    }
  }
}

/** A growable one-chunk buffer. */
class ChunkBuffer {
  private buf: Uint8Array;
  length = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(size);
  }
  /** Copies as much of `src` as fits; returns the number of bytes taken. */
  fill(src: Uint8Array): number {
    const n = Math.min(src.length, this.buf.length - this.length);
    this.buf.set(src.subarray(0, n), this.length);
    this.length += n;
    return n;
  }
  get full(): boolean {
    return this.length === this.buf.length;
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
  reset(): void {
    this.length = 0;
  }
}

export class PayloadEncryptor {
  private readonly nonce = new ChunkNonce();
  private readonly pending = new ChunkBuffer(CHUNK_SIZE);
  private done = false;
  constructor(private readonly aead: Aead) {}

  /** Encrypts what can be encrypted; a full chunk is held until more data proves it non-final. */
  push(data: Uint8Array, out: Uint8Array[]): void {
    let off = 0;
    while (off < data.length) {
      if (this.pending.full) {
        out.push(this.aead.seal(this.nonce.set(false), EMPTY, this.pending.view()));
        this.nonce.next();
        this.pending.reset();
      }
      if (this.pending.length === 0 && data.length - off > CHUNK_SIZE) {
        // Zero-copy: a whole chunk with more data after it is a non-final chunk.
        out.push(this.aead.seal(this.nonce.set(false), EMPTY, data.subarray(off, off + CHUNK_SIZE)));
        this.nonce.next();
        off += CHUNK_SIZE;
        continue;
      }
      off += this.pending.fill(data.subarray(off));
    }
  }

  /** Emits the final chunk (possibly empty when the whole plaintext is empty) and disposes the key. */
  finish(out: Uint8Array[]): void {
    if (this.done) return;
    this.done = true;
    try {
      out.push(this.aead.seal(this.nonce.set(true), EMPTY, this.pending.view()));
    } finally {
      this.aead.dispose();
    }
  }

  dispose(): void {
    if (!this.done) this.aead.dispose();
    this.done = true;
  }
}

export class PayloadDecryptor {
  private readonly nonce = new ChunkNonce();
  private readonly pending = new ChunkBuffer(ENC_CHUNK_SIZE);
  private sawLast = false;
  private disposed = false;
  constructor(private readonly aead: Aead) {}

  private open(chunk: Uint8Array, last: boolean): Uint8Array | null {
    try {
      return this.aead.open(this.nonce.set(last), EMPTY, chunk);
    } catch {
      return null;
    }
  }

  /** Verifies and releases every complete chunk; throws NEN_SEAL_PAYLOAD on the first bad one. */
  push(data: Uint8Array, out: Uint8Array[]): void {
    let off = 0;
    while (off < data.length) {
      if (this.sawLast) throw payloadError('trailing data after the final chunk');
      if (this.pending.length === 0 && data.length - off >= ENC_CHUNK_SIZE) {
        // Zero-copy: the whole chunk is in `data`.
        this.fullChunk(data.subarray(off, off + ENC_CHUNK_SIZE), out);
        off += ENC_CHUNK_SIZE;
        continue;
      }
      off += this.pending.fill(data.subarray(off));
      if (this.pending.full) this.fullChunk(this.pending.view(), out);
    }
  }

  private fullChunk(chunk: Uint8Array, out: Uint8Array[]): void {
    let pt = this.open(chunk, false);
    if (!pt) {
      pt = this.open(chunk, true);
      if (!pt) throw payloadError('chunk failed authentication (corrupted, reordered or truncated)');
      this.sawLast = true;
    }
    out.push(pt);
    this.nonce.next();
    this.pending.reset();
  }

  /** End of input: the pending short chunk must be a valid final chunk. */
  finish(out: Uint8Array[]): void {
    try {
      if (this.sawLast) return;
      const n = this.pending.length;
      if (n === 0) throw payloadError(this.nonce.first ? 'no chunks' : 'missing final chunk (truncated)');
      if (n < TAG_SIZE) throw payloadError('chunk shorter than its tag');
      if (n === TAG_SIZE && !this.nonce.first) throw payloadError('empty final chunk after other chunks');
      const pt = this.open(this.pending.view(), true);
      if (!pt) throw payloadError('final chunk failed authentication (corrupted or truncated)');
      out.push(pt);
      this.sawLast = true;
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    if (!this.disposed) this.aead.dispose();
    this.disposed = true;
  }
}

/** Splits the 16-byte payload nonce off; a shorter payload is a header failure (per the vectors). */
export function checkNonce(available: number): void {
  if (available < PAYLOAD_NONCE_SIZE) throw headerError('payload nonce missing or short');
}
