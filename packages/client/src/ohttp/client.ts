/**
 * The client's Oblivious HTTP mode (RFC 9458, Binary HTTP RFC 9292, chunked OHTTP): each request
 * is encoded as Binary HTTP, encapsulated to the gateway's pinned key config (HPKE, X-Wing by
 * default) and POSTed to the relay (or the gateway itself); the answer is opened and handed back
 * as a standard Response. No handshake: the first request is one round trip.
 * Loaded lazily by ./mode.ts (createNenClient({ mode: 'ohttp' })): session-mode pages do not carry it.
 *
 * Pitfalls:
 *  - Unencapsulated answers (non-200, or not message/ohttp-res) come from the relay or the
 *    gateway before decapsulation and are unauthenticated: only a hint (`serverError`).
 *    NEN_OHTTP_KEY_UNKNOWN refetches a digest-pinned key config and re-sends once (the gateway
 *    could not open the request, so it never ran).
 *  - An encapsulated NEN_OHTTP_DATE answer (RFC 9458 §6.5.2) carries the gateway's Date: the
 *    client corrects its clock offset and re-sends once with a fresh encapsulation only when its
 *    Date was *behind* the gateway's (that request can never enter the window again). A Date ahead
 *    is thrown as NEN_OHTTP_DATE (finding F9: the refused original could still be replayed once its
 *    Date enters the window; @nen/server claims it, other gateways may not).
 *  - Streamed answers (`stream()`, or `chunked: true`) use chunked OHTTP: the body is readable as
 *    chunks open; a stream that ends without its final chunk errors NEN_OHTTP_TRUNCATED, a
 *    tampered chunk NEN_OHTTP_DECRYPT. Request bodies are sent whole, sealed in chunks of at most
 *    16 KiB (REQUEST_PIECE: what the draft requires a gateway to take; ours refuses over 64 KiB).
 *  - The inner request carries the application's headers (cookies included: they go to the
 *    gateway encrypted, never to the relay) plus `date`; the outer request carries only the media type.
 */
import { NenProtocolError, WIRE_ERRORS, clientError, isWireErrorCode, joinChunks } from '@nen/core';
import {
  type FieldLine,
  OHTTP_MEDIA,
  decodeBhttpResponse,
  type ChunkedClientEncapsulation,
  encapsulateChunkedRequestAsync,
  encapsulateRequestAsync,
  encodeBhttpRequest,
  ohttpKemReady,
} from '@nen/core/ohttp/client';
import type { NenClient } from '../client.js';
import { serverError } from '../errors.js';
import type { ClientConfig } from '../options.js';
import { type PreparedRequest, bodyChunks, deadline, prepare, readBodyLimited } from '../transport.js';
import { BhttpResponseStream, type ResponseHead } from './bhttp-stream.js';
import { PinnedKeyConfig } from './key-config.js';
import type { OhttpOpenedResponse } from './opened-response.js';

/** ./opened-response.ts on Node (loaded in the background, never in a browser chunk); until then a plain Response. */
let Opened: typeof OhttpOpenedResponse | undefined;
if (globalThis.process?.versions?.node) {
  import('./opened-response.js').then(
    (m) => {
      Opened = m.OhttpOpenedResponse;
    },
    () => {}, // the plain Response stays
  );
}

export interface ObliviousConfig {
  readonly relay: URL;
  readonly keys: PinnedKeyConfig;
  readonly chunked: boolean;
}

/** The NenClient of OHTTP mode (no session: handshake / rotate / terminate / status throw NEN_BAD_INPUT). */
export function obliviousNenClient(cfg: ClientConfig): NenClient {
  const o = cfg.options;
  const keys = new PinnedKeyConfig({
    keyConfig: o.keyConfig as string | Uint8Array | readonly string[],
    ...(o.keyConfigUrl === undefined ? {} : { keyConfigUrl: cfg.resolveUrl(o.keyConfigUrl) }),
    allowClassical: o.allowClassical === true,
    fetch: cfg.fetch,
  });
  const t = new ObliviousTransport(cfg, { relay: cfg.resolveUrl(o.relay as string | URL), keys, chunked: o.chunked === true });
  const send = async (input: RequestInfo | URL, init: RequestInit | undefined, stream: boolean) => t.send(await prepare(cfg.resolveUrl, input, init), stream);
  const noSession = (what: string) => Promise.reject(clientError('NEN_BAD_INPUT', `OHTTP mode has no session to ${what}`));
  return {
    fetch: (input, init) => send(input, init, false),
    stream: (input, init) => bodyChunks(() => send(input, init, true)),
    handshake: () => noSession('handshake'),
    rotate: () => noSession('rotate'),
    terminate: () => noSession('terminate'),
    status: () => noSession('read'),
    session: null,
  };
}

const NO_BODY_STATUS = new Set([101, 204, 205, 304]);
/** Plaintext bytes per chunk of a chunked request. */
const REQUEST_PIECE = 16 * 1024;

