/**
 * The Durable Object store against the SessionStore contract, with the objects run in-process:
 * a namespace whose stubs hand each request to a SessionTable per name, exactly as workerd routes
 * `idFromName(name)` to one object, over rows kept in a Map (the real runtime, its SQLite storage,
 * alarms and restarts: test/workers/workerd.test.ts). Also: rows survive a "restart" (a new table
 * over the same rows), secrets are wrapped with NEN_STORE_KEY exactly as the Redis store wraps
 * them, deadlines delete rows, the bounds fail closed, and a failing or refusing object is
 * StoreUnavailableError (503), never a wrong answer.
 */
import { loadBackend } from '@nen/core';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleSession, storeContract } from '../../test/store-contract.js';
import { storeWrapKey } from '../stores/redis-env.js';
import { RETRY_HORIZON_MS } from '../stores/types.js';
import type { ClaimRow, SessionRow, SessionRows } from './rows.js';
import { answerStoreRequest, NenSessionObject } from './session-object.js';
import { SessionTable, type SessionTableOptions } from './session-table.js';
import { type DurableObjectNamespaceLike, durableObjectStore } from './store.js';

const backend = await loadBackend();

/** Rows in Maps, copied in and out as SQLite would. */
function mapRows(): SessionRows & { s: Map<string, SessionRow>; c: Map<string, number> } {
  const s = new Map<string, SessionRow>();
  const c = new Map<string, number>();
  const copy = (r: SessionRow): SessionRow => ({ ...r, secret: r.secret?.slice() ?? null, bits: r.bits.slice() });
  return {
    s,
    c,
    sessions: () => [...s.values()].sort((a, b) => a.lastSeenAt - b.lastSeenAt).map(copy),
    claims: (): ClaimRow[] => [...c].map(([key, until]) => ({ key, until })),
    putSession: (r) => void s.set(r.id, copy(r)),
    deleteSession: (id) => void s.delete(id),
    putClaim: (r) => void c.set(r.key, r.until),
    deleteClaim: (key) => void c.delete(key),
  };
}

function table(rows: SessionRows, extra: Partial<SessionTableOptions> = {}): SessionTable {
  const t = new SessionTable({ rows, backend, wrapKey: null, schedule: () => {}, ...extra });
  t.load(Date.now());
  return t;
}

function namespace(make: () => SessionTable = () => table(mapRows())): DurableObjectNamespaceLike & { objects: Map<string, SessionTable> } {
  const objects = new Map<string, SessionTable>();
  return {
    objects,
    idFromName: (name: string) => name,
    get: (id: never) => {
      const name = id as unknown as string;
      let t = objects.get(name);
      if (!t) objects.set(name, (t = make()));
      const obj = t;
      return { fetch: (request: Request) => answerStoreRequest(obj, request) };
    },
  };
}

storeContract('durable object store (objects in-process)', async () => durableObjectStore(namespace()), { countsSize: false });

const savedKey = process.env.NEN_STORE_KEY;
afterEach(() => {
  if (savedKey === undefined) delete process.env.NEN_STORE_KEY;
  else process.env.NEN_STORE_KEY = savedKey;
});

describe('durable object store', () => {
  layoutRestartAndWrap();

  deadlinesBoundsAndRefusals();
});

