/**
 * Fault tests with real processes (docs/design.md "Server": fail closed with a clear 503, no hang,
 * recover by itself; THREAT_MODEL.md properties 7, 8, 12): a real redis-server (the Redis engineer's harness) and real
 * `next start` processes of the demo, driven by the real pinned @nen/client.
 *
 *  1. Redis killed (SIGKILL) during a bounded load run: requests get 503 NEN_STORE_UNAVAILABLE
 *     quickly (no hang), no replayed request is ever accepted, and service resumes by itself when
 *     Redis is back (its data set is empty then: clients re-handshake transparently).
 *  1b. Redis hung (SIGSTOP: connections open, no answers): the same, bounded by the store's
 *     command timeout, and recovery on SIGCONT.
 *  2. The Next server restarted during a run on the Redis store: sessions survive (the same
 *     session ids keep working, no handshake on the new process), clients continue.
 *  2b. One of two instances on a shared Redis crashes (SIGKILL): a load balancer in the client's
 *     transport fails over; the same sessions continue on the survivor; a request accepted by one
 *     instance is refused (409) by the other.
 *  3. The in-memory store at capacity (NEN_MAX_SESSIONS=20) with 60 clients: least recently used
 *     sessions are evicted, clients re-handshake transparently, the session count stays bounded.
 *
 * Every run counts logical requests: each one must end in success, after at most a bounded number
 * of application retries on a *clear* error (503 NEN_STORE_UNAVAILABLE, or a refused connection
 * while the server restarts). Lost requests must be zero.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNenClient, NenProtocolError, type NenClient } from '@nen/client';
import { startRedis, type RedisServer } from '../../../packages/server/test/redis/harness';
import { keygen, rawRequest, sleep, startNext, stopAll, type LiveServer, type RawRequest } from './live';

interface Tally {
  ok: number;
  unavailable: number;
  network: number;
  other: string[];
  lost: number;
  maxLatencyMs: number;
  /** Latency of requests answered 503 (fail-fast). */
  maxUnavailableMs: number;
}

const newTally = (): Tally => ({ ok: 0, unavailable: 0, network: 0, other: [], lost: 0, maxLatencyMs: 0, maxUnavailableMs: 0 });

/**
 * One logical request: POST /api/echo with a unique body; retried (up to `attempts`, 100 ms apart)
 * only on a clear, retryable error. Returns true when it eventually succeeded.
 */
async function logicalRequest(client: NenClient, tag: string, t: Tally, attempts = 100): Promise<boolean> {
  for (let a = 0; a < attempts; a++) {
    const t0 = Date.now();
    try {
      const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tag }) });
      const body = (await res.json()) as { tag?: string };
      t.maxLatencyMs = Math.max(t.maxLatencyMs, Date.now() - t0);
      if (res.status === 200 && body.tag === tag) {
        t.ok++;
        return true;
      }
      t.other.push(`status ${res.status}`);
    } catch (e) {
      const ms = Date.now() - t0;
      t.maxLatencyMs = Math.max(t.maxLatencyMs, ms);
      if (e instanceof NenProtocolError && e.code === 'NEN_STORE_UNAVAILABLE') {
        expect(e.status).toBe(503);
        t.unavailable++;
        t.maxUnavailableMs = Math.max(t.maxUnavailableMs, ms);
      } else if (!(e instanceof NenProtocolError) || /fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(String((e as Error).cause ?? e))) {
        t.network++;
      } else {
        t.other.push(`${e.code}: ${e.message}`);
      }
    }
    await sleep(100);
  }
  t.lost++;
  return false;
}

/** `workers` clients each running logical requests until `stop()` says so; bounded by maxPerWorker. */
function loadRun(clients: NenClient[], t: Tally, maxPerWorker = 2000) {
  let stopping = false;
  const done = Promise.all(
    clients.map(async (c, w) => {
      for (let i = 0; i < maxPerWorker && !stopping; i++) await logicalRequest(c, `w${w}-${i}`, t);
    }),
  );
  return {
    async stop() {
      stopping = true;
      await done;
    },
  };
}

