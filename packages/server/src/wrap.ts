/**
 * `withNen` and `withNenStream`: wrap a route handler of any method so it receives the decrypted
 * request and its result goes back sealed (PROTOCOL.md "Requests and responses", "Streams").
 *
 * Pitfalls:
 *  - One promise less per request where it can: a handler's Response is read inline (under
 *    `next start` every promise also runs the AsyncLocalStorage hooks).
 *  - The session keys (a key-cache reference) are released when the sealed response is built,
 *    or, for streams, when the stream ends or is cancelled; never before.
 *  - Protocol failures before the handler ran are unauthenticated errors (`reject`); once the
 *    request is open, a handler exception is a sealed 500.
 */
import { type Opened, type NenBody, type ServerContext, openIncoming, reject } from './pipeline.js';
import { readAll } from './http.js';
import { type PlainResult, checkUnread, handlerFailed, responsePlain, sealed, valueToPlain } from './respond.js';

const EMPTY = new Uint8Array(0);
import { streamedResponse } from './stream.js';

export interface NenRouteOptions {
  /** Compress this route's responses when the client accepts it (overrides `compression`). */
  compress?: boolean;
  /** Maximum plaintext body for this route, bytes. */
  maxBodyBytes?: number;
}

export interface NenStreamRouteOptions {
  /** Plaintext content type of the stream (default `text/event-stream`). */
  contentType?: string;
  maxBodyBytes?: number;
}

export type NenHandler<C> = (request: Request, context: C, body: NenBody) => unknown;
export type NenStreamHandler<C> = (request: Request, context: C, body: NenBody) => AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
export type NenRouteHandler<C> = (request: Request, context: C) => Promise<Response>;

export function withNen<C>(ctx: ServerContext, handler: NenHandler<C>, options: NenRouteOptions = {}): NenRouteHandler<C> {
  const limit = options.maxBodyBytes ?? ctx.s.maxBody;
  const compress = options.compress ?? ctx.s.compression;
  return async (request: Request, context: C): Promise<Response> => {
    let o: Opened;
    try {
      o = await openIncoming(ctx, request, limit);
    } catch (e) {
      return reject(ctx, e, request);
    }
    try {
      let res: PlainResult;
      if (o.refusal) return sealed(ctx, o.refusal, o, false);
      try {
        const value: unknown = await handler(o.handlerRequest, context, o.body);
        if (value instanceof Response) {
          // Inline rather than an async helper: one promise less per request.
          const body = value.body ? await readAll(checkUnread(value).body!) : EMPTY;
          res = responsePlain(value, body);
        } else {
          res = valueToPlain(value);
        }
      } catch (e) {
        res = handlerFailed(ctx, o, e);
      }
      return sealed(ctx, res, o, compress);
    } catch (e) {
      return reject(ctx, e, request, o.head.sid);
    } finally {
      ctx.cache.release(o.entry);
    }
  };
}

export function withNenStream<C>(ctx: ServerContext, handler: NenStreamHandler<C>, options: NenStreamRouteOptions = {}): NenRouteHandler<C> {
  const limit = options.maxBodyBytes ?? ctx.s.maxBody;
  const contentType = options.contentType ?? 'text/event-stream';
  return async (request: Request, context: C): Promise<Response> => {
    let o: Opened;
    try {
      o = await openIncoming(ctx, request, limit);
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
      const g = handler(o.handlerRequest, context, o.body);
      it =
        Symbol.asyncIterator in g ? (g as AsyncIterable<string | Uint8Array>)[Symbol.asyncIterator]() : (g as Iterable<string | Uint8Array>)[Symbol.iterator]();
    } catch (e) {
      try {
        return sealed(ctx, handlerFailed(ctx, o, e), o, false);
      } finally {
        release();
      }
    }
    return streamedResponse(ctx, o, it, contentType, release);
  };
}
