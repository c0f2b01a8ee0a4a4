/**
 * The OHTTP gateway resource (RFC 9458 §5, chunked OHTTP, RFC 9540 discovery): GET answers the
 * key configurations (`application/ohttp-keys`), POST takes `message/ohttp-req` or
 * `message/ohttp-chunked-req`, opens it, checks the Date window and claims the replay id, hands the
 * inner request to the application (`dispatch`), and encapsulates its answer. A fetch-style
 * handler (Request -> Response): it mounts as is in a Next.js route (Node or Edge), Hono, Workers,
 * and through `toNodeHandler` on node:http / Express (docs/adapters.md).
 *
 * Pitfalls:
 *  - Errors before decapsulation are unencapsulated 4xx `application/problem+json` (RFC 9458
 *    §5.2, §5.3: problem type `ohttp-key` for a bad key id or suite); errors after it (bad Binary
 *    HTTP, Date outside the window, replay, store down, a handler crash) are *encapsulated*
 *    answers, as §5.2 requires. Never a 5xx outside, never a hang: every read is bounded.
 *  - Replay (§6.5): the enc is claimed atomically in the session store (`claimOnce`, memory /
 *    Redis / Cluster / Durable Object) for 2 x the Date window after the window check, before
 *    the handler runs: a replay never reaches a handler, also across instances on one store.
 *  - A request refused for a Date *ahead* of the window (finding F9) has its enc claimed too,
 *    until its Date has left the window (ahead + 2 x window + slack): otherwise a relay could hold
 *    it until its Date enters the window and run it after the client's corrected retry. The
 *    claim is bounded by maxDateAheadMs (1 h); a Date further ahead is claimed for that bound and
 *    refused *without* the gateway's Date, so a conforming client does not retry it (it may run
 *    once later if replayed, never twice). Claim first, answer after: a store error is a 503.
 *  - `dispatch` must not be a network proxy: it routes by path to this application's handlers.
 *  - Cost (bench/README.md, OHTTP ninth pass; `bench/ohttp/gateway-split.mjs`): ~133 µs per hot
 *    1 KB X-Wing request in process on Node 20, 58 of them the KEM (OpenSSL X25519, Wasm ML-KEM),
 *    13 the response seal; keep the per-request path free of promises it does not need (each
 *    one runs Next's AsyncLocalStorage hooks under `next start`). Under `next start` the same
 *    steps cost 1.5-3x (tenth pass: ~318 µs per request at c=10, the X-Wing Decap 146; nothing
 *    outside them), and a fresh gateway ~2x until V8 has optimised it (eleventh pass: no deopts on
 *    Node 20 or 24; TurboFan reaches this path's small once-per-request functions between requests
 *    ~400 and ~3,500 on Node 20, `bench/ohttp/warm-curve.mjs`). Keep hot functions monomorphic
 *    (one shape per argument) so that the warm-up stays a tier-up and never becomes a deopt loop.
 *  - A busy gateway decapsulates in batches (./batch.ts, `batchWithinMs`): a request that
 *    follows another within 2 ms waits for the end of the event-loop turn and is decapsulated
 *    back to back with the others queued by then (twelfth pass: under `next start` at c=50 an OHTTP
 *    request alone costs ~12 % less server CPU, ~-200 µs at load ~4); a lone request runs inline.
 *    Each request keeps its own decapsulation, checks and answer.
 *  - `POST` and `fetch` have a second entry (wrap.ts SEALED_PARTS) for the node:http adapter:
 *    the same dispatch, but the outer message/ohttp-res and problem answers come back as parts
 *    (./outer.ts) that it writes with `writeHead` + `end`, no undici Response in between (~0.2 ms
 *    of a cold request, bench/README.md OHTTP twelfth pass); chunked answers and GET stay Responses.
 *  - The outer body is read with http.ts `readSealedBody` (Content-Length and maxRequestBytes checked
 *    first, NEN_TOO_LARGE / NEN_MALFORMED as readBody): on node:http the IncomingMessage's chunks,
 *    not copied again when there is one (thirteenth pass: ~0.015 ms of a cold request).
 */
