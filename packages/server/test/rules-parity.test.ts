/**
 * One set of rules, three implementations: the shared TypeScript steps (src/stores/commit.ts) through the
 * memory store and the Durable Object's session table, and the Redis store's Lua scripts
 * (src/stores/redis-scripts.ts, against a real redis-server). The same scenarios, at the exact instants
 * where the rules could differ (expiresAt, lastSeenAt + idleTimeoutMs, confirmBy, meta.prevUntil,
 * the window's edges, tombstones and retries), must give every store the same answers
 * (THREAT_MODEL.md properties 7 and 8; PROTOCOL.md "Retries").
 *
 * Pitfall: Redis keys expire in real time (TTL from the session's life plus a grace period), while
 * the scenarios use the caller's clock `now`; they stay within the lives given, so no key expires
 * under a scenario.
 */
import { loadBackend } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from './redis/harness.js';
import { sampleSession } from './store-contract.js';
import { SessionTable } from '../src/workers/session-table.js';
import { durableObjectStore } from '../src/workers/store.js';
import { answerStoreRequest } from '../src/workers/session-object.js';
import { U64_MAX } from '../src/stores/commit.js';
import { memoryStore } from '../src/stores/memory.js';
import { redisStore } from '../src/stores/redis.js';
import type { SessionRecord, SessionStore } from '../src/stores/types.js';

type Step = ['commit', bigint, number, number?] | ['retry', bigint, number] | ['get', number] | ['delete'];

interface Scenario {
  /** The session's fields other than sampleSession's (times relative to the start t). */
  session: { ttlMs?: number; idleMs?: number; confirmBy?: number; epoch?: number; prevUntil?: number };
  /** Steps at t + offset (ms); 'delete' at the real clock. */
  steps: Step[];
  /** Every store's answers: commit's reason or 'ok', retry's verdict, get's 'live' or 'null', delete's boolean. */
  answers: (string | boolean)[];
}

const SCENARIOS: Record<string, Scenario> = {
  'idle: dead at now - lastSeenAt === idleTimeoutMs': {
    session: { idleMs: 60_000 },
    steps: [
      ['commit', 1n, 59_999],
      ['get', 119_998],
      ['get', 119_999],
      ['commit', 2n, 119_999],
    ],
    answers: ['ok', 'live', 'null', 'expired'],
  },
  'idle, never committed: nothing is left': {
    session: { idleMs: 60_000 },
    steps: [
      ['commit', 1n, 60_000],
      ['retry', 1n, 60_000],
      ['commit', 1n, 60_000],
    ],
    answers: ['expired', 'absent', 'unknown'],
  },
  'expiry: dead at now === expiresAt, the window kept as a tombstone': {
    session: { ttlMs: 30_000, idleMs: 60_000 },
    steps: [
      ['commit', 1n, 29_999],
      ['commit', 2n, 30_000],
      ['retry', 1n, 30_000],
      ['retry', 2n, 30_001],
      ['retry', 2n, 30_002],
      ['commit', 3n, 30_002],
    ],
    answers: ['ok', 'expired', 'committed', 'marked', 'committed', 'expired'],
  },
  'confirmBy binds only until the first commit': {
    session: { confirmBy: 10_000 },
    steps: [
      ['commit', 1n, 9_999],
      ['commit', 2n, 20_000],
    ],
    answers: ['ok', 'ok'],
  },
  'confirmBy: dead at now === confirmBy when nothing committed': {
    session: { confirmBy: 10_000 },
    steps: [
      ['get', 9_999],
      ['commit', 1n, 10_000],
      ['commit', 1n, 10_000],
    ],
    answers: ['live', 'expired', 'unknown'],
  },
  'epoch: the previous one strictly before meta.prevUntil; a refused epoch marks nothing': {
    session: { epoch: 1, prevUntil: 100 },
    steps: [
      ['commit', 1n, 99, 0],
      ['commit', 2n, 100, 0],
      ['commit', 2n, 100, 2],
      ['commit', 2n, 100, 1],
      ['retry', 3n, 100],
    ],
    answers: ['ok', 'epoch', 'epoch', 'ok', 'marked'],
  },
  'window edges': {
    session: {},
    steps: [
      ['commit', 0n, 0],
      ['commit', 1n, 0],
      ['commit', 1025n, 0],
      ['commit', 1n, 0],
      ['commit', 2n, 0],
      ['commit', 2n, 0],
      ['retry', 3n, 0],
      ['retry', 1n, 0],
      ['commit', U64_MAX, 0],
      ['commit', U64_MAX - 1024n, 0],
      ['commit', U64_MAX - 1023n, 0],
      ['retry', U64_MAX, 0],
    ],
    answers: ['too-old', 'ok', 'ok', 'too-old', 'ok', 'replay', 'marked', 'too-old', 'ok', 'too-old', 'ok', 'committed'],
  },
  'delete: a confirmed session leaves its window as a tombstone': {
    session: {},
    steps: [['commit', 5n, 0], ['delete'], ['delete'], ['get', 0], ['commit', 6n, 0], ['retry', 5n, 0], ['retry', 6n, 0], ['retry', 6n, 0]],
    answers: ['ok', true, false, 'null', 'expired', 'committed', 'marked', 'committed'],
  },
  'a retry finds the session dead: the seq is marked on its tombstone': {
    session: { idleMs: 60_000 },
    steps: [
      ['commit', 1n, 0],
      ['retry', 5n, 60_000],
      ['commit', 6n, 60_000],
      ['retry', 5n, 60_001],
      ['retry', 1n, 60_001],
    ],
    answers: ['ok', 'marked', 'expired', 'committed', 'committed'],
  },
};