/** One object per key, restarts, and the stored secret's wrapping. */
function layoutRestartAndWrap(): void {
  it('one object per session id and per claim key', async () => {
    const ns = namespace();
    const store = durableObjectStore(ns, { prefix: 'app:' });
    const now = Date.now();
    for (const id of ['a', 'b']) await store.create(sampleSession(now, { id }));
    await store.claimOnce('webhook-1', 1000);
    expect([...ns.objects.keys()].sort()).toEqual(['app:c:webhook-1', 'app:s:a', 'app:s:b']);
  });

  it('state survives a restart: a new table over the same rows keeps the session, its window, tombstones and claims', async () => {
    const rows = mapRows();
    let t = table(rows);
    const now = Date.now();
    const s = sampleSession(now, { id: 'live' });
    t.create(s);
    expect(t.commit('live', 5n, now).ok).toBe(true);
    t.create(sampleSession(now, { id: 'gone' }));
    expect(t.commit('gone', 1n, now).ok).toBe(true);
    expect(t.delete('gone')).toBe(true); // confirmed: a tombstone for the retry horizon
    expect(t.claimOnce('k', 60_000, now)).toBe(true);
    t = table(rows); // the object evicted and constructed again
    expect(t.get('live', now)?.secret).toEqual(s.secret);
    expect(t.commit('live', 5n, now)).toEqual({ ok: false, reason: 'replay' });
    expect(t.commit('live', 6n, now).ok).toBe(true);
    expect(t.consumeRetry('gone', 1n, now)).toBe('committed');
    expect(t.consumeRetry('gone', 2n, now)).toBe('marked');
    expect(t.get('gone', now)).toBeNull();
    expect(t.claimOnce('k', 60_000, now)).toBe(false);
    expect(rows.s.get('gone')?.secret).toBeNull(); // the tombstone holds no secret
  });

  it('with NEN_STORE_KEY the stored secret is wrapped as the Redis store wraps it (same key) and unwraps after a restart; any other form fails closed', async () => {
    process.env.NEN_STORE_KEY = 'k'.repeat(43);
    const wrapKey = storeWrapKey(undefined, () => {}); // the Redis store's derivation (node:crypto)
    const rows = mapRows();
    const s = sampleSession(Date.now(), { id: 'w' });
    table(rows, { wrapKey }).create(s);
    const stored = rows.s.get('w')!;
    expect(stored.wrapped).toBe(true);
    expect(Buffer.from(stored.secret!).includes(Buffer.from(s.secret))).toBe(false);
    // The Durable Object derives the same key from the same NEN_STORE_KEY (Backend sha256, no node:crypto).
    const { storeKeyFromSecret } = await import('../stores/redis-wrap.js');
    expect(storeKeyFromSecret(process.env.NEN_STORE_KEY, (d) => backend.sha256(d))).toEqual(new Uint8Array(wrapKey));
    expect(table(rows, { wrapKey }).get('w', Date.now())?.secret).toEqual(s.secret);
    // A rekey (new epoch) re-wraps under the new AAD and still loads.
    const t = table(rows, { wrapKey });
    expect(t.update('w', { epoch: 1, secret: new Uint8Array(64).fill(3) })).toBe(true);
    expect(table(rows, { wrapKey }).get('w', Date.now())?.secret).toEqual(new Uint8Array(64).fill(3));
    // A different key cannot unwrap: the session is dead (fail closed), never a guessed secret.
    const other = table(rows, { wrapKey: new Uint8Array(32).fill(9) });
    expect(other.get('w', Date.now())).toBeNull();
    expect(rows.s.has('w')).toBe(false); // never confirmed: nothing kept
    // With a key, a raw value is refused (whoever can write the storage must not choose a secret):
    // the session is dead, a confirmed one kept as a tombstone for retries.
    const plain = mapRows();
    const p = table(plain);
    p.create(sampleSession(Date.now(), { id: 'p' }));
    p.commit('p', 1n, Date.now());
    expect(plain.s.get('p')!.wrapped).toBe(false);
    const keyed = table(plain, { wrapKey });
    expect(keyed.get('p', Date.now())).toBeNull();
    expect(keyed.consumeRetry('p', 1n, Date.now())).toBe('committed');
    expect(plain.s.get('p')!.secret).toBeNull();
  });
}

