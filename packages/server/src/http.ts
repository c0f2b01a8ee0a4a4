/**
 * HTTP plumbing for @nen/server: bounded body reading and the unauthenticated protocol error
 * response (THREAT_MODEL.md property 11: generic message + stable code on the wire).
 *
 * Pitfalls:
 *  - Bodies are read with a hard byte limit whether or not Content-Length is present (chunked
 *    uploads), so an oversize body costs at most `limit` bytes of memory before the 413.
 *  - Error responses carry no session data and are not authenticated: clients treat them as hints.
 */
import { HEADER, WIRE_ERRORS, type WireErrorCode, wireError } from '@nen/core';

export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const cl = request.headers.get('content-length');
  if (cl !== null) {
    const n = Number(cl);
    if (!Number.isSafeInteger(n) || n < 0) throw wireError('NEN_MALFORMED', 'invalid content-length');
    if (n > limit) throw wireError('NEN_TOO_LARGE', `content-length ${n} > limit ${limit}`);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await reader.read();
    } catch (e) {
      // The client closed the connection mid-body: a client fault, not an internal error.
      throw wireError('NEN_MALFORMED', 'request body aborted before it was complete', e);
    }
    const { done, value } = r;
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw wireError('NEN_TOO_LARGE', `body exceeds limit ${limit}`);
    }
    chunks.push(value);
  }
  return join(chunks, total);
}

/**
 * All bytes of a handler's response body. A reader loop rather than `Response.arrayBuffer()`:
 * on Node 20 that goes through undici's consumeBody/fullyReadBody and costs a few µs more per
 * response. Chunks must be bytes, as for arrayBuffer() (anything else is a TypeError).
 */
export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) {
      await reader.cancel().catch(() => undefined);
      throw new TypeError('nen: response body chunk is not a Uint8Array');
    }
    total += value.byteLength;
    chunks.push(value);
  }
  return join(chunks, total);
}

/** The chunks as one array (no copy for a single chunk). */
function join(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.byteLength;
  }
  return out;
}

export function errorResponse(code: WireErrorCode, extraHeaders?: Record<string, string>): Response {
  const spec = WIRE_ERRORS[code];
  return new Response(JSON.stringify({ error: { code, message: `nen: ${spec.message}` } }), {
    status: spec.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', [HEADER.error]: code, ...extraHeaders },
  });
}
