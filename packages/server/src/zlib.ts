/**
 * The server's in-envelope compression (deflate-raw, RFC 1951), synchronous on every runtime:
 * @nen/core's node:zlib functions on Node.js (core's protocol/compression.ts: loading, levels,
 * bounds and codes), else fflate (pure JS, 8 kB) on Edge and Workers, where node:zlib is missing
 * and the Compression Streams the client uses there would make the server's sealing asynchronous.
 *
 * Pitfalls:
 *  - Inflate is bounded: past `limit` output bytes it stops with NEN_TOO_LARGE (a decompression
 *    bomb never fills memory). fflate is fed 1 KiB slices, so one slice inflates to at most
 *    ~1 MiB before the count is checked; invalid or truncated input is NEN_MALFORMED.
 *  - fflate deflates at its default level 6: its lower levels cost bytes (level 5: 1.087× gzip -6
 *    on the bench's 100 KB JSON, level 6: 1.057×) for no clear CPU gain (docs/runtimes.md).
 */
import { Inflate, deflateSync } from 'fflate';
import { deflateResponseBody, inflateRequestBody, joinedOrOnly, wireError } from '@nen/core';

/** Which implementation this runtime uses (tests, docs). */
export const zlibImplementation: 'node:zlib' | 'fflate' = inflateRequestBody ? 'node:zlib' : 'fflate';

const SLICE = 1024;

function fflateInflate(b: Uint8Array, limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inf = new Inflate((chunk) => {
    total += chunk.length;
    if (total > limit) throw wireError('NEN_TOO_LARGE', 'decompressed body exceeds the limit');
    chunks.push(chunk);
  });
  try {
    if (b.length === 0) inf.push(b, true);
    for (let o = 0; o < b.length; o += SLICE) inf.push(b.subarray(o, o + SLICE), o + SLICE >= b.length);
  } catch (e) {
    if ((e as { code?: string }).code === 'NEN_TOO_LARGE') throw e;
    throw wireError('NEN_MALFORMED', 'compressed body is not valid deflate-raw');
  }
  return joinedOrOnly(chunks, total);
}

const fflateDeflate = (b: Uint8Array): Uint8Array => deflateSync(b);

/** Bounded inflate of a request body: NEN_TOO_LARGE past the limit, NEN_MALFORMED when invalid. */
export const inflateRaw: (b: Uint8Array, limit: number) => Uint8Array = inflateRequestBody ?? fflateInflate;

/** deflate-raw of a whole response body. */
export const deflateRaw: (b: Uint8Array) => Uint8Array = deflateResponseBody ?? fflateDeflate;

/** The fflate implementation, whatever the runtime (tests compare it with node:zlib). */
export const fflateZlib = { inflateRaw: fflateInflate, deflateRaw: fflateDeflate };
