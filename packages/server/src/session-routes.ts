/**
 * The session endpoints from one catch-all route (`app/<sessionPath>/[action]/route.ts`:
 * `export const { GET, POST } = nen.routes`): handshake, rotate, terminate, status, keys. The
 * action is the last path segment; one action → method → handler table answers 404 / 405.
 *
 * Pitfalls:
 *  - rotate, terminate and status go through the same sealed pipeline as `withNen` (authenticated
 *    by the session itself); keys is public (the pins).
 *  - rotate keeps the previous epoch secret for `rotateGraceMs`, so requests already in flight
 *    under the old epoch still open; the new epoch's keys go straight into the key cache.
 *  - POST has a second entry (wrap.ts SEALED_PARTS) for the node:http adapter: the same dispatch,
 *    but the handshake's ServerHello comes back as its parts (handshake.ts), not a Response.
 */
import { type KemId, SessionKeys, kemName, nextEpochSecret, wireError } from '@nen/core';
import { handshakeRoute } from './handshake.js';
import { errorResponse } from './http.js';
import { type Opened, type ServerContext, openIncoming, reject } from './pipeline.js';
import type { HandshakeRateLimiter } from './ratelimit.js';
import { sealed, valueToPlain } from './respond.js';
import type { SealedParts } from './sealed-parts.js';
import { type PartsRoute, SEALED_PARTS } from './wrap.js';

type Method = 'GET' | 'POST';
type Action = 'rotate' | 'terminate' | 'status';

export type SessionRoutes = {
  GET: (request: Request, context?: unknown) => Promise<Response>;
  POST: (request: Request, context?: unknown) => Promise<Response>;
};

function status(ctx: ServerContext, o: Opened): unknown {
  return {
    id: o.head.sid,
    epoch: o.session.epoch,
    expiresAt: o.session.expiresAt,
    idleTimeoutSeconds: Math.round(o.session.idleTimeoutMs / 1000),
    lastSeenAt: o.session.lastSeenAt,
    kem: typeof o.session.meta.kem === 'number' ? kemName(o.session.meta.kem as KemId) : null,
    keyId: o.session.meta.kid ?? null,
    serverTime: ctx.s.clock(),
  };
}

async function terminate(ctx: ServerContext, o: Opened): Promise<unknown> {
  await ctx.store.delete(o.head.sid);
  ctx.cache.evictSession(o.head.sid, o.head.meta.epoch);
  ctx.s.log({ level: 'info', event: 'session.terminate', session: o.head.sid.slice(0, 8) });
  return { terminated: true };
}

async function rotate(ctx: ServerContext, o: Opened): Promise<unknown> {
  const { store, s } = ctx;
  const sid = o.head.sid;
  if (o.head.meta.epoch !== o.session.epoch) throw wireError('NEN_SESSION_UNKNOWN', 'rotate must use the current epoch');
  const st = ctx.keyring.current ?? (await ctx.keyring.load());
  const rec = await store.get(sid, s.clock());
  if (!rec) throw wireError('NEN_SESSION_UNKNOWN', 'session vanished during rotate');
  const cur = rec.secret.subarray(0, 32);
  const next = nextEpochSecret(st.backend, cur);
  const both = new Uint8Array(64);
  both.set(next, 0);
  both.set(cur, 32);
  const ok = await store.update(sid, { secret: both, epoch: rec.epoch + 1, meta: { ...rec.meta, prevUntil: s.clock() + s.grace } });
  rec.secret.fill(0);
  both.fill(0);
  if (!ok) throw wireError('NEN_SESSION_UNKNOWN', 'session vanished during rotate');
  ctx.cache.release(ctx.cache.put(sid, rec.epoch + 1, new SessionKeys(st.backend, next, rec.epoch + 1)));
  next.fill(0);
  s.log({ level: 'info', event: 'session.rotate', session: sid.slice(0, 8), reason: `epoch ${rec.epoch + 1}` });
  return { epoch: rec.epoch + 1 };
}

const ACTIONS: Record<Action, (ctx: ServerContext, o: Opened) => unknown> = { status, terminate, rotate };

/** Authenticated session actions: the same sealed pipeline as withNen. */
async function sessionAction(ctx: ServerContext, action: Action, request: Request): Promise<Response> {
  let o: Opened;
  try {
    o = await openIncoming(ctx, request, 1024);
  } catch (e) {
    return reject(ctx, e, request);
  }
  try {
    return sealed(ctx, o.refusal ?? valueToPlain(await ACTIONS[action](ctx, o)), o, false);
  } catch (e) {
    return reject(ctx, e, request, o.head.sid);
  } finally {
    ctx.cache.release(o.entry);
  }
}

/** The last path segment (trailing slashes ignored) without a URL parse: a Request's url is serialized. */
function actionOf(request: Request): string {
  const raw = request.url;
  const scheme = raw.indexOf('://');
  const pathStart = scheme < 0 ? -1 : raw.indexOf('/', scheme + 3);
  if (pathStart < 0) return '';
  let end = raw.length;
  for (const c of ['?', '#']) {
    const i = raw.indexOf(c, pathStart);
    if (i >= 0 && i < end) end = i;
  }
  while (end > pathStart && raw.charCodeAt(end - 1) === 0x2f) end--; // trailing '/'
  if (end === pathStart) return '';
  return raw.slice(raw.lastIndexOf('/', end - 1) + 1, end);
}

export function sessionRoutes(ctx: ServerContext, limiter: HandshakeRateLimiter): SessionRoutes {
  const act = (a: Action) => (r: Request) => sessionAction(ctx, a, r);
  /** The session endpoints: action (last path segment) → method → handler. */
  const table: Record<string, Partial<Record<Method, (request: Request, parts: boolean) => Promise<Response | SealedParts>>>> = {
    handshake: { POST: (r, parts) => handshakeRoute(ctx, limiter, r, parts) },
    rotate: { POST: act('rotate') },
    terminate: { POST: act('terminate') },
    status: { POST: act('status'), GET: act('status') },
    keys: { GET: async () => Response.json({ keys: await ctx.keyring.publicKeys() }, { headers: { 'cache-control': 'no-store' } }) },
  };
  const dispatch = async (method: Method, request: Request, parts: boolean): Promise<Response | SealedParts> => {
    try {
      const action = actionOf(request);
      const methods = Object.hasOwn(table, action) ? table[action] : undefined;
      if (!methods) return errorResponse('NEN_NOT_FOUND');
      const handler = methods[method];
      if (!handler) return errorResponse('NEN_METHOD_NOT_ALLOWED', { allow: Object.keys(methods).join(', ') });
      return await handler(request, parts);
    } catch (e) {
      return reject(ctx, e, request);
    }
  };
  const POST = (request: Request) => dispatch('POST', request, false) as Promise<Response>;
  const partsRoute: PartsRoute<unknown> = (request) => dispatch('POST', request, true);
  Object.defineProperty(POST, SEALED_PARTS, { value: partsRoute });
  return { POST, GET: (request) => dispatch('GET', request, false) as Promise<Response> };
}
