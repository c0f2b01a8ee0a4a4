/**
 * deflate-raw (RFC 1951) for the envelope's in-envelope compression, once for both ends
 * (PROTOCOL.md "Requests and responses", flag COMPRESSED): synchronous node:zlib on Node.js, reached
 * through `process.getBuiltinModule` so that no bundler ever sees a `node:` import; elsewhere
 * (browsers, Next's Edge runtime, workerd) the platform's Compression Streams. The four directional
 * functions below carry their side's level and error codes; the server adds its fflate fallback for
 * runtimes without node:zlib (packages/server/src/zlib.ts: its API is synchronous).
 *
 * Levels, by measurement on the bench's realistic JSON (docs/runtimes.md "Compression levels"):
 *  - responses: level 5. At 100 KB it sends 1.025× the bytes of gzip -6 (what Next.js sends for
 *    the plain route; AEAD tag included) for 0.78× the deflate CPU of level 6; level 4 would be
 *    1.10× (no margin under issue 11's ≤ 1.1×), levels 1-3 1.11-1.20×.
 *  - requests: level 1. The plain route's request goes uncompressed (browsers never compress a
 *    fetch body), so any level is far below its bytes (0.21× at 100 KB); level 1 costs 0.36× the
 *    CPU of level 6 (~500 µs less per 100 KB) for ~9 µs more server inflate, the least in total.
 *  Compression Streams have no level (theirs is zlib's default, 6).
 *
 * Pitfalls:
 *  - Inflate is bounded: past the limit it stops (node:zlib `maxOutputLength`; the stream reader is
 *    cancelled) and throws the side's code: client NEN_RESPONSE_UNAUTHENTICATED (past
 *    maxResponseBytes), server NEN_TOO_LARGE; invalid or truncated input is NEN_RESPONSE_UNAUTHENTICATED
 *    / NEN_MALFORMED. A decompression bomb never fills memory.
 *  - Next.js's Edge sandbox throws on any Node API read from `process` (even a feature test):
 *    `EdgeRuntime` is checked first and the read is guarded. `process.getBuiltinModule` exists from
 *    Node 20.16 / 22.3 (engines: ^20.19 || >=22.12).
 *  - The client functions are undefined where neither exists; the envelope then sends uncompressed
 *    bodies and refuses compressed responses. The server ones are undefined off Node.
 */
import { nodeBuiltin } from '../backend/node-builtin.js';
import { clientError, wireError } from './codes.js';
import { joinedOrOnly } from './bytes.js';

/** Requests (client → server) are deflated at this zlib level on Node; see the header. */
export const REQUEST_DEFLATE_LEVEL = 1;
/** Responses (server → client) are deflated at this zlib level on Node; see the header. */
export const RESPONSE_DEFLATE_LEVEL = 5;

/** How a bounded inflate reports its two failures (each side has its own codes). */
export interface InflateErrors {
  tooLarge(): Error;
  malformed(cause: unknown): Error;
}

/** One deflate-raw implementation: whole-body deflate, bounded inflate. */
export interface Deflater<R> {
  deflate(b: Uint8Array, level: number): R;
  inflate(b: Uint8Array, limit: number, errors: InflateErrors): R;
}

interface NodeZlib {
  deflateRawSync(b: Uint8Array, o: { level: number }): Uint8Array;
  inflateRawSync(b: Uint8Array, o: { maxOutputLength: number }): Uint8Array;
}

/** workerd's largest `maxOutputLength`. */
const WORKERD_MAX_OUTPUT = 128 * 2 ** 20;

