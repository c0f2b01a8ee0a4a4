/**
 * Sample data for the SessionStore tests: fresh session ids, a session record at a given instant,
 * the reference model of the replay window (a set of accepted numbers plus the highest) that
 * store-contract.ts checks every store against, and the helpers its case modules share.
 * Pitfall: ids are unique per process (a counter plus the clock), not random enough for anything
 * but tests.
 */
import { REPLAY_WINDOW, type SessionRecord, type SessionStore } from '../src/stores/types.js';

/** An empty store of the kind under test, closed by the contract after each case. */
export type FreshStore = () => Promise<SessionStore>;

/** A commit's answer as one word: 'ok' or the refusal's reason. */
export function verdict(r: Awaited<ReturnType<SessionStore['commit']>>): string {
  return r.ok ? 'ok' : r.reason;
}

let counter = 0;
/** A fresh base64url-looking session id. */
export function sessionId(): string {
  counter += 1;
  return `t${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 10)}`.replace(/[^A-Za-z0-9_-]/g, '');
}

/** A session record starting at `now`, valid for `ttlMs`, with idle timeout `idleMs`. */
export function sampleSession(now: number, opts: { ttlMs?: number; idleMs?: number; id?: string } = {}): SessionRecord {
  const secret = new Uint8Array(64);
  for (let i = 0; i < secret.length; i++) secret[i] = (i * 37 + 11) & 0xff;
  return {
    id: opts.id ?? sessionId(),
    secret,
    meta: { kem: 'xwing', keyId: 'k1', pinned: true, note: null, n: 7 },
    epoch: 0,
    createdAt: now,
    expiresAt: now + (opts.ttlMs ?? 3_600_000),
    idleTimeoutMs: opts.idleMs ?? 600_000,
    lastSeenAt: now,
  };
}

/** Reference model of the replay window: the set of accepted numbers and the highest. */
export class ReferenceWindow {
  readonly seen = new Set<bigint>();
  highest = 0n;
  commit(seq: bigint): 'ok' | 'replay' | 'too-old' {
    if (seq === 0n || this.highest - seq >= BigInt(REPLAY_WINDOW)) return 'too-old';
    if (this.seen.has(seq)) return 'replay';
    this.seen.add(seq);
    if (seq > this.highest) this.highest = seq;
    return 'ok';
  }
}
