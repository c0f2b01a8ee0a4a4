/**
 * `NenSessionObject`: the Durable Object class that holds Nen sessions on Cloudflare Workers.
 * The Worker-side store (./store.ts) addresses one object per session id (`idFromName('s:' + id)`)
 * and one per `claimOnce` key, so every commit of a session runs in ONE single-threaded object:
 * the replay window check-and-accept is atomic across all isolates and locations
 * (THREAT_MODEL.md properties 7 and 8), exactly as the Redis store's one Lua script.
 *
 * State: ./session-table.ts, an in-memory cache written through to the object's SQLite storage
 * (./rows.ts), so sessions, replay windows, retry tombstones and claims survive the runtime
 * evicting the object (idle, deploys, restarts). The constructor loads the rows inside
 * `blockConcurrencyWhile` (no request is delivered before); each request then runs its store
 * operation synchronously (check and write with no await in between); `alarm()` applies expiry.
 * Secrets are wrapped at rest when the Worker's env has NEN_STORE_KEY (docs/runtimes.md).
 *
 * Pitfalls:
 *  - Export the class from the Worker's main module under the `class_name` of the binding
 *    (`export { NenSessionObject } from '@nen/server/workers'`), and declare it SQLite-backed
 *    (wrangler `new_sqlite_classes`; workerd `enableSql = true`). Without the SQL API every call
 *    is refused (503 NEN_STORE_UNAVAILABLE at the Worker), with the reason in the message.
 *  - Answers only POSTs carrying a ./codec.ts message; anything else is 400 (the object is never
 *    exposed to the internet, but it still refuses nonsense).
 */
import { loadBackend } from '@nen/core';
import { NenConfigError } from '../errors.js';
import { storeKeyFromSecret } from '../stores/redis-wrap.js';
import { decodeRecord, decodeSecret, encodeRecord, type StoreOp } from './codec.js';
import { type SqlStorageLike, sqlRows } from './rows.js';
import { SessionTable } from './session-table.js';

/** The part of a Durable Object's `state` (`ctx`) used here (structural: no Workers types needed). */
export interface DurableObjectStateLike {
  readonly storage: {
    readonly sql?: SqlStorageLike;
    getAlarm(): Promise<number | null>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

/** The bindings the object reads: NEN_STORE_KEY (optional, secret) wraps session secrets at rest. */
export interface NenSessionObjectEnv {
  NEN_STORE_KEY?: string;
}

const NOT_SQLITE =
  'NenSessionObject needs the SQLite storage API: declare the class in new_sqlite_classes (wrangler); in a workerd config, enableSql = true and localDisk storage';

const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify({ result: value }), { status, headers: { 'content-type': 'application/json' } });

function run(t: SessionTable, m: StoreOp): unknown {
  switch (m.op) {
    case 'create':
      t.create(decodeRecord(m.session));
      return null;
    case 'get': {
      const r = t.get(m.id, m.now);
      return r ? encodeRecord(r) : null;
    }
    case 'commit': {
      const c = t.commit(m.id, BigInt(m.seq), m.now, m.epoch);
      return c.ok ? { ok: true, session: encodeRecord(c.session) } : c;
    }
    case 'update': {
      const { secret, ...rest } = m.patch;
      return t.update(m.id, secret === undefined ? rest : { ...rest, secret: decodeSecret(secret) });
    }
    case 'delete':
      return t.delete(m.id);
    case 'consumeRetry':
      return t.consumeRetry(m.id, BigInt(m.seq), m.now);
    case 'claimOnce':
      return t.claimOnce(m.key, m.ttlMs, Date.now());
    case 'size':
      return t.size();
    default:
      throw new TypeError('unknown op');
  }
}

/**
 * One store request to a table: parse, run (synchronously), answer `{ result }`; nonsense is 400,
 * a refusal for room (StoreUnavailableError) 503. Exported for in-process tests of the table.
 */
export async function answerStoreRequest(table: SessionTable, request: Request): Promise<Response> {
  let msg: StoreOp;
  try {
    if (request.method !== 'POST') return json('method', 400);
    msg = (await request.json()) as StoreOp;
    if (typeof msg !== 'object' || msg === null) return json('message', 400);
  } catch {
    return json('message', 400);
  }
  try {
    return json(run(table, msg));
  } catch (e) {
    const unavailable = e instanceof Error && (e as { code?: string }).code === 'NEN_STORE_UNAVAILABLE';
    return json(e instanceof Error ? `${e.name}: ${e.message}` : 'error', unavailable ? 503 : 400);
  }
}

/** One object = the sessions (normally one) and claims named to it. */
export class NenSessionObject {
  readonly #state: DurableObjectStateLike;
  #table: SessionTable | undefined;
  #failure = 'not initialised';
  /** The alarm set in storage (null: none), and one not yet written. */
  #alarmAt: number | null = null;
  #alarmToSet: number | undefined;

  constructor(state: DurableObjectStateLike, env?: NenSessionObjectEnv) {
    this.#state = state;
    // No event reaches the object before this resolves (Durable Object input gate).
    void state.blockConcurrencyWhile(() => this.#init(env?.NEN_STORE_KEY));
  }

  async #init(storeKey: string | undefined): Promise<void> {
    try {
      let sql: SqlStorageLike | undefined;
      try {
        sql = this.#state.storage.sql; // workerd throws here when the object is not SQLite-backed
      } catch (cause) {
        throw new NenConfigError(`${NOT_SQLITE} (${cause instanceof Error ? cause.message : String(cause)})`);
      }
      if (!sql) throw new NenConfigError(NOT_SQLITE);
      const backend = await loadBackend();
      const wrapKey = storeKey ? storeKeyFromSecret(storeKey, (d) => backend.sha256(d)) : null;
      this.#alarmAt = await this.#state.storage.getAlarm();
      const table = new SessionTable({ rows: sqlRows(sql), backend, wrapKey, schedule: (at) => this.#schedule(at) });
      const next = table.load(Date.now());
      if (next !== undefined) this.#schedule(next);
      await this.#flushAlarm();
      this.#table = table;
    } catch (e) {
      this.#failure = e instanceof Error ? `${e.name}: ${e.message}` : 'initialisation failed';
    }
  }

  async fetch(request: Request): Promise<Response> {
    if (!this.#table) return json(this.#failure, 503);
    const res = await answerStoreRequest(this.#table, request);
    await this.#flushAlarm();
    return res;
  }

  /** The sweep: expired sessions become tombstones or go, ended tombstones and claims go. */
  async alarm(): Promise<void> {
    this.#alarmAt = null; // the alarm that fired is consumed
    if (!this.#table) return;
    this.#table.sweep(Date.now());
    const next = this.#table.next();
    if (next !== undefined) this.#schedule(next);
    await this.#flushAlarm();
  }

  #schedule(at: number): void {
    if (this.#alarmAt !== null && this.#alarmAt <= at) return;
    this.#alarmAt = at;
    this.#alarmToSet = at;
  }

  async #flushAlarm(): Promise<void> {
    const at = this.#alarmToSet;
    if (at === undefined) return;
    this.#alarmToSet = undefined;
    await this.#state.storage.setAlarm(at);
  }
}
