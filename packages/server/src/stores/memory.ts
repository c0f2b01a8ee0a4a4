/**
 * In-memory session store (the default): implements SessionStore (./types.ts) for one process.
 *
 * THREAT_MODEL.md properties 7, 8, 12: per-session replay window (the shared RFC 4303 §3.4.3-style
 * `ReplayWindow` of @nen/core, O(1) memory per session), absolute TTL and idle timeout, and a
 * bounded session count with least-recently-used eviction. A sweep timer (unref'd, so it never
 * keeps a process alive) drops expired sessions; lookups also check expiry, so the sweep only
 * bounds memory. The rules of commit, retry, death and claims are ./commit.ts's steps (shared with
 * the Durable Object's session table); this module holds the maps, eviction and the registry.
 *
 * Pitfalls:
 *  - `next dev` re-evaluates modules on every hot reload: a store created with `shared: true` (the
 *    default) lives on globalThis under its name, so sessions survive reloads; `close()` removes it.
 *  - Secrets are copied in and wiped on delete/eviction; nothing here logs them.
 *  - A confirmed session (one request committed) that dies stays as a tombstone (replay window
 *    only, secret wiped) for RETRY_HORIZON_MS (PROTOCOL.md "Retries"); an unconfirmed one past
 *    `confirmBy` goes at once. A confirmed session evicted for room keeps its window for the
 *    horizon too, in a second bounded map; only overflowing that one loses a window, and then
 *    `retryCoverageSince` moves to now (retries naming older originals are refused, never guessed).
 *  - Map iteration order is insertion order: touching a session re-inserts it, so the first key is
 *    always the least recently used one (O(1) eviction).
 */
import { ReplayWindow } from '@nen/core';
import {
  bury,
  type Change,
  claimStep,
  commitStep,
  confirmed,
  copyRecord,
  expireStep,
  getStep,
  patchStep,
  retryStep,
  sweepClaims,
  type TrackedSession,
  touch,
} from './commit.js';
import { RETRY_HORIZON_MS, type CommitResult, type RetryVerdict, type SessionPatch, type SessionRecord, type SessionStore } from './types.js';

export interface MemoryStoreOptions {
  /** Maximum live sessions; the least recently used one is evicted beyond it. Default 50 000. */
  maxSessions?: number;
  /** Sweep period in ms (default 30 000). */
  sweepIntervalMs?: number;
  /** Reuse one instance per `name` across module reloads (globalThis). Default true. */
  shared?: boolean;
  /** Registry name when shared (default "default"). */
  name?: string;
  /** Live `claimOnce` claims held at most (default 100 000); beyond it claims fail closed. */
  maxClaims?: number;
}

const REGISTRY = Symbol.for('nen.server.memoryStores');
type Registry = Map<string, MemoryStore>;

function registry(): Registry {
  const g = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  return (g[REGISTRY] ??= new Map());
}

