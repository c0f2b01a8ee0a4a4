/**
 * One encrypted exchange: allocate a sequence number, seal the request with the core envelope,
 * send it, and verify the response (single sealed message, or a stream of sealed records).
 *
 * Pitfalls:
 *  - Never hands the application a plaintext or unauthenticated body for an encrypted request:
 *    every response must carry a Nen envelope that opens under this request's (session, epoch,
 *    seq, status, content type); anything else is an error (unauthenticated protocol errors become
 *    typed hints, see ./errors.ts).
 *  - The sequence number is released when the response head arrives or the send fails (flow
 *    control, ./sequence.ts), never later: a long stream must not block the session.
 *  - A streamed response hands the application one chunk per network read (the plaintexts of all
 *    the records that read completed, each opened and checked first), not one per record: record
 *    boundaries are not message boundaries for the application, as with any HTTP body. One pull
 *    reads on while the application keeps up; a cancel during a read ends it quietly.
 *  - An opened body reaches the application as an OpenedResponse on Node (read from the bytes, no
 *    body stream), a byte-body Response elsewhere (./response.ts).
 *  - Redirects are not followed: a followed redirect would re-send this request's Nen headers to
 *    another URL (rejected there); in Node the sealed 3xx itself is verified and returned.
 */
import {
  type ResponseExpectation,
  type ResponseHead,
  NenProtocolError,
  type RecordOpener,
  type RetryRef,
  openResponse,
  openResponseStream,
  parseResponse,
  responseRecord,
  deflateRequestBody,
  inflateResponseBody,
  sealRequest,
} from '@nen/core';
import { clientError, serverError } from './errors.js';
import type { ClientConfig, WireExchange } from './options.js';
import type { SessionState } from './session.js';
import { appResponse } from './response.js';
import { type CallDeadline, type PreparedRequest, callDeadline, head32, headersRecord, readBodyLimited, report, withUtf8 } from './transport.js';

const EMPTY = new Uint8Array(0);
type Kind = WireExchange['kind'];

/** What one attempt put on the wire: the request a retry names (PROTOCOL.md "Retries"). */
export interface Attempt {
  ref: RetryRef | null;
  /** Local time the request was handed to fetch. */
  sentAt: number;
}

/**
 * One attempt: seal, send, verify. Throws NenProtocolError for server-reported errors. `attempt`
 * records what was sent (once sealing succeeded); `retryOf` makes it a 1.1 retry of that request.
 */
export async function send(cfg: ClientConfig, s: SessionState, p: PreparedRequest, kind: Kind, attempt?: Attempt, retryOf?: RetryRef): Promise<Response> {
  const next = s.counter.acquire(p.signal);
  const seq = typeof next === 'bigint' ? next : await next; // no await (a microtask turn) when the window allows it
  try {
    return await sendWith(cfg, s, p, kind, seq, attempt, retryOf);
  } finally {
    s.counter.release(seq); // also when sealing threw before the fetch (no-op if released already)
  }
}

