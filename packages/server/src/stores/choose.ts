/**
 * Which session store a `createNen()` uses, and the key that wraps session secrets in Redis:
 * the configured store; else Redis when REDIS_URL is set (loaded on first use through a dynamic
 * import, so `ioredis`, an optional peer dependency, is never loaded by apps that do not use it);
 * else the shared in-memory store (NEN_MAX_SESSIONS).
 *
 * Wrap key for secrets at rest: NEN_STORE_KEY (32+ random characters from `nen keygen`, the same on
 * every instance, kept across server key rotations), else derived from the whole server key set.
 * The fallback is kept for compatibility but warned about: any change of NEN_SERVER_KEYS changes
 * it. (A default from one "stable" server key is not safe either: that key is eventually retired,
 * and a key that authenticates handshakes should not double as a storage key whose loss or
 * rotation silently ends sessions.)
 *
 * Pitfall: a missing `ioredis` surfaces at the first store call as NenConfigError (logged, 500),
 * with the install command in the message.
 */
import { createHash } from 'node:crypto';
import type { ServerSettings } from '../config.js';
import { env, envInt } from '../config.js';
import { NenConfigError } from '../errors.js';
import { memoryStore } from './memory.js';
import type { CommitResult, SessionRecord, SessionStore } from './types.js';

/** Logged at start when the Redis store runs without NEN_STORE_KEY. */
const STORE_KEY_WARNING = 'NEN_STORE_KEY is not set: the key wrapping session secrets in Redis is derived from the whole NEN_SERVER_KEYS set, '
  + 'so adding or removing a server key makes every stored session unreadable (clients re-handshake) and, during a rolling restart, '
  + 'instances with different key sets cannot read each other\'s sessions. Set NEN_STORE_KEY (nen keygen prints one) to the same value on every instance, once.';

/** The 32-byte wrap key for the Redis store (see the module header). */
export function storeWrapKey(s: ServerSettings): Uint8Array {
  const sk = env('NEN_STORE_KEY');
  if (sk) {
    if (sk.length < 32) throw new NenConfigError('NEN_STORE_KEY must be at least 32 characters of secret randomness (use the NEN_STORE_KEY line that `nen keygen` prints)');
    return createHash('sha256').update('nen/1 store key').update(sk).digest();
  }
  if (!s.keySpecs) throw new NenConfigError('REDIS_URL needs NEN_STORE_KEY (or at least NEN_SERVER_KEYS) to wrap session secrets at rest, identically on every instance');
  const h = createHash('sha256').update('nen/1 store key');
  for (const k of [...s.keySpecs].sort((a, b) => (a.kid < b.kid ? -1 : 1))) h.update(k.kid).update(k.privateKey);
  s.log({ level: 'warn', event: 'config.store_key_derived', reason: STORE_KEY_WARNING });
  return h.digest();
}

/** The store for this instance and whether `close()` must close it. */
export function chooseStore(s: ServerSettings, given: SessionStore | undefined): { store: SessionStore; owned: boolean } {
  if (given) return { store: given, owned: false };
  const url = env('REDIS_URL');
  if (url) {
    const wrapKey = storeWrapKey(s);
    const logger = (e: { level: 'info' | 'warn' | 'error'; event: string; message: string }) => s.log({ level: e.level, event: e.event, reason: e.message });
    const load = async (): Promise<SessionStore> => {
      let mod: typeof import('./redis.js');
      try {
        mod = await import('./redis.js');
      } catch (e) {
        throw new NenConfigError(`REDIS_URL is set but the Redis store could not be loaded (install the optional peer dependency: npm install ioredis): ${e instanceof Error ? e.message : String(e)}`);
      }
      return mod.redisStore({ url, wrapKey, logger });
    };
    const store = new LazyStore('redis', load);
    store.warm(); // connect in the background, as an eagerly built store would
    return { store, owned: true };
  }
  return { store: memoryStore({ maxSessions: envInt('NEN_MAX_SESSIONS', 50_000) }), owned: false };
}

/** A store created on first use (one load, shared; a failed load is retried by the next call). */
class LazyStore implements SessionStore {
  #store: SessionStore | undefined;
  #loading: Promise<SessionStore> | undefined;
  #closed = false;
  constructor(
    readonly kind: SessionStore['kind'],
    private readonly load: () => Promise<SessionStore>,
  ) {}

  warm(): void {
    this.#get().catch(() => undefined);
  }

  #get(): Promise<SessionStore> {
    this.#loading ??= this.load().then(
      (s) => {
        this.#store = s;
        return s;
      },
      (e: unknown) => {
        this.#loading = undefined;
        throw e;
      },
    );
    return this.#loading;
  }

  create(session: SessionRecord): Promise<void> {
    return this.#store ? this.#store.create(session) : this.#get().then((s) => s.create(session));
  }

  get(id: string, now: number): Promise<SessionRecord | null> {
    return this.#store ? this.#store.get(id, now) : this.#get().then((s) => s.get(id, now));
  }

  commit(id: string, seq: bigint, now: number): Promise<CommitResult> {
    return this.#store ? this.#store.commit(id, seq, now) : this.#get().then((s) => s.commit(id, seq, now));
  }

  update(id: string, patch: Parameters<SessionStore['update']>[1]): Promise<boolean> {
    return this.#store ? this.#store.update(id, patch) : this.#get().then((s) => s.update(id, patch));
  }

  delete(id: string): Promise<boolean> {
    return this.#store ? this.#store.delete(id) : this.#get().then((s) => s.delete(id));
  }

  size(): Promise<number> {
    return this.#store ? this.#store.size() : this.#get().then((s) => s.size());
  }

  claimOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.#store ? this.#store.claimOnce(key, ttlMs) : this.#get().then((s) => s.claimOnce(key, ttlMs));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const s = this.#store ?? (this.#loading ? await this.#loading.catch(() => undefined) : undefined);
    await s?.close();
  }
}
