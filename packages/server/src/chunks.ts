/**
 * A body's chunks joined into one array, written once for the server's readers (respond.ts,
 * zlib.ts, ohttp/stream.ts, ohttp/gateway.ts).
 *
 * Pitfalls:
 *  - The list is one argument, never spread: a body may arrive in very many small chunks.
 *  - `joinChunks` always returns a new array; `joinedOrOnly` hands a lone chunk back as it is (no
 *    copy), for callers whose chunks are their own and not reused.
 */

/** The chunks copied into one new array of `total` bytes (their summed length by default). */
export function joinChunks(chunks: readonly Uint8Array[], total = byteLength(chunks)): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** The chunks as one array: a lone chunk as it is, else joinChunks. */
export function joinedOrOnly(chunks: readonly Uint8Array[], total: number): Uint8Array {
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : joinChunks(chunks, total);
}

function byteLength(chunks: readonly Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}
