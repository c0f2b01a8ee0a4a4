/**
 * Redis session store (ioredis 5): the shared state of several Nen server instances.
 *
 * Implements the SessionStore contract (./types.ts) for THREAT_MODEL.md properties 7 and 8: session state
 * plus the RFC 4303 §3.4.3-style replay window in one Redis hash per session, the accept step
 * (`commit`) as ONE Lua script = ONE round trip (EVALSHA), absolute TTL and idle timeout enforced
 * by the script and mirrored as key TTLs so Redis memory stays bounded. Works with a standalone
 * Redis or Redis Cluster: every key of a session carries the hash tag `{<sessionId>}`.
 *
 * Secrets at rest: wrapped per write under a fresh HKDF-derived key (./redis-wrap.ts); unwrapped
 * secrets are kept in a bounded LRU keyed by the exact wrapped bytes (as strict as unwrapping again).
 *
 * Availability: own clients are created with no offline queue, no command re-sending, no per-request
 * retries, and connect/command timeouts; every operation also races an unref'd deadline timer, so
 * with Redis down each call rejects with StoreUnavailableError (NEN_STORE_UNAVAILABLE → 503) within
 * `commandTimeoutMs`. ioredis reconnects by itself with a capped backoff, and service resumes.
 *
 * Pitfalls:
 *  - Scripts read `now` from the caller, not from Redis: every instance must run NTP-synced clocks.
 *  - A caller-supplied `client` is used as is: give it `enableOfflineQueue: false`,
 *    `maxRetriesPerRequest: 0` and `autoResendUnfulfilledCommands: false`, or a command sent while
 *    Redis is down may run later, after the request already failed; `close()` leaves it open.
 *  - `size()` walks the key space with SCAN (on every master of a cluster): meant for metrics.
 *  - A commit that timed out (StoreUnavailableError) may still take effect later (it was already
 *    on the wire, or ioredis Cluster redirected it after a failover): its sequence number is then
 *    spent. Harmless by design: the request failed with 503 and a retry uses a new number.
 *  - Replication is asynchronous: a master that dies can take its last window updates with it,
 *    so a request accepted just before could be accepted once more on the promoted replica
 *    (the ±30 s timestamp window still bounds it). A graceful failover loses nothing. Retries
 *    trust Redis likewise (`retryCoverageSince` 0): no key eviction (maxmemory-policy noeviction).
 */
import { createHash } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import { loadBackend, type Backend } from '@nen/core';
import { NenConfigError } from '../keys.js';
import { COMMIT_REASONS, RETRY_VERDICTS, SCRIPTS, type Script } from './redis-scripts.js';
import { type RedisStoreEvent, type RedisStoreOptions, connectRedis } from './redis-connect.js';
import { SESSION_ID, badInput, checkCount, checkId, globEscape, isBuf, num, splitWrapped, withDeadline } from './redis-util.js';
import { UnwrapCache, unwrap, wrap } from './redis-wrap.js';
import { StoreUnavailableError, checkClaim, type CommitResult, type RetryVerdict, type SessionPatch, type SessionRecord, type SessionStore } from './types.js';

export type { RedisStoreEvent, RedisStoreOptions } from './redis-connect.js';

/** Extra TTL beyond the logical expiry, so the script (not the key TTL) decides "expired". */
const TTL_GRACE_MS = 1000;
const U64_LIMIT = 1n << 64n;
/** SCAN calls per node in size(): bounds the loop. */
const MAX_SCAN_CALLS = 100_000;

type Client = Redis | Cluster;

/**
 * Creates the Redis session store. Connects in the background; the first operations wait for the
 * connection within `commandTimeoutMs`.
 */
export function redisStore(options: RedisStoreOptions): SessionStore {
  return new RedisSessionStore(options);
}