/** A pinned client whose transport records the last request it sent (to replay it raw later). */
function recordingClient(server: LiveServer) {
  let last: RawRequest | undefined;
  const client = createNenClient({
    baseUrl: server.url,
    serverKey: server.pin,
    fetch: async (input, init) => {
      const req = new Request(input, init);
      const u = new URL(req.url);
      const body = new Uint8Array(await req.clone().arrayBuffer());
      if (!u.pathname.startsWith('/api/nen/')) last = { method: req.method, path: u.pathname + u.search, headers: [...req.headers.entries()], body };
      return fetch(req);
    },
  });
  return { client, lastSent: () => last };
}

afterAll(async () => {
  await stopAll();
});

describe('Redis killed during a load run', () => {
  let redis: RedisServer | undefined;
  let server: LiveServer | undefined;
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('fails closed with 503 NEN_STORE_UNAVAILABLE fast, accepts no replay, and recovers by itself', async () => {
    redis = await startRedis();
    server = await startNext({ env: { REDIS_URL: redis.url, NEN_HANDSHAKE_RATE: '0', NEN_LOG: 'silent' } });
    const clients = Array.from({ length: 4 }, () => createNenClient({ baseUrl: server!.url, serverKey: server!.pin }));
    const rec = recordingClient(server);
    const t = newTally();

    // A request that succeeded before the fault, to replay during and after it.
    const first = await rec.client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"replay":"me"}' });
    expect(first.status).toBe(200);
    const replay = rec.lastSent()!;
    expect((await rawRequest(server.url, replay)).status).toBe(409);

    const run = loadRun(clients, t);
    await sleep(1500);
    const okBefore = t.ok;
    await redis.kill();
    const killedAt = Date.now();
    await sleep(3000);
    // During the outage: the replay is refused (503, never 200) and nothing hangs.
    const during = await rawRequest(server.url, replay, 10_000);
    expect(during.status).toBe(503);
    expect(during.headers['nen-error']).toBe('NEN_STORE_UNAVAILABLE');
    expect(during.ms).toBeLessThan(5000);
    const unavailableDuring = t.unavailable;
    await redis.restart();
    const restartedAt = Date.now();
    // Recovery: wait (bounded) until the load makes progress again.
    const okAtRestart = t.ok;
    const deadline = Date.now() + 20_000;
    while (t.ok < okAtRestart + 40 && Date.now() < deadline) await sleep(100);
    const recoveredAfterMs = Date.now() - restartedAt;
    await run.stop();

    // After recovery: the old request is still not accepted (its session is gone with the data).
    const after = await rawRequest(server.url, replay);
    expect([401, 409]).toContain(after.status);

    console.log(
      `[faults] redis kill: ok=${t.ok} (before kill ${okBefore}), 503s=${t.unavailable}, network=${t.network}, other=${t.other.length}, lost=${t.lost}, ` +
        `max 503 latency=${t.maxUnavailableMs} ms, outage=${restartedAt - killedAt} ms, recovered ${recoveredAfterMs} ms after restart`,
    );
    expect(okBefore).toBeGreaterThan(0);
    expect(unavailableDuring).toBeGreaterThan(0);
    expect(t.maxUnavailableMs).toBeLessThan(5000);
    expect(t.network).toBe(0); // Next itself never went away
    expect(t.ok).toBeGreaterThanOrEqual(okAtRestart + 40);
    expect(t.other).toEqual([]);
    expect(t.lost).toBe(0);
    expect(server.alive()).toBe(true);
  }, 150_000);
});

