/**
 * `nen.ohttpGateway(...)`: the gateway bound to a Nen instance (its store for replay ids, its
 * logger) and to the application's routes. On Next.js there is no in-process dispatch to other
 * route files, so the app lists the handlers the gateway may reach:
 *
 *   export const gateway = nen.ohttpGateway({ routes: { '/api/notes': { GET, POST } } });
 *   export const { GET, POST } = gateway;          // app/.well-known/ohttp-gateway/route.ts
 *
 * Frameworks with an in-process dispatch pass it instead: Hono `dispatch: (r) => app.fetch(r)`.
 *
 * Pitfalls:
 *  - Only listed paths are reachable (404 otherwise, 405 for an unlisted method): the gateway is
 *    never an open proxy. The path is matched exactly, without the query.
 *  - Keys: `keys`, else the NEN_OHTTP_KEYS variable (separate from NEN_SERVER_KEYS, RFC 9458
 *    §6.4); missing keys throw NEN_CONFIG when the gateway is created.
 */
import { OHTTP_KEM, type OhttpGatewayKeys, generateOhttpKey } from '@nen/core';
import { env } from '../config.js';
import { NenConfigError } from '../errors.js';
import { type OhttpGateway, type OhttpGatewayOptions, createOhttpGateway, problem } from './gateway.js';
import { InnerRequest } from './inner-request.js';

/** A route's handlers by method, as a Next.js route file exports them. */
export type OhttpRouteTable = Record<
  string,
  Partial<Record<string, (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>>>
>;

export interface NenOhttpOptions extends Partial<Omit<OhttpGatewayOptions, 'store' | 'keys' | 'dispatch'>> {
  readonly keys?: OhttpGatewayKeys | string;
  /** The handlers reachable through the gateway, by exact path. */
  readonly routes?: OhttpRouteTable;
  /** Or an in-process dispatcher (e.g. Hono's `app.fetch`). */
  readonly dispatch?: (request: Request) => Response | Promise<Response>;
  /**
   * Development only: without `keys` and NEN_OHTTP_KEYS, generate an X-Wing and an X25519 key for
   * this process (clients cannot pin them; a restart changes them) instead of throwing NEN_CONFIG.
   */
  readonly ephemeralKeys?: boolean;
}

/** The route context a Next.js handler gets: `params` (none: the paths are exact) made only when read. */
function routeContext(): { readonly params: Promise<Record<string, string>> } {
  let params: Promise<Record<string, string>> | undefined;
  return {
    get params() {
      params ??= Promise.resolve({});
      return params;
    },
  };
}

/** Dispatch by exact path and method; not async (the handler's own promise is the answer: none added per request). */
export function routeDispatch(table: OhttpRouteTable): (request: Request) => Response | Promise<Response> {
  const routes = new Map(Object.entries(table));
  return (request) => {
    const route = routes.get(InnerRequest.pathname(request));
    if (!route) return problem('NEN_NOT_FOUND');
    const h = route[request.method];
    if (!h) return problem('NEN_METHOD_NOT_ALLOWED', 'about:blank', { allow: Object.keys(route).join(', ') });
    return h(request, routeContext());
  };
}

export function nenOhttpGateway(base: Pick<OhttpGatewayOptions, 'store' | 'log'>, o: NenOhttpOptions): OhttpGateway {
  const keys =
    o.keys ?? env('NEN_OHTTP_KEYS') ?? (o.ephemeralKeys ? `${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}` : undefined);
  if (!keys) throw new NenConfigError('OHTTP gateway: no keys (pass `keys` or set NEN_OHTTP_KEYS; `nen keygen --ohttp` makes one)');
  const dispatch = o.dispatch ?? (o.routes ? routeDispatch(o.routes) : undefined);
  if (!dispatch) throw new NenConfigError('OHTTP gateway: pass `routes` or `dispatch`');
  const { ephemeralKeys: _unused, ...rest } = o;
  return createOhttpGateway({ ...base, ...rest, keys, dispatch });
}
