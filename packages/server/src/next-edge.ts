/**
 * Next.js Edge runtime: the request URL as the client sent it. Next's Edge adapter appends the
 * values of dynamic route segments to `request.url` as query parameters (`/api/nen/rotate` reaches
 * an `[action]` route as `/api/nen/rotate?action=rotate`), while Nen authenticates the path and
 * query the client sealed: without this, every sealed request to a dynamic Edge route would fail
 * with NEN_AUTH_FAILED. Node-runtime routes, Workers and plain servers are untouched.
 *
 * Pitfalls:
 *  - Only on Next's Edge runtime (`globalThis.EdgeRuntime`), and only a parameter whose name is a
 *    route parameter AND whose values are exactly the route parameter's (one value per catch-all
 *    segment, or the segments joined by '/'). Next itself deletes a client's own query parameter
 *    of that name before appending, so nothing the client sent is removed here.
 *  - `context.params` is a Promise in Next 15+: one extra await, on Edge only.
 */

type Handler<C> = (request: Request, context: C) => Promise<Response>;

const onNextEdge = (): boolean => typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime === 'string';

function sameValues(got: string[], want: string[]): boolean {
  return got.length === want.length && got.every((g, i) => g === want[i]);
}

/** `request` without the query parameters Next's Edge adapter added for `params`. */
export function withoutRouteParams(request: Request, params: unknown): Request {
  if (typeof params !== 'object' || params === null) return request;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return request;
  }
  let changed = false;
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
    if (!url.searchParams.has(key)) continue;
    const want = Array.isArray(value) ? value.map(String) : [String(value)];
    const got = url.searchParams.getAll(key);
    if (sameValues(got, want) || (want.length > 1 && sameValues(got, [want.join('/')]))) {
      url.searchParams.delete(key);
      changed = true;
    }
  }
  if (!changed) return request;
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.body) {
    init.body = request.body;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/** On Next's Edge runtime, `handler` sees the URL the client sent; elsewhere `handler` itself. */
export function forNextEdge<C>(handler: Handler<C>): Handler<C> {
  if (!onNextEdge()) return handler;
  return async (request, context) => {
    let params: unknown;
    try {
      params = await (context as { params?: unknown } | undefined)?.params;
    } catch {
      params = undefined;
    }
    return handler(withoutRouteParams(request, params), context);
  };
}
