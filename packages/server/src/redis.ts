/**
 * `@nen/server/redis`: the Redis / Redis Cluster session store (Node only; optional peer
 * dependency `ioredis`). The main entry never loads it: pass it explicitly,
 *
 *   import { redisStore } from '@nen/server/redis';
 *   export const nen = createNen({ store: redisStore() });   // REDIS_URL, NEN_STORE_KEY
 *
 * Defaults: `url` = REDIS_URL (comma-separated = Redis Cluster seeds); `wrapKey` from NEN_STORE_KEY,
 * else derived from `serverKeys` / NEN_SERVER_KEYS with a warning (./stores/redis-env.ts);
 * `logger` = warnings and errors to the console. `nen.close()` does not close a store passed in:
 * call `store.close()` on shutdown.
 *
 * Pitfall: Node only (ioredis needs TCP): never import it from an Edge route or a Worker; with
 * REDIS_URL set and no store passed, `createNen()` throws NEN_CONFIG rather than use memory.
 */
import { consoleStoreLogger, storeWrapKey } from './stores/redis-env.js';
import { redisStore as createRedisStore, type RedisStoreOptions as BaseOptions } from './stores/redis.js';
import type { ServerKeySpec } from './keys.js';
import type { SessionStore } from './stores/types.js';

export type { RedisStoreEvent } from './stores/redis.js';

export interface RedisStoreOptions extends Omit<BaseOptions, 'wrapKey'> {
  /** 32-byte key wrapping session secrets at rest; default from NEN_STORE_KEY (see the header). */
  wrapKey?: Uint8Array;
  /** Server keys the fallback wrap key is derived from when NEN_STORE_KEY is unset; default NEN_SERVER_KEYS. */
  serverKeys?: string | readonly ServerKeySpec[];
}

/** Creates the Redis session store; connects in the background (see stores/redis.ts). */
export function redisStore(config: RedisStoreOptions = {}): SessionStore {
  const { serverKeys, ...rest } = config;
  const logger = config.logger ?? consoleStoreLogger;
  const wrapKey = config.wrapKey ?? storeWrapKey(serverKeys, logger);
  return createRedisStore({ ...rest, wrapKey, logger });
}
