/**
 * The request pipeline shared by `withNen`, `withNenStream` and the session routes (PROTOCOL.md
 * "Server processing"; THREAT_MODEL.md properties 4-8, 11), each failure a stable code:
 *  1. `nen` header syntax (400) 2. timestamp window (401) 3. content type (415) 4. body size (413)
 *  5. session keys for (session id, epoch): in-process cache, else store.get (401 unknown)
 *  6. AEAD open with the canonical request as AAD (401) 7. store.commit: the one atomic step
 *  (unknown/expired 401, replay 409) 7b. a retry (flag RETRY, PROTOCOL.md "Retries"): the original
 *  it names is consumed in the store (`retryVerdict`); a refused retry is answered SEALED 409
 *  NEN_RETRY_COMMITTED / NEN_RETRY_UNKNOWN and its handler never runs
 *  8. decompress, confidential query, JSON parse (400); deferred to the handler's `json()` for a
 *     `lazyJson` route (its handler takes no parsed body: the framework adapters'), PROTOCOL.md step 8.
 * Steps 1-3, 6 and 8 are the core envelope (parseRequest, openRequest, decodeRequestPlaintext).
 *
 * Pitfalls:
 *  - The replay window advances only in step 7, after the AEAD check; nothing is decompressed
 *    before it.
 *  - Steady state is a key-cache hit taken synchronously, one awaited body read (http.ts readBody:
 *    one read() for a body within one chunk; readSealedBody: a server's chunks, joined only for
 *    the AEAD open, in a reused buffer) and one store call (the commit; synchronous for the
 *    memory store's `commitNow`): under `next start` every promise also runs the AsyncLocalStorage
 *    hooks (bench/promises.mjs counts them per request).
 *  - Protocol errors are unauthenticated plaintext with a generic message (`reject`); the precise
 *    reason goes to the logger only.
 */
import {
  type RequestHead,
  NenProtocolError,
  SessionKeys,
  decodeRequestPlaintext,
  isWireErrorCode,
  openRequest,
  parseRequest,
  type WireErrorCode,
  WIRE_ERRORS,
  sealedBodyLimit,
  toBase64Url,
  wireError,
} from '@nen/core';
import type { ServerSettings } from './config.js';
import { contiguous, errorResponse, isScratch, readSealedBody } from './http.js';
import type { CacheEntry, KeyCache } from './key-cache.js';
import type { Keyring, KeyringLoader } from './keyring.js';
import { handlerRequest, parseJsonBody } from './request-view.js';
import { openStreamedUpload } from './stream.js';
import { committed } from './commit-verdict.js';
import { inflateRaw } from './zlib.js';
import { RETRY_HORIZON_MS, type RetryVerdict, type SessionRecord, type SessionStore } from './stores/types.js';

/** What every part of one `createNen()` shares. */
export interface ServerContext {
  readonly s: ServerSettings;
  readonly store: SessionStore;
  readonly cache: KeyCache;
  readonly keyring: KeyringLoader;
}

/** The body handed to handlers: parsed JSON for JSON content types (undefined on a `lazyJson` route), bytes otherwise, undefined when empty; a stream for streamed uploads. */
export type NenBody = unknown;

/** An authenticated, committed request. The caller releases `entry` when its response is done. */
export interface Opened {
  readonly head: RequestHead;
  readonly entry: CacheEntry;
  readonly session: SessionRecord;
  /** The request handed to the handler: decrypted body, plaintext content type, restored query. */
  readonly handlerRequest: Request;
  readonly body: NenBody;
  readonly cryptoMs: number;
  readonly storeMs: number;
  /** A refused retry: answer this (sealed) instead of running the handler. */
  readonly refusal?: RefusedRetry | undefined;
}

/** The sealed answer to a refused retry (same shape as respond.ts PlainResult). */
export interface RefusedRetry {
  readonly status: number;
  readonly statusText: '';
  readonly headers: null;
  readonly contentType: 'application/json';
  readonly body: Uint8Array;
}

