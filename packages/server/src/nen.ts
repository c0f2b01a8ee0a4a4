/**
 * `createNen(config)`: the Nen server for Next.js App Router route handlers (PROTOCOL.md; DESIGN
 * "Server" and properties 1-12). It returns `withNen` / `withNenStream` (wrap a route handler of
 * any method), `routes` (the session endpoints handshake, rotate, terminate, status, keys from
 * one catch-all route), the session `store`, and `close()`.
 *
 * Request check order (PROTOCOL.md "Server processing", each failure a stable code):
 *  1. `nen` header syntax (400) 2. timestamp window (401) 3. content type (415) 4. body size (413)
 *  5. session keys for (session id, epoch): in-process cache, else store.get (401 unknown)
 *  6. AEAD open with the canonical request as AAD (401) 7. store.commit: the one atomic step
 *  (unknown/expired 401, replay 409) 8. decompress, confidential query, JSON parse (400)
 *  9. the handler 10. the response, whatever it is, sealed and bound to the request.
 *
 * Pitfalls:
 *  - The replay window advances only in step 7, after the AEAD check.
 *  - Session keys are cached per (session id, epoch) so steady state costs one store round trip
 *    (the commit); cached Wasm-backed keys are reference-counted and disposed when evicted and no
 *    longer in use, never while a request or a stream still holds them.
 *  - Protocol errors are unauthenticated plaintext with a generic message; the precise reason
 *    goes to `logger` only. Handler exceptions become a sealed 500 (the session is valid).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import {
  type Backend,
  type BackendKind,
  type KemId,
  HEADER,
  KEM_ID,
  MEDIA_TYPE,
  NenProtocolError,
  RecordOpener,
  RecordSealer,
  REQ_FLAG,
  RES_FLAG,
  SESSION_ID_LENGTH,
  SessionKeys,
  DEFAULT_TIMESTAMP_WINDOW_MS,
  AEAD_TAG_LENGTH,
  concatBytes,
  decodeHeaderRecord,
  encodeHeaderRecord,
  formatResponseHeader,
  fromUtf8,
  isBodylessMethod,
  isNullBodyStatus,
  isWireErrorCode,
  kemName,
  loadBackend,
  nextEpochSecret,
  openMessage,
  parseRequestHeader,
  requestAad,
  responseAad,
  sealMessage,
  serverHandshake,
  toBase64Url,
  unpackConfidentialQuery,
  utf8,
  wireError,
} from '@nen/core';
import { errorResponse, readAll, readBody } from './http.js';
import { NenConfigError, loadServerKeys, parseServerKeys, type LoadedServerKey, type ServerKeySpec } from './keys.js';
import { HandshakeRateLimiter, defaultClientAddress } from './ratelimit.js';
import { memoryStore } from './stores/memory.js';
import type { CommitResult, SessionRecord, SessionStore } from './stores/types.js';
import { redisStore } from './stores/redis.js';

/** Something the server reports; never contains secret material. */
export interface NenLogEvent {
  readonly level: 'info' | 'warn' | 'error';
  /** e.g. `request.rejected`, `handshake`, `handler.error`, `store.error`, `session.rotate`. */
  readonly event: string;
  readonly code?: string;
  /** Precise reason (log only; the wire gets the generic catalog message). */
  readonly reason?: string;
  readonly status?: number;
  /** First 8 characters of the session id. */
  readonly session?: string;
  readonly path?: string;
}

export interface NenConfig {
  /** Session store; default: Redis when REDIS_URL is set, else the in-memory store (at most NEN_MAX_SESSIONS sessions, default 50 000, least recently used evicted). */
  store?: SessionStore;
  /** Server static keys: the NEN_SERVER_KEYS string or parsed specs; default env NEN_SERVER_KEYS, else one key generated per process. */
  serverKeys?: string | readonly ServerKeySpec[];
  /** Maximum (and default) session lifetime, seconds (NEN_SESSION_TTL, default 3600). */
  sessionTtlSeconds?: number;
  /** Idle timeout, seconds (NEN_IDLE_TIMEOUT, default 900). */
  idleTimeoutSeconds?: number;
  /** Maximum plaintext body, bytes (NEN_MAX_BODY, default 4 MiB). */
  maxBodyBytes?: number;
  /** Handshakes per minute per client address (NEN_HANDSHAKE_RATE, default 120; 0 disables). */
  handshakeRateLimit?: number;
  /** Compress responses inside the envelope for clients that accept it (off by default). */
  compression?: boolean;
  /** Add a Server-Timing header with the Nen crypto and store timings (NEN_SERVER_TIMING=1). */
  serverTiming?: boolean;
  /** Receives protocol events with precise reasons; default: warnings/errors to console. */
  logger?: (event: NenLogEvent) => void;
  /** Crypto backend: a Backend or a kind for loadBackend (default 'auto'). */
  backend?: Backend | BackendKind;
  /** Accepted clock difference for request timestamps, ms (default 30 000). */
  timestampWindowMs?: number;
  /** Client address for the handshake rate limit (default: first x-forwarded-for / x-real-ip). */
  clientAddress?: (request: Request) => string;
  /** Grace period after a rotate during which the previous epoch is still accepted, ms (default 30 000). */
  rotateGraceMs?: number;
  /** In-process session key cache size (default 10 000). */
  keyCacheSize?: number;
  /** Clock in ms since the Unix epoch (default Date.now); for tests and simulations. */
  now?: () => number;
}

