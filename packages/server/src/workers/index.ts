/**
 * `@nen/server/workers`: Nen on Cloudflare Workers (workerd). Sessions and their replay windows
 * live in a Durable Object, one object per session, so replay protection is atomic across
 * isolates (docs/runtimes.md):
 *
 *   import { createNen } from '@nen/server';
 *   import { durableObjectStore } from '@nen/server/workers';
 *   export { NenSessionObject } from '@nen/server/workers';     // binding NEN_SESSIONS → this class
 *
 *   let nen;
 *   export default {
 *     fetch(request, env) {
 *       nen ??= createNen({ store: durableObjectStore(env.NEN_SESSIONS), serverKeys: env.NEN_SERVER_KEYS });
 *       ...  // nen.routes, nen.withNen(...), or the Hono middleware from @nen/server/hono
 *     },
 *   };
 *
 * The object keeps its state in Durable Object storage (SQLite-backed class: wrangler
 * `new_sqlite_classes`), so sessions survive eviction and deploys; with NEN_STORE_KEY in the
 * Worker's env, secrets are wrapped at rest as in the Redis store.
 *
 * Pitfall: create the Nen instance inside `fetch` (first request), not at module top level:
 * Workers forbid random numbers and timers in the global scope, and `env` only exists there.
 */
export { durableObjectStore, type DurableObjectNamespaceLike, type DurableObjectStoreOptions } from './store.js';
export type { SqlStorageLike } from './rows.js';
export { type DurableObjectStateLike, NenSessionObject, type NenSessionObjectEnv } from './session-object.js';