import {
  ChunkedRequestOpener,
  DEFAULT_OHTTP_DATE_WINDOW_MS,
  NenProtocolError,
  OHTTP_MEDIA,
  OHTTP_PROBLEM,
  OhttpGatewayKeys,
  WIRE_ERRORS,
  type WireErrorCode,
  checkOhttpDate,
  decapsulateRequest,
  decodeBhttpRequest,
  encodeBhttpResponse,
  encodeKeyConfigs,
  isWireErrorCode,
  ohttpReplayId,
  replayIdTtlMs,
  joinChunks,
} from '@nen/core';
import { type BodyBytes, readSealedBody } from '../http.js';
import type { SealedParts } from '../sealed-parts.js';
import type { SessionStore } from '../stores/types.js';
import { type PartsRoute, SEALED_PARTS } from '../wrap.js';
import { createBatcher } from './batch.js';
import { InnerResponse } from './inner-response.js';
import { innerRequest } from './messages.js';
import { type OuterAnswers, PARTS, RESPONSES, problem } from './outer.js';
import { chunkedAnswer, readBounded } from './stream.js';

export interface OhttpGatewayOptions {
  /** The gateway keys, or their NEN_OHTTP_KEYS text (`keyId:kem:base64url`, comma-separated). */
  readonly keys: OhttpGatewayKeys | string;
  /** Where replay ids are claimed (the Nen session store). */
  readonly store: Pick<SessionStore, 'claimOnce'>;
  /** Runs an inner request against the application's handlers. */
  readonly dispatch: (request: Request) => Response | Promise<Response>;
  /** Accepted |Date - now| of inner requests (default 60 s). */
  readonly dateWindowMs?: number;
  /**
   * Longest time a request dated ahead of the window is remembered (its enc claimed) after the
   * refusal (default 1 h). A Date further ahead is refused without the gateway's Date, so that
   * a conforming client never re-sends it (see the header: F9).
   */
  readonly maxDateAheadMs?: number;
  /** Largest encapsulated request body (default 1 MiB). */
  readonly maxRequestBytes?: number;
  /** Largest inner response body for message/ohttp-res (default 8 MiB; chunked answers stream). */
  readonly maxResponseBytes?: number;
  /** Log sink for refusals (reason only, never content). */
  readonly log?: (event: { level: 'warn' | 'error'; event: string; code: string; reason: string }) => void;
  /** The clock (tests). */
  readonly now?: () => number;
  /**
   * Decapsulations of requests that follow each other within this many ms run back to back at
   * the end of the event-loop turn (./batch.ts; default 2; 0: always inline).
   */
  readonly batchWithinMs?: number;
}

export interface OhttpGateway {
  /** `application/ohttp-keys`: every live key configuration, the current one first. */
  readonly GET: (request?: Request) => Promise<Response>;
  readonly POST: (request: Request) => Promise<Response>;
  /** GET or POST by method (405 otherwise). */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly keys: OhttpGatewayKeys;
}

const REPLAY_PREFIX = 'ohttp:';
/** Default bound on how long a refused request dated ahead keeps its enc claimed. */
const DEFAULT_MAX_DATE_AHEAD_MS = 60 * 60_000;

/** The inner request's single Date (ms), NaN when absent, repeated or unparsable. */
function innerDate(headers: readonly (readonly [string, string])[]): number {
  const dates = headers.filter(([n]) => n === 'date');
  return dates.length === 1 ? Date.parse((dates[0] as readonly [string, string])[1]) : Number.NaN;
}

export { problem } from './outer.js';

function codeOf(e: unknown): WireErrorCode {
  if (e instanceof NenProtocolError && e.code && isWireErrorCode(e.code)) return e.code;
  if ((e as { code?: unknown })?.code === 'NEN_STORE_UNAVAILABLE') return 'NEN_STORE_UNAVAILABLE';
  return 'NEN_INTERNAL';
}

function outerProblem<R>(e: unknown, out: OuterAnswers<R>): R {
  const code = codeOf(e);
  const key = code === 'NEN_OHTTP_KEY_UNKNOWN' || code === 'NEN_OHTTP_UNSUPPORTED_SUITE';
  // before decapsulation nothing can be encapsulated: a 4xx, never a 5xx (RFC 9458 §5.2)
  return out.problem(WIRE_ERRORS[code].status >= 500 ? 'NEN_OHTTP_MALFORMED' : code, key ? OHTTP_PROBLEM.KEY : 'about:blank');
}

function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The outer body as one array: a single chunk as it is (on node:http Node's own copy of the socket
 * bytes), several joined into a fresh array (never http.ts `contiguous`'s reused buffer: a batched
 * decapsulation reads it a turn later).
 */
