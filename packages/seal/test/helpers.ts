/** Shared test helpers: key pairs, chunked sources, collecting streams. */
import { randomBytes } from 'node:crypto';
import { loadBackend } from '@nen/core';
import { encodeIdentity, encodeRecipient, xwingPublicKey } from '../src/index.js';

export async function pqKeyPair(): Promise<{ identity: string; recipient: string; seed: Uint8Array }> {
  const b = await loadBackend('auto');
  const seed = new Uint8Array(randomBytes(32));
  return { identity: encodeIdentity(seed), recipient: encodeRecipient(xwingPublicKey(b, seed)), seed };
}

/** A ReadableStream over `data` in pieces of `piece` bytes. */
export function sourceOf(data: Uint8Array, piece = 10_000): ReadableStream<Uint8Array> {
  let off = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (off >= data.length) return c.close();
      c.enqueue(data.slice(off, off + piece));
      off += piece;
    },
  });
}

/** Reads a stream to the end; returns the chunks read and the error (if any). */
export async function drain(s: ReadableStream<Uint8Array>): Promise<{ chunks: Uint8Array[]; bytes: Uint8Array; error: unknown }> {
  const chunks: Uint8Array[] = [];
  let error: unknown = null;
  const r = s.getReader();
  try {
    for (;;) {
      const { done, value } = await r.read();
      if (done) break;
      chunks.push(value);
    }
  } catch (e) {
    error = e;
  }
  return { chunks, bytes: Buffer.concat(chunks), error };
}
