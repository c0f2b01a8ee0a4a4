/**
 * Redis store through ioredis Cluster against a real 3-master / 3-replica Redis Cluster
 * (test/redis/harness.ts): the shared store contract (sessions spread over all masters by their
 * `{id}` hash tag), then a master killed mid-run: its sessions fail fast with StoreUnavailableError,
 * the other masters keep serving, the replica is promoted, and the store carries on by itself with
 * the replay window intact (a seq accepted before the failover is still a replay after it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, startCluster, type RedisCluster } from '../../test/redis/harness.js';
import { sampleSession, storeContract } from '../../test/store-contract.js';
import { redisStore } from './redis.js';
import { StoreUnavailableError } from './types.js';

const wrapKey = new Uint8Array(32).map((_, i) => 255 - i);
let cluster: RedisCluster;
let n = 0;
const prefix = () => `ct${++n}-${process.pid}:`;

beforeAll(async () => {
  cluster = await startCluster(3, 1);
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

storeContract('redis cluster (3 masters, 3 replicas)', () => redisStore({ clusterNodes: cluster.urls, wrapKey, keyPrefix: prefix() }));

describe('redis cluster: failover', () => {
  seedsAndManualFailover();

  killedMaster();
});

/** Cluster seeds, keys spread over the masters, and a manual failover under traffic. */
function seedsAndManualFailover(): void {
  it('a comma-separated url means cluster seeds', async () => {
    const kp = prefix();
    const store = redisStore({ url: cluster.urls.slice(0, 2).join(','), wrapKey, keyPrefix: kp });
    try {
      const t = Date.now();
      const sessions = Array.from({ length: 12 }, () => sampleSession(t));
      for (const s of sessions) {
        await store.create(s);
        expect((await store.commit(s.id, 1n, t)).ok).toBe(true);
      }
      expect(await store.size()).toBe(12);
    } finally {
      await store.close();
    }
  });

  it('keys of different sessions land on every master', async () => {
    const kp = prefix();
    const masters = new Set<number>();
    for (let i = 0; i < 30; i++) masters.add(await cluster.masterFor(`${kp}{${sampleSession(0).id}}:s`));
    expect(masters.size).toBe(3);
  });

  it('a manual failover (CLUSTER FAILOVER on a replica) under traffic loses no window state', async () => {
    const kp = prefix();
    const store = redisStore({ clusterNodes: cluster.urls, wrapKey, keyPrefix: kp, commandTimeoutMs: 500 });
    try {
      const t = Date.now();
      const s = sampleSession(t, { ttlMs: 600_000, idleMs: 600_000 });
      await store.create(s);
      const key = `${kp}{${s.id}}:s`;
      const master = await cluster.masterFor(key);
      const replica = await cluster.replicaOf(master);
      const accepted: bigint[] = [];
      let failures = 0;
      let seq = 0n;
      const traffic = (async () => {
        const end = Date.now() + 4000;
        while (Date.now() < end) {
          seq += 1n;
          try {
            const r = await store.commit(s.id, seq, Date.now());
            if (r.ok) accepted.push(seq);
          } catch (err) {
            expect(err).toBeInstanceOf(StoreUnavailableError);
            failures += 1;
            await sleep(20);
          }
        }
      })();
      await sleep(500);
      await cluster.failover(replica);
      await traffic;
      expect(await cluster.masterFor(key)).toBe(replica);
      expect(accepted.length).toBeGreaterThan(100);
      // every accepted seq is still spent on the new master (graceful failover: no write lost);
      // the last ones are within the window, older ones have slid out
      for (const a of accepted.slice(-200)) {
        expect(['replay', 'too-old']).toContain(((r) => (r.ok ? 'ok' : r.reason))(await store.commit(s.id, a, Date.now())));
      }
      expect(await store.commit(s.id, accepted.at(-1)!, Date.now())).toEqual({ ok: false, reason: 'replay' });
      expect((await store.commit(s.id, seq + 1n, Date.now())).ok).toBe(true);
      expect(failures).toBeLessThan(accepted.length);
      await cluster.waitHealthy();
    } finally {
      await store.close();
    }
  }, 60_000);
}

/** A killed master and its promoted replica. */
function killedMaster(): void {
  it('a killed master: its sessions fail fast, others keep working, the promoted replica serves them with the window intact', async () => {
    const kp = prefix();
    const timeoutMs = 500;
    const store = redisStore({ clusterNodes: cluster.urls, wrapKey, keyPrefix: kp, commandTimeoutMs: timeoutMs });
    try {
      const t = Date.now();
      const sessions = Array.from({ length: 30 }, () => sampleSession(t, { ttlMs: 600_000, idleMs: 600_000 }));
      for (const s of sessions) {
        await store.create(s);
        expect((await store.commit(s.id, 1n, t)).ok).toBe(true);
      }
      await cluster.waitReplicated();
      const owner = new Map<string, number>();
      for (const s of sessions) owner.set(s.id, await cluster.masterFor(`${kp}{${s.id}}:s`));
      const victimPort = owner.get(sessions[0]!.id)!;
      const onVictim = sessions.filter((s) => owner.get(s.id) === victimPort);
      const elsewhere = sessions.filter((s) => owner.get(s.id) !== victimPort);
      expect(onVictim.length).toBeGreaterThan(0);
      expect(elsewhere.length).toBeGreaterThan(0);

      await cluster.nodes.find((x) => x.port === victimPort)!.kill();

      // its sessions: StoreUnavailableError within the bound (until the replica takes over)
      const t0 = performance.now();
      const during = await store.commit(onVictim[0]!.id, 2n, Date.now()).then(
        (r) => r,
        (e: unknown) => e,
      );
      expect(performance.now() - t0).toBeLessThan(timeoutMs + 1000);
      if (!(during instanceof StoreUnavailableError)) {
        // the replica may already have been promoted: then it must be a normal accept
        expect(during).toMatchObject({ ok: true });
      }
      // the other masters keep serving meanwhile
      for (const s of elsewhere.slice(0, 5)) expect((await store.commit(s.id, 3n, Date.now())).ok).toBe(true);

      // the replica is promoted and the store finds it by itself
      // (a fresh seq per attempt: a commit that timed out may still have landed, spending its seq)
      const deadline = Date.now() + 20_000;
      let recovered = false;
      let attempt = 100n;
      while (Date.now() < deadline && !recovered) {
        try {
          const r = await store.commit(onVictim[0]!.id, attempt++, Date.now());
          expect(r.ok).toBe(true);
          recovered = true;
        } catch (err) {
          expect(err).toBeInstanceOf(StoreUnavailableError);
          await sleep(200);
        }
      }
      expect(recovered).toBe(true);
      expect(await cluster.masterFor(`${kp}{${onVictim[0]!.id}}:s`)).not.toBe(victimPort);
      for (const s of onVictim) {
        // state replicated before the failover survives it: seq 1 is still spent, secrets unwrap
        expect(await store.commit(s.id, 1n, Date.now())).toEqual({ ok: false, reason: 'replay' });
        const r = await store.commit(s.id, 5n, Date.now());
        expect(r.ok).toBe(true);
        if (r.ok) expect(Array.from(r.session.secret)).toEqual(Array.from(s.secret));
      }
      await cluster.waitHealthy();
    } finally {
      await store.close();
    }
  }, 60_000);
}