export interface NenRouteOptions {
  /** Compress this route's responses when the client accepts it (overrides `compression`). */
  compress?: boolean;
  /** Maximum plaintext body for this route, bytes. */
  maxBodyBytes?: number;
}

export interface NenStreamRouteOptions {
  /** Plaintext content type of the stream (default `text/event-stream`). */
  contentType?: string;
  maxBodyBytes?: number;
}

/** The body handed to handlers: parsed JSON for JSON content types, bytes otherwise, undefined when empty; a stream for streamed uploads. */
export type NenBody = unknown;

export type NenHandler<C> = (request: Request, context: C, body: NenBody) => unknown;
export type NenStreamHandler<C> = (request: Request, context: C, body: NenBody) => AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
export type NenRouteHandler<C> = (request: Request, context: C) => Promise<Response>;

export interface Nen {
  withNen<C = unknown>(handler: NenHandler<C>, options?: NenRouteOptions): NenRouteHandler<C>;
  withNenStream<C = unknown>(handler: NenStreamHandler<C>, options?: NenStreamRouteOptions): NenRouteHandler<C>;
  /** Session endpoints for `app/<sessionPath>/[action]/route.ts`: `export const { GET, POST } = nen.routes`. */
  readonly routes: { GET: (request: Request, context?: unknown) => Promise<Response>; POST: (request: Request, context?: unknown) => Promise<Response> };
  readonly store: SessionStore;
  /** Resolves once the backend and server keys are loaded (done lazily on first use otherwise). */
  ready(): Promise<void>;
  /** The live server public keys and their client pins. */
  publicKeys(): Promise<Array<{ kid: string; kem: 'xwing' | 'mlkem768'; publicKey: string; pin: string }>>;
  /** Releases the store (when created here), timers and key material. */
  close(): Promise<void>;
}

function envInt(name: string, def: number): number {
  const v = typeof process !== 'undefined' ? process.env[name] : undefined;
  if (v === undefined || v.trim() === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new NenConfigError(`${name} must be a non-negative number`);
  return n;
}

/** Request headers a handler never sees: Nen's own, and the sealed body's framing (content type restored below). */
const HIDDEN_REQUEST_HEADERS: ReadonlySet<string> = new Set([HEADER.nen, HEADER.type, HEADER.body, 'content-length', 'content-encoding', 'content-type']);
/** Handler response headers that describe the plaintext body or are Nen's; replaced on the sealed response. */
const REPLACED_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding', HEADER.nen, HEADER.type, HEADER.body, HEADER.error]);

/**
 * The request handed to handlers: the original Request (a NextRequest under Next.js, so
 * `nextUrl`, `cookies`, `signal` keep working) seen through a Proxy that overrides what Nen
 * changed: `url` (confidential query restored), `headers` (plaintext content type, no Nen
 * headers) and the body (the decrypted plaintext). A real `Request` is only materialised for the
 * rarely used body accessors (`body`, `blob`, `formData`, `clone`), because constructing one per
 * request (plus an abort-signal link) costs more than the whole AEAD open on Node 20. The proxy
 * handler is this one object: the headers and the body accessors are only built when a handler
 * uses them (one allocation per request otherwise).
 */
class DecryptedRequestView implements ProxyHandler<Request> {
  #real: Request | undefined;
  #headers: Headers | undefined;
  constructor(
    private readonly original: Request,
    private readonly url: string,
    private readonly method: string,
    private readonly contentType: string,
    private readonly body: Uint8Array | ReadableStream<Uint8Array> | null,
  ) {}

  headers(): Headers {
    if (!this.#headers) {
      // One pass over the original headers (instead of a copy and then deletes).
      const init: [string, string][] = [];
      this.original.headers.forEach((v, k) => {
        if (!HIDDEN_REQUEST_HEADERS.has(k)) init.push([k, v]);
      });
      if (this.contentType) init.push(['content-type', this.contentType]);
      this.#headers = new Headers(init);
    }
    return this.#headers;
  }

  materialise(): Request {
    if (!this.#real) {
      const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers: this.headers() };
      const body = this.body;
      if (body !== null) {
        init.body = body instanceof ReadableStream ? body : asBody(body);
        if (body instanceof ReadableStream) init.duplex = 'half';
      }
      this.#real = new Request(this.url, init);
    }
    return this.#real;
  }

  async bytes(): Promise<Uint8Array> {
    const body = this.body;
    if (body === null) return new Uint8Array(0);
    if (body instanceof ReadableStream) return new Uint8Array(await this.materialise().arrayBuffer());
    return body.slice();
  }

  get(target: Request, prop: string | symbol): unknown {
    switch (prop) {
      case 'url': return this.url;
      case 'method': return this.method;
      case 'headers': return this.headers();
      case 'body': return this.materialise().body;
      case 'bodyUsed': return this.#real?.bodyUsed ?? false;
      case 'bytes': return () => this.bytes();
      case 'arrayBuffer': return async () => (await this.bytes()).buffer;
      case 'text': return async () => new TextDecoder().decode(await this.bytes());
      case 'json': return async () => JSON.parse(new TextDecoder().decode(await this.bytes())) as unknown;
      case 'blob': return () => this.materialise().blob();
      case 'formData': return () => this.materialise().formData();
      case 'clone': return () => this.materialise().clone();
      default: {
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      }
    }
  }
}

/** Uint8Array as a fetch body (TS 5.9 types bodies as ArrayBuffer-backed views). */
function asBody(b: Uint8Array): BodyInit {
  return b as Uint8Array<ArrayBuffer>;
}