function record(t: number, s: Scenario['session']): SessionRecord {
  const r: SessionRecord = { ...sampleSession(t, { ttlMs: s.ttlMs ?? 600_000, idleMs: s.idleMs ?? 600_000 }), epoch: s.epoch ?? 0 };
  if (s.prevUntil !== undefined) r.meta = { prevUntil: t + s.prevUntil };
  return s.confirmBy === undefined ? r : { ...r, confirmBy: t + s.confirmBy };
}

async function play(store: SessionStore, sc: Scenario): Promise<(string | boolean)[]> {
  const t = Date.now();
  const s = record(t, sc.session);
  await store.create(s);
  const out: (string | boolean)[] = [];
  for (const step of sc.steps) {
    if (step[0] === 'commit') {
      const r = await store.commit(s.id, step[1], t + step[2], step[3]);
      out.push(r.ok ? 'ok' : r.reason);
    } else if (step[0] === 'retry') out.push(await store.consumeRetry!(s.id, step[1], t + step[2]));
    else if (step[0] === 'get') out.push((await store.get(s.id, t + step[1])) ? 'live' : 'null');
    else out.push(await store.delete(s.id));
  }
  return out;
}

const backend = await loadBackend();
let server: RedisServer;
let redis: SessionStore;

beforeAll(async () => {
  server = await startRedis();
  redis = redisStore({ url: server.url, wrapKey: new Uint8Array(32).fill(5), keyPrefix: `parity${process.pid}:` });
}, 30_000);

afterAll(async () => {
  await redis?.close();
  await server?.stop();
});

/** The Durable Object store over one in-process SessionTable per object name, rows discarded. */
function durableObjects(): SessionStore {
  const rows = { sessions: () => [], claims: () => [], putSession: () => {}, deleteSession: () => {}, putClaim: () => {}, deleteClaim: () => {} };
  const tables = new Map<string, SessionTable>();
  const table = (name: string): SessionTable => {
    let t = tables.get(name);
    if (!t) tables.set(name, (t = new SessionTable({ rows, backend, wrapKey: null, schedule: () => {} })));
    return t;
  };
  return durableObjectStore({ idFromName: (n) => n, get: (id: never) => ({ fetch: (r: Request) => answerStoreRequest(table(id as string), r) }) });
}

describe('the session rules agree: shared steps (memory, Durable Object table) and Redis Lua', () => {
  for (const [name, sc] of Object.entries(SCENARIOS)) {
    it(name, async () => {
      const stores: [string, SessionStore][] = [
        ['memory', memoryStore({ shared: false })],
        ['durable object', durableObjects()],
        ['redis', redis],
      ];
      for (const [kind, store] of stores) expect(await play(store, sc), kind).toEqual(sc.answers);
      await stores[0]![1].close();
    });
  }
});
