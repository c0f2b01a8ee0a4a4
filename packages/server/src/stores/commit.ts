/**
 * The session-state steps shared by the in-memory store (./memory.ts) and the Cloudflare Durable
 * Object's session table (../workers/session-table.ts): liveness, the epoch check, the replay
 * window (THREAT_MODEL.md properties 7 and 8), retry tombstones (PROTOCOL.md "Retries"), `update`
 * patches and bounded `claimOnce` claims. Each step works in place on one TrackedSession and says
 * what it changed (`Change`); the store applies that its own way (the memory store moves the
 * session to the end of its LRU order and counts tombstones; the session table also writes the row
 * through to Durable Object storage). Maps, eviction and persistence stay in the stores.
 *
 * The Redis store keeps the same rules in its Lua scripts (./redis-scripts.ts: one atomic script
 * per call, so it cannot call these):
 *  - live: not a tombstone, now < expiresAt, now - lastSeenAt < idleTimeoutMs and, until a request
 *    commits, now < confirmBy (COMMIT_LUA, CONSUME_RETRY_LUA, RedisStore.get);
 *  - epoch: the current one, or the previous one while now < meta.prevUntil, checked before the
 *    window, so a refused epoch leaves its seq unmarked (COMMIT_LUA's {5});
 *  - window: RFC 4303 §3.4.3 sliding window of REPLAY_WINDOW sequence numbers (ReplayWindow of
 *    @nen/core; WINDOW_FN `mark` in Lua): seq 0 is too-old, H - seq >= REPLAY_WINDOW is too-old,
 *    a seen seq is replay, anything else is marked (THREAT_MODEL.md property 7);
 *  - death: a session no request committed on leaves nothing; a confirmed one becomes a tombstone
 *    (secret wiped, window kept) until death + RETRY_HORIZON_MS, death being the delete or the
 *    first of expiresAt and lastSeenAt + idleTimeoutMs (DELETE_LUA, the commit's key TTL); a retry
 *    marked on a tombstone keeps it RETRY_HORIZON_MS from then at least (CONSUME_RETRY_LUA).
 *    Redis ends a tombstone by key TTL (plus a grace period); here a read past its end drops it.
 *
 * Pitfalls:
 *  - Steps mutate the session (`commitStep` marks the window and sets lastSeenAt, `bury` wipes the
 *    secret): the store applies the returned Change in the same synchronous turn, with no await in
 *    between, which is what makes a commit atomic (two requests racing one (id, seq): one ok).
 *  - `commitStep`'s ok result carries the store's own record, not a copy.
 *  - Sequence numbers outside [0, 2^64) throw RangeError (a bug above the store, never wire input).
 */
import type { ReplayWindow } from '@nen/core';
import { StoreUnavailableError } from '../errors.js';
import { type CommitResult, checkClaim, RETRY_HORIZON_MS, type RetryVerdict, type SessionPatch, type SessionRecord } from './types.js';

/** One session as both stores hold it. */
export interface TrackedSession {
  record: SessionRecord;
  window: ReplayWindow;
  /** 0 while alive; else the tombstone's end (ms since the epoch). */
  deadUntil: number;
}

/**
 * What a step changed, for the store to apply:
 *  - 'none': nothing;
 *  - 'accepted': a commit marked its seq and set lastSeenAt (LRU touch, write);
 *  - 'marked': a retry marked a seq (write);
 *  - 'buried': the session died and is now a tombstone, secret wiped (a retry may also have marked
 *    its seq) (write);
 *  - 'dropped': the session died leaving nothing, or its tombstone ended (remove it).
 */
export type Change = 'none' | 'accepted' | 'marked' | 'buried' | 'dropped';

export const U64_MAX = (1n << 64n) - 1n;

/** Throws RangeError unless `seq` is an unsigned 64-bit bigint. */
export function checkSeq(seq: bigint): void {
  if (typeof seq !== 'bigint' || seq < 0n || seq > U64_MAX) throw new RangeError('nen: sequence number outside the unsigned 64-bit range');
}

/** A copy the caller may keep: its own secret bytes and meta object. */
export const copyRecord = (r: SessionRecord): SessionRecord => ({ ...r, secret: r.secret.slice(), meta: { ...r.meta } });

/** Whether a request has committed on the session (its window is no longer empty). */
export const confirmed = (s: TrackedSession): boolean => s.window.highest !== 0n;

/** When a live session dies: the first of expiresAt, lastSeenAt + idleTimeoutMs and, unconfirmed, confirmBy. */
export function deathAt(s: TrackedSession): number {
  const r = s.record;
  const death = Math.min(r.expiresAt, r.lastSeenAt + r.idleTimeoutMs);
  return !confirmed(s) && r.confirmBy !== undefined ? Math.min(death, r.confirmBy) : death;
}

/** The current epoch, or the previous one until `meta.prevUntil` (rotate grace). */
export function epochLive(r: SessionRecord, epoch: number, now: number): boolean {
  if (epoch === r.epoch) return true;
  const until = r.meta.prevUntil;
  return epoch + 1 === r.epoch && typeof until === 'number' && now < until;
}

/**
 * A session dies (at `now`, or deleted): 'dropped' when no request committed on it or its
 * tombstone would already have ended; else it becomes a tombstone (secret wiped) until its death
 * + RETRY_HORIZON_MS: 'buried'.
 */
