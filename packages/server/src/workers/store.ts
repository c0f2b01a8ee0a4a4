/**
 * `durableObjectStore(namespace)`: the Nen session store for Cloudflare Workers. Every call goes
 * to the Durable Object named after the session (`s:<id>`) or the claim (`c:<key>`), an instance
 * of ./session-object.ts, so the replay window of a session lives in exactly one place and its
 * commit is atomic whichever isolate or location the request reached.
 *
 * Pitfalls:
 *  - Every store call is one Durable Object round trip (a request normally costs one: `commit`;
 *    the in-isolate key cache spares the `get`).
 *  - A failed or refused call (object overloaded, reset, network) is StoreUnavailableError →
 *    503 NEN_STORE_UNAVAILABLE (fail closed); arguments are checked here, as the memory store does.
 *  - `size()` cannot count sessions spread over many objects: it answers 0 (metrics only).
 *  - `retryCoverageSince()` is 0, as for Redis: the objects keep every confirmed session's window
 *    (live, then as a tombstone for the retry horizon) in Durable Object storage and refuse a new
 *    session rather than drop one, so a missing record means "never committed" (PROTOCOL.md §7.1).
 */
import { toBase64Url } from '@nen/core';
import { StoreUnavailableError } from '../errors.js';
import { checkSeq } from '../stores/commit.js';
import { checkClaim, type CommitResult, type RetryVerdict, type SessionPatch, type SessionRecord, type SessionStore } from '../stores/types.js';
import { decodeRecord, encodeRecord, type StoreOp, type WireRecord } from './codec.js';

/** The part of a Durable Object namespace binding this store uses (structural: no Workers types needed). */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: Request): Promise<Response> };
}

export interface DurableObjectStoreOptions {
  /** Name prefix of the objects (default `nen:`), e.g. to share one namespace between apps. */
  prefix?: string;
}

class DurableObjectStore implements SessionStore {
  readonly kind = 'durable-object';
  constructor(
    private readonly ns: DurableObjectNamespaceLike,
    private readonly prefix: string,
  ) {}

  async #call<T>(name: string, msg: StoreOp): Promise<T> {
    let res: Response;
    try {
      const stub = this.ns.get(this.ns.idFromName(this.prefix + name) as never);
      res = await stub.fetch(
        new Request('https://nen-session.invalid/', { method: 'POST', body: JSON.stringify(msg), headers: { 'content-type': 'application/json' } }),
      );
    } catch (cause) {
      throw new StoreUnavailableError('nen: the session Durable Object is unreachable', { cause });
    }
    let body: { result?: unknown };
    try {
      body = (await res.json()) as { result?: unknown };
    } catch (cause) {
      throw new StoreUnavailableError(`nen: the session Durable Object answered ${res.status} without a result`, { cause });
    }
    if (!res.ok) throw new StoreUnavailableError(`nen: the session Durable Object refused ${msg.op} (${res.status}: ${String(body.result).slice(0, 200)})`);
    return body.result as T;
  }

  async create(session: SessionRecord): Promise<void> {
    await this.#call('s:' + session.id, { op: 'create', session: encodeRecord(session) });
  }

  async get(id: string, now: number): Promise<SessionRecord | null> {
    const w = await this.#call<WireRecord | null>('s:' + id, { op: 'get', id, now });
    return w ? decodeRecord(w) : null;
  }

  async commit(id: string, seq: bigint, now: number, epoch?: number): Promise<CommitResult> {
    checkSeq(seq);
    const msg: StoreOp = epoch === undefined ? { op: 'commit', id, seq: seq.toString(), now } : { op: 'commit', id, seq: seq.toString(), now, epoch };
    const r = await this.#call<{ ok: true; session: WireRecord } | Extract<CommitResult, { ok: false }>>('s:' + id, msg);
    return r.ok ? { ok: true, session: decodeRecord(r.session) } : { ok: false, reason: r.reason };
  }

  async update(id: string, patch: SessionPatch): Promise<boolean> {
    const { secret, ...rest } = patch;
    const wire = secret === undefined ? rest : { ...rest, secret: toBase64Url(secret) };
    return this.#call<boolean>('s:' + id, { op: 'update', id, patch: wire });
  }

  delete(id: string): Promise<boolean> {
    return this.#call<boolean>('s:' + id, { op: 'delete', id });
  }

  async consumeRetry(id: string, seq: bigint, now: number): Promise<RetryVerdict> {
    checkSeq(seq);
    return this.#call<RetryVerdict>('s:' + id, { op: 'consumeRetry', id, seq: seq.toString(), now });
  }

  async size(): Promise<number> {
    return 0;
  }

  retryCoverageSince(): number {
    return 0;
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    checkClaim(key, ttlMs);
    return this.#call<boolean>('c:' + key, { op: 'claimOnce', key, ttlMs });
  }

  async close(): Promise<void> {}
}

/** The session store over a Durable Object namespace bound to `NenSessionObject` (see the module header). */
export function durableObjectStore(namespace: DurableObjectNamespaceLike, options: DurableObjectStoreOptions = {}): SessionStore {
  return new DurableObjectStore(namespace, options.prefix ?? 'nen:');
}