function oneArray(body: BodyBytes): Uint8Array {
  if (body instanceof Uint8Array) return body;
  return body.length === 1 ? (body[0] as Uint8Array) : joinChunks(body);
}

/** The store key of a replay id: synchronous (WebCrypto's digest cost a thread-pool round trip per request). */
function replayKey(enc: Uint8Array): string {
  return REPLAY_PREFIX + ohttpReplayId(enc);
}

export function createOhttpGateway(o: OhttpGatewayOptions): OhttpGateway {
  const keys = typeof o.keys === 'string' ? OhttpGatewayKeys.parse(o.keys) : o.keys;
  const configs = encodeKeyConfigs(keys.configs());
  const windowMs = o.dateWindowMs ?? DEFAULT_OHTTP_DATE_WINDOW_MS;
  const maxRequest = o.maxRequestBytes ?? 1024 * 1024;
  const maxResponse = o.maxResponseBytes ?? 8 * 1024 * 1024;
  const now = o.now ?? Date.now;
  const maxAheadMs = o.maxDateAheadMs ?? DEFAULT_MAX_DATE_AHEAD_MS;
  const decaps = createBatcher((raw: Uint8Array) => decapsulateRequest(keys, raw), { busyMs: o.batchWithinMs ?? 2 });
  const log = (e: unknown, where: string) => {
    const code = codeOf(e);
    o.log?.({
      level: code === 'NEN_INTERNAL' || code === 'NEN_STORE_UNAVAILABLE' ? 'error' : 'warn',
      event: `ohttp.${where}`,
      code,
      reason: e instanceof Error ? e.message : String(e),
    });
  };

  /** Steps after decapsulation: the inner answer (a plain Response) for the inner request bytes. */
  async function innerAnswer(bhttp: Uint8Array, enc: Uint8Array, outer: Request): Promise<Response> {
    try {
      const b = decodeBhttpRequest(bhttp, { maxContent: maxRequest });
      const t = now();
      try {
        checkOhttpDate(b.headers, t, windowMs);
      } catch (e) {
        log(e, 'date');
        const ahead = innerDate(b.headers) - t;
        if (ahead > windowMs) {
          // F9: a request dated ahead must never run later (when its Date enters the window): claim its enc now
          await o.store.claimOnce(replayKey(enc), Math.min(ahead, maxAheadMs) + replayIdTtlMs(windowMs));
          if (ahead > maxAheadMs) return problem('NEN_OHTTP_DATE', OHTTP_PROBLEM.DATE, { vary: 'date' }); // no hint: no retry
        }
        return problem('NEN_OHTTP_DATE', OHTTP_PROBLEM.DATE, { date: new Date(t).toUTCString(), vary: 'date' });
      }
      if (!(await o.store.claimOnce(replayKey(enc), replayIdTtlMs(windowMs)))) {
        log(new Error('replayed encapsulated request'), 'replay');
        return problem('NEN_REPLAY');
      }
      // the outer URL is parsed only for an inner request without authority (its host is the gateway's)
      const host = () => new URL(outer.url).host;
      return await o.dispatch(innerRequest(b, host, () => outer.signal));
    } catch (e) {
      log(e, 'inner');
      return problem(codeOf(e));
    }
  }

  /** The POST, its outer answer made by `out` (RESPONSES, or PARTS for the node adapter); chunked answers stream as Responses. */
  async function post<R>(request: Request, out: OuterAnswers<R>): Promise<R | Response> {
    const type = mediaType(request);
    if (type !== OHTTP_MEDIA.REQUEST && type !== OHTTP_MEDIA.CHUNKED_REQUEST) return out.problem('NEN_CONTENT_TYPE');
    let raw: Uint8Array;
    try {
      raw = oneArray(await readSealedBody(request, maxRequest));
    } catch (e) {
      log(e, 'read');
      return codeOf(e) === 'NEN_TOO_LARGE' ? out.problem('NEN_TOO_LARGE', 'about:blank', { connection: 'close' }) : outerProblem(e, out);
    }
    if (type === OHTTP_MEDIA.CHUNKED_REQUEST) {
      let opener: ChunkedRequestOpener;
      let bhttp: Uint8Array;
      try {
        opener = new ChunkedRequestOpener(keys);
        const parts = opener.push(raw);
        parts.push(opener.end());
        bhttp = joinChunks(parts);
      } catch (e) {
        log(e, 'decapsulate');
        return outerProblem(e, out);
      }
      const answer = await innerAnswer(bhttp, opener.enc as Uint8Array, request);
      return chunkedAnswer(opener.responseSealer(), answer);
    }
    let d: ReturnType<typeof decapsulateRequest>;
    try {
      const r = decaps.run(raw);
      d = r instanceof Promise ? await r : r;
    } catch (e) {
      log(e, 'decapsulate');
      return outerProblem(e, out);
    }
    return sealedAnswer(d, await innerAnswer(d.request, d.enc, request), maxResponse, log, out);
  }

  const GET = async () =>
    new Response(configs.slice(), { status: 200, headers: { 'content-type': OHTTP_MEDIA.KEYS, 'cache-control': 'public, max-age=3600' } });
  return { keys, GET, ...entries(post, GET) };
}

