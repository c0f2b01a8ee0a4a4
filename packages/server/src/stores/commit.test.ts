/**
 * The shared session steps (./commit.ts) on their own: every commit outcome with what it changed,
 * boundary sequence numbers (THREAT_MODEL.md property 7), the epoch check, expiry at the exact
 * instant (the Lua scripts' rule: dead at now === expiresAt, at now - lastSeenAt === idleTimeoutMs
 * and, unconfirmed, at now === confirmBy), burial into tombstones and their end, retries on live
 * sessions and tombstones, patches and bounded claims. Store-level behaviour: memory.test.ts,
 * ../workers/store.test.ts, and test/rules-parity.test.ts for the same rules in Redis' Lua.
 */
import { ReplayWindow } from '@nen/core';
import { describe, expect, it } from 'vitest';
import { sampleSession } from '../../test/store-contract.js';
import {
  bury,
  checkSeq,
  claimStep,
  commitStep,
  deathAt,
  epochLive,
  expireStep,
  getStep,
  patchStep,
  retryStep,
  sweepClaims,
  type TrackedSession,
  U64_MAX,
} from './commit.js';
import { RETRY_HORIZON_MS, type SessionRecord } from './types.js';

const T = 1_700_000_000_000;

function tracked(over: Partial<SessionRecord> = {}): TrackedSession {
  return { record: { ...sampleSession(T, { ttlMs: 10_000, idleMs: 1000 }), ...over }, window: new ReplayWindow(), deadUntil: 0 };
}

/** A session a request committed on (seq 1 at T). */
function confirmedSession(over: Partial<SessionRecord> = {}): TrackedSession {
  const s = tracked(over);
  expect(commitStep(s, 1n, T).change).toBe('accepted');
  return s;
}

const outcome = (s: TrackedSession | undefined, seq: bigint, now = T, epoch?: number): [string, string] => {
  const { result, change } = commitStep(s, seq, now, epoch);
  return [result.ok ? 'ok' : result.reason, change];
};

describe('commitStep: outcomes and what changed', () => {
  it('unknown, ok (lastSeenAt := now, the record itself), replay, too-old', () => {
    expect(outcome(undefined, 1n)).toEqual(['unknown', 'none']);
    const s = tracked();
    const r = commitStep(s, 5n, T + 10);
    expect(r).toEqual({ result: { ok: true, session: s.record }, change: 'accepted' });
    expect(r.result.ok && r.result.session).toBe(s.record);
    expect(s.record.lastSeenAt).toBe(T + 10);
    expect(outcome(s, 5n, T + 20)).toEqual(['replay', 'none']);
    expect(s.record.lastSeenAt).toBe(T + 10); // a refusal does not feed the idle clock
    expect(outcome(s, 4n, T + 20)).toEqual(['ok', 'accepted']);
    expect(outcome(s, 2000n)).toEqual(['ok', 'accepted']);
    expect(outcome(s, 5n)).toEqual(['too-old', 'none']);
  });

  it('boundary sequence numbers: 0 is too-old, 1 opens, H - 1023 is the last slot, H - 1024 too-old, u64 max; outside u64 throws', () => {
    const s = tracked();
    expect(outcome(s, 0n)).toEqual(['too-old', 'none']);
    expect(s.window.highest).toBe(0n);
    expect(outcome(s, 1n)).toEqual(['ok', 'accepted']);
    expect(outcome(s, 1025n)).toEqual(['ok', 'accepted']);
    expect(outcome(s, 1n)).toEqual(['too-old', 'none']); // 1025 - 1 = 1024
    expect(outcome(s, 2n)).toEqual(['ok', 'accepted']); // 1025 - 2 = 1023
    expect(outcome(s, 2n)).toEqual(['replay', 'none']);
    expect(outcome(s, U64_MAX)).toEqual(['ok', 'accepted']); // a jump past the window clears it
    expect(outcome(s, U64_MAX - 1023n)).toEqual(['ok', 'accepted']);
    expect(outcome(s, U64_MAX - 1024n)).toEqual(['too-old', 'none']);
    expect(outcome(s, U64_MAX)).toEqual(['replay', 'none']);
    for (const bad of [-1n, U64_MAX + 1n]) {
      expect(() => commitStep(s, bad, T)).toThrow(RangeError);
      expect(() => commitStep(undefined, bad, T)).toThrow(RangeError); // checked before the lookup
      expect(() => retryStep(s, bad, T)).toThrow(RangeError);
    }
    expect(() => checkSeq(1 as unknown as bigint)).toThrow(RangeError);
  });

  it('epoch: the current one, the previous one strictly before meta.prevUntil; a refused epoch marks nothing', () => {
    const s = tracked({ epoch: 3, meta: { prevUntil: T + 100 } });
    expect(outcome(s, 1n, T + 99, 2)).toEqual(['ok', 'accepted']);
    expect(outcome(s, 2n, T + 100, 2)).toEqual(['epoch', 'none']);
    expect(outcome(s, 2n, T + 50, 1)).toEqual(['epoch', 'none']); // two back
    expect(outcome(s, 2n, T + 50, 4)).toEqual(['epoch', 'none']); // ahead
    expect(s.window.highest).toBe(1n);
    expect(outcome(s, 2n, T + 100, 3)).toEqual(['ok', 'accepted']); // seq 2 was never marked
    expect(outcome(s, 3n, T + 100)).toEqual(['ok', 'accepted']); // no epoch given: not checked
    expect(epochLive({ ...s.record, meta: { prevUntil: String(T + 1000) } }, 2, T)).toBe(false); // only a number counts
    expect(epochLive({ ...s.record, meta: {} }, 2, T)).toBe(false);
  });

  it('expiry at the exact instant: expiresAt, lastSeenAt + idleTimeoutMs, confirmBy (unconfirmed only)', () => {
    const ttl = tracked({ expiresAt: T + 500, idleTimeoutMs: 10_000 });
    expect(deathAt(ttl)).toBe(T + 500);
    expect(outcome(ttl, 1n, T + 499)).toEqual(['ok', 'accepted']);
    expect(outcome(ttl, 2n, T + 500)).toEqual(['expired', 'buried']);
    const idle = tracked();
    expect(outcome(idle, 1n, T + 999)).toEqual(['ok', 'accepted']);
    expect(deathAt(idle)).toBe(T + 1999);
    expect(outcome(idle, 2n, T + 1999)).toEqual(['expired', 'buried']);
    const unconfirmed = tracked({ confirmBy: T + 300 });
    expect(deathAt(unconfirmed)).toBe(T + 300);
    expect(expireStep(unconfirmed, T + 299)).toBe('live');
    expect(outcome(unconfirmed, 1n, T + 300)).toEqual(['expired', 'dropped']); // nothing committed: nothing kept
    const later = confirmedSession({ confirmBy: T + 300 });
    expect(deathAt(later)).toBe(T + 1000);
    expect(outcome(later, 2n, T + 400)).toEqual(['ok', 'accepted']);
  });
});

