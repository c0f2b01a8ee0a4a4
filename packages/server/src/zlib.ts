/**
 * deflate-raw (RFC 1951) for the envelope's in-envelope compression, synchronous on every runtime:
 * node:zlib on Node.js (reached through `process.getBuiltinModule`, so no bundler ever sees a
 * `node:` import and Edge / Workers builds need no configuration), else fflate (pure JS, 8 kB).
 *
 * Pitfalls:
 *  - Inflate is bounded: past `limit` output bytes it stops with NEN_TOO_LARGE (a decompression
 *    bomb never fills memory). fflate is fed 1 KiB slices, so one slice inflates to at most
 *    ~1 MiB before the count is checked; invalid or truncated input is NEN_MALFORMED.
 *  - `process.getBuiltinModule` exists from Node 20.16 / 22.3 (engines: ^20.19 || >=22.12).
 *  - Next.js's Edge sandbox throws on any Node API read from `process` (even a feature test):
 *    `EdgeRuntime` is checked first and the read is guarded.
 */
import { Inflate, deflateSync } from 'fflate';
import { wireError } from '@nen/core';

interface NodeZlib {
  inflateRawSync(b: Uint8Array, o: { maxOutputLength: number }): Uint8Array;
  deflateRawSync(b: Uint8Array): Uint8Array;
}

/** node:zlib when this is Node.js; never touched on Edge, where `process` is a proxy that throws on Node APIs. */
function loadNodeZlib(): NodeZlib | undefined {
  const g = globalThis as { EdgeRuntime?: unknown; process?: { getBuiltinModule?: (id: string) => unknown } };
  if (typeof g.EdgeRuntime === 'string') return undefined;
  try {
    const p = g.process;
    const get = p?.getBuiltinModule;
    return typeof get === 'function' ? (get.call(p, 'node:zlib') as NodeZlib | undefined) : undefined;
  } catch {
    return undefined;
  }
}

const nodeZlib = loadNodeZlib();

/** Which implementation this runtime uses (tests, docs). */
export const zlibImplementation: 'node:zlib' | 'fflate' = nodeZlib ? 'node:zlib' : 'fflate';

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
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function nodeInflate(z: NodeZlib, b: Uint8Array, limit: number): Uint8Array {
  try {
    return z.inflateRawSync(b, { maxOutputLength: Math.max(1, limit) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw wireError('NEN_TOO_LARGE', 'decompressed body exceeds the limit');
    throw wireError('NEN_MALFORMED', 'compressed body is not valid deflate-raw');
  }
}

/** Bounded inflate for the envelope: NEN_TOO_LARGE past the limit, NEN_MALFORMED when invalid. */
export const inflateRaw: (b: Uint8Array, limit: number) => Uint8Array = nodeZlib ? (b, limit) => nodeInflate(nodeZlib, b, limit) : fflateInflate;

/** deflate-raw of a whole body. */
export const deflateRaw: (b: Uint8Array) => Uint8Array = nodeZlib ? (b) => nodeZlib.deflateRawSync(b) : (b) => deflateSync(b);

/** The fflate implementation, whatever the runtime (tests compare it with node:zlib). */
export const fflateZlib = { inflateRaw: fflateInflate, deflateRaw: (b: Uint8Array): Uint8Array => deflateSync(b) };
