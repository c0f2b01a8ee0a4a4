/**
 * Defaults of `redisStore()` from `@nen/server/redis` taken from the environment: the key that
 * wraps session secrets at rest, and a console logger (Node only: this module uses node:crypto and
 * is reached only from the `@nen/server/redis` entry, never from the main entry).
 *
 * Pitfall, the wrap key: NEN_STORE_KEY (32+ random characters from `nen keygen`, the same on every instance,
 * kept across server key rotations), else derived from the whole server key set (`serverKeys`
 * option or NEN_SERVER_KEYS). The fallback is kept for compatibility but warned about: any change
 * of the server key set changes it. (A default from one "stable" server key is not safe either:
 * that key is eventually retired, and a key that authenticates handshakes should not double as a
 * storage key whose loss or rotation silently ends sessions.)
 */
import { createHash } from 'node:crypto';
import { env } from '../config.js';
import { NenConfigError } from '../errors.js';
import { parseServerKeys, type ServerKeySpec } from '../keys.js';
import type { RedisStoreEvent } from './redis-connect.js';
import { storeKeyFromSecret } from './redis-wrap.js';

/** Logged (event `config.store_key_derived`) when the Redis store runs without NEN_STORE_KEY. */
export const STORE_KEY_WARNING =
  'NEN_STORE_KEY is not set: the key wrapping session secrets in Redis is derived from the whole NEN_SERVER_KEYS set, ' +
  'so adding or removing a server key makes every stored session unreadable (clients re-handshake) and, during a rolling restart, ' +
  "instances with different key sets cannot read each other's sessions. Set NEN_STORE_KEY (nen keygen prints one) to the same value on every instance, once.";

/** The 32-byte wrap key for the Redis store (see the module header). */
export function storeWrapKey(serverKeys: string | readonly ServerKeySpec[] | undefined, log: (e: RedisStoreEvent) => void): Uint8Array {
  const sk = env('NEN_STORE_KEY');
  if (sk) return storeKeyFromSecret(sk, (data) => createHash('sha256').update(data).digest());
  const keysEnv = env('NEN_SERVER_KEYS');
  const specs = typeof serverKeys === 'string' ? parseServerKeys(serverKeys) : (serverKeys ?? (keysEnv ? parseServerKeys(keysEnv) : null));
  if (!specs)
    throw new NenConfigError(
      'redisStore() needs NEN_STORE_KEY (or at least NEN_SERVER_KEYS, or the wrapKey option) to wrap session secrets at rest, identically on every instance',
    );
  const h = createHash('sha256').update('nen/1 store key');
  for (const k of [...specs].sort((a, b) => (a.kid < b.kid ? -1 : 1))) h.update(k.kid).update(k.privateKey);
  log({ level: 'warn', event: 'config.store_key_derived', message: STORE_KEY_WARNING });
  return h.digest();
}

/** Default store logger: warnings and errors to the console (NEN_LOG=error: errors only; silent: none). */
export function consoleStoreLogger(e: RedisStoreEvent): void {
  const level = env('NEN_LOG');
  if (level === 'silent') return;
  if (e.level === 'error') console.error(`nen: ${e.event}: ${e.message}`);
  else if (e.level === 'warn' && level !== 'error') console.warn(`nen: ${e.event}: ${e.message}`);
}
