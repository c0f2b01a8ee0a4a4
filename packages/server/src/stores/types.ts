/**
 * The session store interface: one contract for the in-memory store (default) and the Redis store.
 *
 * Implements the server-side state of THREAT_MODEL.md properties 7 and 8: session lookup, the per-session
 * replay window (RFC 4303 §3.4.3 style sliding window over sequence numbers, REPLAY_WINDOW bits),
 * absolute TTL and idle timeout.
 *
 * Pitfalls:
 *  - `commit` is called only after the AEAD check succeeded; it is the single atomic step that
 *    decides acceptance (exists + not expired + not idle + sequence inside window and unseen), marks
 *    the sequence number and refreshes the idle clock. Two servers racing the same (id, seq) get
 *    exactly one `ok`.
 *  - `secret` is key material: persistent stores wrap it at rest; no store logs it.
 *  - Memory per session is O(1): the window is a fixed REPLAY_WINDOW-bit bitmap plus the highest
 *    sequence number seen.
 *  - Retries (PROTOCOL.md "Retries"): a session on which a request committed outlives its death
 *    (expiry, idle, delete) as a tombstone (replay window only, secret wiped) for
 *    RETRY_HORIZON_MS, so `consumeRetry` can tell whether a named request committed. A session on
 *    which nothing committed dies at `confirmBy` and leaves nothing behind.
 *  - `claimOnce` is bounded too: the memory store holds at most `maxClaims` live claims and fails
 *    closed (StoreUnavailableError) rather than forget a live one; Redis keys carry a PX TTL.
 */
import { NenConfigError } from '../errors.js';

/** Width of the sliding replay window in sequence numbers. */
export const REPLAY_WINDOW = 1024;

export interface SessionRecord {
  /** Session id as it appears on the wire (base64url, no padding). */
  readonly id: string;
  /** Secret material, opaque to the store (wrapped at rest by persistent stores). */
  secret: Uint8Array;
  /** Non-secret protocol metadata, opaque to the store (JSON-serialisable). */
  meta: Record<string, string | number | boolean | null>;
  /** Rekey counter; bumped by `update`. */
  epoch: number;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Absolute expiry, ms since the epoch. */
  expiresAt: number;
  /** Idle timeout in ms: the session dies when no request commits for this long. */
  readonly idleTimeoutMs: number;
  /** Last successful commit (or creation), ms since the epoch. */
  lastSeenAt: number;
  /** Unconfirmed deadline, ms since the epoch: until a request commits, the session dies here. */
  readonly confirmBy?: number;
}

/**
 * How long a confirmed session's replay window outlives the session (tombstone), ms. A retry is
 * accepted on a missing record only while `now < original timestamp - timestamp window + this`.
 */
export const RETRY_HORIZON_MS = 120_000;

/**
 * `consumeRetry` verdicts for the original (session, seq) a retry names:
 *  - 'marked': it had not committed; it is now marked, so it never can (the retry may run);
 *  - 'committed': it committed (its handler ran or is running);
 *  - 'too-old': left of the replay window: unknown;
 *  - 'absent': no record of the session (never confirmed, gone past the horizon, or state lost).
 */
export type RetryVerdict = 'marked' | 'committed' | 'too-old' | 'absent';

/** What `update` may replace (rekey, rotate). */
export type SessionPatch = { secret?: Uint8Array; meta?: SessionRecord['meta']; epoch?: number; expiresAt?: number };

export type CommitResult =
  | { readonly ok: true; readonly session: SessionRecord }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'replay' | 'too-old' | 'epoch' };

export interface SessionStore {
  readonly kind: 'memory' | 'redis' | (string & {});
  /** Stores a new session; its replay window starts empty. */
  create(session: SessionRecord): Promise<void>;
  /** The session, or null when unknown, expired (absolute TTL) or idle past its timeout. */
  get(id: string, now: number): Promise<SessionRecord | null>;
  /**
   * Atomic accept step after the AEAD check; see the module header. `seq` is unsigned 64-bit.
   * With `epoch`, a request under an epoch that is neither current nor the previous one within
   * `meta.prevUntil` is 'epoch' and its seq is NOT marked (a retry then finds it not committed).
   */
  commit(id: string, seq: bigint, now: number, epoch?: number): Promise<CommitResult>;
  /**
   * Optional: `commit` answered synchronously, for a store that holds its state in-process (the
   * memory store). The request pipeline prefers it: no promise and no microtask hop per request
   * (under `next start` every promise also runs the AsyncLocalStorage hooks). Same rules and
   * result as `commit`; a failure is thrown. Never for a store behind I/O (Redis, Durable Object).
   */
  commitNow?(id: string, seq: bigint, now: number, epoch?: number): CommitResult;
  /** Replaces secret/meta/epoch/expiry of a live session (rekey, rotate). False when unknown. */
  update(id: string, patch: SessionPatch): Promise<boolean>;
  /** Removes a session. False when it was unknown. */
  delete(id: string): Promise<boolean>;
  /** Number of live sessions (approximate for Redis: by key scan of the prefix is not required). */
  size(): Promise<number>;
  /**
   * Claims `key` for `ttlMs` milliseconds, atomically: true for exactly one caller (across every
   * instance sharing the store) until the claim expires, false while it is held. Keys live in
   * their own namespace (they never collide with sessions) and are stored as a fixed-size digest.
   * Used for one-time tokens such as webhook ids (@nen/seal `withNenWebhook({ store: nen.store })`).
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Retries: atomically with the replay window of session `id`, marks `seq` as spent unless it
   * already committed (see RetryVerdict). Live sessions and tombstones alike. A store without it
   * makes every retry refused as NEN_RETRY_UNKNOWN (safe).
   */
  consumeRetry?(id: string, seq: bigint, now: number): Promise<RetryVerdict>;
  /**
   * Since when (ms since the epoch) this store has lost no record of a confirmed session (memory:
   * process start or the last loss of an evicted session's window; Redis: 0, Redis is trusted to keep
   * its data). A missing record proves "never committed" only for originals sent after it.
   */
  retryCoverageSince?(): number;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/** Thrown by stores when the backing service is unreachable; maps to 503 NEN_STORE_UNAVAILABLE. */
export { StoreUnavailableError } from '../errors.js';

/** Longest `claimOnce` key accepted (the stores keep only a fixed-size digest of it). */
export const MAX_CLAIM_KEY_LENGTH = 4096;
/** Longest `claimOnce` lifetime: 7 days. */
export const MAX_CLAIM_TTL_MS = 7 * 24 * 3600 * 1000;

/** Validates `claimOnce` arguments; throws NenConfigError (NEN_CONFIG) on misuse. */
export function checkClaim(key: string, ttlMs: number): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_CLAIM_KEY_LENGTH) {
    throw new NenConfigError(`claimOnce key must be a string of 1 to ${MAX_CLAIM_KEY_LENGTH} characters`);
  }
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_CLAIM_TTL_MS) {
    throw new NenConfigError(`claimOnce ttlMs must be an integer from 1 to ${MAX_CLAIM_TTL_MS}`);
  }
}
