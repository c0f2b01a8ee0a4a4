/**
 * The request body between Node's IncomingMessage and a Web handler (`@nen/server/node`): as a web
 * stream with byte-counted backpressure, or read whole without one (`readWholeBody`; for the sealed
 * body its unjoined chunks, `readWholeChunks`); and the bounded drain after an answer given before
 * that body was read in full (an early 413 or 400),
 * so that the client can read the answer (PROTOCOL.md §9 "Oversized bodies").
 *
 * Pitfalls:
 *  - Backpressure in bytes: at most HIGH_WATER bytes wait in the stream's queue before the socket
 *    is paused (Node 20's `Readable.toWeb` counts chunks, not bytes: up to 16 384 chunks).
 *  - Cancelling the stream (http.ts readBody past its limit) detaches it and pauses the socket; it
 *    never destroys the request: destroying it resets the connection and the client, still
 *    sending, gets EPIPE / ECONNRESET instead of the answer.
 *  - The drain discards at most DRAIN_MAX_BYTES for at most DRAIN_MAX_MS, then the connection is
 *    closed (`connection: close` is sent with the answer); a client that stops sending, or one that
 *    read the answer and closed, ends it earlier. Nothing is kept and the timer is unref'd.
 *  - A client that goes away mid-body makes the stream error (NEN_MALFORMED in readBody), never hang.
 */
import type { IncomingMessage } from 'node:http';

/** Bytes queued in the body stream before the socket is paused. */
const HIGH_WATER = 64 * 1024;
/** At most this many bytes of an unread request body are read and discarded after the answer. */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
/** ...for at most this long after the answer was written; then the connection is closed. */
export const DRAIN_MAX_MS = 2000;

/** How to detach each request's body stream from it (the drain takes over); nothing outlives the request. */
const detachers = new WeakMap<IncomingMessage, () => void>();

/** `req`'s body as a Web stream, with byte-counted backpressure; cancel detaches without destroying `req`. */
export function nodeBodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let detach = (): void => undefined;
  detachers.set(req, () => detach());
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        const onData = (chunk: Buffer) => {
          c.enqueue(chunk);
          if ((c.desiredSize ?? 0) <= 0) req.pause();
        };
        const onEnd = () => {
          detach();
          c.close();
        };
        const onError = (e: Error) => {
          detach();
          c.error(e);
        };
        const onClose = () => {
          if (!req.complete) onError(new Error('request body aborted'));
        };
        detach = () => {
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('error', onError);
          req.off('close', onClose);
        };
        req.on('data', onData);
        req.once('end', onEnd);
        req.once('error', onError);
        req.once('close', onClose);
      },
      pull() {
        req.resume();
      },
      cancel() {
        detach();
        req.pause();
      },
    },
    { highWaterMark: HIGH_WATER, size: (chunk) => chunk.byteLength },
  );
}

/**
 * `req`'s whole body as one exact-size ArrayBuffer, read from the IncomingMessage without a web
 * stream (one copy of the socket's chunks, as Buffer.concat makes). Unbounded, as Body.arrayBuffer()
 * is: Nen's pipeline calls it only for a Content-Length within its limit (http.ts readBody), and
 * Node's framing holds the body to that length. A client that goes away mid-body rejects it.
 */
export function readWholeBody(req: IncomingMessage): Promise<ArrayBuffer> {
  return collect(req, joinExact);
}

/**
 * `req`'s whole body as the socket's chunks, unjoined (the sealed body: http.ts `contiguous` joins
 * them right before the AEAD open, into a reused buffer, or takes a single chunk as it is). Bounded
 * as readWholeBody; the chunks are Node's own Buffers (views into its socket reads).
 */
export function readWholeChunks(req: IncomingMessage): Promise<Buffer[]> {
  return collect(req, (chunks) => chunks);
}

/** The chunks in their own exact-size ArrayBuffer, not zero-filled first: every byte is written. */
function joinExact(chunks: Buffer[], total: number): ArrayBuffer {
  const out = Buffer.allocUnsafeSlow(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out.buffer;
}

/** Reads `req` to its end and resolves `finish(chunks, total)`; rejects when the client goes away mid-body. */
function collect<T>(req: IncomingMessage, finish: (chunks: Buffer[], total: number) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
    };
    const onEnd = () => {
      detach();
      resolve(finish(chunks, total));
    };
    const onError = (e: Error) => {
      detach();
      reject(e);
    };
    const onClose = () => {
      if (!req.complete) onError(new Error('request body aborted'));
    };
    const detach = () => {
      detachers.delete(req);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    detachers.set(req, detach);
    // `on`, not `once`: each handler detaches all four first (no once-wrapper per listener and request).
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    req.resume();
  });
}

/**
 * Resolves once the rest of `req`'s body has been read and discarded, or DRAIN_MAX_BYTES /
 * DRAIN_MAX_MS were reached, or the client went away: whichever comes first.
 */
export function drainRequest(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  detachers.get(req)?.(); // whatever the handler left unread is discarded, not queued
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      req.pause();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    timer.unref();
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}
