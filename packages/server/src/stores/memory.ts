/**
 * In-memory session store (the default): implements SessionStore (./types.ts) for one process.
 *
 * THREAT_MODEL.md properties 7, 8, 12: per-session replay window (the shared RFC 4303 §3.4.3-style
 * `ReplayWindow` of @nen/core, O(1) memory per session), absolute TTL and idle timeout, and a
 * bounded session count with least-recently-used eviction. A sweep timer (unref'd, so it never
 * keeps a process alive) drops expired sessions; lookups also check expiry, so the sweep only
 * bounds memory.
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
import { StoreUnavailableError } from '../errors.js';
import { RETRY_HORIZON_MS, checkClaim, type CommitResult, type RetryVerdict, type SessionRecord, type SessionStore } from './types.js';

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

interface Entry {
  record: SessionRecord;
  window: ReplayWindow;
  /** 0 while alive; else the tombstone's end (ms since the epoch). */
  deadUntil: number;
}

const U64_MAX = (1n << 64n) - 1n;
const REGISTRY = Symbol.for('nen.server.memoryStores');
type Registry = Map<string, MemoryStore>;

function registry(): Registry {
  const g = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  return (g[REGISTRY] ??= new Map());
}

function cloneRecord(r: SessionRecord): SessionRecord {
  return { ...r, secret: r.secret.slice(), meta: { ...r.meta } };
}

function isLive(e: Entry, now: number): boolean {
  const r = e.record;
  if (e.deadUntil !== 0) return false;
  if (e.window.highest === 0n && r.confirmBy !== undefined && now >= r.confirmBy) return false;
  return now < r.expiresAt && now - r.lastSeenAt <= r.idleTimeoutMs;
}

const confirmed = (e: Entry): boolean => e.window.highest !== 0n;

/** Marks `seq` in a (live or dead) session's window for a retry: see RetryVerdict. */
function windowVerdict(e: Entry, seq: bigint): RetryVerdict {
  const v = e.window.checkAndAccept(seq);
  return v === 'replay' ? 'committed' : v === 'too-old' ? 'too-old' : 'marked';
}

/** The current epoch, or the previous one until `meta.prevUntil` (rotate grace). */
function epochLive(r: SessionRecord, epoch: number, now: number): boolean {
  if (epoch === r.epoch) return true;
  const until = r.meta.prevUntil;
  return epoch + 1 === r.epoch && typeof until === 'number' && now < until;
}

