/**
 * The Nen client (PROTOCOL.md; DESIGN "Client" and properties 1-10): `createNenClient(options)`
 * → `{ fetch, handshake, stream, rotate, terminate, status, session }`. Runs in browsers and in
 * Node >= 20 (no Node-only imports: only fetch, URL, Web Streams, CompressionStream).
 *
 * Pitfalls:
 *  - Never hands the application a plaintext or unauthenticated body for an encrypted request:
 *    every response must carry a Nen envelope that opens under this request's (session, epoch,
 *    seq, status, content type); anything else is an error. Unauthenticated protocol errors are
 *    hints only: "session unknown/expired/timestamp" allow one re-handshake and one retry (the
 *    handler never ran), "authentication failed" one re-handshake after a backoff; then they throw.
 *  - One handshake in flight whatever the concurrency; sequence numbers are allocated
 *    synchronously per session and continue across rekeys (the server's replay window is per
 *    session), so a (key, nonce) pair is never reused.
 *  - Several pins (rotation): only `NEN_UNKNOWN_KEY_ID` moves a handshake on to the next pin; a
 *    failed key confirmation under a pin the server claims to hold is final (a substituted key).
 *  - Session keys are reference counted: a replaced session is disposed only when its last
 *    in-flight request or stream finishes.
 */
import {
  type Backend,
  type BackendKind,
  type ClientHandshakeResult,
  type KemId,
  type ServerKeyPin,
  HEADER,
  KEM_ID,
  MEDIA_TYPE,
  NenProtocolError,
  REQ_FLAG,
  RES_FLAG,
  RecordOpener,
  RecordSealer,
  SessionKeys,
  WIRE_ERRORS,
  clientError,
  clientHandshakeStart,
  decodeHeaderRecord,
  encodeHeaderRecord,
  formatRequestHeader,
  isBodylessMethod,
  isNullBodyStatus,
  isWireErrorCode,
  loadBackend,
  nextEpochSecret,
  openMessage,
  packConfidentialQuery,
  parseResponseHeader,
  parseServerKeyPin,
  requestAad,
  responseAad,
  sealMessage,
  toBase64Url,
  toHex,
} from '@nen/core';
import { SequenceCounter } from './sequence.js';

/** What an intermediary sees of one HTTP exchange (for wire panels and benchmarks). */
export interface WireExchange {
  readonly kind: 'handshake' | 'request' | 'session';
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBodyLength: number;
  /** First 32 bytes of the request body on the wire, hex. */
  readonly requestBodyHex: string;
  readonly status: number;
  readonly responseHeaders: Record<string, string>;
  /** Body bytes on the wire; null for streams (not buffered). */
  readonly responseBodyLength: number | null;
  readonly responseBodyHex: string;
}

export interface NenClientOptions {
  /** Base URL for relative inputs (default: `location.href` in browsers). */
  baseUrl?: string;
  /** Where the session routes are mounted (default `/api/nen`). */
  sessionPath?: string;
  /**
   * Pinned server key(s) "kid:base64url(publicKey)" (from `nen keygen`): authenticates the server
   * independently of TLS. Several pins (newest first) bridge a key rotation: each handshake uses the
   * first pin and, when the server answers `NEN_UNKNOWN_KEY_ID`, tries the next one (each at most
   * once per handshake). Every pin is trusted equally: drop a pin as soon as its key is retired.
   */
  serverKey?: string | readonly string[];
  /** KEM when no key is pinned (default X-Wing). */
  kem?: 'xwing' | 'mlkem768';
  /** Crypto backend (default 'auto'). */
  backend?: BackendKind | Backend;
  /** Per-call timeout in ms (default 30 000; 0 disables). */
  timeoutMs?: number;
  /** Compress request bodies inside the envelope and accept compressed responses (off by default; see THREAT_MODEL.md). */
  compress?: boolean;
  /** Move query strings inside the envelope (off by default). */
  confidentialQuery?: boolean;
  /** Transport (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Ask for a session lifetime shorter than the server's, in seconds. */
  sessionLifetimeSeconds?: number;
  /** Called with what an intermediary sees of each exchange. */
  onExchange?: (e: WireExchange) => void;
  /** Largest decompressed response accepted, bytes (default 64 MiB). */
  maxResponseBytes?: number;
}

