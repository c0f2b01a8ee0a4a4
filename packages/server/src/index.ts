/**
 * @nen/server: post-quantum end-to-end payload encryption for Next.js App Router route handlers.
 *
 *   export const nen = createNen();                       // lib/nen.ts
 *   export const { GET, POST } = nen.routes;              // app/api/nen/[action]/route.ts
 *   export const POST = nen.withNen(async (req, ctx, body) => ({ ok: true }));
 *
 * `withNen` / `withNenStream` / `routes` are also exported plain, bound to one default
 * `createNen()` built from the environment on first use (NEN_SERVER_KEYS, NEN_SESSION_TTL, ...).
 * The Redis store is `@nen/server/redis` (optional peer `ioredis`, Node only), passed explicitly:
 * `createNen({ store: redisStore() })`; this entry never loads it.
 *
 * Runtime exports (8): createNen, withNen, withNenStream, routes, memoryStore, parseServerKeys,
 * NenError (every error thrown here is one, with a `code` from ERROR_CODES.md), and
 * StoreUnavailableError (what a custom store throws when its backend is down: 503, fail closed).
 *
 * Pitfall: Edge runtimes and Workers load this entry, so nothing on its import graph may import a
 * `node:` module or ioredis (test/package.test.ts and the workerd bundle test check it).
 */
import { createNen, type Nen, type NenHandler, type NenRouteHandler, type NenRouteOptions, type NenStreamHandler, type NenStreamRouteOptions } from './nen.js';

export { createNen } from './nen.js';
export type {
  Nen,
  NenConfig,
  NenLogEvent,
  NenRouteOptions,
  NenStreamRouteOptions,
  NenHandler,
  NenStreamHandler,
  NenStreamSource,
  NenRouteHandler,
  NenBody,
  OhttpGateway,
  NenOhttpOptions,
  OhttpRouteTable,
} from './nen.js';
export type { OhttpGatewayOptions } from './ohttp/gateway.js';
export { memoryStore, type MemoryStore, type MemoryStoreOptions } from './stores/memory.js';
export type { SessionStore, SessionRecord, SessionPatch, CommitResult, RetryVerdict } from './stores/types.js';
export type { SessionRoutes } from './session-routes.js';
export type { PublicKeyInfo } from './keyring.js';
export { parseServerKeys, type ServerKeySpec } from './keys.js';
export { StoreUnavailableError } from './errors.js';
export type { NenConfigError } from './errors.js';
export { NenError } from '@nen/core';

const DEFAULT = Symbol.for('nen.server.default');

/** The process-wide default instance (globalThis, so it survives `next dev` reloads). */
function defaultNen(): Nen {
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