describe('getStep', () => {
  it('a copy of the record while live; found dead, buried or dropped; null for none', () => {
    expect(getStep(undefined, T)).toEqual({ record: null, change: 'none' });
    const s = confirmedSession();
    const g = getStep(s, T + 999);
    expect(g).toEqual({ record: s.record, change: 'none' });
    expect(g.record).not.toBe(s.record);
    g.record!.secret.fill(9);
    expect(s.record.secret[0]).toBe(11); // the store's own bytes untouched
    expect(getStep(s, T + 1000)).toEqual({ record: null, change: 'buried' });
    expect(getStep(s, T + 1000)).toEqual({ record: null, change: 'none' });
    expect(getStep(tracked(), T + 1000)).toEqual({ record: null, change: 'dropped' });
  });
});

describe('death and tombstones', () => {
  it('a confirmed session dies into a tombstone (secret wiped) until its death + RETRY_HORIZON_MS; an unconfirmed one leaves nothing', () => {
    const s = confirmedSession();
    expect(outcome(s, 2n, T + 5000)).toEqual(['expired', 'buried']); // idle since T + 1000
    expect(s.deadUntil).toBe(T + 1000 + RETRY_HORIZON_MS);
    expect(s.record.secret.every((b) => b === 0)).toBe(true);
    expect(outcome(s, 3n, T + 5000)).toEqual(['expired', 'none']); // already a tombstone: nothing more
    expect(expireStep(s, T + 1000 + RETRY_HORIZON_MS - 1)).toBe('none');
    expect(outcome(s, 3n, T + 1000 + RETRY_HORIZON_MS)).toEqual(['expired', 'dropped']); // its end
    expect(bury(tracked(), T, true)).toBe('dropped');
  });

  it('bury: deleted dies now; found dead, it died at its deadline; past the horizon already, dropped', () => {
    const deleted = confirmedSession();
    expect(bury(deleted, T + 10, true)).toBe('buried');
    expect(deleted.deadUntil).toBe(T + 10 + RETRY_HORIZON_MS);
    const late = confirmedSession();
    expect(bury(late, T + 50_000)).toBe('buried');
    expect(late.deadUntil).toBe(T + 1000 + RETRY_HORIZON_MS);
    const gone = confirmedSession();
    expect(bury(gone, T + 1000 + RETRY_HORIZON_MS)).toBe('dropped');
    expect(gone.deadUntil).toBe(0);
  });
});

