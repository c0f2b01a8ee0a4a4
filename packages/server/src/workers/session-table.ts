/**
 * SessionTable: the sessions, replay windows, retry tombstones and claims of ONE NenSessionObject
 * (./session-object.ts), held in memory as a cache and written through to the object's Durable
 * Object storage (./rows.ts) on every change. The rules are the memory store's, the same steps
 * (../stores/commit.ts: live, epoch, replay window, death and tombstones, claims; THREAT_MODEL.md
 * properties 7, 8 and 12, PROTOCOL.md §7.1 tombstones); what differs is here: the store is durable
 * (an evicted or restarted object loads its rows back, so sessions, their windows and tombstones
 * survive eviction and deploys) and eviction keeps a confirmed session's window in the table.
 *
 * Pitfall (atomicity): every method is synchronous. The object's input gate delivers one event at a time, and
 * a commit checks the window in memory and writes its row (`sql.exec`, synchronous) with no await
 * in between, so two requests can never both accept one (session, seq).
 *
 * At rest: with NEN_STORE_KEY the secret is wrapped exactly as the Redis store wraps it
 * (../stores/redis-wrap.ts: HKDF + ChaCha20-Poly1305, AAD = id and epoch); without it the raw
 * secret is stored (Cloudflare encrypts Durable Object storage at rest; docs/runtimes.md). A value
 * not in the configured form, or that does not unwrap (key changed, set or removed; tampered),
 * fails closed: the session is dead (a confirmed one keeps its window as a tombstone).
 *
 * Bounded and expiring: at most `maxSessions` live sessions (least recently used evicted; a
 * confirmed one keeps its window as a tombstone), `maxEntries` rows in all and `maxClaims` claims;
 * past those it fails closed (StoreUnavailableError) rather than forget a window or a live claim.
 * Every row has a deadline (`nextAt`): death turns a session into a tombstone (secret wiped) or
 * deletes it, a tombstone is deleted at its end, a claim at its expiry. `schedule(at)` asks the
 * object for an alarm at the earliest deadline; `sweep(now)` (the alarm, and before refusing for
 * room) applies them; reads check expiry themselves.
 */
import { type Backend, ReplayWindow } from '@nen/core';
import { StoreUnavailableError } from '../errors.js';
import {
  bury,
  type Change,
  claimStep,
  commitStep,
  copyRecord,
  deathAt,
  expireStep,
  getStep,
  patchStep,
  retryStep,
  sweepClaims,
  type TrackedSession,
  touch,
} from '../stores/commit.js';
import { unwrap, wrap } from '../stores/redis-wrap.js';
import type { CommitResult, RetryVerdict, SessionPatch, SessionRecord } from '../stores/types.js';
import type { SessionRow, SessionRows } from './rows.js';

export interface SessionTableOptions {
  rows: SessionRows;
  backend: Backend;
  /** 32-byte wrap key (from NEN_STORE_KEY), or null to store secrets as they are. */
  wrapKey: Uint8Array | null;
  /** Asks for a sweep at `at` (ms since the epoch): the object sets its alarm if that is earlier. */
  schedule(at: number): void;
  /** Live sessions held (default 64; an object normally holds one). */
  maxSessions?: number;
  /** Rows held, tombstones included (default 2 × maxSessions). */
  maxEntries?: number;
  /** Live claims held (default 1024). */
  maxClaims?: number;
}

interface Entry extends TrackedSession {
  /** The secret as stored (wrapped or raw); null for a tombstone. */
  stored: Uint8Array | null;
  wrapped: boolean;
}

const WINDOW_BYTES = new ReplayWindow().bits.byteLength;

/** When the entry next needs the sweep: its death while alive, its end as a tombstone. */
const nextAt = (e: Entry): number => (e.deadUntil !== 0 ? e.deadUntil : deathAt(e));

export class SessionTable {
  readonly #o: Required<Omit<SessionTableOptions, 'schedule'>> & Pick<SessionTableOptions, 'schedule'>;
  /** Insertion order = least recently used first (a commit re-inserts). */
  readonly #sessions = new Map<string, Entry>();
  readonly #claims = new Map<string, number>();