function nodeDeflater(z: NodeZlib, maxLength: number): Deflater<Uint8Array> {
  const levels = new Map<number, { level: number }>(); // one options object per level, not per call
  return {
    deflate(b, level) {
      let o = levels.get(level);
      if (!o) levels.set(level, (o = { level }));
      return z.deflateRawSync(b, o);
    },
    inflate(b, limit, errors) {
      try {
        // maxOutputLength must be a length Buffer can hold: a larger limit is no limit.
        return z.inflateRawSync(b, { maxOutputLength: Math.max(1, Math.min(limit, maxLength)) });
      } catch (e) {
        // Node: ERR_BUFFER_TOO_LARGE; workerd's node:zlib: a RangeError ("Memory limit exceeded").
        // Invalid deflate data is a plain Error (Z_DATA_ERROR) on both.
        const tooLarge = (e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
        throw tooLarge ? errors.tooLarge() : errors.malformed(e);
      }
    },
  };
}

function loadNode(): Deflater<Uint8Array> | undefined {
  const z = nodeBuiltin<NodeZlib>('node:zlib');
  if (!z || typeof z.inflateRawSync !== 'function') return undefined;
  const max = nodeBuiltin<{ constants?: { MAX_LENGTH?: number } }>('node:buffer')?.constants?.MAX_LENGTH;
  // workerd (nodejs_compat, on by default from compatibility date 2026-08-04) refuses a
  // maxOutputLength above 128 MiB, its isolate's memory limit anyway.
  const workerd = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
  const cap = typeof max === 'number' ? max : 2 ** 31 - 1;
  return nodeDeflater(z, workerd ? Math.min(cap, WORKERD_MAX_OUTPUT) : cap);
}

/** node:zlib, synchronous; undefined off Node.js. */
export const nodeCompression: Deflater<Uint8Array> | undefined = loadNode();

async function pipeThroughBounded(
  data: Uint8Array,
  t: { readable: ReadableStream<Uint8Array>; writable: WritableStream<BufferSource> },
  limit: number,
  errors: InflateErrors,
): Promise<Uint8Array> {
  const writer = t.writable.getWriter();
  const w = writer.write(data as Uint8Array<ArrayBuffer>).then(() => writer.close());
  w.catch(() => undefined);
  const reader = t.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw errors.tooLarge();
      }
      chunks.push(value);
    }
    await w;
  } catch (e) {
    if (total > limit) throw e;
    throw errors.malformed(e);
  }
  return joinedOrOnly(chunks, total);
}

const NO_ERRORS: InflateErrors = { tooLarge: () => new RangeError('deflate output too large'), malformed: (e) => e as Error };

/** Compression Streams (no level: the platform's default); undefined where they are missing. */
export const streamCompression: Deflater<Promise<Uint8Array>> | undefined =
  typeof CompressionStream !== 'undefined' && typeof DecompressionStream !== 'undefined'
    ? {
        deflate: (b) => pipeThroughBounded(b, new CompressionStream('deflate-raw'), Number.POSITIVE_INFINITY, NO_ERRORS),
        inflate: (b, limit, errors) => pipeThroughBounded(b, new DecompressionStream('deflate-raw'), limit, errors),
      }
    : undefined;

/** Which implementation the client functions use here (tests, docs). */
export const compressionImplementation: 'node:zlib' | 'streams' | 'none' = nodeCompression ? 'node:zlib' : streamCompression ? 'streams' : 'none';

/** Client-side codes: a response is either authentic and in bounds, or NEN_RESPONSE_UNAUTHENTICATED. */
export const CLIENT_INFLATE_ERRORS: InflateErrors = {
  tooLarge: () => clientError('NEN_RESPONSE_UNAUTHENTICATED', 'decompressed response exceeds maxResponseBytes'),
  malformed: (e) => clientError('NEN_RESPONSE_UNAUTHENTICATED', 'compressed response is not valid deflate-raw', e),
};

/** Server-side codes (PROTOCOL.md §5.1): NEN_TOO_LARGE past the limit, NEN_MALFORMED when invalid. */
export const SERVER_INFLATE_ERRORS: InflateErrors = {
  tooLarge: () => wireError('NEN_TOO_LARGE', 'decompressed body exceeds the limit'),
  malformed: () => wireError('NEN_MALFORMED', 'compressed body is not valid deflate-raw'),
};

const client = nodeCompression ?? streamCompression;

/** Client: deflate-raw of a request body (sync on Node); undefined where no implementation exists. */
export const deflateRequestBody: ((b: Uint8Array) => Uint8Array | Promise<Uint8Array>) | undefined = client
  ? (b) => client.deflate(b, REQUEST_DEFLATE_LEVEL)
  : undefined;

/** Client: bounded inflate of a response body (sync on Node); NEN_RESPONSE_UNAUTHENTICATED past `maxBytes` or when invalid. */
export const inflateResponseBody: ((b: Uint8Array, maxBytes: number) => Uint8Array | Promise<Uint8Array>) | undefined = client
  ? (b, maxBytes) => client.inflate(b, maxBytes, CLIENT_INFLATE_ERRORS)
  : undefined;

const node = nodeCompression;

/** Server (Node.js): deflate-raw of a response body; undefined off Node (the server falls back to fflate). */
export const deflateResponseBody: ((b: Uint8Array) => Uint8Array) | undefined = node ? (b) => node.deflate(b, RESPONSE_DEFLATE_LEVEL) : undefined;

/** Server (Node.js): bounded inflate of a request body: NEN_TOO_LARGE past `limit`, NEN_MALFORMED when invalid; undefined off Node. */
export const inflateRequestBody: ((b: Uint8Array, limit: number) => Uint8Array) | undefined = node
  ? (b, limit) => node.inflate(b, limit, SERVER_INFLATE_ERRORS)
  : undefined;