describe('retryStep', () => {
  const retry = (s: TrackedSession | undefined, seq: bigint, now = T) => {
    const { verdict, change } = retryStep(s, seq, now);
    return [verdict, change];
  };

  it('live session: committed, marked (the original can never commit then), too-old, absent', () => {
    expect(retry(undefined, 1n)).toEqual(['absent', 'none']);
    const s = confirmedSession();
    expect(retry(s, 1n)).toEqual(['committed', 'none']);
    expect(retry(s, 2n)).toEqual(['marked', 'marked']);
    expect(outcome(s, 2n)).toEqual(['replay', 'none']);
    expect(retry(s, 0n)).toEqual(['too-old', 'none']);
    expect(outcome(s, 2000n)).toEqual(['ok', 'accepted']);
    expect(retry(s, 3n)).toEqual(['too-old', 'none']);
    expect(s.deadUntil).toBe(0);
  });

  it('a session found dead is buried first (or dropped: absent); a marked tombstone lives RETRY_HORIZON_MS more; an ended one is absent', () => {
    const s = confirmedSession();
    expect(retry(s, 5n, T + 5000)).toEqual(['marked', 'buried']);
    expect(s.deadUntil).toBe(T + 5000 + RETRY_HORIZON_MS); // death T + 1000, extended by the mark
    expect(retry(s, 1n, T + 6000)).toEqual(['committed', 'none']);
    expect(retry(s, 6n, T + 7000)).toEqual(['marked', 'marked']);
    expect(s.deadUntil).toBe(T + 7000 + RETRY_HORIZON_MS);
    expect(retry(s, 7n, T + 7000 + RETRY_HORIZON_MS)).toEqual(['absent', 'dropped']);
    const buriedCommitted = confirmedSession();
    expect(retry(buriedCommitted, 1n, T + 5000)).toEqual(['committed', 'buried']);
    expect(buriedCommitted.deadUntil).toBe(T + 1000 + RETRY_HORIZON_MS); // not extended
    expect(retry(tracked({ confirmBy: T + 300 }), 1n, T + 300)).toEqual(['absent', 'dropped']);
  });
});

describe('patchStep', () => {
  it('replaces what the patch names, wipes the old secret, copies the new one; never a tombstone', () => {
    const s = tracked();
    const old = s.record.secret;
    const secret = new Uint8Array(32).fill(7);
    expect(patchStep(s, { secret, epoch: 2, meta: { k: 1 }, expiresAt: T + 5 })).toBe(true);
    expect(old.every((b) => b === 0)).toBe(true);
    secret.fill(1);
    expect(s.record).toMatchObject({ secret: new Uint8Array(32).fill(7), epoch: 2, meta: { k: 1 }, expiresAt: T + 5 });
    expect(patchStep(s, { epoch: 3 })).toBe(true);
    expect(s.record).toMatchObject({ secret: new Uint8Array(32).fill(7), epoch: 3, meta: { k: 1 } });
    expect(patchStep(undefined, { epoch: 1 })).toBe(false);
    const dead = confirmedSession();
    bury(dead, T, true);
    expect(patchStep(dead, { epoch: 9 })).toBe(false);
    expect(dead.record.epoch).toBe(0);
  });
});

describe('claimStep', () => {
  it('one claim per key until it expires; full: one sweep, then StoreUnavailableError; a held key still answers', () => {
    const claims = new Map<string, number>();
    let sweeps = 0;
    const bounds = { max: 2, sweep: () => void sweeps++, full: 'full' };
    expect(claimStep(claims, 'a', 100, T, bounds)).toBe(T + 100);
    expect(claimStep(claims, 'a', 100, T + 99, bounds)).toBeNull();
    expect(claimStep(claims, 'a', 100, T + 100, bounds)).toBe(T + 200); // expired: claimed again
    expect(claimStep(claims, 'b', 50, T, bounds)).toBe(T + 50);
    expect(() => claimStep(claims, 'c', 100, T + 60, bounds)).toThrow(expect.objectContaining({ code: 'NEN_STORE_UNAVAILABLE', message: 'nen: full' }));
    expect(sweeps).toBe(1);
    expect(claimStep(claims, 'b', 100, T + 60, bounds)).toBe(T + 160); // an expired key in the map needs no room
    expect(sweeps).toBe(1);
    const removed: string[] = [];
    sweepClaims(claims, T + 160, (k) => removed.push(k));
    expect([removed, [...claims.keys()]]).toEqual([['b'], ['a']]);
    const withSweep = { ...bounds, sweep: () => sweepClaims(claims, T + 200) };
    expect(claimStep(claims, 'c', 100, T + 200, withSweep)).toBe(T + 300);
    expect(() => claimStep(claims, '', 100, T, bounds)).toThrow(expect.objectContaining({ code: 'NEN_CONFIG' }));
  });
});
