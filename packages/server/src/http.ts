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
 *  - `contiguous` joins a sealed body's chunks (readSealedBody) into one module-wide buffer of at
 *    most 1 MiB: its result is valid until the next call, so only a synchronous consumer that
 *    copies it (the AEAD open) may take it; never an await in between, never kept.
 */
import { HEADER, WIRE_ERRORS, type WireErrorCode, joinedOrOnly, wireError } from '@nen/core';

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

/**
 * A request's body as its server's chunks, unjoined, for a request that offers them (the node:http
 * adapter's lazy Request, adapters/node-request.ts): `readSealedBody` takes them instead of one
 * joined copy. Returns null when the body can no longer be read that way (then readBody reads it).
 */
export const WHOLE_BODY_CHUNKS: unique symbol = Symbol('nen.wholeBodyChunks');
type ChunkReader = (this: Request) => Promise<Uint8Array[]> | null;

/** A sealed body as read: one array, or a server's chunks still to be joined (`contiguous`). */
export type BodyBytes = Uint8Array | readonly Uint8Array[];

/**
 * The sealed request body, at most `limit` bytes: as readBody, but from a request that offers its
 * chunks (WHOLE_BODY_CHUNKS) with a Content-Length within the limit, those chunks unjoined: the
 * pipeline joins them with `contiguous` right before the AEAD open (one body-sized allocation and
 * copy less per request; none at all for a body in one chunk). Any other request (undici's, under
 * `next start`) is read as readBody reads it, its stream chunks likewise left unjoined.
 */
export function readSealedBody(request: Request, limit: number): Promise<BodyBytes> {
  const reader = (request as { [WHOLE_BODY_CHUNKS]?: ChunkReader })[WHOLE_BODY_CHUNKS];
  if (typeof reader !== 'function') return readBodyAs(request, limit, false);
  let n: number;
  let read: Promise<Uint8Array[]> | null;
  try {
    n = contentLength(request, limit);
    read = n < 0 ? null : reader.call(request);
  } catch (e) {
    return Promise.reject(e);
  }
  if (read === null) return readBodyAs(request, limit, false);
  return read.then((chunks) => {
    let total = 0;
    for (const c of chunks) total += c.byteLength;
    if (total !== n) throw wireError('NEN_MALFORMED', `body of ${total} bytes, content-length ${n}`);
    return chunks;
  }, aborted);
}

/** Bodies up to this many bytes are joined into one reused buffer (`contiguous`); larger ones get their own. */
const SCRATCH_MAX = 1024 * 1024;
let scratch = new Uint8Array(0);

/**
 * `body` as one array for a synchronous consumer that copies it (the AEAD open: both backends read
 * their input into a fresh output). Chunks are joined into a module-wide buffer reused by the next
 * call (bounded by SCRATCH_MAX, so at most 1 MiB kept): never keep the result, or anything that may
 * view it (`isScratch`), past the synchronous step it was made for. A single chunk is returned as is.
 */
export function contiguous(body: BodyBytes): Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (body.length === 1) return body[0] as Uint8Array;
  let total = 0;
  for (const c of body) total += c.byteLength;
  let out: Uint8Array;
  if (total > SCRATCH_MAX) out = new Uint8Array(total);
  else {
    if (scratch.length < total) scratch = new Uint8Array(Math.min(SCRATCH_MAX, Math.max(total, 2 * scratch.length, 16 * 1024)));
    out = scratch.subarray(0, total);
  }
  let o = 0;
  for (const c of body) {
    out.set(c, o);
    o += c.byteLength;
  }
  return out;
}

/** Whether `b` views the buffer `contiguous` reuses (a backend that returned a view of its input). */
export function isScratch(b: Uint8Array): boolean {
  return b.buffer === scratch.buffer;
}

/** The Content-Length checked against `limit` (NEN_MALFORMED, NEN_TOO_LARGE), or -1 when absent. */
function contentLength(request: Request, limit: number): number {
  const cl = request.headers.get('content-length');
  if (cl === null) return -1;
  const n = Number(cl);
  if (!Number.isSafeInteger(n) || n < 0) throw wireError('NEN_MALFORMED', 'invalid content-length');
  if (n > limit) throw wireError('NEN_TOO_LARGE', `content-length ${n} > limit ${limit}`);
  return n;
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
  return readBodyAs(request, limit, true) as Promise<Uint8Array>;
}

/**
 * readBody; `join` false: a body in several chunks comes back as the list, unjoined (readSealedBody,
 * for `contiguous`: under `next start` a 100 KB body arrives as two or more stream chunks, and
 * joining them into a fresh array would be one body-sized allocation more per request).
 */
function readBodyAs(request: Request, limit: number, join: boolean): Promise<BodyBytes> {
  let expected = -1;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    const n = contentLength(request, limit);
    if (n >= 0) {
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
    return readRest(reader, r.value, limit, expected, join);
  }, aborted);
}

/** readBody past its first chunk: a reader loop until done or Content-Length, bounded by `limit`. */
async function readRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Uint8Array,
  limit: number,
  expected: number,
  join: boolean,
): Promise<BodyBytes> {
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
  return join ? joinedOrOnly(chunks, total) : chunks;
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
  return joinedOrOnly(chunks, total);
}

export function errorResponse(code: WireErrorCode, extraHeaders?: Record<string, string>): Response {
  const spec = WIRE_ERRORS[code];
  return new Response(JSON.stringify({ error: { code, message: `nen: ${spec.message}` } }), {
    status: spec.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', [HEADER.error]: code, ...extraHeaders },
  });
}
