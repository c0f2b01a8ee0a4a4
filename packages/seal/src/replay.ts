/**
 * Replay stores for webhook ids: `claimOnce(key, ttlMs)` is true exactly once per key within its
 * TTL, atomically — across instances for the Redis store (`SET key 1 NX PX ttl`).
 *
 * Pitfalls:
 *  - The memory store is per process: behind several instances use Redis.
 *  - The memory store is bounded: expired keys are dropped when it is full; if every slot is
 *    still live it refuses (throws NEN_SEAL_UNAVAILABLE) rather than forget an id, which would let a
 *    replay through. Only deliveries with a valid signature reach the store, so only the
 *    sender can fill it.
 *  - No timers: expiry is checked lazily, nothing keeps the process alive.
 */
import { NenSealError } from './errors.js';

export interface ReplayStore {
  /** True the first time `key` is claimed within `ttlMs`; false for a repeat. */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
}

export class MemoryReplayStore implements ReplayStore {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.seen.size;
  }

  private sweep(t: number): void {
    for (const [k, exp] of this.seen) if (exp <= t) this.seen.delete(k);
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    const t = this.now();
    const exp = this.seen.get(key);
    if (exp !== undefined && exp > t) return false;
    if (exp === undefined && this.seen.size >= this.maxEntries) {
      this.sweep(t);
      if (this.seen.size >= this.maxEntries) throw new NenSealError('NEN_SEAL_UNAVAILABLE', 'nen: webhook replay store is full');
    }
    this.seen.delete(key);
    this.seen.set(key, t + ttlMs);
    return true;
  }
}

/** The part of an ioredis client (or any client with the same `set`) the store uses. */
export interface RedisSetClient {
  set(key: string, value: string, px: 'PX', ttl: number, nx: 'NX'): Promise<unknown>;
}

export class RedisReplayStore implements ReplayStore {
  constructor(
    private readonly redis: RedisSetClient,
    private readonly prefix = 'nen:',
  ) {}

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    const r = await this.redis.set(this.prefix + key, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
    return r === 'OK';
  }
}

/** A RedisReplayStore on a new ioredis client (ioredis is an optional peer dependency). */
export async function createRedisReplayStore(url: string, prefix?: string): Promise<{ store: RedisReplayStore; close(): Promise<void> }> {
  let Redis: new (url: string, opts: object) => RedisSetClient & { quit(): Promise<unknown> };
  try {
    ({ Redis } = (await import('ioredis')) as unknown as { Redis: typeof Redis });
  } catch {
    throw new NenSealError('NEN_SEAL_USAGE', 'nen: createRedisReplayStore needs the ioredis package installed');
  }
  const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  return { store: new RedisReplayStore(client, prefix), close: async () => void (await client.quit()) };
}
