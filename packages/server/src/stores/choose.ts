/**
 * Which session store a `createNen()` uses: the configured store; else the shared in-memory store
 * (NEN_MAX_SESSIONS). Runtime-neutral: no Node built-ins, and never a path to ioredis, so the main
 * entry bundles on Edge runtimes and in apps without the optional `ioredis` peer.
 *
 * Pitfall: REDIS_URL set with no store passed is a configuration error (NEN_CONFIG), never a
 * silent fall-back to memory (which would break replay protection across instances). The fix is
 * `createNen({ store: redisStore() })` with `redisStore` from `@nen/server/redis`.
 */
import { env, envInt } from '../config.js';
import { NenConfigError } from '../errors.js';
import { memoryStore } from './memory.js';
import type { SessionStore } from './types.js';

export const REDIS_URL_WITHOUT_STORE =
  "REDIS_URL is set but no session store was passed to createNen(): add `import { redisStore } from '@nen/server/redis'` " +
  'and use createNen({ store: redisStore() }) (it reads REDIS_URL and NEN_STORE_KEY), or pass store: memoryStore() to keep sessions in this process on purpose';

/** The store for this instance and whether `close()` must close it. */
export function chooseStore(given: SessionStore | undefined): { store: SessionStore; owned: boolean } {
  if (given) return { store: given, owned: false };
  if (env('REDIS_URL')) throw new NenConfigError(REDIS_URL_WITHOUT_STORE);
  return { store: memoryStore({ maxSessions: envInt('NEN_MAX_SESSIONS', 50_000) }), owned: false };
}