export function bury(s: TrackedSession, now: number, deleted = false): 'buried' | 'dropped' {
  const death = deleted ? now : Math.min(now, deathAt(s));
  if (!confirmed(s) || death + RETRY_HORIZON_MS <= now) return 'dropped';
  s.record.secret.fill(0);
  s.deadUntil = death + RETRY_HORIZON_MS;
  return 'buried';
}

/**
 * Applies the deadlines reached at `now`: 'live' while the session lives; 'buried' or 'dropped'
 * when it died now (see `bury`); 'dropped' for a tombstone past its end; 'none' for a tombstone
 * still kept.
 */
export function expireStep(s: TrackedSession, now: number): 'live' | 'none' | 'buried' | 'dropped' {
  if (s.deadUntil !== 0) return now >= s.deadUntil ? 'dropped' : 'none';
  return now < deathAt(s) ? 'live' : bury(s, now);
}

/** `get`: a copy of the record while the session lives; a session found dead is buried or dropped. */
export function getStep(s: TrackedSession | undefined, now: number): { record: SessionRecord | null; change: Change } {
  if (!s) return { record: null, change: 'none' };
  const state = expireStep(s, now);
  return state === 'live' ? { record: copyRecord(s.record), change: 'none' } : { record: null, change: state };
}

/**
 * The commit (`SessionStore.commit`, after the AEAD check): unknown → expired (a session found dead
 * is buried or dropped) → epoch → window. Only an accepted seq changes the window; it also sets
 * lastSeenAt (the idle clock).
 */
export function commitStep(s: TrackedSession | undefined, seq: bigint, now: number, epoch?: number): { result: CommitResult; change: Change } {
  checkSeq(seq);
  if (!s) return { result: { ok: false, reason: 'unknown' }, change: 'none' };
  const state = expireStep(s, now);
  if (state !== 'live') return { result: { ok: false, reason: 'expired' }, change: state };
  if (epoch !== undefined && !epochLive(s.record, epoch, now)) return { result: { ok: false, reason: 'epoch' }, change: 'none' };
  const verdict = s.window.checkAndAccept(seq);
  if (verdict !== 'ok') return { result: { ok: false, reason: verdict }, change: 'none' };
  s.record.lastSeenAt = now;
  return { result: { ok: true, session: s.record }, change: 'accepted' };
}

/**
 * `consumeRetry` on a live session or a tombstone: a session found dead is buried or dropped
 * first ('absent' when nothing is left); then `seq` is marked unless it committed (RetryVerdict).
 * A marked tombstone lives RETRY_HORIZON_MS from now at least.
 */
export function retryStep(s: TrackedSession | undefined, seq: bigint, now: number): { verdict: RetryVerdict; change: Change } {
  checkSeq(seq);
  if (!s) return { verdict: 'absent', change: 'none' };
  const state = expireStep(s, now);
  if (state === 'dropped') return { verdict: 'absent', change: 'dropped' };
  const v = s.window.checkAndAccept(seq);
  if (v === 'ok' && s.deadUntil !== 0) s.deadUntil = Math.max(s.deadUntil, now + RETRY_HORIZON_MS);
  const verdict: RetryVerdict = v === 'ok' ? 'marked' : v === 'replay' ? 'committed' : 'too-old';
  return { verdict, change: state === 'buried' ? 'buried' : v === 'ok' ? 'marked' : 'none' };
}

/** `update`: replaces what the patch names (the old secret wiped, the new one copied in). False for a tombstone or none. */
export function patchStep(s: TrackedSession | undefined, patch: SessionPatch): boolean {
  if (!s || s.deadUntil !== 0) return false;
  const r = s.record;
  if (patch.secret) {
    r.secret.fill(0);
    r.secret = patch.secret.slice();
  }
  if (patch.meta) r.meta = { ...patch.meta };
  if (patch.epoch !== undefined) r.epoch = patch.epoch;
  if (patch.expiresAt !== undefined) r.expiresAt = patch.expiresAt;
  return true;
}

/** Moves `key` to the end of the map's insertion order (the most recently used). */
export function touch<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
}

/** Bounds of `claimStep`: the live claims held at most, how to make room, what to say when full. */
export interface ClaimBounds {
  max: number;
  /** Removes expired claims (called once when the map is full). */
  sweep(): void;
  full: string;
}

/**
 * `claimOnce` over a map key → expiry (ms since the epoch): null while the key is held, else its
 * new expiry (already in the map; the store persists it). At `max` live claims a new key is
 * StoreUnavailableError after one sweep: forgetting a live claim would let its key be claimed twice.
 */
export function claimStep(claims: Map<string, number>, key: string, ttlMs: number, now: number, bounds: ClaimBounds): number | null {
  checkClaim(key, ttlMs);
  const until = claims.get(key);
  if (until !== undefined && until > now) return null;
  if (until === undefined && claims.size >= bounds.max) {
    bounds.sweep();
    if (claims.size >= bounds.max) throw new StoreUnavailableError(bounds.full);
  }
  claims.set(key, now + ttlMs);
  return now + ttlMs;
}

/** Removes the claims expired at `now`; `removed` is told each key. */
export function sweepClaims(claims: Map<string, number>, now: number, removed?: (key: string) => void): void {
  for (const [key, until] of claims) {
    if (until > now) continue;
    claims.delete(key);
    removed?.(key);
  }
}
