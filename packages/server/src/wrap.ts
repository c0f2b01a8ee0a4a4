/**
 * `withNen` and `withNenStream`: wrap a route handler of any method so it receives the decrypted
 * request and its result goes back sealed (PROTOCOL.md "Requests and responses", "Streams").
 *
 * Pitfalls:
 *  - One promise less per request where it can: a handler's Response is read inline (under
 *    `next start` every promise also runs the AsyncLocalStorage hooks).
 *  - The session keys (a key-cache reference) are released when the sealed response is built,
 *    or, for streams, when the stream ends or is cancelled; never before.
 *  - A `withNen` route has a second entry (`SEALED_PARTS`) for the Node adapter: the sealed answer
 *    as parts to write, not a Response (sealed-parts.ts); everything before sealing is shared.
 *  - Protocol failures before the handler ran are unauthenticated errors (`reject`); once the
 *    request is open, a handler exception is a sealed 500, or a sealed 400 NEN_BAD_JSON on a
 *    `lazyJson` route whose JSON body does not parse (step 8, deferred to the handler).
 */
import { type Opened, type NenBody, type ServerContext, openIncoming, reject } from './pipeline.js';
import { readAll } from './http.js';
import { deferredJsonError } from './request-view.js';
import { type PlainResult, ResponseBytes, checkUnread, handlerFailed, responsePlain, sealed, valueToPlain } from './respond.js';
import { type SealedParts, sealedParts } from './sealed-parts.js';

import { streamedResponse } from './stream.js';
import { isInner, runInner, runInnerStream } from './ohttp/inner.js';

const EMPTY = new Uint8Array(0);

export interface NenRouteOptions {
  /** Compress this route's responses when the client accepts it (overrides `compression`). */
  compress?: boolean;
  /** Maximum plaintext body for this route, bytes. */
  maxBodyBytes?: number;
  /**
   * Leave a JSON body unparsed until the handler calls `request.json()`, which then checks it
   * (PROTOCOL.md step 8: NEN_BAD_JSON, answered sealed 400 when the handler lets it escape). The
   * handler's third argument is then `undefined` for JSON bodies: for handlers that read the body
   * themselves (the framework adapters set it), not for those that take the parsed body.
   */
  lazyJson?: boolean;
}

export interface NenStreamRouteOptions {
  /** Plaintext content type of the stream (default `text/event-stream`). */
  contentType?: string;
  maxBodyBytes?: number;
  /** As NenRouteOptions.lazyJson. */
  lazyJson?: boolean;
}

export type NenHandler<C> = (request: Request, context: C, body: NenBody) => unknown;
/** What a stream handler yields: each chunk becomes one sealed record. */
export type NenStreamSource = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array> | ReadableStream<string | Uint8Array>;
/**
 * A stream handler: a generator, or a function returning (a promise of) an iterable or a
 * ReadableStream, e.g. `res.body` of the AI SDK's `toUIMessageStreamResponse()`. A ReadableStream
 * is read directly (one `read()` per record, no generator in between).
 */
export type NenStreamHandler<C> = (request: Request, context: C, body: NenBody) => NenStreamSource | Promise<NenStreamSource>;
export type NenRouteHandler<C> = (request: Request, context: C) => Promise<Response>;

/**
 * The key of a `withNen` route's second entry, for adapters that write the answer themselves
 * (`@nen/server/node`): the same route, but a sealed answer comes back as its parts
 * (sealed-parts.ts) instead of a Response; refusals before the handler ran stay Responses.
 * Internal: not exported by the package.
 */
export const SEALED_PARTS: unique symbol = Symbol('nen.sealedParts');
/** A `withNen` route's second entry (SEALED_PARTS). */
export type PartsRoute<C> = (request: Request, context: C) => Promise<Response | SealedParts>;