export class MemoryStore implements SessionStore {
  readonly kind = 'memory' as const;
  readonly maxSessions: number;
  readonly #sessions = new Map<string, Entry>();
  /** claimOnce: key → expiry (ms since the epoch), bounded by maxClaims. */
  readonly #claims = new Map<string, number>();
  readonly #maxClaims: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  #name: string | undefined;
  #tombstones = 0;
  #coverSince = Date.now();
  /** Windows of confirmed sessions evicted for room (secret wiped), until their horizon; bounded. */
  readonly #evicted = new Map<string, Entry>();
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
      const victim = this.#sessions.get(lru.value) as Entry;
      this.#drop(lru.value, victim);
      if (confirmed(victim)) this.#keepEvicted(lru.value, victim, Date.now());
      this.evictions++;
    }
    this.#sessions.set(session.id, { record: cloneRecord(session), window: new ReplayWindow(), deadUntil: 0 });
  }

  async get(id: string, now: number): Promise<SessionRecord | null> {
    this.#assertOpen();
    const e = this.#sessions.get(id);
    if (!e) return null;
    if (!isLive(e, now)) {
      this.#kill(id, e, now);
      return null;
    }
    return cloneRecord(e.record);
  }

  async commit(id: string, seq: bigint, now: number, epoch?: number): Promise<CommitResult> {
    this.#assertOpen();
    if (seq < 0n || seq > U64_MAX) throw new RangeError('nen: sequence number outside the unsigned 64-bit range');
    const e = this.#sessions.get(id);
    if (!e) return { ok: false, reason: 'unknown' };
    if (!isLive(e, now)) {
      this.#kill(id, e, now);
      return { ok: false, reason: 'expired' };
    }
    if (epoch !== undefined && !epochLive(e.record, epoch, now)) return { ok: false, reason: 'epoch' };
    const verdict = e.window.checkAndAccept(seq);
    if (verdict !== 'ok') return { ok: false, reason: verdict };
    e.record.lastSeenAt = now;
    // LRU touch: move to the end of the insertion order.
    this.#sessions.delete(id);
    this.#sessions.set(id, e);
    return { ok: true, session: e.record };
  }

  async update(id: string, patch: { secret?: Uint8Array; meta?: SessionRecord['meta']; epoch?: number; expiresAt?: number }): Promise<boolean> {
    this.#assertOpen();
    const e = this.#sessions.get(id);
    if (!e || e.deadUntil !== 0) return false;
    if (patch.secret) {
      e.record.secret.fill(0);
      e.record.secret = patch.secret.slice();
    }
    if (patch.meta) e.record.meta = { ...patch.meta };
    if (patch.epoch !== undefined) e.record.epoch = patch.epoch;
    if (patch.expiresAt !== undefined) e.record.expiresAt = patch.expiresAt;
    return true;
  }

  async delete(id: string): Promise<boolean> {
    this.#assertOpen();
    const e = this.#sessions.get(id);
    if (!e || e.deadUntil !== 0) return false;
    this.#kill(id, e, Date.now(), true);
    return true;
  }

  async consumeRetry(id: string, seq: bigint, now: number): Promise<RetryVerdict> {
    this.#assertOpen();
    const evicted = this.#evicted.get(id);
    if (evicted && now < evicted.deadUntil) return windowVerdict(evicted, seq);
    const e = this.#sessions.get(id);
    if (!e) return 'absent';
    if (e.deadUntil === 0 && !isLive(e, now)) this.#kill(id, e, now);
    if (!this.#sessions.has(id)) return 'absent';
    const v = windowVerdict(e, seq);
    if (v === 'marked' && e.deadUntil !== 0) e.deadUntil = Math.max(e.deadUntil, now + RETRY_HORIZON_MS);
    return v;
  }

  /** An evicted confirmed session keeps its window (bounded; overflow loses one and moves the coverage). */
  #keepEvicted(id: string, e: Entry, now: number): void {
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
    checkClaim(key, ttlMs);
    const now = Date.now();
    const until = this.#claims.get(key);
    if (until !== undefined && until > now) return false;
    if (until === undefined && this.#claims.size >= this.#maxClaims) {
      this.#sweepClaims(now);
      // Forgetting a live claim would let its key be claimed twice: fail closed instead.
      if (this.#claims.size >= this.#maxClaims) throw new StoreUnavailableError('too many live claims (maxClaims)');
    }
    this.#claims.set(key, now + ttlMs);
    return true;
  }

  #sweepClaims(now: number): void {
    for (const [k, until] of this.#claims) if (until <= now) this.#claims.delete(k);
  }

  /** Drops expired and idle sessions (and expired claims); bounded by the session count. Returns how many sessions. */
  sweep(now: number): number {
    this.#sweepClaims(now);
    for (const [id, e] of this.#evicted) if (now >= e.deadUntil) this.#evicted.delete(id);
    let n = 0;
    for (const [id, e] of this.#sessions) {
      if (e.deadUntil !== 0) {
        if (now >= e.deadUntil) this.#drop(id, e);
      } else if (!isLive(e, now)) {
        this.#kill(id, e, now);
        n++;
      }
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

  /** A dead session: unconfirmed → gone; confirmed → tombstone until death + RETRY_HORIZON_MS. */
  #kill(id: string, e: Entry, now: number, deleted = false): void {
    const r = e.record;
    const death = deleted ? now : Math.min(now, r.expiresAt, r.lastSeenAt + r.idleTimeoutMs);
    if (!confirmed(e) || death + RETRY_HORIZON_MS <= now) {
      this.#drop(id, e);
      return;
    }
    r.secret.fill(0);
    e.deadUntil = death + RETRY_HORIZON_MS;
    this.#tombstones++;
  }

  #drop(id: string, e: Entry): void {
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