function isJsonType(ct: string): boolean {
  return /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(ct);
}

const defaultLogger = (e: NenLogEvent): void => {
  if (process.env.NEN_LOG === 'silent') return;
  if (e.level === 'error') console.error(`nen: ${e.event}${e.code ? ` ${e.code}` : ''}${e.reason ? `: ${e.reason}` : ''}`);
  else if (e.level === 'warn' && process.env.NEN_LOG !== 'error') console.warn(`nen: ${e.event}${e.code ? ` ${e.code}` : ''}${e.reason ? `: ${e.reason}` : ''}`);
};

interface CacheEntry {
  keys: SessionKeys;
  refs: number;
  evicted: boolean;
}

/** LRU of SessionKeys per (session id, epoch), reference counted. */
class KeyCache {
  readonly #map = new Map<string, CacheEntry>();
  constructor(readonly max: number) {}

  acquire(sid: string, epoch: number): CacheEntry | undefined {
    const k = `${sid}.${epoch}`;
    const e = this.#map.get(k);
    if (!e) return undefined;
    this.#map.delete(k);
    this.#map.set(k, e);
    e.refs++;
    return e;
  }

  /** Inserts (replacing any entry) and returns it acquired once. */
  put(sid: string, epoch: number, keys: SessionKeys): CacheEntry {
    const k = `${sid}.${epoch}`;
    const old = this.#map.get(k);
    if (old) this.#evict(k, old);
    while (this.#map.size >= this.max) {
      const first = this.#map.entries().next();
      if (first.done) break;
      this.#evict(first.value[0], first.value[1]);
    }
    const e: CacheEntry = { keys, refs: 1, evicted: false };
    this.#map.set(k, e);
    return e;
  }

  release(e: CacheEntry): void {
    e.refs--;
    if (e.refs <= 0 && e.evicted) e.keys.dispose();
  }

  evictSession(sid: string, epoch: number): void {
    for (const ep of [epoch - 1, epoch, epoch + 1]) {
      const k = `${sid}.${ep}`;
      const e = this.#map.get(k);
      if (e) this.#evict(k, e);
    }
  }

  clear(): void {
    for (const [k, e] of this.#map) this.#evict(k, e);
  }

  get size(): number {
    return this.#map.size;
  }

  #evict(k: string, e: CacheEntry): void {
    this.#map.delete(k);
    e.evicted = true;
    if (e.refs <= 0) e.keys.dispose();
  }
}

interface Opened {
  readonly meta: ReturnType<typeof parseRequestHeader>;
  readonly sid: string;
  readonly entry: CacheEntry;
  readonly session: SessionRecord;
  readonly method: string;
  /** The request handed to the handler: decrypted body, plaintext content type, restored query. */
  readonly handlerRequest: Request;
  readonly body: NenBody;
  readonly cryptoMs: number;
  readonly storeMs: number;
}

function normaliseStoreError(e: unknown): NenProtocolError | undefined {
  if (e instanceof NenProtocolError) return e;
  if (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'NEN_STORE_UNAVAILABLE') {
    return wireError('NEN_STORE_UNAVAILABLE', e instanceof Error ? e.message : 'store unavailable', e);
  }
  return undefined;
}

/** Logged at start when the Redis store runs without NEN_STORE_KEY. */
const STORE_KEY_WARNING = 'NEN_STORE_KEY is not set: the key wrapping session secrets in Redis is derived from the whole NEN_SERVER_KEYS set, '
  + 'so adding or removing a server key makes every stored session unreadable (clients re-handshake) and, during a rolling restart, '
  + 'instances with different key sets cannot read each other\'s sessions. Set NEN_STORE_KEY (nen keygen prints one) to the same value on every instance, once.';