export interface NenSessionInfo {
  readonly id: string;
  /** Absolute expiry, ms since the Unix epoch (local clock). */
  readonly expiresAt: number;
  /** Pinned server key id, or null when the handshake was not server-authenticated. */
  readonly keyId: string | null;
  readonly epoch: number;
}

export interface NenClient {
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  handshake(): Promise<NenSessionInfo>;
  /** The decrypted response body as an async iterable of chunks (for encrypted streams). */
  stream(input: RequestInfo | URL, init?: RequestInit): AsyncIterable<Uint8Array>;
  /** Rekey: both sides move to the next epoch keys (no KEM). */
  rotate(): Promise<NenSessionInfo>;
  /** Ends the session on the server (authenticated) and forgets it. */
  terminate(): Promise<void>;
  /** Server-side view of the session (authenticated). */
  status(): Promise<Record<string, unknown>>;
  readonly session: NenSessionInfo | null;
}

const EMPTY = new Uint8Array(0);

class SessionState {
  inflight = 0;
  retired = false;
  constructor(
    readonly id: Uint8Array,
    readonly idStr: string,
    readonly epoch: number,
    readonly keys: SessionKeys,
    /** Current epoch secret, for rekey. */
    readonly secret: Uint8Array,
    readonly counter: SequenceCounter,
    readonly expiresAt: number,
    readonly skew: number,
    readonly keyId: string | null,
  ) {}

  acquire(): this {
    this.inflight++;
    return this;
  }

  release(): void {
    this.inflight--;
    if (this.retired && this.inflight <= 0) this.#dispose();
  }

  retire(): void {
    if (this.retired) return;
    this.retired = true;
    if (this.inflight <= 0) this.#dispose();
  }

  #dispose(): void {
    this.keys.dispose();
    this.secret.fill(0);
  }

  get info(): NenSessionInfo {
    return { id: this.idStr, expiresAt: this.expiresAt, keyId: this.keyId, epoch: this.epoch };
  }
}

interface PreparedRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly contentType: string;
  readonly body: Uint8Array | ReadableStream<Uint8Array> | null;
  readonly signal: AbortSignal | null;
}

/** Response headers that describe the sealed envelope, not the plaintext the application sees. */
const ENVELOPE_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'content-encoding', HEADER.nen, HEADER.type, HEADER.body]);

function headersRecord(h: Headers): Record<string, string> {
  const o: Record<string, string> = {};
  h.forEach((v, k) => {
    o[k] = v;
  });
  return o;
}

async function pipeThroughBounded(data: Uint8Array, t: { readable: ReadableStream<Uint8Array>; writable: WritableStream<BufferSource> }, limit: number): Promise<Uint8Array> {
  const writer = t.writable.getWriter();
  const w = writer.write(data as Uint8Array<ArrayBuffer>).then(() => writer.close());
  w.catch(() => undefined);
  const reader = t.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'decompressed response exceeds maxResponseBytes');
    }
    chunks.push(value);
  }
  await w;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function asBody(b: Uint8Array): BodyInit {
  return b as Uint8Array<ArrayBuffer>;
}

/** `serverKey` option → pins, in order; a malformed pin or an empty list is NEN_BAD_SERVER_KEY. */
function parsePins(serverKey: string | readonly string[] | undefined): readonly ServerKeyPin[] {
  if (serverKey === undefined || serverKey === '') return [];
  if (typeof serverKey === 'string') return [parseServerKeyPin(serverKey)];
  if (!Array.isArray(serverKey) || serverKey.length === 0 || serverKey.length > 16) {
    throw clientError('NEN_BAD_SERVER_KEY', 'serverKey must be a pin or a list of 1 to 16 pins');
  }
  const pins = serverKey.map((p: unknown) => {
    if (typeof p !== 'string') throw clientError('NEN_BAD_SERVER_KEY', 'each pin must be a "kid:base64url(publicKey)" string');
    return parseServerKeyPin(p);
  });
  if (new Set(pins.map((p) => p.kid)).size !== pins.length) throw clientError('NEN_BAD_SERVER_KEY', 'two pins share a key id');
  return pins;
}