async function sendWith(
  cfg: ClientConfig,
  s: SessionState,
  p: PreparedRequest,
  kind: Kind,
  seq: bigint,
  attempt?: Attempt,
  retryOf?: RetryRef,
): Promise<Response> {
  const compress = cfg.options.compress === true;
  const timestamp = Math.round(Date.now() + s.skew);
  const seal = (body: Uint8Array | ReadableStream<Uint8Array> | null) =>
    sealRequest({
      keys: s.keys,
      sessionId: s.id,
      epoch: s.epoch,
      seq,
      timestamp,
      method: p.method,
      url: p.url,
      contentType: p.contentType,
      body,
      confidentialQuery: cfg.options.confidentialQuery === true,
      compress,
      deflate: deflateRequestBody,
      retryOf,
    });
  // A string body is encoded into the reused buffer and sealed at once (synchronous without
  // compression); a compressed one may wait for an async deflate, so it keeps its own bytes.
  const sealing = compress || p.text === null ? seal(p.body) : withUtf8(p.text, seal);
  const sealed = sealing instanceof Promise ? await sealing : sealing; // a promise only when deflate is async
  if (attempt) {
    attempt.ref = { sessionId: s.id, epoch: s.epoch, seq, timestamp };
    attempt.sentAt = Date.now();
  }
  // The wire headers: the application's (prepare() removed the envelope's), then Nen's, in a new
  // Headers per attempt (a fetch may keep the one it got); Nen's appended one by one (a header
  // list in the constructor goes through undici's WebIDL sequence conversion: ~1 µs more).
  const headers = new Headers(p.headers);
  for (const h of sealed.headers) headers.append(h[0], h[1]);
  const t = callDeadline(p.signal, cfg.timeoutMs);
  let res: Response;
  try {
    // A Headers object, as a fetch would get from application code (custom fetch functions read it).
    const init: RequestInit & { duplex?: 'half' } = { method: p.method, headers, redirect: 'manual' };
    if (t.signal) init.signal = t.signal;
    if (sealed.body !== undefined) init.body = sealed.body as BodyInit;
    if (sealed.body instanceof ReadableStream) init.duplex = 'half';
    res = await cfg.fetch(sealed.url, init);
  } catch (e) {
    t.done();
    throw t.map(e);
  } finally {
    s.counter.release(seq); // the server has committed or rejected it by the response head
  }
  const wireBytes = sealed.body instanceof Uint8Array ? sealed.body : EMPTY;
  // Only built when someone observes the exchanges (the demo's wire view), not per request.
  const exchange = (responseBodyLength: number | null, responseBody: Uint8Array | null) =>
    report(cfg.options.onExchange, {
      kind,
      method: p.method,
      url: sealed.url.href,
      requestHeaders: headersRecord(headers),
      requestBodyLength: wireBytes.length,
      requestBodyHex: head32(wireBytes),
      status: res.status,
      responseHeaders: headersRecord(res.headers),
      responseBodyLength,
      responseBodyHex: head32(responseBody),
    });
  const head = parseResponse(res.headers, res.status, p.method);
  const x: ResponseExpectation = { keys: s.keys, sessionId: s.id, epoch: s.epoch, seq, compress, inflate: inflateResponseBody, maxBytes: cfg.maxResponseBytes };
  if (!head) {
    let buf: Uint8Array = EMPTY;
    try {
      buf = await readBodyLimited(res, cfg.maxResponseBytes + 16, () => clientError('NEN_RESPONSE_UNAUTHENTICATED', 'response body exceeds maxResponseBytes'));
    } catch {
      // ignore: the response is rejected anyway
    } finally {
      t.done();
    }
    if (cfg.options.onExchange) exchange(buf.length, buf);
    throw serverError(res, `response (HTTP ${res.status}) has no Nen envelope`);
  }
  if (head.stream) {
    t.done();
    if (cfg.options.onExchange) exchange(null, null);
    return streamResponse(s, x, head, res);
  }
  return await singleResponse(cfg, x, head, res, t, exchange); // `await`: two microtask jobs fewer than returning the promise
}

async function singleResponse(
  cfg: ClientConfig,
  x: ResponseExpectation,
  head: ResponseHead,
  res: Response,
  t: CallDeadline,
  exchange: (n: number | null, b: Uint8Array | null) => void,
): Promise<Response> {
  let body: Uint8Array | null = null;
  try {
    if (head.nullBody) await res.body?.cancel().catch(() => undefined);
    else
      body = await readBodyLimited(res, cfg.maxResponseBytes + 16, () => clientError('NEN_RESPONSE_UNAUTHENTICATED', 'response body exceeds maxResponseBytes'));
  } catch (e) {
    throw t.map(e);
  } finally {
    t.done();
  }
  let sealed: Uint8Array | undefined;
  let bad: unknown;
  try {
    sealed = responseRecord(head, res.headers, body);
  } catch (e) {
    bad = e;
  }
  if (cfg.options.onExchange) {
    const wire = sealed ?? (head.nullBody ? null : body);
    exchange(wire?.length ?? 0, wire);
  }
  if (!sealed) throw bad;
  const opening = openResponse(x, head, res.status, sealed);
  const plain = opening instanceof Promise ? await opening : opening; // a promise only for an async inflate
  return appResponse(head.nullBody ? null : plain, res, head.contentType);
}

async function streamResponse(s: SessionState, x: ResponseExpectation, head: ResponseHead, res: Response): Promise<Response> {
  let opener: RecordOpener;
  try {
    opener = openResponseStream(x, head, res.headers, res.status, res.body !== null);
  } catch (e) {
    await res.body?.cancel().catch(() => undefined);
    throw e;
  }
  const reader = res.body!.getReader();
  s.acquire();
  let released = false;
  const release = () => {
    if (!released) {
      released = true;
      s.release();
    }
  };
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      // One pull keeps reading while each chunk goes straight to a reader already waiting for it
      // (desiredSize stays 0 with highWaterMark 0): no pull round trip per record while the
      // application keeps up; a chunk that had to be queued ends the pull (backpressure).
      async pull(c) {
        try {
          for (;;) {
            const r = await reader.read();
            if (cancelled) return; // cancelled while reading
            if (r.done) {
              opener.end();
              c.close();
              release();
              return;
            }
            // All the records this read completed, opened in order, handed over as one chunk.
            const chunk = opener.pushCoalesced(r.value);
            if (chunk.length > 0) {
              c.enqueue(chunk);
              if ((c.desiredSize ?? 0) < 0) return;
            }
          }
        } catch (e) {
          if (cancelled) return;
          release();
          c.error(e instanceof NenProtocolError ? e : clientError('NEN_STREAM_TRUNCATED', 'stream broke off', e));
          await reader.cancel().catch(() => undefined);
        }
      },
      async cancel(reason) {
        cancelled = true;
        release();
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return appResponse(stream, res, head.contentType);
}
