/**
 * Binary HTTP messages (RFC 9292) <-> Web Request / Response, for the OHTTP gateway.
 *
 * Pitfalls:
 *  - The inner request's URL is built from its scheme, authority and path; an empty authority
 *    (allowed by RFC 9292) takes the gateway request's host. The gateway dispatches by path to
 *    its own routes only: it is not a proxy to the authority the client names. Its href and the
 *    route's pathname always come from one reading of the URL (`innerUrl`: the URL parser, or
 *    the plain-path shortcut where both give the same).
 *  - Connection-specific fields (RFC 9110 §7.6.1) and `host` are dropped from the inner request;
 *    trailers are not carried (Web Requests have none).
 *  - Response fields that Web Responses cannot carry (set-cookie is kept; hop-by-hop dropped).
 *  - The inner request's `signal` is the outer request's, read on first use (it aborts when the
 *    client or relay goes away); an undici Request's own would cost ~20 µs per request.
 */
import type { BhttpRequest, FieldLine } from '@nen/core';
import { plainRequestUrl } from '../adapters/request-url.js';
import { InnerRequest } from './inner-request.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'host', 'content-length']);

/** The gateway-built inner request (inner-request.ts: an undici Request only if a handler asks for one). */
export function innerRequest(b: BhttpRequest, gateway: URL | (() => string), signal?: AbortSignal | (() => AbortSignal)): Request {
  // the gateway's host only when the authority is empty (the gateway passes a thunk: no outer URL parse per request)
  const authority = b.authority || (typeof gateway === 'function' ? gateway() : gateway.host);
  const { href, pathname } = innerUrl(`${b.scheme === 'http' ? 'http' : 'https'}://`, authority, b.path);
  const fields = b.headers.filter(([n]) => !HOP_BY_HOP.has(n));
  const hasBody = b.content.length > 0 && b.method !== 'GET' && b.method !== 'HEAD';
  // `signal` is the outer request's, read only when a handler asks (the node adapter makes its own on first use)
  const follow = signal === undefined ? undefined : typeof signal === 'function' ? signal : () => signal;
  return new InnerRequest(href, b.method, fields, hasBody ? b.content : new Uint8Array(0), follow, pathname) as unknown as Request;
}

/** A host[:port] whose characters the URL parser reads as the host and port, up to the path's '/'. */
const PLAIN_AUTHORITY = /^[A-Za-z0-9.-]+(?::[0-9]*)?$/;

/**
 * `new URL(scheme + authority + path)`'s href and pathname; without the parser (../adapters/
 * request-url.ts) when the authority is a plain host[:port] and the path is plain: then the two
 * agree (the path is kept as it is, its pathname is the part before '?'). Anything else is parsed
 * whole, as before (a path not led by a single '/' is read against the authority, not resolved).
 */
function innerUrl(scheme: string, authority: string, path: string): { href: string; pathname: string } {
  const href = PLAIN_AUTHORITY.test(authority) ? plainRequestUrl(path, scheme + authority) : null;
  if (href !== null) {
    const q = path.indexOf('?');
    return { href, pathname: q < 0 ? path : path.slice(0, q) };
  }
  const url = new URL(scheme + authority + path);
  return { href: url.href, pathname: url.pathname };
}

/** The response's header fields for Binary HTTP (lowercase, hop-by-hop dropped). */
export function responseFields(res: Response): FieldLine[] {
  const out: FieldLine[] = [];
  res.headers.forEach((v, n) => {
    if (!HOP_BY_HOP.has(n)) out.push([n, v]);
  });
  return out;
}