class RedisSessionStore implements SessionStore {
  readonly kind = 'redis' as const;
  readonly #client: Client;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #wrapKey: Uint8Array;
  readonly #timeoutMs: number;
  readonly #log: (event: RedisStoreEvent) => void;
  readonly #onError: (err: Error) => void;
  #backend: Promise<Backend> | undefined;
  #backendOption: Backend | Promise<Backend> | undefined;
  #ready: Promise<void> | undefined;
  #closed = false;
  #failures = 0;
  #lastFailureLog = 0;
  /** Bounded LRU (Map insertion order): cache key → unwrapped secret (the store's own copy). */
  readonly #unwrapped: UnwrapCache;

  constructor(options: RedisStoreOptions) {
    if (!(options.wrapKey instanceof Uint8Array) || options.wrapKey.length !== 32) {
      throw new NenConfigError('nen: redisStore needs wrapKey: a 32-byte Uint8Array (e.g. crypto.getRandomValues(new Uint8Array(32)))');
    }
    const timeout = options.commandTimeoutMs ?? 1000;
    if (!Number.isFinite(timeout) || timeout <= 0) throw new NenConfigError('nen: redisStore commandTimeoutMs must be a positive number');
    this.#timeoutMs = timeout;
    this.#wrapKey = Uint8Array.from(options.wrapKey);
    this.#prefix = options.keyPrefix ?? 'nen:';
    this.#backendOption = options.backend;
    this.#unwrapped = new UnwrapCache(Math.max(0, Math.floor(options.unwrapCacheSize ?? 10_000)));
    const logger = options.logger;
    this.#log = (event) => {
      try {
        logger?.(event);
      } catch {
        /* a throwing logger must not break the store */
      }
    };
    this.#onError = (err: Error) => this.#log({ level: 'warn', event: 'redis.error', message: err.message });

