/**
 * HTTP plumbing for @nen/server: bounded body reading and the unauthenticated protocol error
 * response (THREAT_MODEL.md property 11: generic message + stable code on the wire).
 *
 * Pitfalls:
 *  - Bodies are read with a hard byte limit whether or not Content-Length is present (chunked
 *    uploads), so an oversize body costs at most `limit` bytes of memory before the 413.
 *  - A request an adapter marked with `preferWholeBodyRead` and that has a Content-Length within
 *    the limit is read with `arrayBuffer()`: the HTTP server's framing holds the body to that
 *    length (a body of any other length is refused). On @hono/node-server that reads the socket
 *    directly, where `request.body` would first build a full undici Request (~30 µs); on undici's
 *    own Request the stream reader loop below is the cheaper one (~6 µs less per 1 KB body).
 *  - The stream read stops once Content-Length bytes arrived (no final read() for `done`: fewer
 *    promises per request): the HTTP server's framing ends the body there. A body without
 *    Content-Length, or whose first chunks fall short of it, is read until done as before.
 *  - Past the limit the body is cancelled but the cancellation is never awaited: under Next's Edge
 *    runtime (`next start`) the handler's body is one branch of a `tee()` (Next clones the request),
 *    and a branch's cancel promise settles only once the other branch is cancelled too, which Next
 *    never does: awaiting it left the 413 unsent for ever. What happens to the unread rest is the
 *    server's business (the Node adapter drains it, bounded: adapters/node-body.ts).
 *  - Error responses carry no session data and are not authenticated: clients treat them as hints.
 */
import { HEADER, WIRE_ERRORS, type WireErrorCode, wireError } from '@nen/core';

/** Requests whose `arrayBuffer()` is their cheapest whole-body read (marked by an adapter; nothing outlives them). */
const wholeBodyReads = new WeakSet<Request>();

/**
 * The same mark for a whole class of adapter-made requests, with no per-request WeakSet entry (an
 * ephemeron per request): a request whose `[WHOLE_BODY_READ]` is true (e.g. on its prototype).
 */
export const WHOLE_BODY_READ: unique symbol = Symbol('nen.wholeBodyRead');

/**
 * Marks `request` as one whose `arrayBuffer()` reads the body without building anything else
 * (e.g. @hono/node-server's lightweight Request, which reads the IncomingMessage directly).
 */
export function preferWholeBodyRead(request: Request): void {
  wholeBodyReads.add(request);
}

/** The body through `arrayBuffer()`, which must be exactly the Content-Length's `n` bytes. */
async function readWhole(request: Request, n: number): Promise<Uint8Array> {
  let buf: ArrayBuffer;
  try {
    buf = await request.arrayBuffer();
  } catch (e) {
    // The client closed the connection mid-body: a client fault, not an internal error.
    throw wireError('NEN_MALFORMED', 'request body aborted before it was complete', e);
  }
  if (buf.byteLength !== n) throw wireError('NEN_MALFORMED', `body of ${buf.byteLength} bytes, content-length ${n}`);
  return new Uint8Array(buf);
}

/** A failed read(): the client closed the connection mid-body, a client fault, not an internal error. */
function aborted(e: unknown): never {
  throw wireError('NEN_MALFORMED', 'request body aborted before it was complete', e);
}

/**
 * The request body, at most `limit` bytes. Not async: the common case (one chunk of exactly the
 * Content-Length, as the HTTP server delivers a small body) costs one `read()` and one `then()`,
 * and the final `read()` that would only answer `done` is skipped: the server's framing ends the
 * body there (each promise saved also skips the AsyncLocalStorage hooks under `next start`).
 * A failure is always a rejected promise, never a synchronous throw.
 */
export function readBody(request: Request, limit: number): Promise<Uint8Array> {
  let expected = -1;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    const cl = request.headers.get('content-length');
    if (cl !== null) {
      const n = Number(cl);
      if (!Number.isSafeInteger(n) || n < 0) throw wireError('NEN_MALFORMED', 'invalid content-length');
      if (n > limit) throw wireError('NEN_TOO_LARGE', `content-length ${n} > limit ${limit}`);
      if (((request as { [WHOLE_BODY_READ]?: boolean })[WHOLE_BODY_READ] === true || wholeBodyReads.has(request)) && !request.bodyUsed)
        return readWhole(request, n);
      expected = n;
    }
    if (!request.body) return Promise.resolve(new Uint8Array(0));
    reader = request.body.getReader();
  } catch (e) {
    return Promise.reject(e);
  }
  return reader.read().then((r) => {
    if (r.done) return new Uint8Array(0);
    if (r.value.byteLength === expected) return r.value; // expected <= limit, checked above
    return readRest(reader, r.value, limit, expected);
  }, aborted);
}

/** readBody past its first chunk: a reader loop until done or Content-Length, bounded by `limit`. */
async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>, first: Uint8Array, limit: number, expected: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let value: Uint8Array | undefined = first;
  while (value) {
    total += value.byteLength;
    if (total > limit) {
      // Not awaited: the answer must not wait for the cancellation (see the module header).
      reader.cancel().catch(() => undefined);
      throw wireError('NEN_TOO_LARGE', `body exceeds limit ${limit}`);
    }
    chunks.push(value);
    if (total === expected) break; // the framing ends the body here (see readBody)
    const r: ReadableStreamReadResult<Uint8Array> = await reader.read().catch(aborted);
    value = r.done ? undefined : r.value;
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