describe('Redis hung (SIGSTOP) during a load run', () => {
  let redis: RedisServer | undefined;
  let server: LiveServer | undefined;
  afterAll(async () => {
    redis?.resume();
    await server?.stop();
    await redis?.stop();
  });

  it('a Redis that accepts connections but never answers still yields 503 within the command timeout, then recovers', async () => {
    redis = await startRedis();
    server = await startNext({ env: { REDIS_URL: redis.url, NEN_HANDSHAKE_RATE: '0', NEN_LOG: 'silent' } });
    const clients = Array.from({ length: 4 }, () => createNenClient({ baseUrl: server!.url, serverKey: server!.pin }));
    const t = newTally();
    const run = loadRun(clients, t);
    await sleep(1000);
    redis.pause();
    await sleep(3000);
    const unavailableDuring = t.unavailable;
    redis.resume();
    const okAtResume = t.ok;
    const deadline = Date.now() + 20_000;
    while (t.ok < okAtResume + 40 && Date.now() < deadline) await sleep(100);
    await run.stop();
    console.log(
      `[faults] redis paused: ok=${t.ok}, 503s=${unavailableDuring}, max 503 latency=${t.maxUnavailableMs} ms, max latency=${t.maxLatencyMs} ms, lost=${t.lost}`,
    );
    expect(unavailableDuring).toBeGreaterThan(0);
    expect(t.maxUnavailableMs).toBeLessThan(5000);
    expect(t.ok).toBeGreaterThanOrEqual(okAtResume + 40);
    expect(t.other).toEqual([]);
    expect(t.network).toBe(0);
    expect(t.lost).toBe(0);
  }, 150_000);
});

describe('Next server restarted during a run on the Redis store', () => {
  let redis: RedisServer | undefined;
  let server: LiveServer | undefined;
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('sessions survive the restart: the same session ids keep working, no new handshake', async () => {
    redis = await startRedis();
    const keys = keygen();
    server = await startNext({ keys, env: { REDIS_URL: redis.url, NEN_HANDSHAKE_RATE: '0', NEN_LOG: 'silent' } });
    const clients = Array.from({ length: 4 }, () => createNenClient({ baseUrl: server!.url, serverKey: server!.pin }));
    for (const c of clients) await c.handshake();
    const ids = clients.map((c) => c.session!.id);
    const t = newTally();
    const run = loadRun(clients, t);
    await sleep(1500);
    const okBefore = t.ok;
    await server.restart();
    const okAtRestart = t.ok;
    const deadline = Date.now() + 20_000;
    while (t.ok < okAtRestart + 40 && Date.now() < deadline) await sleep(100);
    await run.stop();
    const m = await server.metrics();
    console.log(
      `[faults] next restart: ok=${t.ok} (before ${okBefore}), network errors retried=${t.network}, 503s=${t.unavailable}, other=${t.other.length}, lost=${t.lost}, handshakes on the new process=${m.counters['nen.handshake'] ?? 0}`,
    );
    expect(okBefore).toBeGreaterThan(0);
    expect(t.ok).toBeGreaterThanOrEqual(okAtRestart + 40);
    expect(clients.map((c) => c.session!.id)).toEqual(ids);
    expect(m.storeKind).toBe('redis');
    expect(m.counters['nen.handshake'] ?? 0).toBe(0);
    expect(t.other).toEqual([]);
    expect(t.lost).toBe(0);
  }, 150_000);
});

