/**
 * `@nen/server/hono`: Nen for Hono apps, with Web APIs only (runs on @hono/node-server, workerd,
 * Bun, Deno). The middleware opens the sealed request, hands the downstream handlers the
 * decrypted one (`c.req.raw`), and seals whatever Response they produce.
 *
 *   app.all('/api/nen/:action', nenSessionRoutes(nen));       // handshake, rotate, terminate, ...
 *   app.use('/api/notes/*', nenMiddleware(nen));               // sealed request → sealed response
 *   app.use('/api/chat', nenStreamMiddleware(nen));            // one sealed record per chunk
 *
 * Pitfalls:
 *  - A request Nen refuses (bad envelope, replay, unknown session) never reaches the downstream
 *    handlers: it is answered with the same unauthenticated error as under Next.js.
 *  - The sealed Response replaces `c.res` outright (`c.res = undefined` first): Hono's setter
 *    would otherwise copy the plaintext response's headers onto it again.
 *  - `nenMiddleware` reads the downstream body whole before sealing (one record); streaming routes
 *    use `nenStreamMiddleware`, whose sealed stream is always 200 with `contentType` (the
 *    downstream status and content type are not carried: set `contentType` to match). It hands
 *    the downstream body stream itself to the sealer (one record per read()), so the sealed
 *    response starts once the downstream handlers have returned their Response.
 *  - Hono's own error handler (onError) still runs downstream: its 500 goes back sealed.
 *  - The downstream Response's bytes are taken from @hono/node-server's lightweight Response
 *    when it still holds them (`knownBytes`), as that server itself writes it; any other Response
 *    is read through its body.
 *  - The downstream handlers read the body themselves, so a JSON body is not parsed before them
 *    (`lazyJson`, PROTOCOL.md step 8): `c.req.json()` parses it once, as without Nen.
 *  - The Nen route is built once per middleware; the Hono context and `next` reach it per request
 *    as its route context.
 *  - Overlapping mounts (`app.use('/api/*', …)` and `app.use('/api/notes/*', …)`; note that
 *    '/x/*' also matches '/x') open a request once: a request already decrypted (Nen's handler
 *    view, request-view.ts `isDecryptedView`) passes through the second middleware.
 */
import type { Context, Handler, MiddlewareHandler, Next } from 'hono';
import { preferWholeBodyRead } from '../http.js';
import { deferredJsonError, isDecryptedView } from '../request-view.js';
import { ResponseBytes } from '../respond.js';
import type { Nen, NenRouteOptions, NenStreamRouteOptions } from '../nen.js';

/** Replaces `c.res` without Hono merging the previous response's headers into it. */
function replaceResponse(c: Context, response: Response): void {
  c.res = undefined;
  c.res = response;
}

/**
 * What one request hands the Nen route (its route context): the route is built once per
 * middleware, so the per-request Hono context and `next` travel here instead of in a closure.
 */
interface Hop {
  readonly c: Context;
  readonly next: Next;
  /** nenStreamMiddleware: the downstream handlers' run, once started. */
  started?: Promise<Response>;
}

/**
 * Runs the downstream handlers on the decrypted request; resolves to their Response. When they
 * failed (Hono's onError made its 500) on a JSON body that does not parse, step 8's NEN_BAD_JSON
 * is thrown instead, so that withNen answers the sealed 400 the eager check would have given.
 */
async function downstream(hop: Hop, request: Request): Promise<Response> {
  hop.c.req.raw = request;
  await hop.next();
  if (hop.c.error) {
    const bad = deferredJsonError(request);
    if (bad) throw bad;
  }
  return hop.c.res;
}

const EMPTY = new Uint8Array(0);
const utf8 = new TextEncoder();
/** The own-symbol key of @hono/node-server's response cache, once seen. */
let cacheKey: symbol | undefined;