export function createNenClient(options: NenClientOptions = {}): NenClient {
  const sessionPath = (options.sessionPath ?? '/api/nen').replace(/\/+$/, '');
  const pins: readonly ServerKeyPin[] = parsePins(options.serverKey);
  const unpinnedKem: KemId = options.kem === 'mlkem768' ? KEM_ID.MLKEM768 : KEM_ID.XWING;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxResponse = options.maxResponseBytes ?? 64 * 1024 * 1024;
  const lifetime = options.sessionLifetimeSeconds ?? 0;
  if (!Number.isInteger(lifetime) || lifetime < 0) throw clientError('NEN_BAD_INPUT', 'sessionLifetimeSeconds must be a non-negative integer');
  const doFetch: typeof fetch = options.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));

  let backendP: Promise<Backend> | undefined;
  const backend = (): Promise<Backend> => {
    if (typeof options.backend === 'object') return Promise.resolve(options.backend);
    backendP ??= loadBackend(options.backend ?? 'auto');
    backendP.catch(() => {
      backendP = undefined;
    });
    return backendP;
  };

  let current: SessionState | null = null;
  let inflightHandshake: Promise<SessionState> | undefined;
  let errorBackoffMs = 0;

  function resolveUrl(input: string | URL): URL {
    const base = options.baseUrl ?? (typeof location !== 'undefined' ? location.href : undefined);
    try {
      return new URL(input, base);
    } catch (e) {
      throw clientError('NEN_BAD_INPUT', `cannot resolve URL ${String(input).slice(0, 100)} (set baseUrl in Node)`, e);
    }
  }

  function report(e: WireExchange): void {
    if (!options.onExchange) return;
    try {
      options.onExchange(e);
    } catch {
      // observers never break requests
    }
  }

  /** A combined signal: the caller's signal plus the timeout. */
  function withTimeout(signal: AbortSignal | null | undefined): { signal: AbortSignal; done: () => void; timedOut: () => boolean } {
    const ac = new AbortController();
    let timedOut = false;
    const onAbort = () => ac.abort(signal?.reason);
    if (signal) {
      if (signal.aborted) ac.abort(signal.reason);
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        ac.abort(clientError('NEN_TIMEOUT', `no complete response within ${timeoutMs} ms`));
      }, timeoutMs);
      (timer as { unref?: () => void }).unref?.();
    }
    return {
      signal: ac.signal,
      done: () => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      },
      timedOut: () => timedOut,
    };
  }

  function mapAbort(e: unknown, t: { signal: AbortSignal; timedOut: () => boolean }): unknown {
    if (t.timedOut()) return clientError('NEN_TIMEOUT', `no complete response within ${timeoutMs} ms`, e);
    if (t.signal.aborted) return t.signal.reason ?? clientError('NEN_ABORTED');
    return e;
  }

  /**
   * One handshake. With several pins, a `NEN_UNKNOWN_KEY_ID` answer (this server does not hold that
   * key id: before or after a rotation) moves on to the next pin; every other outcome is final. The
   * answer is unauthenticated, so an active attacker can at most make the client use another of its
   * own pins, all of which authenticate the server.
   */
  async function runHandshake(signal: AbortSignal | null): Promise<SessionState> {
    if (pins.length === 0) return handshakeAttempt(signal, undefined);
    for (let i = 0; ; i++) {
      try {
        return await handshakeAttempt(signal, pins[i]);
      } catch (e) {
        if (i + 1 < pins.length && e instanceof NenProtocolError && e.code === 'NEN_UNKNOWN_KEY_ID') continue;
        throw e;
      }
    }
  }

  async function handshakeAttempt(signal: AbortSignal | null, pin: ServerKeyPin | undefined): Promise<SessionState> {
    const be = await backend();
    const st = clientHandshakeStart(be, { kem: pin?.kem ?? unpinnedKem, ...(pin ? { pin } : {}), lifetime });
    const url = resolveUrl(`${sessionPath}/handshake`);
    const t = withTimeout(signal);
    const t0 = Date.now();
    let res: Response;
    let buf: Uint8Array;
    try {
      res = await doFetch(url, { method: 'POST', headers: { 'content-type': MEDIA_TYPE.handshake }, body: asBody(st.hello), signal: t.signal });
      buf = new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      st.dispose();
      throw mapAbort(e, t);
    } finally {
      t.done();
    }
    const t1 = Date.now();
    report({
      kind: 'handshake', method: 'POST', url: url.href, requestHeaders: { 'content-type': MEDIA_TYPE.handshake }, requestBodyLength: st.hello.length,
      requestBodyHex: toHex(st.hello.subarray(0, 32)), status: res.status, responseHeaders: headersRecord(res.headers), responseBodyLength: buf.length, responseBodyHex: toHex(buf.subarray(0, 32)),
    });
    if (!res.ok) {
      st.dispose();
      throw serverError(res, `handshake HTTP ${res.status}`);
    }
    if ((res.headers.get('content-type') ?? '').split(';')[0]!.trim() !== MEDIA_TYPE.handshake) {
      st.dispose();
      throw clientError('NEN_HANDSHAKE_FAILED', 'handshake response has the wrong content type');
    }
    const r: ClientHandshakeResult = st.finish(buf);
    const skew = r.serverTime - Math.round((t0 + t1) / 2);
    const keys = new SessionKeys(be, r.secret, 0);
    return new SessionState(r.sessionId, toBase64Url(r.sessionId), 0, keys, r.secret, new SequenceCounter(), t1 + r.lifetime * 1000, skew, r.kid ?? null);
  }

  function install(s: SessionState): void {
    const old = current;
    current = s;
    if (old && old !== s) old.retire();
  }

  function handshake(signal: AbortSignal | null = null): Promise<SessionState> {
    inflightHandshake ??= runHandshake(signal).then(
      (s) => {
        install(s);
        inflightHandshake = undefined;
        return s;
      },
      (e: unknown) => {
        inflightHandshake = undefined;
        throw e;
      },
    );
    return inflightHandshake;
  }

  /**
   * The live session, or the (shared) handshake. The shared handshake is not tied to any one
   * caller's signal (one caller aborting must not fail the others); each caller stops waiting
   * when its own signal fires.
   */
  async function ensureSession(signal: AbortSignal | null): Promise<SessionState> {
    const s = current;
    if (s && s.expiresAt - Date.now() > 2000) return s;
    const hs = handshake(null);
    if (!signal) return hs;
    if (signal.aborted) throw signal.reason ?? clientError('NEN_ABORTED');
    return new Promise<SessionState>((resolve, reject) => {
      const onAbort = () => reject(signal.reason ?? clientError('NEN_ABORTED'));
      signal.addEventListener('abort', onAbort, { once: true });
      hs.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  function invalidate(s: SessionState): void {
    if (current === s) {
      current = null;
      s.retire();
    }
  }

  /** An unauthenticated server error response → NenProtocolError (a hint, never data). */
  function serverError(res: Response, detail: string): NenProtocolError {
    const code = res.headers.get(HEADER.error);
    if (code && isWireErrorCode(code) && WIRE_ERRORS[code].status === res.status) {
      return new NenProtocolError(code, `nen: ${WIRE_ERRORS[code].message}`, { status: res.status });
    }
    return clientError('NEN_RESPONSE_UNAUTHENTICATED', detail);
  }

  async function prepare(input: RequestInfo | URL, init: RequestInit = {}): Promise<PreparedRequest> {
    let url: URL;
    let method = (init.method ?? 'GET').toUpperCase();
    let headers = new Headers(init.headers);
    let bodyInit: BodyInit | null | undefined = init.body;
    let signal = init.signal ?? null;
    if (typeof Request !== 'undefined' && input instanceof Request) {
      url = resolveUrl(input.url);
      if (init.method === undefined) method = input.method.toUpperCase();
      if (init.headers === undefined) headers = new Headers(input.headers);
      if (bodyInit === undefined && input.body) bodyInit = new Uint8Array(await input.arrayBuffer()) as Uint8Array<ArrayBuffer>;
      signal = init.signal ?? input.signal;
    } else {
      url = resolveUrl(input as string | URL);
    }
    let contentType = headers.get('content-type') ?? '';
    let body: Uint8Array | ReadableStream<Uint8Array> | null = null;
    if (bodyInit !== undefined && bodyInit !== null) {
      if (isBodylessMethod(method)) throw clientError('NEN_BAD_INPUT', `${method} requests cannot have a body`);
      if (typeof ReadableStream !== 'undefined' && bodyInit instanceof ReadableStream) {
        body = bodyInit as ReadableStream<Uint8Array>;
      } else if (bodyInit instanceof Uint8Array) {
        body = bodyInit;
      } else if (typeof bodyInit === 'string') {
        body = new TextEncoder().encode(bodyInit);
        if (!contentType) contentType = 'text/plain;charset=UTF-8';
      } else {
        // Blob, FormData, URLSearchParams, ArrayBuffer, other views: let the platform serialise it.
        const r = new Request('http://nen.invalid/', { method: 'POST', body: bodyInit });
        body = new Uint8Array(await r.arrayBuffer());
        if (!contentType) contentType = r.headers.get('content-type') ?? '';
      }
    }
    for (const h of ['content-type', 'content-length', HEADER.nen, HEADER.type, HEADER.body]) headers.delete(h);
    return { url, method, headers, contentType, body, signal };
  }

  /** The response headers handed to the application: Nen's and the sealed body's framing removed, in one pass. */
  function cleanHeaders(h: Headers, contentType: string): [string, string][] {
    const out: [string, string][] = [];
    h.forEach((v, k) => {
      if (!ENVELOPE_RESPONSE_HEADERS.has(k)) out.push([k, v]);
    });
    if (contentType) out.push(['content-type', contentType]);
    return out;
  }

  /** One attempt: seal, send, verify. Throws NenProtocolError for server-reported errors. */
  async function send(s: SessionState, p: PreparedRequest, kind: WireExchange['kind']): Promise<Response> {
    const seq = await s.counter.acquire(p.signal);
    try {
      return await sendWith(s, p, kind, seq);
    } finally {
      s.counter.release(seq); // also when sealing threw before the fetch (no-op if released already)
    }
  }

  async function sendWith(s: SessionState, p: PreparedRequest, kind: WireExchange['kind'], seq: bigint): Promise<Response> {
    const timestamp = Math.round(Date.now() + s.skew);
    let url = p.url;
    let flags = 0;
    let query: string | null = null;
    if (options.confidentialQuery && url.search !== '') {
      url = new URL(url.href); // a copy: p.url is reused by a retry
      query = url.search.slice(1);
      url.search = '';
      flags |= REQ_FLAG.CONFIDENTIAL_QUERY;
    }
    const isStream = p.body instanceof ReadableStream;
    if (isStream) {
      if (query !== null) throw clientError('NEN_BAD_INPUT', 'confidentialQuery is not supported with streamed request bodies');
      flags |= REQ_FLAG.STREAM;
    }
    let body: Uint8Array = isStream ? EMPTY : ((p.body as Uint8Array | null) ?? EMPTY);
    if (options.compress) {
      flags |= REQ_FLAG.ACCEPT_COMPRESSED;
      if (!isStream && body.length >= 64 && typeof CompressionStream !== 'undefined') {
        body = await pipeThroughBounded(body, new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER);
        flags |= REQ_FLAG.COMPRESSED;
      }
    }
    const meta = { sessionId: s.id, epoch: s.epoch, seq, timestamp, flags };
    const target = url.pathname + url.search;
    const aad = requestAad(meta, p.method, target, p.contentType);
    // Wire headers built once as a list (prepare() already removed the ones set here).
    const headers: [string, string][] = [];
    p.headers.forEach((v, k) => {
      headers.push([k, v]);
    });
    headers.push([HEADER.nen, formatRequestHeader(meta)]);
    if (p.contentType) headers.push([HEADER.type, p.contentType]);
    let wireBody: BodyInit | undefined;
    let wireBytes: Uint8Array = EMPTY;
    if (isStream) {
      headers.push(['content-type', MEDIA_TYPE.stream]);
      const sealer = new RecordSealer(s.keys.c2s, s.keys.c2sIv, seq, aad);
      wireBody = (p.body as ReadableStream<Uint8Array>).pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, c) {
          c.enqueue(sealer.seal(chunk, false));
        },
        flush(c) {
          c.enqueue(sealer.seal(EMPTY, true));
        },
      }));
    } else {
      const plaintext = query !== null ? packConfidentialQuery(query, body) : body;
      const sealed = sealMessage(s.keys.c2s, s.keys.c2sIv, seq, aad, plaintext);
      if (isBodylessMethod(p.method)) {
        headers.push([HEADER.body, encodeHeaderRecord(sealed)]);
      } else {
        headers.push(['content-type', MEDIA_TYPE.sealed]);
        wireBody = asBody(sealed);
        wireBytes = sealed;
      }
    }
    const t = withTimeout(p.signal);
    let res: Response;
    try {
      // Redirects are not followed: a followed redirect would re-send this request's Nen headers
      // to another URL (rejected there); in Node the sealed 3xx itself is verified and returned.
      // A Headers object, as a fetch would get from application code (custom fetch functions read it).
      const init: RequestInit & { duplex?: 'half' } = { method: p.method, headers: new Headers(headers), signal: t.signal, redirect: 'manual' };
      if (wireBody !== undefined) init.body = wireBody;
      if (isStream) init.duplex = 'half';
      res = await doFetch(url, init);
    } catch (e) {
      t.done();
      throw mapAbort(e, t);
    } finally {
      s.counter.release(seq); // the server has committed or rejected it by the response head
    }
    const hdr = parseResponseHeader(res.headers.get(HEADER.nen));
    const rct = res.headers.get(HEADER.type) ?? '';
    // Only built when someone observes the exchanges (the demo's wire view), not per request.
    const exchangeBase = () => ({
      kind, method: p.method, url: url.href, requestHeaders: headersRecord(new Headers(headers)), requestBodyLength: wireBytes.length, requestBodyHex: toHex(wireBytes.subarray(0, 32)),
      status: res.status, responseHeaders: headersRecord(res.headers),
    });
    if (!hdr) {
      let buf: Uint8Array = EMPTY;
      try {
        buf = new Uint8Array(await res.arrayBuffer());
      } catch {
        // ignore: the response is rejected anyway
      } finally {
        t.done();
      }
      if (options.onExchange) report({ ...exchangeBase(), responseBodyLength: buf.length, responseBodyHex: toHex(buf.subarray(0, 32)) });
      throw serverError(res, `response (HTTP ${res.status}) has no Nen envelope`);
    }
    if (hdr.flags & RES_FLAG.STREAM) {
      t.done();
      if (options.onExchange) report({ ...exchangeBase(), responseBodyLength: null, responseBodyHex: '' });
      if ((res.headers.get('content-type') ?? '').split(';')[0]!.trim() !== MEDIA_TYPE.stream || !res.body || res.status !== 200) {
        await res.body?.cancel().catch(() => undefined);
        throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'stream envelope with a wrong content type, status or no body');
      }
      const raad = responseAad(s.id, s.epoch, seq, 200, hdr.flags, rct);
      const opener = new RecordOpener(s.keys.s2c, s.keys.s2cIv, seq, raad, (k, detail) =>
        clientError(k === 'truncated' ? 'NEN_STREAM_TRUNCATED' : 'NEN_STREAM_INVALID', detail));
      const reader = res.body.getReader();
      s.acquire();
      let released = false;
      const release = () => {
        if (!released) {
          released = true;
          s.release();
        }
      };
      const stream = new ReadableStream<Uint8Array>({
        async pull(c) {
          try {
            for (;;) {
              const r = await reader.read();
              if (r.done) {
                opener.end();
                c.close();
                release();
                return;
              }
              const chunks = opener.push(r.value);
              for (const x of chunks) c.enqueue(x);
              if (chunks.length > 0) return;
            }
          } catch (e) {
            release();
            c.error(e instanceof NenProtocolError ? e : clientError('NEN_STREAM_TRUNCATED', 'stream broke off', e));
            await reader.cancel().catch(() => undefined);
          }
        },
        async cancel(reason) {
          release();
          await reader.cancel(reason).catch(() => undefined);
        },
      }, { highWaterMark: 0 });
      return new Response(stream, { status: 200, statusText: res.statusText, headers: cleanHeaders(res.headers, rct) });
    }
    // Single sealed message.
    let sealed: Uint8Array | null;
    const nullBody = isNullBodyStatus(res.status) || p.method === 'HEAD';
    try {
      if (nullBody) {
        const hb = res.headers.get(HEADER.body);
        sealed = hb === null ? null : decodeHeaderRecord(hb);
        await res.body?.cancel().catch(() => undefined);
      } else {
        sealed = new Uint8Array(await res.arrayBuffer());
      }
    } catch (e) {
      throw mapAbort(e, t);
    } finally {
      t.done();
    }
    if (options.onExchange) report({ ...exchangeBase(), responseBodyLength: sealed?.length ?? 0, responseBodyHex: sealed ? toHex(sealed.subarray(0, 32)) : '' });
    if (!sealed) throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'response envelope without a sealed record');
    if (!nullBody && (res.headers.get('content-type') ?? '').split(';')[0]!.trim() !== MEDIA_TYPE.sealed) {
      throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'sealed response with the wrong content type');
    }
    const raad = responseAad(s.id, s.epoch, seq, res.status, hdr.flags, rct);
    let plain: Uint8Array;
    try {
      plain = openMessage(s.keys.s2c, s.keys.s2cIv, seq, raad, sealed);
    } catch (e) {
      throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'response failed authentication (tampered, substituted or forged)', e);
    }
    if (hdr.flags & RES_FLAG.COMPRESSED) {
      if (!options.compress || typeof DecompressionStream === 'undefined') throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'compressed response that was not asked for');
      try {
        plain = await pipeThroughBounded(plain, new DecompressionStream('deflate-raw'), maxResponse);
      } catch (e) {
        if (e instanceof NenProtocolError) throw e;
        throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'compressed response is not valid deflate-raw', e);
      }
    }
    return new Response(nullBody ? null : asBody(plain), { status: res.status, statusText: res.statusText, headers: cleanHeaders(res.headers, rct) });
  }

  function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(resolve, ms);
      (t as { unref?: () => void }).unref?.();
      signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(signal.reason);
      }, { once: true });
    });
  }

  async function request(input: RequestInfo | URL, init: RequestInit | undefined, kind: WireExchange['kind'], retry: boolean): Promise<Response> {
    const p = await prepare(input, init);
    const canRetry = retry && !(p.body instanceof ReadableStream);
    for (let attempt = 0; ; attempt++) {
      const s = (await ensureSession(p.signal)).acquire();
      try {
        const res = await send(s, p, kind);
        errorBackoffMs = 0;
        return res;
      } catch (e) {
        if (canRetry && attempt === 0 && e instanceof NenProtocolError && e.code && isWireErrorCode(e.code)) {
          const action = WIRE_ERRORS[e.code].client;
          if (action === 'rehandshake-retry') {
            invalidate(s);
            continue;
          }
          if (action === 'rehandshake-once') {
            errorBackoffMs = Math.min(Math.max(errorBackoffMs * 2, 250), 10_000);
            invalidate(s);
            await sleep(errorBackoffMs, p.signal);
            continue;
          }
        }
        throw e;
      } finally {
        s.release();
      }
    }
  }

  async function sessionCall(action: 'rotate' | 'terminate' | 'status'): Promise<{ s: SessionState; value: Record<string, unknown> }> {
    const s = current;
    if (!s) throw clientError('NEN_BAD_INPUT', `no session to ${action}`);
    s.acquire();
    try {
      const p = await prepare(resolveUrl(`${sessionPath}/${action}`), { method: 'POST' });
      const res = await send(s, p, 'session');
      const value = (await res.json()) as Record<string, unknown>;
      return { s, value };
    } finally {
      s.release();
    }
  }

  const client: NenClient = {
    fetch: (input, init) => request(input, init, 'request', true),
    async handshake() {
      return (await handshake(null)).info;
    },
    stream(input, init) {
      return {
        async *[Symbol.asyncIterator]() {
          const res = await request(input, init, 'request', true);
          if (!res.body) return;
          const reader = res.body.getReader();
          try {
            for (;;) {
              const r = await reader.read();
              if (r.done) return;
              yield r.value;
            }
          } finally {
            reader.releaseLock();
            await res.body.cancel().catch(() => undefined);
          }
        },
      };
    },
    async rotate() {
      const { s, value } = await sessionCall('rotate');
      if (value.epoch !== s.epoch + 1) throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'rotate answered with an unexpected epoch');
      const be = await backend();
      const next = nextEpochSecret(be, s.secret);
      const ns = new SessionState(s.id, s.idStr, s.epoch + 1, new SessionKeys(be, next, s.epoch + 1), next, s.counter, s.expiresAt, s.skew, s.keyId);
      if (current === s) install(ns);
      else ns.retire();
      return ns.info;
    },
    async terminate() {
      const s = current;
      if (!s) return;
      try {
        await sessionCall('terminate');
      } finally {
        invalidate(s);
      }
    },
    async status() {
      return (await sessionCall('status')).value;
    },
    get session() {
      return current?.info ?? null;
    },
  };
  return client;
}
