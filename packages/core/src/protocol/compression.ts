/**
 * deflate-raw (RFC 1951) through the platform's Compression Streams, for the envelope's
 * in-envelope compression on runtimes without node:zlib (browsers, Edge). Browser-safe.
 *
 * Pitfalls:
 *  - Decompression is bounded: past `maxBytes` the reader is cancelled and the caller gets
 *    NEN_RESPONSE_UNAUTHENTICATED (a decompression bomb never fills memory).
 *  - `webDeflate` / `webInflate` are undefined where CompressionStream is missing; the envelope
 *    then sends uncompressed bodies and refuses compressed responses.
 */
import { clientError } from './codes.js';

async function pipeThroughBounded(
  data: Uint8Array,
  t: { readable: ReadableStream<Uint8Array>; writable: WritableStream<BufferSource> },
  limit: number,
): Promise<Uint8Array> {
  const writer = t.writable.getWriter();
  const w = writer.write(data as Uint8Array<ArrayBuffer>).then(() => writer.close());
  w.catch(() => undefined);
  const reader = t.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'decompressed response exceeds maxResponseBytes');
    }
    chunks.push(value);
  }
  await w;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

const hasStreams = typeof CompressionStream !== 'undefined' && typeof DecompressionStream !== 'undefined';

/** deflate-raw of a whole body (Compression Streams); undefined where they are missing. */
export const webDeflate: ((b: Uint8Array) => Promise<Uint8Array>) | undefined = hasStreams
  ? (b) => pipeThroughBounded(b, new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER)
  : undefined;

/** Bounded inflate of deflate-raw (Decompression Streams); undefined where they are missing. */
export const webInflate: ((b: Uint8Array, maxBytes: number) => Promise<Uint8Array>) | undefined = hasStreams
  ? (b, maxBytes) => pipeThroughBounded(b, new DecompressionStream('deflate-raw'), maxBytes)
  : undefined;