/** Deadlines, bounds, retry coverage and failing objects. */
function deadlinesBoundsAndRefusals(): void {
  it('every row has a deadline: the sweep kills expired sessions (tombstone without secret, then gone) and ends claims', async () => {
    const rows = mapRows();
    const asked: number[] = [];
    const t = table(rows, { schedule: (at) => void asked.push(at) });
    const now = Date.now();
    t.create({ ...sampleSession(now, { id: 'u', ttlMs: 1000 }), confirmBy: now + 500 });
    t.create(sampleSession(now, { id: 'c', ttlMs: 1000 }));
    expect(t.commit('c', 1n, now).ok).toBe(true);
    t.claimOnce('claim', 2000, now);
    expect(Math.min(...asked)).toBe(now + 500);
    expect(t.next()).toBe(now + 500);
    t.sweep(now + 600);
    expect([...rows.s.keys()].sort()).toEqual(['c']); // unconfirmed: gone at confirmBy
    t.sweep(now + 1000);
    expect(rows.s.get('c')).toMatchObject({ secret: null, deadUntil: now + 1000 + RETRY_HORIZON_MS });
    t.sweep(now + 2000);
    expect(rows.c.size).toBe(0);
    expect(t.next()).toBe(now + 1000 + RETRY_HORIZON_MS);
    t.sweep(now + 1000 + RETRY_HORIZON_MS);
    expect(rows.s.size + rows.c.size).toBe(0);
    expect(t.next()).toBeUndefined();
  });

  it('bounded: sessions past the cap evict the least recently used (windows kept as tombstones), then fail closed', async () => {
    const rows = mapRows();
    const t = table(rows, { maxSessions: 2, maxEntries: 3, maxClaims: 2 });
    const now = Date.now();
    for (const id of ['a', 'b']) {
      t.create(sampleSession(now, { id }));
      t.commit(id, 1n, now);
    }
    t.create(sampleSession(now, { id: 'c' }));
    expect([t.size(), rows.s.size]).toEqual([2, 3]);
    expect(t.consumeRetry('a', 1n, now)).toBe('committed'); // a's window outlives its eviction
    expect(() => t.create(sampleSession(now, { id: 'd' }))).toThrow(/too many/);
    t.claimOnce('x', 1000, now);
    t.claimOnce('y', 1000, now);
    expect(() => t.claimOnce('z', 1000, now)).toThrow(/too many/);
    expect(t.claimOnce('z', 1000, now + 1000)).toBe(true); // expired claims make room
  });

  it('retry coverage is complete (0), as for Redis: nothing is dropped before its horizon', () => {
    expect(durableObjectStore(namespace()).retryCoverageSince?.()).toBe(0);
  });

  it('an unreachable or refusing object is StoreUnavailableError (NEN_STORE_UNAVAILABLE)', async () => {
    const down = durableObjectStore({ idFromName: (n) => n, get: () => ({ fetch: () => Promise.reject(new Error('object reset')) }) });
    await expect(down.get('x', Date.now())).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE' });
    const refusing = durableObjectStore({ idFromName: (n) => n, get: () => ({ fetch: async () => new Response('overloaded', { status: 503 }) }) });
    await expect(refusing.commit('x', 1n, Date.now())).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE' });
    // An object full of windows it must keep refuses a new session (503) rather than drop one.
    const one = table(mapRows(), { maxSessions: 1, maxEntries: 1 });
    const full = durableObjectStore({ idFromName: (n) => n, get: () => ({ fetch: (request: Request) => answerStoreRequest(one, request) }) });
    const now = Date.now();
    await full.create(sampleSession(now, { id: 'a' }));
    expect((await full.commit('a', 1n, now)).ok).toBe(true);
    await expect(full.create(sampleSession(now, { id: 'b' }))).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE' });
  });

  it('the object answers nonsense with 400, not an exception; without the SQL API it refuses every call (503)', async () => {
    const t = table(mapRows());
    for (const body of ['', 'not json', '{"op":"nope"}', '{"op":"commit","id":"x","seq":"-1","now":0}', 'null']) {
      const r = await answerStoreRequest(t, new Request('https://x/', { method: 'POST', body }));
      expect(r.status, body).toBe(400);
    }
    expect((await answerStoreRequest(t, new Request('https://x/'))).status).toBe(400);
    const noSql = new NenSessionObject({
      storage: { getAlarm: async () => null, setAlarm: async () => {} },
      blockConcurrencyWhile: (f) => f(),
    });
    // workerd's getter throws on an object that is not SQLite-backed (seen with inMemory storage).
    const throwing = new NenSessionObject({
      storage: {
        get sql(): never {
          throw new Error('This Durable Object is not backed by SQLite storage');
        },
        getAlarm: async () => null,
        setAlarm: async () => {},
      },
      blockConcurrencyWhile: (f) => f(),
    });
    await new Promise((r) => setTimeout(r, 0));
    for (const o of [noSql, throwing]) {
      const r = await o.fetch(new Request('https://x/', { method: 'POST', body: '{"op":"size"}' }));
      expect(r.status).toBe(503);
      expect(await r.text()).toMatch(/new_sqlite_classes/);
    }
  });
}
