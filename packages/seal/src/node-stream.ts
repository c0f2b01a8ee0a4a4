/**
 * A Node Readable (process.stdin, a file or a pipe) as a Web ReadableStream<Uint8Array>, for the
 * CLI, pull-driven and safe to cancel on every Node that `engines` allows (20.19+, 22, 24).
 *
 * Pitfall (why not stream.Readable.toWeb): on Node 20 the adapter listens to 'data' and calls
 * controller.enqueue from the event; when the consumer cancels (pipeThrough cancels its source as
 * soon as the transform errors, e.g. on the first bad age chunk), the Readable is destroyed but a
 * 'data' event already scheduled still fires, and enqueue on the closed controller throws
 * ERR_INVALID_STATE from an event emitter: an uncaught exception that kills the process before
 * the CLI can clean up (Node 24's adapter checks the state first). Here nothing is enqueued
 * except inside pull(), which the stream never calls after cancel, and a read that completes
 * after cancel (or fails because cancel destroyed the Readable) is dropped.
 */
import type { Readable } from 'node:stream';

export function webReadableFromNode(readable: Readable): ReadableStream<Uint8Array> {
  const it = readable[Symbol.asyncIterator]() as AsyncIterator<Uint8Array | string>;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        let r: IteratorResult<Uint8Array | string>;
        try {
          r = await it.next();
        } catch (e) {
          if (!cancelled) c.error(e);
          return;
        }
        if (cancelled) return;
        if (r.done) return c.close();
        const v = r.value;
        // A copy: Buffers from a file or socket may share a pooled ArrayBuffer.
        c.enqueue(typeof v === 'string' ? new TextEncoder().encode(v) : new Uint8Array(v));
      },
      cancel() {
        cancelled = true;
        // Not it.return(): it would wait for a pending next(), forever on an idle terminal.
        readable.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}
