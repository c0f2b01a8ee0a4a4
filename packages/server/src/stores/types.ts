/**
 * The session store interface: one contract for the in-memory store (default) and the Redis store.
 *
 * Implements the server-side state of DESIGN.md properties 7 and 8: session lookup, the per-session
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
 */

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
}

export type CommitResult =
  | { readonly ok: true; readonly session: SessionRecord }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'replay' | 'too-old' };

export interface SessionStore {
  readonly kind: 'memory' | 'redis' | (string & {});
  /** Stores a new session; its replay window starts empty. */
  create(session: SessionRecord): Promise<void>;
  /** The session, or null when unknown, expired (absolute TTL) or idle past its timeout. */
  get(id: string, now: number): Promise<SessionRecord | null>;
  /** Atomic accept step after the AEAD check; see the module header. `seq` is unsigned 64-bit. */
  commit(id: string, seq: bigint, now: number): Promise<CommitResult>;
  /** Replaces secret/meta/epoch/expiry of a live session (rekey, rotate). False when unknown. */
  update(id: string, patch: { secret?: Uint8Array; meta?: SessionRecord['meta']; epoch?: number; expiresAt?: number }): Promise<boolean>;
  /** Removes a session. False when it was unknown. */
  delete(id: string): Promise<boolean>;
  /** Number of live sessions (approximate for Redis: by key scan of the prefix is not required). */
  size(): Promise<number>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/** Thrown by stores when the backing service is unreachable; maps to 503 NEN_STORE_UNAVAILABLE. */
export class StoreUnavailableError extends Error {
  readonly code = 'NEN_STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message.startsWith('nen: ') ? message : `nen: ${message}`, options);
    this.name = 'StoreUnavailableError';
  }
}
