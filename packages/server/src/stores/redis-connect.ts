/**
 * The Redis store's options and events, and the ioredis client it creates for itself: a standalone Redis from one URL, or a
 * Redis Cluster from seed nodes (`clusterNodes`, or a comma-separated REDIS_URL).
 *
 * Availability settings (see ./redis.ts): no offline queue, no command re-sending, no per-request
 * retries, connect/command timeouts of `timeoutMs`; reconnection with a capped backoff (50 ms
 * doubling to 2 s). Pitfall: credentials and TLS of a cluster are taken from the first seed URL.
 */
import { Cluster, Redis } from 'ioredis';
import type { Backend } from '@nen/core';
import { NenConfigError } from '../errors.js';

/** Something the store reports; never contains secret material. */
export interface RedisStoreEvent {
  readonly level: 'info' | 'warn' | 'error';
  /** `redis.error`, `redis.ready`, `redis.reconnecting`, `redis.unavailable`, `redis.unwrap_failed`. */
  readonly event: string;
  readonly message: string;
}

export interface RedisStoreOptions {
  /**
   * `redis[s]://[user:pass@]host:port[/db]` of a standalone Redis; default `process.env.REDIS_URL`.
   * A comma-separated list of URLs means the seed nodes of a Redis Cluster
   * (`REDIS_URL=redis://10.0.0.1:7000,redis://10.0.0.2:7000`).
   */
  url?: string;
  /** Seed nodes (`redis[s]://[user:pass@]host:port`) of a Redis Cluster; takes precedence over `url`. */
  clusterNodes?: readonly string[];
  /** An existing ioredis client (Redis or Cluster); see the pitfalls in the module header. */
  client?: Redis | Cluster;
  /** Prefix of every key; default `nen:`. */
  keyPrefix?: string;
  /** 32-byte key wrapping session secrets at rest; the store keeps a copy. */
  wrapKey: Uint8Array;
  /** Bound on every store operation, in ms (default 1000): beyond it StoreUnavailableError. */
  commandTimeoutMs?: number;
  /** Crypto backend for the key wrap; default `loadBackend()`. */
  backend?: Backend | Promise<Backend>;
  /** Receives connection and integrity events; nothing secret. */
  logger?: (event: RedisStoreEvent) => void;
  /**
   * Unwrapped secrets kept in process, keyed by (id, epoch, exact wrapped bytes), so the steady
   * state (one commit per request) skips the HKDF + AEAD unwrap; default 10 000 entries, 0 = off.
   */
  unwrapCacheSize?: number;
}

export function connectRedis(options: Pick<RedisStoreOptions, 'url' | 'clusterNodes'>, timeout: number): Redis | Cluster {
  const retry = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 10), 2000);
  const common = {
    connectTimeout: timeout,
    commandTimeout: timeout,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  };
  const url = options.url ?? process.env.REDIS_URL;
  const seeds = options.clusterNodes?.length ? [...options.clusterNodes] : url?.includes(',') ? url.split(',').map((u) => u.trim()) : [];
  if (seeds.length > 0) {
    const parsed = seeds.map((u) => new URL(u));
    const first = parsed[0]!;
    const auth = {
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    };
    return new Cluster(
      parsed.map((u) => ({ host: u.hostname, port: Number(u.port || 6379) })),
      {
        enableOfflineQueue: false,
        clusterRetryStrategy: retry,
        retryDelayOnFailover: 100,
        retryDelayOnClusterDown: 100,
        retryDelayOnTryAgain: 100,
        slotsRefreshTimeout: timeout,
        redisOptions: { ...common, ...auth },
      },
    );
  }
  if (!url) throw new NenConfigError('nen: redisStore needs url, clusterNodes or client (or REDIS_URL in the environment)');
  return new Redis(url, { ...common, enableOfflineQueue: false, retryStrategy: retry });
}
