/**
 * The Durable Object store against the SessionStore contract, with the objects run in-process:
 * a namespace whose stubs hand each request to a NenSessionObject instance per name, exactly as
 * workerd routes `idFromName(name)` to one object (the real runtime: test/workers/workerd.test.ts).
 * Also: a failing or refusing object is StoreUnavailableError (503), never a wrong answer.
 */
import { describe, expect, it } from 'vitest';
import { storeContract } from '../../test/store-contract.js';
import { NenSessionObject } from './session-object.js';
import { type DurableObjectNamespaceLike, durableObjectStore } from './store.js';

function namespace(): DurableObjectNamespaceLike & { objects: Map<string, NenSessionObject> } {
  const objects = new Map<string, NenSessionObject>();
  return {
    objects,
    idFromName: (name: string) => name,
    get: (id: never) => {
      const name = id as unknown as string;
      let o = objects.get(name);
      if (!o) objects.set(name, (o = new NenSessionObject()));
      const obj = o;
      return { fetch: (request: Request) => obj.fetch(request) };
    },
  };
}

storeContract('durable object store (objects in-process)', async () => durableObjectStore(namespace()), { countsSize: false });

describe('durable object store', () => {
  it('one object per session id and per claim key', async () => {
    const ns = namespace();
    const store = durableObjectStore(ns, { prefix: 'app:' });
    const now = Date.now();
    for (const id of ['a', 'b'])
      await store.create({
        id,
        secret: new Uint8Array(32),
        meta: {},
        epoch: 0,
        createdAt: now,
        expiresAt: now + 60_000,
        idleTimeoutMs: 60_000,
        lastSeenAt: now,
      });
    await store.claimOnce('webhook-1', 1000);
    expect([...ns.objects.keys()].sort()).toEqual(['app:c:webhook-1', 'app:s:a', 'app:s:b']);
  });

  it('an unreachable or refusing object is StoreUnavailableError (NEN_STORE_UNAVAILABLE)', async () => {
    const down = durableObjectStore({ idFromName: (n) => n, get: () => ({ fetch: () => Promise.reject(new Error('object reset')) }) });
    await expect(down.get('x', Date.now())).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE' });
    const refusing = durableObjectStore({ idFromName: (n) => n, get: () => ({ fetch: async () => new Response('overloaded', { status: 503 }) }) });
    await expect(refusing.commit('x', 1n, Date.now())).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE' });
  });

  it('the object answers nonsense with 400, not an exception', async () => {
    const o = new NenSessionObject();
    for (const body of ['', 'not json', '{"op":"nope"}', '{"op":"commit","id":"x","seq":"-1","now":0}', 'null']) {
      const r = await o.fetch(new Request('https://x/', { method: 'POST', body }));
      expect(r.status, body).toBe(400);
    }
    expect((await o.fetch(new Request('https://x/'))).status).toBe(400);
  });
});