  constructor(options: SessionTableOptions) {
    const maxSessions = Math.max(1, options.maxSessions ?? 64);
    this.#o = { maxEntries: 2 * maxSessions, maxClaims: 1024, ...options, maxSessions };
  }

  /** Loads every row (an object starting, or restarting after eviction); returns the earliest deadline. */
  load(now: number): number | undefined {
    for (const row of this.#o.rows.sessions()) this.#loadRow(row, now);
    for (const c of this.#o.rows.claims()) this.#claims.set(c.key, c.until);
    return this.next();
  }

  create(session: SessionRecord): void {
    const now = Date.now();
    const old = this.#sessions.get(session.id);
    if (old) this.#drop(session.id, old);
    if (this.#live() >= this.#o.maxSessions) this.sweep(now);
    let live = this.#live();
    for (const [id, e] of this.#sessions) {
      if (live < this.#o.maxSessions) break;
      if (e.deadUntil !== 0) continue;
      this.#apply(id, e, bury(e, now, true)); // least recently used: a confirmed one stays as a tombstone
      live--;
    }
    if (this.#sessions.size >= this.#o.maxEntries) this.sweep(now);
    if (this.#sessions.size >= this.#o.maxEntries) throw new StoreUnavailableError('nen: too many sessions and retry tombstones in one Durable Object');
    const e: Entry = { record: copyRecord(session), stored: null, wrapped: false, window: new ReplayWindow(), deadUntil: 0 };
    this.#seal(e);
    this.#sessions.set(session.id, e);
    this.#put(e);
  }

  get(id: string, now: number): SessionRecord | null {
    const e = this.#sessions.get(id);
    const { record, change } = getStep(e, now);
    if (e) this.#apply(id, e, change);
    return record;
  }

  commit(id: string, seq: bigint, now: number, epoch?: number): CommitResult {
    const e = this.#sessions.get(id);
    const { result, change } = commitStep(e, seq, now, epoch);
    if (e) this.#apply(id, e, change);
    return result.ok ? { ok: true, session: copyRecord(result.session) } : result;
  }

  update(id: string, patch: SessionPatch): boolean {
    const e = this.#sessions.get(id);
    if (!e || !patchStep(e, patch)) return false;
    if (patch.secret || patch.epoch !== undefined) this.#seal(e); // the wrap's AAD names the epoch
    this.#put(e);
    return true;
  }

  delete(id: string): boolean {
    const e = this.#sessions.get(id);
    if (!e || e.deadUntil !== 0) return false;
    this.#apply(id, e, bury(e, Date.now(), true));
    return true;
  }

  consumeRetry(id: string, seq: bigint, now: number): RetryVerdict {
    const e = this.#sessions.get(id);
    const { verdict, change } = retryStep(e, seq, now);
    if (e) this.#apply(id, e, change);
    return verdict;
  }

  claimOnce(key: string, ttlMs: number, now: number): boolean {
    const bounds = { max: this.#o.maxClaims, sweep: () => this.sweep(now), full: 'nen: too many live claims in one Durable Object' };
    const until = claimStep(this.#claims, key, ttlMs, now, bounds);
    if (until === null) return false;
    this.#o.rows.putClaim({ key, until });
    this.#o.schedule(until);
    return true;
  }

  /** Live sessions (tombstones not counted). */
  size(): number {
    return this.#live();
  }

  /** Rows held: sessions (live and tombstones) and claims. */
  get entries(): number {
    return this.#sessions.size + this.#claims.size;
  }

  /** Applies every deadline reached: dead sessions become tombstones or go, ended tombstones and claims go. */
  sweep(now: number): void {
    sweepClaims(this.#claims, now, (key) => this.#o.rows.deleteClaim(key));
    for (const [id, e] of this.#sessions) {
      const state = expireStep(e, now);
      if (state !== 'live') this.#apply(id, e, state);
    }
  }

  /** The earliest deadline of any row, or undefined when the object holds nothing. */
  next(): number | undefined {
    let at = Number.POSITIVE_INFINITY;
    for (const e of this.#sessions.values()) at = Math.min(at, nextAt(e));
    for (const until of this.#claims.values()) at = Math.min(at, until);
    return at === Number.POSITIVE_INFINITY ? undefined : at;
  }

  #live(): number {
    let n = 0;
    for (const e of this.#sessions.values()) if (e.deadUntil === 0) n++;
    return n;
  }

  /** Applies what a step changed (../stores/commit.ts) and writes it through: LRU touch, tombstone, removal. */
  #apply(id: string, e: Entry, change: Change): void {
    if (change === 'none') return;
    if (change === 'dropped') return this.#drop(id, e);
    if (change === 'accepted') touch(this.#sessions, id, e);
    if (change === 'buried') e.stored = null;
    this.#put(e);
  }

  #drop(id: string, e: Entry): void {
    e.record.secret.fill(0);
    this.#sessions.delete(id);
    this.#o.rows.deleteSession(id);
  }

  /** Sets the stored form of the secret: wrapped under the store key (AAD: id, epoch), or raw. */
  #seal(e: Entry): void {
    const { backend, wrapKey } = this.#o;
    const r = e.record;
    e.stored = wrapKey ? wrap(backend, wrapKey, r.id, r.epoch, r.secret) : r.secret.slice();
    e.wrapped = wrapKey !== null;
  }

  #put(e: Entry): void {
    const r = e.record;
    const fields = { meta: r.meta, epoch: r.epoch, createdAt: r.createdAt, expiresAt: r.expiresAt, idleTimeoutMs: r.idleTimeoutMs, confirmBy: r.confirmBy };
    const w = e.window.bits;
    const row: SessionRow = {
      id: r.id,
      fields: JSON.stringify(fields),
      secret: e.deadUntil === 0 ? e.stored : null,
      wrapped: e.wrapped,
      lastSeenAt: r.lastSeenAt,
      highest: e.window.highest.toString(),
      bits: new Uint8Array(w.buffer, w.byteOffset, w.byteLength),
      deadUntil: e.deadUntil,
      nextAt: nextAt(e),
    };
    this.#o.rows.putSession(row);
    this.#o.schedule(row.nextAt);
  }

  #loadRow(row: SessionRow, now: number): void {
    let e: Entry;
    try {
      const f = JSON.parse(row.fields) as Omit<SessionRecord, 'id' | 'secret' | 'lastSeenAt'>;
      if (row.bits.byteLength !== WINDOW_BYTES) throw new TypeError('window size');
      const window = new ReplayWindow();
      window.highest = BigInt(row.highest);
      new Uint8Array(window.bits.buffer, window.bits.byteOffset, WINDOW_BYTES).set(row.bits);
      const record: SessionRecord = { ...f, id: row.id, secret: new Uint8Array(0), lastSeenAt: row.lastSeenAt };
      if (f.confirmBy === undefined) delete (record as { confirmBy?: number }).confirmBy;
      e = { record, stored: row.secret, wrapped: row.wrapped, window, deadUntil: row.deadUntil };
    } catch {
      this.#o.rows.deleteSession(row.id); // not a row this code wrote: never guess
      return;
    }
    this.#sessions.set(row.id, e);
    if (e.deadUntil !== 0) return;
    // Only the form this configuration writes is accepted: with a store key, a value that unwraps
    // under it (a raw value would let whoever can write the storage choose a session's secret).
    const { backend, wrapKey } = this.#o;
    const secret =
      !e.stored || e.wrapped !== (wrapKey !== null) ? null : wrapKey ? unwrap(backend, wrapKey, row.id, e.record.epoch, e.stored) : e.stored.slice();
    if (!secret) {
      this.#apply(row.id, e, bury(e, now, true)); // store key changed, set or removed; tampered: fail closed
      return;
    }
    e.record.secret = secret;
  }
}
