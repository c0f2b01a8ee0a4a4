/**
 * A body's chunks as one array for the server's readers (respond.ts, http.ts, zlib.ts,
 * ohttp/stream.ts, ohttp/gateway.ts): the copy itself is @nen/core's `joinChunks`, re-exported.
 *
 * Pitfalls:
 *  - The list is one argument, never spread: a body may arrive in very many small chunks.
 *  - `joinChunks` always returns a new array; `joinedOrOnly` hands a lone chunk back as it is (no
 *    copy), for callers whose chunks are their own and not reused.
 */
import { joinChunks } from '@nen/core';

export { joinChunks };

/** The chunks as one array of `total` bytes: a lone chunk as it is, else joinChunks. */
export function joinedOrOnly(chunks: readonly Uint8Array[], total: number): Uint8Array {
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : joinChunks(chunks, total);
}
