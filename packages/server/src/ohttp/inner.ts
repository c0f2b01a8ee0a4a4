/**
 * Inner requests of the OHTTP gateway reaching `withNen` / `withNenStream` handlers unchanged
 * (PROTOCOL.md "Oblivious HTTP mode", docs/adapters.md). The gateway builds a Web Request from the
 * decapsulated Binary HTTP request and marks it here; a `withNen` route that receives a marked
 * request runs its handler on it directly (no session envelope: OHTTP's AEAD already
 * authenticated it) and returns the handler's plain Response, which the gateway encapsulates.
 *
 * What a handler can rely on, as in session mode: the method, path, query, headers and body are
 * exactly what the client encapsulated (HPKE AEAD, RFC 9458 §4.3), the request is not a replay
 * (the gateway claimed its enc in the store before dispatch), and a JSON body was parsed (or
 * refused with 400 NEN_BAD_JSON). It cannot rely on a session: there is none (no session id, no
 * client identity; a relay hides even the address).
 *
 * Pitfalls:
 *  - The mark is the request's class (inner-request.ts `InnerRequest`, which only the gateway in
 *    this process constructs): no header or network input can forge it, and nothing is kept per
 *    request beside it.
 *  - The inner body bytes are the request's own `content`, so the handler's `request.json()` still
 *    works after the parse here (this module never reads the request's body).
 */
import { NenProtocolError } from '@nen/core';
import { errorResponse } from '../http.js';
import { parseJsonBody } from '../request-view.js';
import { ResponseBytes, valueToPlain } from '../respond.js';
import { InnerRequest } from './inner-request.js';
import { InnerResponse } from './inner-response.js';

export function isInner(request: Request): boolean {
  return request instanceof InnerRequest;
}

function isJsonType(ct: string | null): boolean {
  if (!ct) return false;
  const t = ct.split(';')[0]?.trim().toLowerCase() ?? '';
  return t === 'application/json' || t.endsWith('+json');
}

/** The third handler argument, as session mode computes it: parsed JSON, bytes, or undefined. */
function innerBody(request: Request, lazyJson: boolean): unknown {
  const body = (request as unknown as InnerRequest).content;
  if (body.length === 0) return undefined;
  if (isJsonType(request.headers.get('content-type'))) return lazyJson ? undefined : parseJsonBody(body);
  return body;
}

function failed(e: unknown): Response {
  for (let x = e, d = 0; x && d < 4; x = (x as { cause?: unknown }).cause, d++) {
    if (x instanceof NenProtocolError && x.code === 'NEN_BAD_JSON') return errorResponse('NEN_BAD_JSON');
  }
  return errorResponse('NEN_INTERNAL');
}

/** Statuses whose Response has no body (a body with one is refused as the Response constructor does). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A handler result as a plain Response (the gateway encapsulates it): lazily built when it can be. Synchronous: no promise per request. */
function toResponse(value: unknown): Response {
  if (value instanceof Response) return value;
  const p = value instanceof ResponseBytes ? value : valueToPlain(value);
  if (p.status >= 200 && p.status <= 599 && !(NULL_BODY.has(p.status) && p.body.length > 0)) return new InnerResponse(p) as unknown as Response;
  const headers = new Headers(p.headers ?? undefined);
  if (p.contentType) headers.set('content-type', p.contentType);
  return new Response(p.body.length > 0 ? (p.body as Uint8Array<ArrayBuffer>) : null, { status: p.status, statusText: p.statusText, headers });
}

/** `withNen` on a gateway-built request: the handler runs on it directly. */
export async function runInner<C>(
  handler: (request: Request, context: C, body: unknown) => unknown,
  request: Request,
  context: C,
  lazyJson: boolean,
): Promise<Response> {
  try {
    // one await: a handler's value is answered synchronously (under `next start` every promise
    // also runs the AsyncLocalStorage hooks of each store Next keeps)
    const r = handler(request, context, innerBody(request, lazyJson));
    return toResponse(typeof (r as { then?: unknown } | null)?.then === 'function' ? await r : r);
  } catch (e) {
    return failed(e);
  }
}

type Chunks = AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array>;

/** `withNenStream` on a gateway-built request: the handler's chunks as a plain streamed body. */
export async function runInnerStream<C>(
  handler: (request: Request, context: C, body: unknown) => unknown,
  iteratorOf: (source: never) => Chunks,
  request: Request,
  context: C,
  lazyJson: boolean,
  contentType: string,
): Promise<Response> {
  let it: Chunks;
  try {
    const r = handler(request, context, innerBody(request, lazyJson));
    it = iteratorOf((r instanceof Promise ? await r : r) as never);
  } catch (e) {
    return failed(e);
  }
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await it.next();
      if (r.done) c.close();
      else c.enqueue(typeof r.value === 'string' ? enc.encode(r.value) : r.value);
    },
    async cancel() {
      await it.return?.();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
