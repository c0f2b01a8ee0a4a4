/**
 * `@nen/server/redis`: the Redis / Redis Cluster session store for applications that build it
 * themselves (`createNen({ store: redisStore({ url, wrapKey }) })`). Needs the optional peer
 * dependency `ioredis`. (With only REDIS_URL set, `createNen()` loads this store by itself.)
 */
export { redisStore, type RedisStoreEvent, type RedisStoreOptions } from './stores/redis.js';