export class ObliviousTransport {
  readonly #cfg: ClientConfig;
  readonly #o: ObliviousConfig;
  #clockOffsetMs = 0;

  constructor(cfg: ClientConfig, o: ObliviousConfig) {
    this.#cfg = cfg;
    this.#o = o;
  }

  async send(p: PreparedRequest, stream: boolean): Promise<Response> {
    const body = p.body instanceof ReadableStream ? await collect(p.body, this.#cfg.maxResponseBytes) : p.body;
    const chunked = stream || this.#o.chunked;
    const dl = deadline(p.signal, this.#cfg.timeoutMs);
    let keyRetried = false;
    let dateRetried = false;
    try {
      for (;;) {
        try {
          const sent = { dateMs: Number.NaN };
          const res = await this.#attempt(p, body, chunked, dl.signal, sent);
          const dateFix = res.status === 400 && problemCode(res) === 'NEN_OHTTP_DATE' ? res.headers.get('date') : null;
          const gatewayNow = dateFix ? Date.parse(dateFix) : Number.NaN;
          if (Number.isFinite(gatewayNow)) {
            this.#clockOffsetMs = gatewayNow - Date.now(); // later requests carry the gateway's clock
            // F9: re-send only when our Date was behind (that request can never enter the window again);
            // one dated ahead could still be replayed once its Date arrives, so it is reported, not re-sent
            if (!dateRetried && gatewayNow > sent.dateMs) {
              dateRetried = true;
              await res.body?.cancel().catch(() => undefined);
              continue;
            }
          }
          throwOnProblem(res);
          if (!chunked) {
            dl.done();
            return res;
          }
          return withDeadline(res, dl); // the deadline ends with the streamed body
        } catch (e) {
          if (e instanceof NenProtocolError && e.code === 'NEN_OHTTP_KEY_UNKNOWN' && !keyRetried && this.#o.keys.refresh()) {
            keyRetried = true;
            continue;
          }
          throw e;
        }
      }
    } catch (e) {
      dl.done();
      throw dl.map(e);
    }
  }

  async #attempt(p: PreparedRequest, body: Uint8Array | null, chunked: boolean, signal: AbortSignal, sent: { dateMs: number }): Promise<Response> {
    const config = await this.#o.keys.get();
    await ohttpKemReady(); // Node / Edge / workerd: the Wasm KEM beats @noble's cold path; browsers: at once
    const bhttp = encodeBhttpRequest({
      method: p.method,
      scheme: p.url.protocol.slice(0, -1), // 'https:' -> 'https' (no RegExp to compile on a cold page)
      authority: p.url.host,
      path: `${p.url.pathname}${p.url.search}`,
      headers: this.#innerHeaders(p, sent),
      content: body ?? new Uint8Array(0),
      trailers: [],
    });
    if (!chunked) {
      const e = await encapsulateRequestAsync(config, bhttp); // browsers: KEM, key schedule and AEAD on WebCrypto where present
      const res = await this.#post(OHTTP_MEDIA.REQUEST, e.encapsulatedRequest, signal);
      await expectMedia(res, OHTTP_MEDIA.RESPONSE);
      const wire = await readBodyLimited(res, this.#cfg.maxResponseBytes + 4096, () =>
        clientError('NEN_RESPONSE_UNAUTHENTICATED', 'encapsulated response over maxResponseBytes'),
      );
      const r = decodeBhttpResponse(await e.openResponse(wire), { maxContent: this.#cfg.maxResponseBytes });
      if (Opened && r.content.length > 0 && !NO_BODY_STATUS.has(r.status)) return new Opened(r.content, r.status, (h) => appendLines(h, r.headers));
      return toResponse(r, r.content.length > 0 ? (r.content as Uint8Array<ArrayBuffer>) : null);
    }
    const c = await encapsulateChunkedRequestAsync(config);
    const parts = [c.header];
    let o = 0;
    for (; bhttp.length - o > REQUEST_PIECE; o += REQUEST_PIECE) parts.push(c.sealChunk(bhttp.subarray(o, o + REQUEST_PIECE)));
    parts.push(c.sealChunk(bhttp.subarray(o), true));
    const wire = joinChunks(parts);
    const res = await this.#post(OHTTP_MEDIA.CHUNKED_REQUEST, wire, signal);
    await expectMedia(res, OHTTP_MEDIA.CHUNKED_RESPONSE);
    return openChunked(res.body as ReadableStream<Uint8Array>, c.responseOpener());
  }

  #innerHeaders(p: PreparedRequest, sent: { dateMs: number }): FieldLine[] {
    const h: FieldLine[] = [];
    p.headers.forEach((v, n) => {
      if (n !== 'date' && n !== 'host') h.push([n, v]);
    });
    if (p.contentType) h.push(['content-type', p.contentType]);
    const now = Date.now() + this.#clockOffsetMs;
    const date = new Date(now).toUTCString();
    sent.dateMs = now - (((now % 1000) + 1000) % 1000); // what Date.parse(date) reads back (whole seconds), without a cold string parse
    h.push(['date', date]);
    return h;
  }

  #post(type: string, body: Uint8Array, signal: AbortSignal): Promise<Response> {
    return this.#cfg.fetch(this.#o.relay, { method: 'POST', headers: { 'content-type': type }, body: body as Uint8Array<ArrayBuffer>, signal });
  }
}

/** An outer answer that is not the expected OHTTP media type: unauthenticated, a hint only. */
async function expectMedia(res: Response, type: string): Promise<void> {
  const got = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (res.status === 200 && got === type && res.body) return;
  await res.body?.cancel().catch(() => undefined);
  throw serverError(res, `the relay / gateway answered ${res.status} ${got ?? ''} instead of ${type}`);
}

/**
 * The Nen code of an encapsulated (hence authenticated) gateway problem answer, if any. Every wire
 * error is a 4xx / 5xx (WIRE_ERRORS; test/ohttp.test.ts holds it), so a 1xx-3xx answer is none,
 * decided without reading its headers: on Node the Opened Response builds its Headers only when
 * they are first read (issue 23, the cold request: decode -> the application's text() 0.130 ->
 * 0.096 and 0.104 -> 0.078 ms, bench/ohttp/cold-split.mjs ROOTS, N=40, both orders).
 */
function problemCode(res: Response): string | null {
  if (res.status < 400) return null;
  const code = res.headers.get('nen-error');
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim();
  if (!code || type !== 'application/problem+json' || !isWireErrorCode(code) || WIRE_ERRORS[code].status !== res.status) return null;
  return code;
}

function throwOnProblem(res: Response): void {
  const code = problemCode(res);
  if (!code || !isWireErrorCode(code)) return;
  void res.body?.cancel().catch(() => undefined);
  throw new NenProtocolError(code, `nen: ${WIRE_ERRORS[code].message}`, { status: res.status });
}

/** Appends Binary HTTP field lines to `h`, dropping those the Fetch API forbids or cannot represent. */
function appendLines(h: Headers, lines: readonly FieldLine[]): Headers {
  for (const [n, v] of lines) {
    try {
      h.append(n, v);
    } catch {
      // a field the Fetch API forbids or cannot represent: dropped
    }
  }
  return h;
}

function toResponse(head: ResponseHead, body: BodyInit | null): Response {
  return new Response(NO_BODY_STATUS.has(head.status) ? null : body, { status: head.status, headers: appendLines(new Headers(), head.headers) });
}

/** A chunked OHTTP answer: resolves with the head once its chunk opened; the body streams the rest. */
async function openChunked(wire: ReadableStream<Uint8Array>, opener: ReturnType<ChunkedClientEncapsulation['responseOpener']>): Promise<Response> {
  const reader = wire.getReader();
  const parser = new BhttpResponseStream();
  const queued: Uint8Array[] = [];
  let ended = false;
  /** Reads wire bytes until something for the application is ready (or the end). */
  async function step(): Promise<ResponseHead | undefined> {
    const r = await reader.read();
    let out: ReturnType<BhttpResponseStream['push']>;
    if (r.done) {
      ended = true;
      const last = parser.push(opener.end());
      const fin = parser.finish();
      out = { ...(last.head ? { head: last.head } : fin.head ? { head: fin.head } : {}), content: [...last.content, ...fin.content] };
    } else {
      out = { content: [] };
      for (const pt of opener.push(r.value)) {
        const o = parser.push(pt);
        if (o.head) out.head = o.head;
        out.content.push(...o.content);
      }
    }
    queued.push(...out.content.filter((c) => c.length > 0));
    return out.head;
  }
  let head: ResponseHead | undefined;
  try {
    while (!head) {
      if (ended) throw new NenProtocolError('NEN_OHTTP_TRUNCATED', 'nen: chunked OHTTP response ended without a response head', { status: 400 });
      head = await step();
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    throw e;
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        while (queued.length === 0 && !ended) await step();
      } catch (e) {
        await reader.cancel().catch(() => undefined);
        // a cut connection (undici's "terminated") is a truncation too, as in session mode
        ctrl.error(
          e instanceof NenProtocolError ? e : new NenProtocolError('NEN_OHTTP_TRUNCATED', 'nen: chunked OHTTP response broke off', { status: 400, cause: e }),
        );
        return;
      }
      const next = queued.shift();
      if (next) ctrl.enqueue(next);
      else ctrl.close();
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return toResponse(head, body);
}

/** Ends the deadline when the streamed body ends or fails. */
function withDeadline(res: Response, dl: { done(): void }): Response {
  if (!res.body) {
    dl.done();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const r = await reader.read();
        if (r.done) {
          dl.done();
          ctrl.close();
        } else ctrl.enqueue(r.value);
      } catch (e) {
        dl.done();
        ctrl.error(e);
      }
    },
    cancel(reason) {
      dl.done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

async function collect(s: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array> {
  const body = await readBodyLimited(new Response(s), max, () => clientError('NEN_BAD_INPUT', 'request body over maxResponseBytes'));
  return body;
}