export function createNen(config: NenConfig = {}): Nen {
  const ttlS = config.sessionTtlSeconds ?? envInt('NEN_SESSION_TTL', 3600);
  const idleS = config.idleTimeoutSeconds ?? envInt('NEN_IDLE_TIMEOUT', 900);
  const maxBody = config.maxBodyBytes ?? envInt('NEN_MAX_BODY', 4 * 1024 * 1024);
  const rate = config.handshakeRateLimit ?? envInt('NEN_HANDSHAKE_RATE', 120);
  const serverTiming = config.serverTiming ?? process.env.NEN_SERVER_TIMING === '1';
  const compression = config.compression ?? false;
  const log = config.logger ?? defaultLogger;
  const tsWindow = config.timestampWindowMs ?? DEFAULT_TIMESTAMP_WINDOW_MS;
  const grace = config.rotateGraceMs ?? 30_000;
  const clientAddress = config.clientAddress ?? defaultClientAddress;
  const clock = config.now ?? Date.now;
  if (!(ttlS >= 1 && ttlS <= 0xffffffff)) throw new NenConfigError('session TTL must be 1..2^32-1 seconds');
  if (!(idleS >= 1 && idleS <= 0xffffffff)) throw new NenConfigError('idle timeout must be 1..2^32-1 seconds');

  const keySpecs: readonly ServerKeySpec[] | null =
    typeof config.serverKeys === 'string' ? parseServerKeys(config.serverKeys)
    : config.serverKeys ? config.serverKeys
    : process.env.NEN_SERVER_KEYS ? parseServerKeys(process.env.NEN_SERVER_KEYS) : null;

  let ownStore = false;
  const store: SessionStore = config.store ?? (() => {
    const url = process.env.REDIS_URL;
    if (url) {
      // Wrap key for secrets at rest: NEN_STORE_KEY (32 random bytes from `nen keygen`, the same on
      // every instance, kept across server key rotations), else derived from the whole server key
      // set. The fallback is kept for compatibility but warned about: any change of NEN_SERVER_KEYS
      // changes it. (A default from one "stable" server key is not safe either: that key is
      // eventually retired, and a key that authenticates handshakes should not double as a
      // storage key whose loss or rotation silently ends sessions.)
      let wrapKey: Uint8Array;
      const sk = process.env.NEN_STORE_KEY;
      if (sk) {
        if (sk.length < 32) throw new NenConfigError('NEN_STORE_KEY must be at least 32 characters of secret randomness (use the NEN_STORE_KEY line that `nen keygen` prints)');
        wrapKey = createHash('sha256').update('nen/1 store key').update(sk).digest();
      } else {
        if (!keySpecs) throw new NenConfigError('REDIS_URL needs NEN_STORE_KEY (or at least NEN_SERVER_KEYS) to wrap session secrets at rest, identically on every instance');
        const h = createHash('sha256').update('nen/1 store key');
        for (const s of [...keySpecs].sort((a, b) => (a.kid < b.kid ? -1 : 1))) h.update(s.kid).update(s.privateKey);
        wrapKey = h.digest();
        log({ level: 'warn', event: 'config.store_key_derived', reason: STORE_KEY_WARNING });
      }
      ownStore = true;
      return redisStore({ url, wrapKey, logger: (e) => log({ level: e.level, event: e.event, reason: e.message }) });
    }
    return memoryStore({ maxSessions: envInt('NEN_MAX_SESSIONS', 50_000) });
  })();

  const cache = new KeyCache(Math.max(16, config.keyCacheSize ?? 10_000));
  const limiter = new HandshakeRateLimiter(rate);

  interface State {
    backend: Backend;
    keys: LoadedServerKey[];
    keyMap: Map<string, LoadedServerKey['recipient']>;
  }
  let statePromise: Promise<State> | undefined;
  /** The loaded state once `statePromise` resolved: requests read it without an await. */
  let stateValue: State | undefined;
  const state = (): Promise<State> => {
    statePromise ??= (async () => {
      const backend = typeof config.backend === 'object' ? config.backend : await loadBackend(config.backend ?? 'auto');
      let specs = keySpecs;
      if (!specs) {
        const kp = backend.generateKeyPair(KEM_ID.XWING);
        specs = [{ kid: 'ephemeral', kem: KEM_ID.XWING, privateKey: kp.privateKey }];
        log({ level: 'warn', event: 'config.ephemeral_key', reason: 'NEN_SERVER_KEYS is not set: using a per-process server key (clients cannot pin it; restarts end sessions)' });
      }
      const keys = loadServerKeys(backend, specs);
      const st: State = { backend, keys, keyMap: new Map(keys.map((k) => [k.kid, k.recipient])) };
      stateValue = st;
      return st;
    })();
    statePromise.catch(() => {
      statePromise = undefined;
    });
    return statePromise;
  };

  const reject = (e: unknown, request: Request, sid?: string): Response => {
    const pe = normaliseStoreError(e);
    let path: string | undefined;
    try {
      path = new URL(request.url).pathname.slice(0, 200);
    } catch {
      path = undefined;
    }
    if (pe && pe.code && isWireErrorCode(pe.code)) {
      log({ level: pe.code === 'NEN_STORE_UNAVAILABLE' ? 'error' : 'warn', event: 'request.rejected', code: pe.code, reason: pe.reason ?? pe.message, status: pe.status, path, ...(sid ? { session: sid.slice(0, 8) } : {}) });
      return errorResponse(pe.code, pe.code === 'NEN_STORE_UNAVAILABLE' ? { 'retry-after': '1' } : undefined);
    }
    log({ level: 'error', event: 'internal.error', code: 'NEN_INTERNAL', reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e), path });
    return errorResponse('NEN_INTERNAL');
  };

  /** Keys for (sid, epoch) on a cache miss: store.get + derive. Validates the epoch against the record. */
  async function loadKeys(st: State, sid: string, epoch: number, now: number): Promise<CacheEntry> {
    const rec = await store.get(sid, now);
    if (!rec) throw wireError('NEN_SESSION_UNKNOWN', 'no live session with this id (unknown, expired or terminated)');
    let secret: Uint8Array | undefined;
    if (epoch === rec.epoch) secret = rec.secret.subarray(0, 32);
    else if (epoch + 1 === rec.epoch && rec.secret.length === 64 && typeof rec.meta.prevUntil === 'number' && now < rec.meta.prevUntil) secret = rec.secret.subarray(32, 64);
    if (!secret || secret.length !== 32) {
      rec.secret.fill(0);
      throw wireError('NEN_SESSION_UNKNOWN', `epoch ${epoch} is not live (session epoch ${rec.epoch})`);
    }
    const keys = new SessionKeys(st.backend, secret, epoch);
    rec.secret.fill(0);
    return cache.put(sid, epoch, keys);
  }

  function epochAcceptable(rec: SessionRecord, epoch: number, now: number): boolean {
    if (rec.epoch === epoch) return true;
    return epoch + 1 === rec.epoch && typeof rec.meta.prevUntil === 'number' && now < rec.meta.prevUntil;
  }

  /** The verdict of store.commit (step 7) as the session or a wire error; synchronous, so a request awaits the store once. */
  function committed(r: CommitResult, sid: string, seq: bigint, epoch: number, now: number): SessionRecord {
    if (!r.ok) {
      if (r.reason === 'unknown' || r.reason === 'expired') {
        cache.evictSession(sid, epoch);
        throw wireError(r.reason === 'unknown' ? 'NEN_SESSION_UNKNOWN' : 'NEN_SESSION_EXPIRED', `commit: ${r.reason}`);
      }
      throw wireError('NEN_REPLAY', `commit: ${r.reason} (seq ${seq})`);
    }
    if (!epochAcceptable(r.session, epoch, now)) {
      cache.evictSession(sid, epoch);
      throw wireError('NEN_SESSION_UNKNOWN', `epoch ${epoch} superseded by ${r.session.epoch}`);
    }
    return r.session;
  }

  function decodeBody(plain: Uint8Array, contentType: string): NenBody {
    if (plain.length === 0) return undefined;
    if (isJsonType(contentType)) {
      try {
        return JSON.parse(fromUtf8(plain)) as unknown;
      } catch {
        throw wireError('NEN_BAD_JSON', 'decrypted body is not valid UTF-8 JSON');
      }
    }
    return plain;
  }

  function inflate(b: Uint8Array, limit: number): Uint8Array {
    try {
      return inflateRawSync(b, { maxOutputLength: Math.max(1, limit) });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw wireError('NEN_TOO_LARGE', 'decompressed body exceeds the limit');
      throw wireError('NEN_MALFORMED', 'compressed body is not valid deflate-raw');
    }
  }

  function buildHandlerRequest(request: Request, url: URL, query: string | null, method: string, contentType: string, body: Uint8Array | ReadableStream<Uint8Array> | null): Request {
    const u = query === null ? request.url : `${url.origin}${url.pathname}${query ? `?${query}` : ''}`;
    return new Proxy(request, new DecryptedRequestView(request, u, method, contentType, isBodylessMethod(method) ? null : body));
  }

  async function openRequest(request: Request, limit: number): Promise<Opened> {
    const st = stateValue ?? (await state());
    const t0 = performance.now();
    const meta = parseRequestHeader(request.headers.get(HEADER.nen));
    const now = clock();
    if (Math.abs(meta.timestamp - now) > tsWindow) throw wireError('NEN_TIMESTAMP', `request timestamp off by ${meta.timestamp - now} ms`);
    const method = request.method.toUpperCase();
    const url = new URL(request.url);
    const confidential = (meta.flags & REQ_FLAG.CONFIDENTIAL_QUERY) !== 0;
    const isStream = (meta.flags & REQ_FLAG.STREAM) !== 0;
    if (confidential && url.search !== '') throw wireError('NEN_MALFORMED', 'confidential-query flag set but the URL has a query');
    const target = url.pathname + url.search;
    const contentType = request.headers.get(HEADER.type) ?? '';
    if (contentType.length > 256) throw wireError('NEN_MALFORMED', 'nen-type too long');
    let sealed: Uint8Array | null = null;
    if (isBodylessMethod(method)) {
      if (isStream) throw wireError('NEN_MALFORMED', `stream flag on ${method}`);
      const hb = request.headers.get(HEADER.body);
      if (hb === null) throw wireError('NEN_MALFORMED', `${method} without nen-body header`);
      sealed = decodeHeaderRecord(hb);
      if (!sealed) throw wireError('NEN_MALFORMED', 'nen-body is not base64url');
    } else {
      const ct = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const want = isStream ? MEDIA_TYPE.stream : MEDIA_TYPE.sealed;
      if (ct !== want) throw wireError('NEN_CONTENT_TYPE', `content-type ${JSON.stringify(ct.slice(0, 60))}, want ${want}`);
      if (!isStream) sealed = await readBody(request, limit + AEAD_TAG_LENGTH + (confidential ? 2 + 65535 : 0));
    }
    const sid = toBase64Url(meta.sessionId);
    const tStore0 = performance.now();
    // Steady state is a cache hit, taken synchronously (no extra async hop per request).
    const entry = cache.acquire(sid, meta.epoch) ?? (await loadKeys(st, sid, meta.epoch, now));
    let storeMs = performance.now() - tStore0;
    try {
      const aad = requestAad(meta, method, target, contentType);
      if (sealed) {
        let plain: Uint8Array;
        try {
          plain = openMessage(entry.keys.c2s, entry.keys.c2sIv, meta.seq, aad, sealed);
        } catch (e) {
          if (e instanceof NenProtocolError) throw e;
          throw wireError('NEN_AUTH_FAILED', 'AEAD authentication failed (tampered body, tag, bound header, method, path or query)');
        }
        const tc = performance.now();
        const session = committed(await store.commit(sid, meta.seq, now), sid, meta.seq, meta.epoch, now);
        storeMs += performance.now() - tc;
        let query: string | null = null;
        if (confidential) {
          const u = unpackConfidentialQuery(plain);
          try {
            query = fromUtf8(u.query);
          } catch {
            throw wireError('NEN_MALFORMED', 'confidential query is not UTF-8');
          }
          plain = u.body;
        }
        if (meta.flags & REQ_FLAG.COMPRESSED) plain = inflate(plain, limit);
        if (plain.length > limit) throw wireError('NEN_TOO_LARGE', `body ${plain.length} > limit ${limit}`);
        const body = decodeBody(plain, contentType);
        const handlerRequest = buildHandlerRequest(request, url, query, method, contentType, plain.length ? plain : null);
        return { meta, sid, entry, session, method, handlerRequest, body, cryptoMs: performance.now() - t0 - storeMs, storeMs };
      }
      // Streamed upload: authenticate the first record, commit, then hand the rest over lazily.
      if (!request.body) throw wireError('NEN_MALFORMED', 'stream request without a body');
      const reader = request.body.getReader();
      const opener = new RecordOpener(entry.keys.c2s, entry.keys.c2sIv, meta.seq, aad, (kind, detail) =>
        kind === 'auth' ? wireError('NEN_AUTH_FAILED', detail) : wireError('NEN_MALFORMED', `stream ${kind}: ${detail}`));
      const first: Uint8Array[] = [];
      let total = 0;
      while (opener.recordsOpened === 0) {
        const r = await reader.read();
        if (r.done) {
          opener.end();
          break;
        }
        first.push(...opener.push(r.value));
      }
      const session = committed(await store.commit(sid, meta.seq, now), sid, meta.seq, meta.epoch, now);
      for (const c of first) total += c.length;
      if (total > limit) throw wireError('NEN_TOO_LARGE', 'streamed body exceeds the limit');
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (const x of first) c.enqueue(x);
          if (opener.finished) c.close();
        },
        async pull(c) {
          try {
            const r = await reader.read();
            if (r.done) {
              opener.end();
              c.close();
              return;
            }
            for (const x of opener.push(r.value)) {
              total += x.length;
              if (total > limit) throw wireError('NEN_TOO_LARGE', 'streamed body exceeds the limit');
              c.enqueue(x);
            }
            if (opener.finished) {
              c.close();
              await reader.cancel().catch(() => undefined);
            }
          } catch (e) {
            c.error(e);
            await reader.cancel().catch(() => undefined);
          }
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      }, { highWaterMark: 0 });
      const handlerRequest = buildHandlerRequest(request, url, null, method, contentType, stream);
      return { meta, sid, entry, session, method, handlerRequest, body: stream, cryptoMs: performance.now() - t0 - storeMs, storeMs };
    } catch (e) {
      cache.release(entry);
      throw e;
    }
  }

  function timingHeader(o: { cryptoMs: number; storeMs: number }, extraCrypto: number): string {
    return `nen;dur=${(o.cryptoMs + extraCrypto).toFixed(3)}, nen-store;dur=${o.storeMs.toFixed(3)}`;
  }

  /** A handler result reduced to what gets sealed (no intermediate Response for plain values). */
  interface PlainResult {
    readonly status: number;
    readonly statusText: string;
    readonly headers: Headers | null;
    readonly contentType: string;
    readonly body: Uint8Array;
  }

  const EMPTY = new Uint8Array(0);
  const JSON_500 = utf8(JSON.stringify({ error: { code: 'NEN_INTERNAL', message: 'nen: internal error' } }));

  /** A plain value as JSON (200), or 204 when undefined; no intermediate Response. */
  function valueToPlain(value: unknown): PlainResult {
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json === undefined) return { status: 204, statusText: '', headers: null, contentType: '', body: EMPTY };
    return { status: 200, statusText: '', headers: null, contentType: 'application/json', body: utf8(json) };
  }

  async function responseToPlain(value: Response): Promise<PlainResult> {
    return {
      status: value.status,
      statusText: value.statusText,
      headers: value.headers,
      contentType: value.headers.get('content-type') ?? '',
      body: value.body ? new Uint8Array(await value.arrayBuffer()) : EMPTY,
    };
  }

  function toPlain(value: unknown): PlainResult | Promise<PlainResult> {
    return value instanceof Response ? responseToPlain(value) : valueToPlain(value);
  }

  function sealResponse(res: PlainResult, o: Opened, compress: boolean): Response {
    const t0 = serverTiming ? performance.now() : 0;
    const { status, contentType: ct } = res;
    let body = res.body;
    let flags = 0;
    if (compress && o.meta.flags & REQ_FLAG.ACCEPT_COMPRESSED && body.length >= 64) {
      body = deflateRawSync(body);
      flags |= RES_FLAG.COMPRESSED;
    }
    const aad = responseAad(o.meta.sessionId, o.meta.epoch, o.meta.seq, status, flags, ct);
    const sealed = sealMessage(o.entry.keys.s2c, o.entry.keys.s2cIv, o.meta.seq, aad, body);
    // The handler's headers in one pass, minus those describing the plaintext body or Nen's own,
    // handed to the one Response built here (no intermediate Headers copy).
    const headers: [string, string][] = [['content-type', MEDIA_TYPE.sealed], [HEADER.nen, formatResponseHeader(flags)]];
    if (ct) headers.push([HEADER.type, ct]);
    let cacheControl = false;
    if (res.headers) {
      res.headers.forEach((v, k) => {
        if (REPLACED_RESPONSE_HEADERS.has(k)) return;
        if (k === 'cache-control') cacheControl = true;
        headers.push([k, v]);
      });
    }
    if (!cacheControl) headers.push(['cache-control', 'no-store']);
    if (serverTiming) headers.push(['server-timing', timingHeader(o, performance.now() - t0)]);
    if (isNullBodyStatus(status) || o.method === 'HEAD') {
      headers.push([HEADER.body, encodeHeaderRecord(sealed)]);
      return new Response(null, { status, statusText: res.statusText, headers });
    }
    return new Response(asBody(sealed), { status, statusText: res.statusText, headers });
  }

  function handlerFailed(o: Opened, e: unknown, request: Request): PlainResult {
    log({ level: 'error', event: 'handler.error', code: 'NEN_INTERNAL', reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e), session: o.sid.slice(0, 8), path: new URL(request.url).pathname.slice(0, 200) });
    return { status: 500, statusText: '', headers: null, contentType: 'application/json', body: JSON_500 };
  }

  async function runHandler(o: Opened, fn: () => unknown, request: Request): Promise<PlainResult> {
    try {
      return await toPlain(await fn());
    } catch (e) {
      return handlerFailed(o, e, request);
    }
  }

  function withNen<C = unknown>(handler: NenHandler<C>, options: NenRouteOptions = {}): NenRouteHandler<C> {
    const limit = options.maxBodyBytes ?? maxBody;
    const compress = options.compress ?? compression;
    return async (request: Request, context: C): Promise<Response> => {
      let o: Opened;
      try {
        o = await openRequest(request, limit);
      } catch (e) {
        return reject(e, request);
      }
      try {
        let res: PlainResult;
        try {
          const value: unknown = await handler(o.handlerRequest, context, o.body);
          if (value instanceof Response) {
            // Inline rather than responseToPlain(): one promise less per request (under Next every
            // promise also runs the AsyncLocalStorage hooks).
            if (value.bodyUsed) throw new TypeError('nen: the handler returned a Response whose body was already read');
            const body = value.body ? await readAll(value.body) : EMPTY;
            res = { status: value.status, statusText: value.statusText, headers: value.headers, contentType: value.headers.get('content-type') ?? '', body };
          } else {
            res = valueToPlain(value);
          }
        } catch (e) {
          res = handlerFailed(o, e, request);
        }
        return sealResponse(res, o, compress);
      } catch (e) {
        return reject(e, request, o.sid);
      } finally {
        cache.release(o.entry);
      }
    };
  }

  function withNenStream<C = unknown>(handler: NenStreamHandler<C>, options: NenStreamRouteOptions = {}): NenRouteHandler<C> {
    const limit = options.maxBodyBytes ?? maxBody;
    const ct = options.contentType ?? 'text/event-stream';
    return async (request: Request, context: C): Promise<Response> => {
      let o: Opened;
      try {
        o = await openRequest(request, limit);
      } catch (e) {
        return reject(e, request);
      }
      let released = false;
      const release = () => {
        if (!released) {
          released = true;
          cache.release(o.entry);
        }
      };
      let it: AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array>;
      try {
        const g = handler(o.handlerRequest, context, o.body);
        it = Symbol.asyncIterator in g ? (g as AsyncIterable<string | Uint8Array>)[Symbol.asyncIterator]() : (g as Iterable<string | Uint8Array>)[Symbol.iterator]();
      } catch (e) {
        const res = await runHandler(o, () => {
          throw e;
        }, request);
        try {
          return sealResponse(res, o, false);
        } finally {
          release();
        }
      }
      const aad = responseAad(o.meta.sessionId, o.meta.epoch, o.meta.seq, 200, RES_FLAG.STREAM, ct);
      const sealer = new RecordSealer(o.entry.keys.s2c, o.entry.keys.s2cIv, o.meta.seq, aad);
      const path = new URL(request.url).pathname.slice(0, 200);
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          try {
            const r = await it.next();
            if (r.done) {
              c.enqueue(sealer.seal(new Uint8Array(0), true));
              c.close();
              release();
              return;
            }
            const v = r.value;
            c.enqueue(sealer.seal(typeof v === 'string' ? utf8(v) : v, false));
          } catch (e) {
            // No final record: the client reports a truncated stream.
            log({ level: 'error', event: 'stream.error', code: 'NEN_INTERNAL', reason: e instanceof Error ? e.message : String(e), session: o.sid.slice(0, 8), path });
            c.error(e);
            release();
          }
        },
        async cancel() {
          try {
            await it.return?.();
          } finally {
            release();
          }
        },
      }, { highWaterMark: 0 });
      const headers: Record<string, string> = {
        'content-type': MEDIA_TYPE.stream,
        [HEADER.nen]: formatResponseHeader(RES_FLAG.STREAM),
        [HEADER.type]: ct,
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      };
      if (serverTiming) headers['server-timing'] = timingHeader(o, 0);
      return new Response(body, { status: 200, headers });
    };
  }

  // ------------------------------------------------------------------ session endpoints

  async function handshake(request: Request): Promise<Response> {
    const now = clock();
    const addr = clientAddress(request);
    if (!limiter.take(addr, now)) {
      log({ level: 'warn', event: 'request.rejected', code: 'NEN_RATE_LIMITED', reason: `handshake rate limit for ${addr}`, status: 429 });
      return errorResponse('NEN_RATE_LIMITED', { 'retry-after': String(limiter.retryAfter(addr, now)) });
    }
    const ct = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (ct !== MEDIA_TYPE.handshake) throw wireError('NEN_CONTENT_TYPE', `handshake content-type ${JSON.stringify(ct.slice(0, 60))}`);
    const hello = await readBody(request, 4096);
    const st = await state();
    const sessionId = st.backend.randomBytes(SESSION_ID_LENGTH);
    const r = serverHandshake(st.backend, hello, { keys: st.keyMap, sessionId, maxLifetime: ttlS, idleTimeout: idleS, now });
    const id = toBase64Url(sessionId);
    const rec: SessionRecord = {
      id,
      secret: r.secret,
      meta: { kem: r.hello.kem, kid: r.hello.kid ?? null, lifetime: r.lifetime },
      epoch: 0,
      createdAt: now,
      expiresAt: now + r.lifetime * 1000,
      idleTimeoutMs: idleS * 1000,
      lastSeenAt: now,
    };
    await store.create(rec);
    cache.release(cache.put(id, 0, new SessionKeys(st.backend, r.secret, 0)));
    r.secret.fill(0);
    log({ level: 'info', event: 'handshake', session: id.slice(0, 8), reason: `kem ${kemName(r.hello.kem)}${r.hello.kid ? ` pinned ${r.hello.kid}` : ' unpinned'}` });
    return new Response(asBody(r.response), { status: 200, headers: { 'content-type': MEDIA_TYPE.handshake, 'cache-control': 'no-store' } });
  }

  /** Authenticated session actions: the same sealed pipeline as withNen. */
  async function sessionAction(action: 'rotate' | 'terminate' | 'status', request: Request): Promise<Response> {
    let o: Opened;
    try {
      o = await openRequest(request, 1024);
    } catch (e) {
      return reject(e, request);
    }
    try {
      const st = await state();
      let value: unknown;
      if (action === 'status') {
        value = {
          id: o.sid,
          epoch: o.session.epoch,
          expiresAt: o.session.expiresAt,
          idleTimeoutSeconds: Math.round(o.session.idleTimeoutMs / 1000),
          lastSeenAt: o.session.lastSeenAt,
          kem: typeof o.session.meta.kem === 'number' ? kemName(o.session.meta.kem as KemId) : null,
          keyId: o.session.meta.kid ?? null,
          serverTime: clock(),
        };
      } else if (action === 'terminate') {
        await store.delete(o.sid);
        cache.evictSession(o.sid, o.meta.epoch);
        log({ level: 'info', event: 'session.terminate', session: o.sid.slice(0, 8) });
        value = { terminated: true };
      } else {
        if (o.meta.epoch !== o.session.epoch) throw wireError('NEN_SESSION_UNKNOWN', 'rotate must use the current epoch');
        const rec = await store.get(o.sid, clock());
        if (!rec) throw wireError('NEN_SESSION_UNKNOWN', 'session vanished during rotate');
        const cur = rec.secret.subarray(0, 32);
        const next = nextEpochSecret(st.backend, cur);
        const ok = await store.update(o.sid, {
          secret: concatBytes(next, cur),
          epoch: rec.epoch + 1,
          meta: { ...rec.meta, prevUntil: clock() + grace },
        });
        rec.secret.fill(0);
        if (!ok) throw wireError('NEN_SESSION_UNKNOWN', 'session vanished during rotate');
        cache.release(cache.put(o.sid, rec.epoch + 1, new SessionKeys(st.backend, next, rec.epoch + 1)));
        next.fill(0);
        log({ level: 'info', event: 'session.rotate', session: o.sid.slice(0, 8), reason: `epoch ${rec.epoch + 1}` });
        value = { epoch: rec.epoch + 1 };
      }
      return sealResponse(valueToPlain(value), o, false);
    } catch (e) {
      return reject(e, request, o.sid);
    } finally {
      cache.release(o.entry);
    }
  }

  async function publicKeys() {
    const st = await state();
    return st.keys.map((k) => ({ kid: k.kid, kem: kemName(k.kem), publicKey: toBase64Url(k.publicKey), pin: k.pin }));
  }

  function actionOf(request: Request): string {
    const p = new URL(request.url).pathname.replace(/\/+$/, '');
    return p.slice(p.lastIndexOf('/') + 1);
  }

  /** The session endpoints: action (last path segment) → method → handler. */
  const actions: Record<string, Partial<Record<'GET' | 'POST', (request: Request) => Promise<Response>>>> = {
    handshake: { POST: handshake },
    rotate: { POST: (r) => sessionAction('rotate', r) },
    terminate: { POST: (r) => sessionAction('terminate', r) },
    status: { POST: (r) => sessionAction('status', r), GET: (r) => sessionAction('status', r) },
    keys: { GET: async () => Response.json({ keys: await publicKeys() }, { headers: { 'cache-control': 'no-store' } }) },
  };

  async function dispatch(method: 'GET' | 'POST', request: Request): Promise<Response> {
    try {
      const action = actionOf(request);
      const methods = Object.hasOwn(actions, action) ? actions[action] : undefined;
      if (!methods) return errorResponse('NEN_NOT_FOUND');
      const handler = methods[method];
      if (!handler) return errorResponse('NEN_METHOD_NOT_ALLOWED', { allow: Object.keys(methods).join(', ') });
      return await handler(request);
    } catch (e) {
      return reject(e, request);
    }
  }

  const routes = {
    POST: (request: Request): Promise<Response> => dispatch('POST', request),
    GET: (request: Request): Promise<Response> => dispatch('GET', request),
  };

  return {
    withNen,
    withNenStream,
    routes,
    store,
    async ready() {
      await state();
    },
    publicKeys,
    async close() {
      cache.clear();
      if (statePromise) {
        const st = await statePromise.catch(() => undefined);
        for (const k of st?.keys ?? []) k.recipient.dispose();
        statePromise = undefined;
        stateValue = undefined;
      }
      if (ownStore) await store.close();
    },
  };
}

/** Exported for tests: the KEM ids by name. */
export const KEMS = { xwing: KEM_ID.XWING, mlkem768: KEM_ID.MLKEM768 } as const;