/**
 * The downstream Response's bytes when they are known without reading it: @hono/node-server's
 * lightweight Response keeps `[status, body, headers]` under an own symbol (`cache`) until
 * something reads more than its status and headers, and writes it from there itself. Reading
 * `body` instead builds an undici Response (a copy of the bytes and a web stream: ~10 µs at 1 KB).
 * Anything else (another runtime, a stream or Blob body, a shape this does not recognise) is
 * undefined: the Response is read as any other. Content types as undici's Response gives them.
 */
function knownBytes(res: Response): ResponseBytes | undefined {
  let key = cacheKey;
  if (key === undefined || !(key in res)) {
    key = Object.getOwnPropertySymbols(res).find((k) => k.description === 'cache');
    if (key === undefined) return undefined;
    cacheKey = key;
  }
  const cache = (res as unknown as Record<symbol, unknown>)[key];
  if (!Array.isArray(cache) || cache.length !== 3 || typeof cache[0] !== 'number') return undefined;
  const body: unknown = cache[1];
  let bytes: Uint8Array;
  if (body === null) bytes = EMPTY;
  else if (typeof body === 'string') bytes = utf8.encode(body);
  else if (body instanceof Uint8Array) bytes = body;
  else return undefined;
  const text = typeof body === 'string' ? 'text/plain;charset=UTF-8' : '';
  if (!cache[2]) return new ResponseBytes(cache[0], null, text, bytes);
  const headers = res.headers;
  return new ResponseBytes(cache[0], headers, headers.get('content-type') ?? text, bytes);
}

/** downstream() for nenMiddleware: the Response reduced to its bytes when they are known. */
async function downstreamBytes(hop: Hop, request: Request): Promise<Response | ResponseBytes> {
  const res = await downstream(hop, request);
  return knownBytes(res) ?? res;
}

/**
 * The sealed request as the Nen route reads it. Its body is read with `arrayBuffer()` when its
 * length is known (http.ts preferWholeBodyRead): @hono/node-server answers that from the socket,
 * where `body` would first build a full undici Request.
 */
function incoming(c: Context): Request {
  const raw = c.req.raw;
  preferWholeBodyRead(raw);
  return raw;
}

/** Middleware: a sealed request in, the downstream Response sealed out (one record). */
export function nenMiddleware(nen: Pick<Nen, 'withNen'>, options?: NenRouteOptions): MiddlewareHandler {
  // The downstream handlers read the body themselves (c.req.json(), ...): step 8 is deferred to them.
  const route = nen.withNen<Hop>((request, hop) => downstreamBytes(hop, request), { ...options, lazyJson: true });
  return async (c, next) => {
    if (isDecryptedView(c.req.raw)) return next();
    replaceResponse(c, await route(incoming(c), { c, next }));
  };
}

/** Middleware for streaming routes: the downstream Response body goes out one sealed record per chunk. */
export function nenStreamMiddleware(nen: Pick<Nen, 'withNenStream'>, options?: NenStreamRouteOptions): MiddlewareHandler {
  // The downstream body stream goes to the sealer as is (one record per read(), cancelled with
  // the sealed stream); a downstream failure is a sealed 500.
  const route = nen.withNenStream<Hop>(
    (request, hop) => {
      const started = downstream(hop, request);
      hop.started = started;
      return started.then((res): ReadableStream<Uint8Array> | Uint8Array[] => res.body ?? []);
    },
    { ...options, lazyJson: true },
  );
  return async (c, next) => {
    if (isDecryptedView(c.req.raw)) return next();
    const hop: Hop = { c, next };
    const response = await route(incoming(c), hop);
    // Let the downstream handlers return their Response before this middleware does.
    if (hop.started) await hop.started.catch(() => undefined);
    replaceResponse(c, response);
  };
}

/** The session endpoints for `app.all('<sessionPath>/:action', ...)`: GET/HEAD → routes.GET, others → routes.POST. */
export function nenSessionRoutes(nen: Pick<Nen, 'routes'>): Handler {
  return (c) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? nen.routes.GET(c.req.raw, c) : nen.routes.POST(incoming(c), c));
}
