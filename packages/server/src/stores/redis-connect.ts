/**
 * The ioredis client a Redis store creates for itself: a standalone Redis from one URL, or a
 * Redis Cluster from seed nodes (`clusterNodes`, or a comma-separated REDIS_URL).
 *
 * Availability settings (see ./redis.ts): no offline queue, no command re-sending, no per-request
 * retries, connect/command timeouts of `timeoutMs`; reconnection with a capped backoff (50 ms
 * doubling to 2 s). Pitfall: credentials and TLS of a cluster are taken from the first seed URL.
 */
import { Cluster, Redis } from 'ioredis';
import { NenConfigError } from '../errors.js';

export interface RedisConnectOptions {
  url?: string;
  clusterNodes?: readonly string[];
}

export function connectRedis(options: RedisConnectOptions, timeout: number): Redis | Cluster {
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
