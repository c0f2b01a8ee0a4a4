/**
 * `NenSessionObject`: the Durable Object class that holds Nen sessions on Cloudflare Workers.
 * The Worker-side store (./store.ts) addresses one object per session id (`idFromName('s:' + id)`)
 * and one per `claimOnce` key, so every commit of a session runs in ONE single-threaded object:
 * the replay window check-and-accept is atomic across all isolates and locations
 * (THREAT_MODEL.md properties 7 and 8), exactly as the Redis store's one Lua script.
 *
 * State: an in-memory store (../stores/memory.ts, unshared) of this object instance. Nothing is
 * written to Durable Object storage, so secrets never rest on disk; the price: when the runtime
 * evicts an idle object (or on a deploy), its session is gone and the client re-handshakes
 * (NEN_SESSION_UNKNOWN), never a replay accepted (the secret goes with the window).
 *
 * Pitfalls:
 *  - Export the class from the Worker's main module under the `class_name` of the binding
 *    (`export { NenSessionObject } from '@nen/server/workers'`).
 *  - Answers only POSTs carrying a ./codec.ts message; anything else is 400 (the object is never
 *    exposed to the internet, but it still refuses nonsense).
 */
import { memoryStore, type MemoryStore } from '../stores/memory.js';
import { decodeRecord, decodeSecret, encodeRecord, type StoreOp } from './codec.js';

const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify({ result: value }), { status, headers: { 'content-type': 'application/json' } });

/** One object = the sessions (normally one) and claims named to it. */
export class NenSessionObject {
  // The runtime constructs it with (state, env); neither is needed: state lives in memory.
  #store: MemoryStore | undefined;

  get #s(): MemoryStore {
    this.#store ??= memoryStore({ shared: false, maxSessions: 64, maxClaims: 1024, sweepIntervalMs: 60_000 });
    return this.#store;
  }

  async fetch(request: Request): Promise<Response> {
    let msg: StoreOp;
    try {
      if (request.method !== 'POST') return json('method', 400);
      msg = (await request.json()) as StoreOp;
      if (typeof msg !== 'object' || msg === null) return json('message', 400);
    } catch {
      return json('message', 400);
    }
    try {
      return json(await this.#run(msg));
    } catch (e) {
      return json(e instanceof Error ? `${e.name}: ${e.message}` : 'error', 400);
    }
  }

  async #run(m: StoreOp): Promise<unknown> {
    const s = this.#s;
    switch (m.op) {
      case 'create':
        return s.create(decodeRecord(m.session));
      case 'get': {
        const r = await s.get(m.id, m.now);
        return r ? encodeRecord(r) : null;
      }
      case 'commit': {
        const c = await s.commit(m.id, BigInt(m.seq), m.now, m.epoch);
        return c.ok ? { ok: true, session: encodeRecord(c.session) } : c;
      }
      case 'update': {
        const { secret, ...rest } = m.patch;
        return s.update(m.id, secret === undefined ? rest : { ...rest, secret: decodeSecret(secret) });
      }
      case 'delete':
        return s.delete(m.id);
      case 'consumeRetry':
        return s.consumeRetry(m.id, BigInt(m.seq), m.now);
      case 'claimOnce':
        return s.claimOnce(m.key, m.ttlMs);
      case 'size':
        return s.size();
      default:
        throw new TypeError('unknown op');
    }
  }
}
