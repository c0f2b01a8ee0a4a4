/**
 * @nen/server: post-quantum end-to-end payload encryption for Next.js App Router route handlers.
 *
 *   export const nen = createNen();                       // lib/nen.ts
 *   export const { GET, POST } = nen.routes;              // app/api/nen/[action]/route.ts
 *   export const POST = nen.withNen(async (req, ctx, body) => ({ ok: true }));
 *
 * `withNen` / `withNenStream` are also exported plain, bound to one default `createNen()` built
 * from the environment on first use (NEN_SERVER_KEYS, REDIS_URL, NEN_SESSION_TTL, ...).
 */
import { createNen, type Nen, type NenHandler, type NenRouteHandler, type NenRouteOptions, type NenStreamHandler, type NenStreamRouteOptions } from './nen.js';

export { createNen } from './nen.js';
export type { Nen, NenConfig, NenLogEvent, NenRouteOptions, NenStreamRouteOptions, NenHandler, NenStreamHandler, NenRouteHandler, NenBody } from './nen.js';
export { memoryStore, MemoryStore, type MemoryStoreOptions } from './stores/memory.js';
export { redisStore, type RedisStoreOptions, type RedisStoreEvent } from './stores/redis.js';
export { REPLAY_WINDOW, StoreUnavailableError, type SessionStore, type SessionRecord, type CommitResult } from './stores/types.js';
export { parseServerKeys, generateServerKey, NenConfigError, type ServerKeySpec } from './keys.js';
export { NenError, NenProtocolError, WIRE_ERRORS } from '@nen/core';

const DEFAULT = Symbol.for('nen.server.default');

/** The process-wide default instance (globalThis, so it survives `next dev` reloads). */
export function defaultNen(): Nen {
  const g = globalThis as typeof globalThis & { [DEFAULT]?: Nen };
  return (g[DEFAULT] ??= createNen());
}

/** `withNen` of the default instance (configured from the environment). */
export function withNen<C = unknown>(handler: NenHandler<C>, options?: NenRouteOptions): NenRouteHandler<C> {
  let h: NenRouteHandler<C> | undefined;
  return (request, context) => (h ??= defaultNen().withNen(handler, options))(request, context);
}

/** `withNenStream` of the default instance. */
export function withNenStream<C = unknown>(handler: NenStreamHandler<C>, options?: NenStreamRouteOptions): NenRouteHandler<C> {
  let h: NenRouteHandler<C> | undefined;
  return (request, context) => (h ??= defaultNen().withNenStream(handler, options))(request, context);
}

/** Session endpoints of the default instance. */
export const routes = {
  GET: (request: Request, context?: unknown) => defaultNen().routes.GET(request, context),
  POST: (request: Request, context?: unknown) => defaultNen().routes.POST(request, context),
};