const refusals = new Map<WireErrorCode, RefusedRetry>();
function refusal(code: 'NEN_RETRY_COMMITTED' | 'NEN_RETRY_UNKNOWN'): RefusedRetry {
  let r = refusals.get(code);
  if (!r) {
    const body = new TextEncoder().encode(JSON.stringify({ error: { code, message: `nen: ${WIRE_ERRORS[code].message}` } }));
    r = { status: WIRE_ERRORS[code].status, statusText: '', headers: null, contentType: 'application/json', body };
    refusals.set(code, r);
  }
  return r;
}

/**
 * Step 7b for a retry, after its own commit: consume the original it names, atomically with that
 * session's replay window (PROTOCOL.md "Retries"). Runs (undefined) only when the original can
 * never commit and did not: 'marked', or no record while the store's state covers the original's
 * whole acceptance window and the retry horizon has not passed.
 */
export async function retryVerdict(ctx: ServerContext, head: RequestHead, now: number): Promise<RefusedRetry | undefined> {
  const r = head.retry;
  if (!r) return undefined;
  const store = ctx.store;
  const sid = toBase64Url(r.sessionId);
  const v: RetryVerdict | 'unsupported' = store.consumeRetry ? await store.consumeRetry(sid, r.seq, now) : 'unsupported';
  if (v === 'marked') return undefined;
  if (v === 'absent') {
    const earliest = r.timestamp - ctx.s.tsWindow; // the original could commit no earlier
    const since = store.retryCoverageSince?.() ?? Number.POSITIVE_INFINITY;
    if (since <= earliest && now < earliest + RETRY_HORIZON_MS) return undefined;
  }
  const code = v === 'committed' ? 'NEN_RETRY_COMMITTED' : 'NEN_RETRY_UNKNOWN';
  ctx.s.log({
    level: 'warn',
    event: 'retry.refused',
    code,
    reason: `original ${sid.slice(0, 8)} seq ${r.seq}: ${v}`,
    session: head.sid.slice(0, 8),
    path: head.path.slice(0, 200),
  });
  return refusal(code);
}

function isJsonType(ct: string): boolean {
  return ct === 'application/json' || /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(ct);
}

/** Bounded inflate for the envelope (./zlib.ts: node:zlib on Node, fflate elsewhere). */
export const inflate = inflateRaw;

/** Keys for (sid, epoch) on a cache miss: store.get + derive. Validates the epoch against the record. */
async function loadKeys(ctx: ServerContext, st: Keyring, sid: string, epoch: number, now: number): Promise<CacheEntry> {
  const rec = await ctx.store.get(sid, now);
  if (!rec) throw wireError('NEN_SESSION_UNKNOWN', 'no live session with this id (unknown, expired or terminated)');
  let secret: Uint8Array | undefined;
  if (epoch === rec.epoch) secret = rec.secret.subarray(0, 32);
  else if (epoch + 1 === rec.epoch && rec.secret.length === 64 && typeof rec.meta.prevUntil === 'number' && now < rec.meta.prevUntil)
    secret = rec.secret.subarray(32, 64);
  if (!secret || secret.length !== 32) {
    rec.secret.fill(0);
    throw wireError('NEN_SESSION_UNKNOWN', `epoch ${epoch} is not live (session epoch ${rec.epoch})`);
  }
  const keys = new SessionKeys(st.backend, secret, epoch);
  rec.secret.fill(0);
  return ctx.cache.put(sid, epoch, keys);
}

/**
 * Steps 1-8 for one request; see the module header. `lazyJson`: step 8's JSON check is left to
 * the handler's `request.json()` (a JSON body is then not parsed unless the handler reads it).
 */