describe('one of two instances on a shared Redis crashes', () => {
  let redis: RedisServer | undefined;
  let a: LiveServer | undefined;
  let b: LiveServer | undefined;
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await redis?.stop();
  });

  it('clients fail over to the other instance with the same sessions; replays are caught across instances', async () => {
    redis = await startRedis();
    const keys = keygen();
    const env = { REDIS_URL: redis.url, NEN_HANDSHAKE_RATE: '0', NEN_LOG: 'silent' };
    a = await startNext({ keys, env });
    b = await startNext({ keys, env });
    // A minimal load balancer in the transport: round robin over healthy instances; a refused
    // connection (the request never reached a server) marks the instance down for 2 s and goes to
    // the next one. Other network errors surface to the app, which retries with a fresh request.
    const targets = [a, b].map((s) => ({ host: new URL(s.url).host, downUntil: 0 }));
    let rr = 0;
    const lb: typeof fetch = async (input, init) => {
      for (let tries = 0; tries < targets.length; tries++) {
        const now = Date.now();
        const healthy = targets.filter((t) => t.downUntil <= now);
        const target = (healthy.length ? healthy : targets)[rr++ % (healthy.length || targets.length)]!;
        const u = new URL(input instanceof Request ? input.url : String(input));
        u.host = target.host;
        try {
          return await fetch(u, init);
        } catch (e) {
          if (!/ECONNREFUSED/.test(String((e as Error).cause ?? ''))) throw e;
          target.downUntil = Date.now() + 2000;
        }
      }
      throw new TypeError('fetch failed: no healthy instance');
    };
    const clients = Array.from({ length: 4 }, () => createNenClient({ baseUrl: a!.url, serverKey: a!.pin, fetch: lb }));
    for (const c of clients) await c.handshake();
    const ids = clients.map((c) => c.session!.id);

    // Cross-instance replay: a request accepted by A is refused by B.
    const rec = recordingClient(a);
    expect((await rec.client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' })).status).toBe(200);
    const replayOnB = await rawRequest(b.url, rec.lastSent()!);
    expect(replayOnB.status).toBe(409);
    expect(replayOnB.headers['nen-error']).toBe('NEN_REPLAY');

    const t = newTally();
    const run = loadRun(clients, t);
    await sleep(1500);
    const hsBefore = (await b.metrics()).counters['nen.handshake'] ?? 0;
    await a.stop('SIGKILL');
    const okAtCrash = t.ok;
    const deadline = Date.now() + 20_000;
    while (t.ok < okAtCrash + 60 && Date.now() < deadline) await sleep(100);
    await run.stop();
    const hsAfter = (await b.metrics()).counters['nen.handshake'] ?? 0;
    console.log(
      `[faults] instance crash: ok=${t.ok} (at crash ${okAtCrash}), network errors retried=${t.network}, other=${t.other.length}, lost=${t.lost}, handshakes on B after the crash=${hsAfter - hsBefore}`,
    );
    expect(t.ok).toBeGreaterThanOrEqual(okAtCrash + 60);
    expect(clients.map((c) => c.session!.id)).toEqual(ids);
    expect(hsAfter - hsBefore).toBe(0);
    expect(t.other).toEqual([]);
    expect(t.lost).toBe(0);
  }, 200_000);
});

describe('in-memory store at capacity', () => {
  let server: LiveServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('evicts least recently used sessions, clients re-handshake transparently, memory stays bounded', async () => {
    server = await startNext({ env: { NEN_MAX_SESSIONS: '20', NEN_HANDSHAKE_RATE: '0', NEN_LOG: 'silent' } });
    const clients = Array.from({ length: 60 }, () => createNenClient({ baseUrl: server!.url, serverKey: server!.pin }));
    const t = newTally();
    const before = await server.metrics();
    // Three rounds over all 60 clients: every round finds most sessions evicted.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < clients.length; i += 10) {
        await Promise.all(clients.slice(i, i + 10).map((c, j) => logicalRequest(c, `r${round}-c${i + j}`, t, 3)));
      }
      const m = await server.metrics();
      expect(m.sessions).not.toBeNull();
      expect(m.sessions!).toBeLessThanOrEqual(20);
    }
    const after = await server.metrics();
    const handshakes = after.counters['nen.handshake'] ?? 0;
    console.log(
      `[faults] memory capacity: ok=${t.ok}, handshakes=${handshakes} for 60 clients × 3 rounds, sessions=${after.sessions}, rss ${(before.rss / 2 ** 20).toFixed(1)} → ${(after.rss / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(t.ok).toBe(180);
    expect(t.other).toEqual([]);
    expect(t.lost).toBe(0);
    expect(t.unavailable).toBe(0);
    expect(t.network).toBe(0);
    expect(handshakes).toBeGreaterThan(60); // evicted clients re-handshook
    expect(after.sessions).toBeLessThanOrEqual(20);
  }, 150_000);
});