/** The gateway's POST, its outer answer made by `out`. */
type Post = <R>(request: Request, out: OuterAnswers<R>) => Promise<R | Response>;

/**
 * POST and fetch (GET or POST by method, 405 otherwise), each with a second entry for the
 * node:http adapter (wrap.ts SEALED_PARTS): the same dispatch, the outer answer as parts.
 */
function entries(post: Post, GET: () => Promise<Response>): Pick<OhttpGateway, 'POST' | 'fetch'> {
  const route = <R>(request: Request, out: OuterAnswers<R>): Promise<R | Response> =>
    request.method === 'POST'
      ? post(request, out)
      : request.method === 'GET' || request.method === 'HEAD'
        ? GET()
        : Promise.resolve(out.problem('NEN_METHOD_NOT_ALLOWED', 'about:blank', { allow: 'GET, POST' }));
  const POST = (request: Request): Promise<Response> => post(request, RESPONSES);
  const fetch = (request: Request): Promise<Response> => route(request, RESPONSES);
  const postParts: PartsRoute<unknown> = (request) => post<SealedParts>(request, PARTS);
  const fetchParts: PartsRoute<unknown> = (request) => route<SealedParts>(request, PARTS);
  Object.defineProperty(POST, SEALED_PARTS, { value: postParts });
  Object.defineProperty(fetch, SEALED_PARTS, { value: fetchParts });
  return { POST, fetch };
}

/**
 * message/ohttp-res: the inner answer read whole (bounded), as known-length Binary HTTP,
 * encapsulated. A handler's value (inner-response.ts) is answered without a promise (under `next
 * start` each promise also runs the AsyncLocalStorage hooks of every store Next keeps).
 */
function sealedAnswer<R>(
  d: ReturnType<typeof decapsulateRequest>,
  answer: Response,
  maxResponse: number,
  log: (e: unknown, where: string) => void,
  out: OuterAnswers<R>,
): R | Promise<R> {
  const plain = answer instanceof InnerResponse ? InnerResponse.plainOf(answer) : null;
  if (plain && plain.body.length <= maxResponse) return out.sealed(d.sealResponse(answerBytes(answer, plain.body, log)));
  return readBounded(answer, maxResponse).then(
    (body) => out.sealed(d.sealResponse(answerBytes(answer, body, log))),
    (e: unknown) => out.sealed(d.sealResponse(failedBytes(e, log))),
  );
}

/** The inner answer as Binary HTTP, or the encoded 500 when it cannot be encoded. */
function answerBytes(answer: Response, body: Uint8Array, log: (e: unknown, where: string) => void): Uint8Array {
  try {
    return encodeBhttpResponse({ informational: [], status: answer.status, headers: fieldsOf(answer), content: body, trailers: [] });
  } catch (e) {
    return failedBytes(e, log);
  }
}

function failedBytes(e: unknown, log: (e: unknown, where: string) => void): Uint8Array {
  log(e, 'response');
  const p = new TextEncoder().encode(JSON.stringify({ type: 'about:blank', title: 'internal error', code: 'NEN_INTERNAL' }));
  return encodeBhttpResponse({ informational: [], status: 500, headers: [['content-type', 'application/problem+json']], content: p, trailers: [] });
}

function fieldsOf(res: Response): [string, string][] {
  // a handler's value with no headers of its own: its one field, without building a Headers
  const plain = res instanceof InnerResponse ? InnerResponse.plainOf(res) : null;
  if (plain && !plain.headers) return plain.contentType ? [['content-type', plain.contentType]] : [];
  const out: [string, string][] = [];
  res.headers.forEach((v, n) => {
    if (n !== 'content-length' && n !== 'transfer-encoding' && n !== 'connection') out.push([n, v]);
  });
  return out;
}
