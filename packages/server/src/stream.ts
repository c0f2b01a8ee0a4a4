/**
 * Streams (PROTOCOL.md "Streams"; THREAT_MODEL.md property 10): streamed request bodies (the
 * first record authenticated and the request committed before the handler runs, the rest opened
 * lazily), and `withNenStream` responses (one sealed record per chunk, then a final record).
 *
 * Pitfalls:
 *  - A streamed upload is committed after its FIRST record authenticates: later records that fail
 *    make the handler's body stream error (and the size limit is enforced as records arrive).
 *  - An upload that ends without its final record: NEN_STREAM_TRUNCATED (400) before the first
 *    record; after it, the handler's body stream errors with NEN_STREAM_TRUNCATED (respond.ts
 *    answers a sealed 400 when the handler lets it propagate).
 *  - `pull` loops until it enqueues, closes or errors: a network chunk may complete no record
 *    (records crossing chunk boundaries) or only an empty one; returning without enqueuing would
 *    leave the handler's read pending forever (highWaterMark 0).
 *  - A response stream that throws sends no final record: the client reports a truncated stream.
 *  - The session keys are held (cache reference) until the stream ends or is cancelled.
 *  - A response pull keeps sealing while each record is taken at once by a waiting reader; a
 *    cancel during its wait for the source ends it quietly (no enqueue on a cancelled stream, no
 *    stream.error log).
 */
import { type RequestHead, openRequestStream, sealResponseStream, wireError } from '@nen/core';
import type { CacheEntry } from './key-cache.js';
import { committed } from './commit-verdict.js';
import type { Opened, ServerContext } from './pipeline.js';
import { handlerRequest } from './request-view.js';
import { timingHeader } from './respond.js';

const EMPTY = new Uint8Array(0);
const textEncoder = new TextEncoder();

/** Opens a streamed request body: first record + commit now, the rest as the handler reads. */
export async function openStreamedUpload(
  ctx: ServerContext,
  request: Request,
  head: RequestHead,
  entry: CacheEntry,
  limit: number,
  now: number,
  t0: number,
  storeMs: number,
): Promise<Opened> {
  if (!request.body) throw wireError('NEN_MALFORMED', 'stream request without a body');
  const reader = request.body.getReader();
  const opener = openRequestStream(head, entry.keys);
  const first: Uint8Array[] = [];
  let total = 0;
  while (opener.recordsOpened === 0) {
    const r = await reader.read();
    if (r.done) {
      opener.end();
      break;
    }
    first.push(...opener.push(r.value));
  }
  const session = committed(ctx, await ctx.store.commit(head.sid, head.meta.seq, now, head.meta.epoch), head, now);
  for (const c of first) total += c.length;
  if (total > limit) throw wireError('NEN_TOO_LARGE', 'streamed body exceeds the limit');
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        for (const x of first) if (x.length > 0) c.enqueue(x);
        if (opener.finished) c.close();
      },
      async pull(c) {
        try {
          for (;;) {
            const r = await reader.read();
            if (r.done) {
              opener.end();
              c.close();
              return;
            }
            let enqueued = false;
            for (const x of opener.push(r.value)) {
              total += x.length;
              if (total > limit) throw wireError('NEN_TOO_LARGE', 'streamed body exceeds the limit');
              if (x.length === 0) continue;
              c.enqueue(x);
              enqueued = true;
            }
            if (opener.finished) {
              c.close();
              await reader.cancel().catch(() => undefined);
              return;
            }
            if (enqueued) return;
          }
        } catch (e) {
          c.error(e);
          await reader.cancel().catch(() => undefined);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const hr = handlerRequest(request, head, null, stream);
  return { head, entry, session, handlerRequest: hr, body: stream, cryptoMs: performance.now() - t0 - storeMs, storeMs };
}

/** The sealed streaming Response of `withNenStream`; `release` runs once when the stream ends or is cancelled. */
export function streamedResponse(
  ctx: ServerContext,
  o: Opened,
  it: AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array>,
  contentType: string,
  release: () => void,
): Response {
  const { headers, sealer } = sealResponseStream({ keys: o.entry.keys, meta: o.head.meta, method: o.head.method }, contentType);
  const path = o.head.path.slice(0, 200);
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      // One pull seals chunks for as long as each record goes straight to a reader already waiting
      // for it (desiredSize stays 0 with highWaterMark 0): while the consumer keeps up (almost
      // always: Next's pipe to the socket), a record costs one read of the source and no pull
      // round trip through the stream (its promises run Next's async hooks). A record that had to
      // be queued ends the pull: backpressure as before, at most one sealed record waiting.
      async pull(c) {
        try {
          for (;;) {
            const r = await it.next();
            if (cancelled) return; // cancelled while waiting for the source
            if (r.done) {
              c.enqueue(sealer.seal(EMPTY, true));
              c.close();
              release();
              return;
            }
            const v = r.value;
            c.enqueue(sealer.seal(typeof v === 'string' ? textEncoder.encode(v) : v, false));
            if ((c.desiredSize ?? 0) < 0) return;
          }
        } catch (e) {
          if (cancelled) return;
          // No final record: the client reports a truncated stream.
          ctx.s.log({
            level: 'error',
            event: 'stream.error',
            code: 'NEN_INTERNAL',
            reason: e instanceof Error ? e.message : String(e),
            session: o.head.sid.slice(0, 8),
            path,
          });
          c.error(e);
          release();
        }
      },
      async cancel() {
        cancelled = true;
        try {
          await it.return?.();
        } finally {
          release();
        }
      },
    },
    { highWaterMark: 0 },
  );
  headers.push(['cache-control', 'no-store'], ['x-accel-buffering', 'no']);
  if (ctx.s.serverTiming) headers.push(['server-timing', timingHeader(o, 0)]);
  return new Response(body, { status: 200, headers });
}
