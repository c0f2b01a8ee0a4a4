/**
 * `createNen(config)`: the Nen server for Next.js App Router route handlers (PROTOCOL.md;
 * THREAT_MODEL.md properties 1-12). It composes the server's modules into one object:
 * `withNen` / `withNenStream` (wrap a route handler of any method), `routes` (the session
 * endpoints from one catch-all route), the session `store`, `ready()`, `publicKeys()`, `close()`.
 *
 *   config.ts       settings from options and env     stores/choose.ts  store choice, wrap key
 *   keyring.ts      backend + static server keys      key-cache.ts      session keys per epoch
 *   pipeline.ts     request checks → open → commit    respond.ts        response sealing
 *   stream.ts       streamed uploads and responses    wrap.ts           withNen, withNenStream
 *   handshake.ts    the handshake route               session-routes.ts the session endpoints
 *   next-edge.ts    the URL as sent, on Next's Edge runtime (route params appended by Next)
 *   ohttp/          the Oblivious HTTP gateway (gateway.ts, routes.ts, inner.ts, stream.ts)
 *
 * Pitfalls: the backend and keys load lazily on first use (or `ready()`); `close()` releases the
 * key material, never a store passed in (close that one yourself). REDIS_URL without a store
 * passed throws NEN_CONFIG (stores/choose.ts).
 */
import { type NenConfig, resolveSettings } from './config.js';
import { KeyCache } from './key-cache.js';
import { KeyringLoader, type PublicKeyInfo } from './keyring.js';
import { forNextEdge } from './next-edge.js';
import type { OhttpGateway } from './ohttp/gateway.js';
import { type NenOhttpOptions, nenOhttpGateway } from './ohttp/routes.js';
import type { ServerContext } from './pipeline.js';
import { HandshakeRateLimiter } from './ratelimit.js';
import { type SessionRoutes, sessionRoutes } from './session-routes.js';
import { chooseStore } from './stores/choose.js';
import type { SessionStore } from './stores/types.js';
import {
  type NenHandler,
  type NenRouteHandler,
  type NenRouteOptions,
  type NenStreamHandler,
  type NenStreamRouteOptions,
  withNen,
  withNenStream,
} from './wrap.js';

export type { NenConfig, NenLogEvent } from './config.js';
export type { OhttpGateway } from './ohttp/gateway.js';
export type { NenOhttpOptions, OhttpRouteTable } from './ohttp/routes.js';
export type { NenBody } from './pipeline.js';
export type { NenHandler, NenRouteHandler, NenRouteOptions, NenStreamHandler, NenStreamRouteOptions, NenStreamSource } from './wrap.js';

export interface Nen {
  withNen<C = unknown>(handler: NenHandler<C>, options?: NenRouteOptions): NenRouteHandler<C>;
  withNenStream<C = unknown>(handler: NenStreamHandler<C>, options?: NenStreamRouteOptions): NenRouteHandler<C>;
  /** Session endpoints for `app/<sessionPath>/[action]/route.ts`: `export const { GET, POST } = nen.routes`. */
  readonly routes: SessionRoutes;
  /** The session store; also usable for one-time claims (`store.claimOnce`), e.g. webhook ids. */
  readonly store: SessionStore;
  /** Resolves once the backend and server keys are loaded (done lazily on first use otherwise). */
  ready(): Promise<void>;
  /** The live server public keys and their client pins. */
  publicKeys(): Promise<PublicKeyInfo[]>;
  /**
   * An Oblivious HTTP gateway (RFC 9458) in front of this app's handlers, replay ids claimed in
   * this instance's store: mount its GET / POST at `/.well-known/ohttp-gateway` (RFC 9540).
   */
  ohttpGateway(options: NenOhttpOptions): OhttpGateway;
  /** Releases the store (when created here), timers and key material. */
  close(): Promise<void>;
}

export function createNen(config: NenConfig = {}): Nen {
  const s = resolveSettings(config);
  const { store, owned } = chooseStore(config.store);
  const ctx: ServerContext = { s, store, cache: new KeyCache(s.keyCacheSize), keyring: new KeyringLoader(s) };
  const limiter = new HandshakeRateLimiter(s.rate, 10_000, s.handshakesPerSecond);
  const routes = sessionRoutes(ctx, limiter);
  return {
    withNen: (handler, options) => forNextEdge(withNen(ctx, handler, options)),
    withNenStream: (handler, options) => forNextEdge(withNenStream(ctx, handler, options)),
    routes: { GET: forNextEdge(routes.GET), POST: forNextEdge(routes.POST) },
    store,
    async ready() {
      await ctx.keyring.load();
    },
    publicKeys: () => ctx.keyring.publicKeys(),
    ohttpGateway: (options) => nenOhttpGateway({ store, log: (e) => s.log(e) }, options),
    async close() {
      ctx.cache.clear();
      await ctx.keyring.close();
      if (owned) await store.close();
    },
  };
}
