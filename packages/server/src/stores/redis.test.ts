/**
 * Redis session store against a real redis-server (test/redis/harness.ts): the shared store
 * contract, then what only a persistent, shared store must do: secrets wrapped at rest and failing
 * closed when tampered, one EVALSHA per commit, TTLs on every key, bounded bytes per session, two
 * clients and a second Node process racing the same (id, seq) pairs (fail-fast / self-healing when
 * Redis is killed, hung or absent: redis-faults.test.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type Backend, loadBackend } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, transpileStoreForChild, type RedisServer } from '../../test/redis/harness.js';
import { sampleSession, sessionId, storeContract } from '../../test/store-contract.js';
import { type RedisStoreEvent, type RedisStoreOptions, redisStore } from './redis.js';
import type { SessionStore } from './types.js';

const wrapKey = new Uint8Array(32).map((_, i) => i + 1);
let server: RedisServer;
let raw: Redis;
let prefixN = 0;
const prefix = () => `nt${++prefixN}-${process.pid}:`;

beforeAll(async () => {
  server = await startRedis();
  raw = new Redis(server.url, { maxRetriesPerRequest: 1 });
}, 30_000);

afterAll(async () => {
  raw?.disconnect();
  await server?.stop();
});

storeContract('redis (standalone)', () => redisStore({ url: server.url, wrapKey, keyPrefix: prefix() }));

/** Runs `fn` on a store over the test server under a fresh key prefix (given to `fn`), closed afterwards. */
async function withStore(fn: (store: SessionStore, kp: string) => Promise<void>, options: Partial<RedisStoreOptions> = {}): Promise<void> {
  const kp = prefix();
  const store = redisStore({ url: server.url, wrapKey, keyPrefix: kp, ...options });
  try {
    await fn(store, kp);
  } finally {
    await store.close();
  }
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

describe('redis store: unwrap work', () => {
  it('the first commit after create (and after a rewrapping update) reuses the secret just wrapped: no HKDF + AEAD unwrap', async () => {
    const real = await loadBackend('node');
    let extracts = 0;
    const countedExtract = (salt: Uint8Array, ikm: Uint8Array) => {
      extracts++;
      return real.hkdfExtract(salt, ikm);
    };
    const backend: Backend = Object.create(real, { hkdfExtract: { value: countedExtract } });
    const kp = prefix();
    const store = redisStore({ url: server.url, wrapKey, keyPrefix: kp, backend });
    const other = redisStore({ url: server.url, wrapKey, keyPrefix: kp, backend });
    try {
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      expect(extracts).toBe(1); // the wrap
      const r = await store.commit(s.id, 1n, t);
      expect(r.ok && Array.from(r.session.secret)).toEqual(Array.from(s.secret));
      expect(extracts).toBe(1); // no unwrap
      const next = new Uint8Array(64).fill(7);
      expect(await store.update(s.id, { secret: next, epoch: 1 })).toBe(true);
      expect(extracts).toBe(2);
      const r2 = await store.commit(s.id, 2n, t);
      expect(r2.ok && Array.from(r2.session.secret)).toEqual(Array.from(next));
      expect(extracts).toBe(2);
      // Another instance (no such memory) unwraps the stored bytes, and gets the same secret.
      const r3 = await other.commit(s.id, 3n, t);
      expect(r3.ok && Array.from(r3.session.secret)).toEqual(Array.from(next));
      expect(extracts).toBe(3);
    } finally {
      await store.close();
      await other.close();
    }
  });
});

describe('redis store: at rest', () => {
  it('wraps secrets: the raw value does not hold the secret; tampering or swapping fails closed', async () => {
    const events: RedisStoreEvent[] = [];
    await withStore(
      async (store, kp) => {
        const t = Date.now();
        const a = sampleSession(t);
        const b = sampleSession(t);
        const secretA = Uint8Array.from(a.secret);
        await store.create(a);
        await store.create(b);
        const keyA = `${kp}{${a.id}}:s`;
        const keyB = `${kp}{${b.id}}:s`;
        expect(await raw.exists(keyA)).toBe(1);
        const fields = await raw.hgetallBuffer(keyA);
        for (const v of Object.values(fields)) expect(contains(v, secretA.subarray(0, 16))).toBe(false);
        const k = fields.k!;
        expect(k.length + fields.j!.length).toBe(1 + 16 + secretA.length + 16);
        expect(await raw.object('ENCODING', keyA)).toBe('listpack');

        // read once, so the in-process unwrap cache holds A: it must not mask what follows
        expect(await store.get(a.id, t)).not.toBeNull();
        // one flipped bit anywhere in the wrapped value → unknown, and an integrity event
        const tampered = Buffer.from(k);
        tampered[tampered.length - 20]! ^= 0x01;
        await raw.hset(keyA, 'k', tampered);
        expect(await store.get(a.id, t)).toBeNull();
        expect(await store.commit(a.id, 1n, t)).toEqual({ ok: false, reason: 'unknown' });
        expect(events.some((e) => e.event === 'redis.unwrap_failed')).toBe(true);
        expect(JSON.stringify(events)).not.toContain(Buffer.from(secretA).toString('hex').slice(0, 16));

        // a valid wrapped value moved to another session (or epoch) does not unwrap there
        const [kB, jB] = await raw.hmgetBuffer(keyB, 'k', 'j');
        await raw.hset(keyA, 'k', kB!, 'j', jB!);
        expect(await store.get(a.id, t)).toBeNull();
        expect(await store.get(b.id, t)).not.toBeNull();
        await raw.hset(keyB, 'e', '1');
        expect(await store.get(b.id, t)).toBeNull();

        // a store with another wrap key cannot read the sessions
        const other = redisStore({ url: server.url, wrapKey: new Uint8Array(32).fill(9), keyPrefix: kp });
        await raw.hset(keyB, 'e', '0');
        expect(await store.get(b.id, t)).not.toBeNull();
        expect(await other.get(b.id, t)).toBeNull();
        await other.close();
      },
      { logger: (e) => events.push(e) },
    );
  });

  it('rejects bad configuration and bad ids without touching Redis', async () => {
    expect(() => redisStore({ url: server.url, wrapKey: new Uint8Array(16) })).toThrow(expect.objectContaining({ code: 'NEN_CONFIG' }));
    expect(() => redisStore({ url: server.url, wrapKey, commandTimeoutMs: 0 })).toThrow(expect.objectContaining({ code: 'NEN_CONFIG' }));
    await withStore(async (store) => {
      expect(await store.get('bad}id{', Date.now())).toBeNull();
      expect(await store.commit('', 1n, Date.now())).toEqual({ ok: false, reason: 'unknown' });
      await expect(store.create(sampleSession(Date.now(), { id: 'a{b}' }))).rejects.toMatchObject({ code: 'NEN_BAD_INPUT' });
      await expect(store.commit(sessionId(), 1n << 64n, Date.now())).rejects.toMatchObject({ code: 'NEN_BAD_INPUT' });
    });
  });

  it('keys carry the session hash tag and a TTL; commit refreshes it to min(expiry, idle) + grace', async () => {
    await withStore(async (store, kp) => {
      const t = Date.now();
      const s = sampleSession(t, { ttlMs: 600_000, idleMs: 20_000 });
      await store.create(s);
      const key = `${kp}{${s.id}}:s`;
      const ttl0 = await raw.pttl(key);
      expect(ttl0).toBeGreaterThan(15_000);
      expect(ttl0).toBeLessThanOrEqual(21_000);
      await raw.pexpire(key, 5000);
      expect((await store.commit(s.id, 1n, Date.now())).ok).toBe(true);
      expect(await raw.pttl(key)).toBeGreaterThan(15_000);
      // near the absolute expiry the TTL follows it, not the idle timeout
      const u = sampleSession(t, { ttlMs: 4000, idleMs: 60_000 });
      await store.create(u);
      const ttlU = await raw.pttl(`${kp}{${u.id}}:s`);
      expect(ttlU).toBeGreaterThan(0);
      expect(ttlU).toBeLessThanOrEqual(5000);
      // every key under the prefix expires
      const keys = await raw.keys(`${kp}*`);
      expect(keys.length).toBe(2);
      for (const k of keys) expect(await raw.pttl(k)).toBeGreaterThan(0);
    });
  });

  it('one EVALSHA per commit, bounded bytes per session', async () => {
    await withStore(async (store, kp) => {
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      await store.commit(s.id, 1n, t); // loads the script if needed
      await raw.config('RESETSTAT');
      for (let i = 2; i < 102; i++) expect((await store.commit(s.id, BigInt(i), t)).ok).toBe(true);
      const stats = (await raw.info('commandstats')).split('\n');
      const calls = (name: string) => Number(/calls=(\d+)/.exec(stats.find((l) => l.startsWith(`cmdstat_${name}:`)) ?? '')?.[1] ?? 0);
      expect(calls('evalsha')).toBe(100);
      expect(calls('eval')).toBe(0);
      // nothing else reached Redis: the other counted calls are the script's own HMGET/HSET/PEXPIRE
      // (commandstats counts commands run inside scripts) and this test's CONFIG/INFO
      const others = stats
        .filter((l) => l.startsWith('cmdstat_') && !/^cmdstat_(evalsha|hmget|hset|pexpire|info|config\|resetstat):/.test(l))
        .map((l) => l.split(':')[0]);
      expect(others).toEqual([]);
      expect([calls('hmget'), calls('hset'), calls('pexpire')]).toEqual([100, 100, 100]);
      const bytes = Number(await raw.call('MEMORY', 'USAGE', `${kp}{${s.id}}:s`));
      expect(bytes).toBeGreaterThan(128);
      expect(bytes).toBeLessThan(1024);
    });
  });
});

describe('redis store: two instances', () => {
  const N_SESSIONS = 50;
  const SEQS = [1n, 2n, 3n, 4n];

  async function setup(store: SessionStore) {
    const t = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < N_SESSIONS; i++) {
      const s = sampleSession(t, { id: sessionId() });
      await store.create(s);
      ids.push(s.id);
    }
    return { t, ids, pairs: ids.flatMap((id) => SEQS.map((seq) => ({ id, seq }))) };
  }

  it('two clients racing the same 200 (id, seq) pairs: exactly one ok each', async () => {
    const kp = prefix();
    const a = redisStore({ url: server.url, wrapKey, keyPrefix: kp });
    const b = redisStore({ url: server.url, wrapKey, keyPrefix: kp });
    try {
      const { t, pairs } = await setup(a);
      const [ra, rb] = await Promise.all([Promise.all(pairs.map((p) => a.commit(p.id, p.seq, t))), Promise.all(pairs.map((p) => b.commit(p.id, p.seq, t)))]);
      pairs.forEach((_, i) => {
        const oks = [ra[i]!, rb[i]!].filter((r) => r.ok).length;
        expect(oks).toBe(1);
        expect([ra[i]!, rb[i]!].map((r) => (r.ok ? 'ok' : r.reason)).sort()).toEqual(['ok', 'replay']);
      });
      // both sides won some races: the two connections really interleaved
      expect(ra.filter((r) => r.ok).length + rb.filter((r) => r.ok).length).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a second Node process racing the same 200 pairs: exactly one ok each', async () => {
    const kp = prefix();
    const store = redisStore({ url: server.url, wrapKey, keyPrefix: kp });
    const { dir, cleanup } = await transpileStoreForChild();
    try {
      const { t, pairs } = await setup(store);
      const childCode = `
        import { redisStore } from ${JSON.stringify(join(dir, 'stores', 'redis.js'))};
        const cfg = JSON.parse(process.env.NEN_CHILD);
        const store = redisStore({ url: cfg.url, keyPrefix: cfg.prefix, wrapKey: Uint8Array.from(cfg.wrapKey) });
        await store.get('warmup', cfg.t);
        process.stdout.write('ready\\n');
        process.stdin.once('data', async () => {
          const rs = await Promise.all(cfg.pairs.map((p) => store.commit(p.id, BigInt(p.seq), cfg.t)));
          process.stdout.write(JSON.stringify(rs.map((r) => (r.ok ? 'ok' : r.reason))) + '\\n');
          await store.close();
          process.exit(0);
        });`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', childCode], {
        env: {
          ...process.env,
          NEN_CHILD: JSON.stringify({
            url: server.url,
            prefix: kp,
            wrapKey: Array.from(wrapKey),
            t,
            pairs: pairs.map((p) => ({ id: p.id, seq: String(p.seq) })),
          }),
        },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      const lines: string[] = [];
      const nextLine = () =>
        new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('child process did not answer')), 20_000);
          const check = () => {
            const i = out.indexOf('\n');
            if (i >= 0) {
              clearTimeout(timer);
              child.stdout!.off('data', onData);
              const line = out.slice(0, i);
              out = out.slice(i + 1);
              resolve(line);
            }
          };
          const onData = (d: Buffer) => {
            out += d.toString();
            check();
          };
          child.stdout!.on('data', onData);
          check();
        });
      try {
        lines.push(await nextLine());
        expect(lines[0]).toBe('ready');
        await store.get('warmup', t);
        child.stdin!.write('go\n');
        const [mine, theirsLine] = await Promise.all([Promise.all(pairs.map((p) => store.commit(p.id, p.seq, t))), nextLine()]);
        const theirs = JSON.parse(theirsLine) as string[];
        expect(theirs).toHaveLength(200);
        pairs.forEach((_, i) => {
          expect([mine[i]!.ok ? 'ok' : 'x', theirs[i]].filter((v) => v === 'ok')).toHaveLength(1);
        });
      } finally {
        child.kill('SIGKILL');
      }
    } finally {
      cleanup();
      await store.close();
    }
  }, 30_000);
});

describe('redis store: memory stays bounded', () => {
  // Runs last in this file: after every operation above (contract included), no key lacks a TTL.
  it('every key the store wrote carries a TTL', async () => {
    await withStore(async (store) => {
      const t = Date.now();
      const s = sampleSession(t);
      await store.create(s);
      await store.commit(s.id, 1n, t);
      await store.update(s.id, { epoch: 1 });
      await store.update(s.id, { meta: { a: 1 }, expiresAt: t + 60_000 });
    });
    const keys: string[] = [];
    let cursor = '0';
    for (let i = 0; i < 10_000; i++) {
      const [next, batch] = await raw.scan(cursor, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
      if (cursor === '0') break;
    }
    expect(keys.length).toBeGreaterThan(0);
    const ttls = await Promise.all(keys.map((k) => raw.pttl(k)));
    expect(keys.filter((_, i) => ttls[i]! < 0)).toEqual([]);
  });
});