export async function openIncoming(ctx: ServerContext, request: Request, limit: number, lazyJson = false): Promise<Opened> {
  const st = ctx.keyring.current ?? (await ctx.keyring.load());
  // The clock is read for Server-Timing only (each read is a call into the runtime, on every request).
  const timing = ctx.s.serverTiming;
  const t0 = timing ? performance.now() : 0;
  const now = ctx.s.clock();
  const head = parseRequest(request.headers, request.method, request.url, now, ctx.s.tsWindow);
  const sealed = head.headerRecord ?? (head.stream ? null : await readSealedBody(request, sealedBodyLimit(head, limit)));
  const tStore0 = timing ? performance.now() : 0;
  // Steady state is a cache hit, taken synchronously (no extra async hop per request).
  const entry = ctx.cache.acquire(head.sid, head.meta.epoch) ?? (await loadKeys(ctx, st, head.sid, head.meta.epoch, now));
  const storeMs = timing ? performance.now() - tStore0 : 0;
  try {
    if (!sealed) return await openStreamedUpload(ctx, request, head, entry, limit, now, timing ? t0 : performance.now(), storeMs);
    // The body's chunks joined right here, synchronously with the open (http.ts contiguous: a
    // reused buffer); a backend's output never views it, but if one did it gets its own copy.
    let opened = openRequest(head, entry.keys, contiguous(sealed));
    if (isScratch(opened)) opened = opened.slice();
    const tc = timing ? performance.now() : 0;
    // An in-process store (memory) commits synchronously: no promise, no microtask hop.
    const { store } = ctx;
    const { seq, epoch } = head.meta;
    const session = committed(ctx, store.commitNow ? store.commitNow(head.sid, seq, now, epoch) : await store.commit(head.sid, seq, now, epoch), head, now);
    const refused = head.retry ? await retryVerdict(ctx, head, now) : undefined;
    const storeTotal = timing ? storeMs + performance.now() - tc : 0;
    if (refused)
      return {
        head,
        entry,
        session,
        handlerRequest: request,
        body: undefined,
        cryptoMs: timing ? performance.now() - t0 - storeTotal : 0,
        storeMs: storeTotal,
        refusal: refused,
      };
    const { query, body } = decodeRequestPlaintext(head, opened, limit, inflate);
    const json = body.length > 0 && isJsonType(head.contentType);
    // a parsed JSON body is handed to the view too: `request.json()` returns it without a second parse
    const parsed = json && !lazyJson ? { value: parseJsonBody(body) } : undefined;
    const hr = handlerRequest(request, head, query, body.length ? body : null, parsed, json && lazyJson);
    return {
      head,
      entry,
      session,
      handlerRequest: hr,
      body: parsed ? parsed.value : json || body.length === 0 ? undefined : body,
      cryptoMs: timing ? performance.now() - t0 - storeTotal : 0,
      storeMs: storeTotal,
    };
  } catch (e) {
    ctx.cache.release(entry);
    throw e;
  }
}

function normaliseStoreError(e: unknown): NenProtocolError | undefined {
  if (e instanceof NenProtocolError) return e;
  if (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'NEN_STORE_UNAVAILABLE') {
    return wireError('NEN_STORE_UNAVAILABLE', e instanceof Error ? e.message : 'store unavailable', e);
  }
  return undefined;
}

/** The unauthenticated error response for a failed request (generic message; the reason is logged). */
export function reject(ctx: ServerContext, e: unknown, request: Request, sid?: string): Response {
  const pe = normaliseStoreError(e);
  let path: string | undefined;
  try {
    path = new URL(request.url).pathname.slice(0, 200);
  } catch {
    path = undefined;
  }
  if (pe && pe.code && isWireErrorCode(pe.code)) {
    ctx.s.log({
      level: pe.code === 'NEN_STORE_UNAVAILABLE' ? 'error' : 'warn',
      event: 'request.rejected',
      code: pe.code,
      reason: pe.reason ?? pe.message,
      status: pe.status,
      path,
      ...(sid ? { session: sid.slice(0, 8) } : {}),
    });
    return errorResponse(pe.code, pe.code === 'NEN_STORE_UNAVAILABLE' ? { 'retry-after': '1' } : undefined);
  }
  ctx.s.log({ level: 'error', event: 'internal.error', code: 'NEN_INTERNAL', reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e), path });
  return errorResponse('NEN_INTERNAL');
}
