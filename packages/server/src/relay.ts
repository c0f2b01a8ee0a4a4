/**
 * A minimal Oblivious HTTP relay (RFC 9458 §2, §7.2) for development, tests, the demo and the
 * bench: `createOhttpRelay({ gateway })` is a fetch-style handler (Request -> Response) that
 * forwards encapsulated requests to its one configured gateway and streams the answers back;
 * `nen relay --gateway URL [--port N]` serves it on node:http (relay-cli.ts).
 *
 * What it does, and what a production relay must do too (README "Oblivious HTTP"):
 *  - forwards only to the configured gateway URL (no target from the request; redirects are not
 *    followed), only POSTs of message/ohttp-req or message/ohttp-chunked-req;
 *  - builds the outgoing request from an allowlist: the media type (and `incremental` for chunked
 *    requests). Everything that identifies the client is dropped: its address (the relay opens
 *    its own connection), cookies, authorization, user-agent, `x-forwarded-*`, `forwarded`,
 *    `via`, `x-real-ip`, accept-language, referer, origin, any other field. The answer keeps only
 *    status, content-type, cache-control, date, `nen-error` and `incremental` (no set-cookie).
 *  - bounds: request body `maxBodyBytes` (413), answer body `maxResponseBytes` (cut, the client
 *    then sees a truncated / failed encapsulation), the whole exchange `timeoutMs` (an unref'd
 *    timer via AbortSignal.timeout).
 *
 * Pitfalls:
 *  - It sees no content (HPKE) but does see timing and sizes; it keeps no log of client addresses
 *    (none is recorded here). Production relays also need TLS to both sides, rate limiting by
 *    client without telling the gateway who the client is, and must not collude with the gateway.
 *  - Errors the relay itself answers (405, 413, 415, 502, 504) are `application/problem+json`
 *    with no `nen-error` header: to the client they are unauthenticated hints.
 */
import { OHTTP_MEDIA } from '@nen/core';
import { readBody } from './http.js';

export interface OhttpRelayOptions {
  /** The one gateway resource this relay forwards to (e.g. https://gw.example/.well-known/ohttp-gateway). */
  readonly gateway: string | URL;
  /** Largest encapsulated request forwarded (default 1 MiB + 4 KiB). */
  readonly maxBodyBytes?: number;
  /** Largest answer streamed back (default 64 MiB). */
  readonly maxResponseBytes?: number;
  /** The whole exchange with the gateway, ms (default 60 000). */
  readonly timeoutMs?: number;
  /** Transport to the gateway (default globalThis.fetch). */
  readonly fetch?: typeof fetch;
}

const REQUEST_TYPES: ReadonlySet<string> = new Set([OHTTP_MEDIA.REQUEST, OHTTP_MEDIA.CHUNKED_REQUEST]);
const ANSWER_HEADERS = ['content-type', 'cache-control', 'date', 'nen-error', 'incremental'] as const;

function relayProblem(status: number, title: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...extra },
  });
}

export function createOhttpRelay(o: OhttpRelayOptions): (request: Request) => Promise<Response> {
  const gateway = new URL(o.gateway);
  if (gateway.protocol !== 'http:' && gateway.protocol !== 'https:') throw new TypeError('nen relay: the gateway must be an http(s) URL');
  const maxBody = o.maxBodyBytes ?? 1024 * 1024 + 4096;
  const maxResponse = o.maxResponseBytes ?? 64 * 1024 * 1024;
  const timeoutMs = o.timeoutMs ?? 60_000;
  const send = o.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));

  return async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') return relayProblem(405, 'the relay takes POST only', { allow: 'POST' });
    const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!REQUEST_TYPES.has(type)) return relayProblem(415, 'the relay forwards message/ohttp-req and message/ohttp-chunked-req only');
    let body: Uint8Array;
    try {
      body = await readBody(request, maxBody);
    } catch {
      return relayProblem(413, `encapsulated request over ${maxBody} bytes or unreadable`, { connection: 'close' });
    }
    const headers: Record<string, string> = { 'content-type': type };
    if (type === OHTTP_MEDIA.CHUNKED_REQUEST) headers.incremental = '?1';
    let answer: Response;
    try {
      answer = await send(gateway, {
        method: 'POST',
        headers,
        body: body as Uint8Array<ArrayBuffer>,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const timeout = (e as { name?: string })?.name === 'TimeoutError';
      return relayProblem(timeout ? 504 : 502, timeout ? 'the gateway did not answer in time' : 'the gateway is unreachable');
    }
    if (answer.status >= 300 && answer.status < 400) {
      await answer.body?.cancel().catch(() => undefined);
      return relayProblem(502, 'the gateway answered a redirect (not followed)');
    }
    const out = new Headers();
    for (const h of ANSWER_HEADERS) {
      const v = answer.headers.get(h);
      if (v !== null) out.set(h, v);
    }
    return new Response(answer.body ? bounded(answer.body, maxResponse) : null, { status: answer.status, headers: out });
  };
}

/** Streams the answer through, cutting it after `max` bytes (the client detects the cut). */
function bounded(body: ReadableStream<Uint8Array>, max: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const r = await reader.read();
        if (r.done) return ctrl.close();
        total += r.value.length;
        if (total > max) {
          await reader.cancel().catch(() => undefined);
          return ctrl.error(new RangeError('nen relay: answer over maxResponseBytes'));
        }
        ctrl.enqueue(r.value);
      } catch (e) {
        ctrl.error(e);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