    if (options.client) {
      this.#client = options.client;
      this.#ownsClient = false;
    } else {
      this.#ownsClient = true;
      this.#client = connectRedis(options, timeout);
      this.#client.on('error', this.#onError);
      this.#client.on('ready', () => this.#log({ level: 'info', event: 'redis.ready', message: 'nen: session store connected' }));
      this.#client.on('reconnecting', () => this.#log({ level: 'warn', event: 'redis.reconnecting', message: 'nen: session store reconnecting' }));
    }
  }

  async create(session: SessionRecord): Promise<void> {
    checkId(session.id);
    if (!(session.secret instanceof Uint8Array)) throw badInput('nen: session.secret must be a Uint8Array');
    checkCount(session.epoch, 'epoch');
    for (const [name, v] of [
      ['createdAt', session.createdAt],
      ['expiresAt', session.expiresAt],
      ['idleTimeoutMs', session.idleTimeoutMs],
      ['lastSeenAt', session.lastSeenAt],
    ] as const) {
      checkCount(v, name);
    }
    const backend = await this.#getBackend();
    const wrapped = wrap(backend, this.#wrapKey, session.id, session.epoch, session.secret);
    // The first commit returns exactly these bytes: it then needs no unwrap (HKDF + AEAD).
    if (!this.#closed) this.#unwrapped.remember(session.id, session.epoch, wrapped, session.secret);
    const confirmBy = session.confirmBy;
    if (confirmBy !== undefined) checkCount(confirmBy, 'confirmBy');
    const death = Math.min(session.expiresAt, session.lastSeenAt + session.idleTimeoutMs, confirmBy ?? Number.POSITIVE_INFINITY);
    const ttl = Math.max(0, death - session.lastSeenAt) + TTL_GRACE_MS;
    await this.#eval(SCRIPTS.create, this.#key(session.id), [
      ...splitWrapped(wrapped),
      JSON.stringify(session.meta),
      String(session.epoch),
      String(session.createdAt),
      String(session.expiresAt),
      String(session.idleTimeoutMs),
      String(session.lastSeenAt),
      String(Math.floor(ttl)),
      confirmBy === undefined ? '' : String(confirmBy),
    ]);
  }

  async get(id: string, now: number): Promise<SessionRecord | null> {
    if (!SESSION_ID.test(id)) return null;
    const key = this.#key(id);
    const f = await this.#run(() => this.#client.hmgetBuffer(key, 'k', 'j', 'm', 'e', 'c', 'x', 'i', 'l', 'u', 'h'));
    const [k, j, m, e, c, x, i, l, u, h] = f;
    if (!k || !j || !m || !e || !c || !x || !i || !l) return null;
    // Unconfirmed (no commit yet) past its deadline: dead.
    if (u && !h && !(now < num(u))) return null;
    const lastSeenAt = num(l);
    const expiresAt = num(x);
    const idleTimeoutMs = num(i);
    // NaN (a corrupted field) fails every comparison below: treat it as unknown, not as alive.
    if (!(expiresAt > now) || !(now - lastSeenAt < idleTimeoutMs)) return null;
    return this.#record(id, { k: Buffer.concat([k, j]), m, e, c, x, i }, lastSeenAt);
  }

  async commit(id: string, seq: bigint, now: number, epoch?: number): Promise<CommitResult> {
    if (typeof seq !== 'bigint' || seq < 0n || seq >= U64_LIMIT) throw badInput('nen: seq must be an unsigned 64-bit bigint');
    if (!Number.isFinite(now) || now < 0) throw badInput('nen: now must be a non-negative number of ms');
    now = Math.floor(now); // the script stores it as lastSeenAt: an integer decimal string
    if (!SESSION_ID.test(id)) return { ok: false, reason: 'unknown' };
    const reply = await this.#eval(SCRIPTS.commit, this.#key(id), [
      String(now),
      String(seq >> 32n),
      String(seq & 0xffffffffn),
      String(TTL_GRACE_MS),
      epoch === undefined ? '' : String(epoch),
    ]);
    if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new StoreUnavailableError('unexpected reply from the commit script');
    const status: number = reply[0];
    if (status !== 4) {
      const reason = COMMIT_REASONS[status];
      if (!reason || reason === 'ok') throw new StoreUnavailableError('unexpected reply from the commit script');
      return { ok: false, reason };
    }
    const [, k, j, m, e, c, x, i] = reply as [number, ...unknown[]];
    if (!isBuf(k) || !isBuf(j) || !isBuf(m) || !isBuf(e) || !isBuf(c) || !isBuf(x) || !isBuf(i)) return { ok: false, reason: 'unknown' };
    const session = await this.#record(id, { k: Buffer.concat([k, j]), m, e, c, x, i }, now);
    // The sequence number is spent either way; a value that does not unwrap fails closed.
    return session ? { ok: true, session } : { ok: false, reason: 'unknown' };
  }

  async update(id: string, patch: SessionPatch): Promise<boolean> {
    if (!SESSION_ID.test(id)) return false;
    if (patch.epoch !== undefined) checkCount(patch.epoch, 'epoch');
    if (patch.expiresAt !== undefined) checkCount(patch.expiresAt, 'expiresAt');
    if (patch.secret !== undefined && !(patch.secret instanceof Uint8Array)) throw badInput('nen: patch.secret must be a Uint8Array');
    const key = this.#key(id);
    const plain: string[] = [];
    if (patch.meta !== undefined) plain.push('m', JSON.stringify(patch.meta));
    if (patch.expiresAt !== undefined) plain.push('x', String(patch.expiresAt));
    if (patch.epoch !== undefined) plain.push('e', String(patch.epoch));
    const rewrap = patch.secret !== undefined || patch.epoch !== undefined;
    // Bounded optimistic loop: when only one of secret/epoch changes, the new wrap needs the other
    // one from Redis, and the write goes through only if the wrapped value is still the one read.
    for (let attempt = 0; attempt < 5; attempt++) {
      let expected: Buffer | '' = '';
      const fields: (string | Buffer)[] = [...plain];
      let rewritten: { epoch: number; wrapped: Uint8Array; secret: Uint8Array } | undefined;
      if (rewrap) {
        const backend = await this.#getBackend();
        let secret = patch.secret;
        let epoch = patch.epoch;
        if (secret === undefined || epoch === undefined) {
          const [k, j, e] = await this.#run(() => this.#client.hmgetBuffer(key, 'k', 'j', 'e'));
          if (!k || !j || !e) return false;
          const currentEpoch = num(e);
          epoch ??= currentEpoch;
          if (secret === undefined) {
            const current = unwrap(backend, this.#wrapKey, id, currentEpoch, Buffer.concat([k, j]));
            if (!current) {
              this.#log({ level: 'error', event: 'redis.unwrap_failed', message: 'nen: a stored session failed its integrity check (update)' });
              return false;
            }
            secret = current;
          }
          expected = k;
        }
        const wrapped = wrap(backend, this.#wrapKey, id, epoch, secret);
        rewritten = { epoch, wrapped, secret };
        const [k, j] = splitWrapped(wrapped);
        fields.push('k', k, 'j', j);
      }
      const reply = await this.#eval(SCRIPTS.update, key, [expected, String(Date.now()), String(TTL_GRACE_MS), ...fields]);
      if (reply === 1) {
        if (rewritten && !this.#closed) this.#unwrapped.remember(id, rewritten.epoch, rewritten.wrapped, rewritten.secret);
        return true;
      }
      if (reply === 0) return false;
    }
    throw new StoreUnavailableError('session update kept conflicting with concurrent updates');
  }

  /** Unconfirmed: gone; confirmed: a tombstone for the retry horizon (redis-scripts.ts DELETE_LUA). */
  async delete(id: string): Promise<boolean> {
    if (!SESSION_ID.test(id)) return false;
    const n = await this.#eval(SCRIPTS.del, this.#key(id), [String(Date.now()), String(TTL_GRACE_MS)]);
    return n === 1;
  }

  async consumeRetry(id: string, seq: bigint, now: number): Promise<RetryVerdict> {
    if (typeof seq !== 'bigint' || seq < 1n || seq >= U64_LIMIT) throw badInput('nen: seq must be an unsigned 64-bit bigint');
    if (!SESSION_ID.test(id)) return 'absent';
    const reply = await this.#eval(SCRIPTS.consume, this.#key(id), [
      String(Math.floor(now)),
      String(seq >> 32n),
      String(seq & 0xffffffffn),
      String(TTL_GRACE_MS),
    ]);
    const v = typeof reply === 'number' ? RETRY_VERDICTS[reply] : undefined;
    if (!v) throw new StoreUnavailableError('unexpected reply from the retry script');
    return v;
  }

  retryCoverageSince(): number {
    return 0;
  }

  /** `SET <prefix>c:{sha256(key)} 1 NX PX ttlMs`: one atomic round trip; the digest bounds the key. */
  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    checkClaim(key, ttlMs);
    const k = `${this.#prefix}c:{${createHash('sha256').update('nen/claim\0').update(key).digest('base64url')}}`;
    const reply = await this.#run(() => this.#client.set(k, '1', 'PX', ttlMs, 'NX'));
    return reply === 'OK';
  }

  async size(): Promise<number> {
    const pattern = `${globEscape(this.#prefix)}{*}:s`;
    const nodes: Redis[] = this.#client instanceof Cluster ? this.#client.nodes('master') : [this.#client];
    let total = 0;
    for (const node of nodes) {
      let cursor = '0';
      for (let calls = 0; calls < MAX_SCAN_CALLS; calls++) {
        const [next, keys] = await this.#run(() => node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
        total += keys.length;
        cursor = next;
        if (cursor === '0') break;
      }
    }
    return total;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wrapKey.fill(0);
    this.#unwrapped.clear();
    if (!this.#ownsClient) return;
    const client = this.#client;
    try {
      await withDeadline(client.quit(), this.#timeoutMs, 'close');
    } catch {
      client.disconnect();
    } finally {
      // Late socket errors after quit must not become unhandled 'error' events.
      client.removeAllListeners('ready');
      client.removeAllListeners('reconnecting');
    }
  }

  #key(id: string): string {
    return `${this.#prefix}{${id}}:s`;
  }

  #getBackend(): Promise<Backend> {
    this.#backend ??= Promise.resolve(this.#backendOption ?? loadBackend());
    return this.#backend;
  }

  async #record(id: string, f: { k: Buffer; m: Buffer; e: Buffer; c: Buffer; x: Buffer; i: Buffer }, lastSeenAt: number): Promise<SessionRecord | null> {
    const epoch = num(f.e);
    const secret = this.#closed ? null : this.#unwrapped.unwrap(await this.#getBackend(), this.#wrapKey, id, epoch, f.k);
    let meta: SessionRecord['meta'];
    try {
      meta = JSON.parse(f.m.toString('utf8')) as SessionRecord['meta'];
    } catch {
      meta = null as unknown as SessionRecord['meta'];
    }
    const numbers = [epoch, num(f.c), num(f.x), num(f.i), lastSeenAt];
    if (!secret || meta === null || typeof meta !== 'object' || Array.isArray(meta) || !numbers.every(Number.isSafeInteger)) {
      this.#log({ level: 'error', event: 'redis.unwrap_failed', message: 'nen: a stored session failed its integrity check; treated as unknown' });
      return null;
    }
    return {
      id,
      secret,
      meta,
      epoch,
      createdAt: num(f.c),
      expiresAt: num(f.x),
      idleTimeoutMs: num(f.i),
      lastSeenAt,
    };
  }

  /** EVALSHA, loading the script with EVAL when the node does not know it (restart, failover). */
  #eval(s: Script, key: string, args: (string | Buffer)[]): Promise<unknown> {
    return this.#run(async () => {
      try {
        return await this.#client.callBuffer('evalsha', s.sha, 1, key, ...args);
      } catch (err) {
        if (err instanceof Error && err.message.includes('NOSCRIPT')) {
          return await this.#client.callBuffer('eval', s.lua, 1, key, ...args);
        }
        throw err;
      }
    });
  }

  /** Runs one operation within the deadline; every failure becomes StoreUnavailableError. */
  async #run<T>(op: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new StoreUnavailableError('session store is closed');
    try {
      return await withDeadline(
        (async () => {
          await this.#whenReady();
          return op();
        })(),
        this.#timeoutMs,
        'operation',
      );
    } catch (err) {
      const e = err instanceof StoreUnavailableError ? err : new StoreUnavailableError('session store unavailable', { cause: err });
      // At most one event per second during an outage (every request fails): the count says how many.
      this.#failures += 1;
      const t = Date.now();
      if (t - this.#lastFailureLog >= 1000) {
        const n = this.#failures;
        this.#failures = 0;
        this.#lastFailureLog = t;
        const reason = err instanceof Error ? err.message : String(err);
        this.#log({
          level: 'error',
          event: 'redis.unavailable',
          message: `${e.message}: ${reason}${n > 1 ? ` (${n} failed operations since the last report)` : ''}`,
        });
      }
      throw e;
    }
  }

  #whenReady(): Promise<void> | void {
    const client = this.#client;
    if (client.status === 'ready') return;
    // 'end': closed for good (quit, or no retry left); other states reconnect by themselves.
    if (client.status === 'end') return Promise.reject(new StoreUnavailableError('session store connection ended'));
    if (client.status === 'wait') client.connect().catch(() => undefined);
    this.#ready ??= new Promise<void>((resolve) => {
      client.once('ready', () => {
        this.#ready = undefined;
        resolve();
      });
    });
    return this.#ready;
  }
}