export class MemoryStore implements SessionStore {
  readonly kind = 'memory' as const;
  readonly maxSessions: number;
  readonly #sessions = new Map<string, TrackedSession>();
  /** claimOnce: key → expiry (ms since the epoch), bounded by maxClaims. */
  readonly #claims = new Map<string, number>();
  readonly #maxClaims: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  #name: string | undefined;
  #tombstones = 0;
  #coverSince = Date.now();
  /** Windows of confirmed sessions evicted for room (secret wiped), until their horizon; bounded. */
  readonly #evicted = new Map<string, TrackedSession>();
  readonly #maxEvicted: number;
  /** Sessions evicted because the store was full (for metrics). */
  evictions = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxSessions = Math.max(1, Math.floor(options.maxSessions ?? 50_000));
    this.#maxClaims = Math.max(1, Math.floor(options.maxClaims ?? 100_000));
    this.#maxEvicted = Math.max(1000, Math.floor(this.maxSessions / 4));
    const period = Math.max(100, options.sweepIntervalMs ?? 30_000);
    this.#timer = setInterval(() => this.sweep(Date.now()), period);
    this.#timer.unref?.();
  }

  /** @internal registry name, set by memoryStore(). */
  set registryName(n: string) {
    this.#name = n;
  }

  async create(session: SessionRecord): Promise<void> {
    this.#assertOpen();
    const old = this.#sessions.get(session.id);
    if (old) this.#drop(session.id, old);
    while (this.#sessions.size >= this.maxSessions) {
      const lru = this.#sessions.keys().next();
      if (lru.done) break;
      const victim = this.#sessions.get(lru.value) as TrackedSession;
      this.#drop(lru.value, victim);
      if (confirmed(victim)) this.#keepEvicted(lru.value, victim, Date.now());
      this.evictions++;
    }
    this.#sessions.set(session.id, { record: copyRecord(session), window: new ReplayWindow(), deadUntil: 0 });
  }

  async get(id: string, now: number): Promise<SessionRecord | null> {
    this.#assertOpen();
    const e = this.#sessions.get(id);
    const { record, change } = getStep(e, now);
    if (e) this.#apply(id, e, change);
    return record;
  }

  async commit(id: string, seq: bigint, now: number, epoch?: number): Promise<CommitResult> {
    return this.commitNow(id, seq, now, epoch);
  }

  /** `commit`, synchronously (SessionStore.commitNow: what the request pipeline calls). */
  commitNow(id: string, seq: bigint, now: number, epoch?: number): CommitResult {
    this.#assertOpen();
    const e = this.#sessions.get(id);
    const { result, change } = commitStep(e, seq, now, epoch);
    if (e) this.#apply(id, e, change);
    return result;
  }

  async update(id: string, patch: SessionPatch): Promise<boolean> {
    this.#assertOpen();
    return patchStep(this.#sessions.get(id), patch);
  }

  async delete(id: string): Promise<boolean> {
    this.#assertOpen();
    const e = this.#sessions.get(id);
    if (!e || e.deadUntil !== 0) return false;
    this.#apply(id, e, bury(e, Date.now(), true));
    return true;
  }

  async consumeRetry(id: string, seq: bigint, now: number): Promise<RetryVerdict> {
    this.#assertOpen();
    const evicted = this.#evicted.get(id);
    if (evicted && now < evicted.deadUntil) return retryStep(evicted, seq, now).verdict;
    const e = this.#sessions.get(id);
    const { verdict, change } = retryStep(e, seq, now);
    if (e) this.#apply(id, e, change);
    return verdict;
  }

  /** An evicted confirmed session keeps its window (bounded; overflow loses one and moves the coverage). */
  #keepEvicted(id: string, e: TrackedSession, now: number): void {
    e.deadUntil = now + RETRY_HORIZON_MS;
    this.#evicted.set(id, e);
    while (this.#evicted.size > this.#maxEvicted) {
      const oldest = this.#evicted.keys().next();
      if (oldest.done) break;
      this.#evicted.delete(oldest.value);
      this.#coverSince = Math.max(this.#coverSince, now);
    }
  }

  retryCoverageSince(): number {
    return this.#coverSince;
  }

  /** Live sessions (tombstones not counted). */
  async size(): Promise<number> {
    return this.#sessions.size - this.#tombstones;
  }

  /** Live sessions plus tombstones (evicted ones included): what the store holds. */
  get entries(): number {
    return this.#sessions.size + this.#evicted.size;
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    this.#assertOpen();
    const now = Date.now();
    const claims = this.#claims;
    const bounds = { max: this.#maxClaims, sweep: () => sweepClaims(claims, now), full: 'too many live claims (maxClaims)' };
    return claimStep(claims, key, ttlMs, now, bounds) !== null;
  }

  /** Drops expired and idle sessions (and expired claims); bounded by the session count. Returns how many sessions. */
  sweep(now: number): number {
    sweepClaims(this.#claims, now);
    for (const [id, e] of this.#evicted) if (now >= e.deadUntil) this.#evicted.delete(id);
    let n = 0;
    for (const [id, e] of this.#sessions) {
      const wasLive = e.deadUntil === 0;
      const state = expireStep(e, now);
      if (state === 'live') continue;
      this.#apply(id, e, state);
      if (wasLive) n++;
    }
    return n;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const [id, e] of this.#sessions) this.#drop(id, e);
    this.#claims.clear();
    this.#evicted.clear();
    if (this.#name !== undefined && registry().get(this.#name) === this) registry().delete(this.#name);
  }

  /** Applies what a step changed (./commit.ts): LRU touch, tombstone count, removal. */
  #apply(id: string, e: TrackedSession, change: Change): void {
    if (change === 'accepted') touch(this.#sessions, id, e);
    else if (change === 'buried') this.#tombstones++;
    else if (change === 'dropped') this.#drop(id, e);
  }

  #drop(id: string, e: TrackedSession): void {
    e.record.secret.fill(0);
    if (e.deadUntil !== 0) this.#tombstones--;
    this.#sessions.delete(id);
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('nen: memory store is closed');
  }
}

/**
 * The in-memory store. Shared (default): one instance per name per process, surviving `next dev`
 * hot reloads; options of later calls with the same name are ignored.
 */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  if (options.shared === false) return new MemoryStore(options);
  const name = options.name ?? 'default';
  const reg = registry();
  let s = reg.get(name);
  if (!s) {
    s = new MemoryStore(options);
    s.registryName = name;
    reg.set(name, s);
  }
  return s;
}
