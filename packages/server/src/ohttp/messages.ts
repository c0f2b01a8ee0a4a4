/**
 * Binary HTTP messages (RFC 9292) <-> Web Request / Response, for the OHTTP gateway.
 *
 * Pitfalls:
 *  - The inner request's URL is built from its scheme, authority and path; an empty authority
 *    (allowed by RFC 9292) takes the gateway request's host. The gateway dispatches by path to
 *    its own routes only: it is not a proxy to the authority the client names.
 *  - Connection-specific fields (RFC 9110 §7.6.1) and `host` are dropped from the inner request;
 *    trailers are not carried (Web Requests have none).
 *  - Response fields that Web Responses cannot carry (set-cookie is kept; hop-by-hop dropped).
 *  - The inner request's `signal` is the outer request's, read on first use (it aborts when the
 *    client or relay goes away); it is not handed to the Request constructor (see followSignal).
 */
import type { BhttpRequest, FieldLine } from '@nen/core';
import { markInner } from './inner.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'host', 'content-length']);

export function innerRequest(b: BhttpRequest, gatewayUrl: URL, signal?: AbortSignal | (() => AbortSignal)): Request {
  const authority = b.authority || gatewayUrl.host;
  const url = new URL(`${b.scheme === 'http' ? 'http' : 'https'}://${authority}${b.path}`);
  const headers = new Headers();
  for (const [n, v] of b.headers) if (!HOP_BY_HOP.has(n)) headers.append(n, v);
  const hasBody = b.content.length > 0 && b.method !== 'GET' && b.method !== 'HEAD';
  const init: RequestInit = { method: b.method, headers, ...(hasBody ? { body: b.content as Uint8Array<ArrayBuffer> } : {}) };
  const r = new Request(url, init);
  markInner(r, hasBody ? b.content : new Uint8Array(0));
  if (signal) followSignal(r, signal);
  return r;
}

/**
 * `request.signal` is the outer request's signal, read only when a handler asks: handed to
 * undici's Request constructor it cost ~20 µs per request (a signal of its own following it, see
 * adapters/node-http.ts), and the node adapter's outer signal is itself made on first use.
 */
function followSignal(request: Request, signal: AbortSignal | (() => AbortSignal)): void {
  Object.defineProperty(request, 'signal', { configurable: true, get: typeof signal === 'function' ? signal : () => signal });
}

/** The response's header fields for Binary HTTP (lowercase, hop-by-hop dropped). */
export function responseFields(res: Response): FieldLine[] {
  const out: FieldLine[] = [];
  res.headers.forEach((v, n) => {
    if (!HOP_BY_HOP.has(n)) out.push([n, v]);
  });
  return out;
}