export function withNen<C>(ctx: ServerContext, handler: NenHandler<C>, options: NenRouteOptions = {}): NenRouteHandler<C> {
  const limit = options.maxBodyBytes ?? ctx.s.maxBody;
  const compress = options.compress ?? ctx.s.compression;
  const lazyJson = options.lazyJson === true;
  const run = async (request: Request, context: C, parts: boolean): Promise<Response | SealedParts> => {
    // an OHTTP gateway's inner request (./ohttp/inner.ts): already authenticated, no session
    if (isInner(request)) return runInner(handler, request, context, lazyJson);
    let o: Opened;
    try {
      o = await openIncoming(ctx, request, limit, lazyJson);
    } catch (e) {
      return reject(ctx, e, request);
    }
    const seal = parts ? sealedParts : sealed;
    try {
      let res: PlainResult;
      if (o.refusal) return seal(ctx, o.refusal, o, false);
      try {
        const value: unknown = await handler(o.handlerRequest, context, o.body);
        if (value instanceof ResponseBytes) {
          res = value;
        } else if (value instanceof Response) {
          // Inline rather than an async helper: one promise less per request.
          const body = value.body ? await readAll(checkUnread(value).body!) : EMPTY;
          res = responsePlain(value, body);
        } else {
          res = valueToPlain(value);
        }
      } catch (e) {
        // lazyJson: a handler that failed on a JSON body that does not parse gets step 8's answer
        res = handlerFailed(ctx, o, (lazyJson && deferredJsonError(o.handlerRequest)) || e);
      }
      return seal(ctx, res, o, compress);
    } catch (e) {
      return reject(ctx, e, request, o.head.sid);
    } finally {
      ctx.cache.release(o.entry);
    }
  };
  // No extra promise per request: each entry returns run's own.
  const route = ((request: Request, context: C) => run(request, context, false)) as NenRouteHandler<C>;
  const partsRoute: PartsRoute<C> = (request, context) => run(request, context, true);
  Object.defineProperty(route, SEALED_PARTS, { value: partsRoute });
  return route;
}

export function withNenStream<C>(ctx: ServerContext, handler: NenStreamHandler<C>, options: NenStreamRouteOptions = {}): NenRouteHandler<C> {
  const limit = options.maxBodyBytes ?? ctx.s.maxBody;
  const contentType = options.contentType ?? 'text/event-stream';
  const lazyJson = options.lazyJson === true;
  return async (request: Request, context: C): Promise<Response> => {
    if (isInner(request)) return runInnerStream(handler, iteratorOf, request, context, lazyJson, contentType);
    let o: Opened;
    try {
      o = await openIncoming(ctx, request, limit, lazyJson);
    } catch (e) {
      return reject(ctx, e, request);
    }
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        ctx.cache.release(o.entry);
      }
    };
    if (o.refusal) {
      try {
        return sealed(ctx, o.refusal, o, false);
      } finally {
        release();
      }
    }
    let it: AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array>;
    try {
      const r = handler(o.handlerRequest, context, o.body);
      it = iteratorOf(r instanceof Promise ? await r : r);
    } catch (e) {
      try {
        return sealed(ctx, handlerFailed(ctx, o, (lazyJson && deferredJsonError(o.handlerRequest)) || e), o, false);
      } finally {
        release();
      }
    }
    return streamedResponse(ctx, o, it, contentType, release);
  };
}

/** One iterator over a stream handler's result; a ReadableStream is read through its own reader. */
function iteratorOf(g: NenStreamSource): AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array> {
  if (g instanceof ReadableStream) {
    const reader = (g as ReadableStream<string | Uint8Array>).getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<string | Uint8Array>>,
      return: async () => {
        await reader.cancel();
        return { done: true, value: undefined };
      },
    };
  }
  if (typeof g === 'object' && g !== null && Symbol.asyncIterator in g) return (g as AsyncIterable<string | Uint8Array>)[Symbol.asyncIterator]();
  if (typeof g === 'object' && g !== null && Symbol.iterator in g) return (g as Iterable<string | Uint8Array>)[Symbol.iterator]();
  throw new TypeError('nen: a withNenStream handler must return an iterable, an async iterable or a ReadableStream');
}
