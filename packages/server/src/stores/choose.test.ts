/**
 * createNen()'s store choice: REDIS_URL set with no store passed is NEN_CONFIG naming the fix
 * (`redisStore` from `@nen/server/redis`), never a silent fall-back to the in-memory store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createNen, memoryStore } from '../index.js';

const saved = process.env.REDIS_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.REDIS_URL;
  else process.env.REDIS_URL = saved;
});

describe('store choice', () => {
  it('REDIS_URL without a store throws NEN_CONFIG naming @nen/server/redis', () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    let err: unknown;
    try {
      createNen({ logger: () => {} });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'NEN_CONFIG' });
    expect((err as Error).message).toMatch(/@nen\/server\/redis.*store: redisStore\(\)/);
  });

  it('an explicit store is used as is; no REDIS_URL → the in-memory store', async () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    const store = memoryStore();
    expect(createNen({ store, logger: () => {} }).store).toBe(store);
    delete process.env.REDIS_URL;
    expect(createNen({ logger: () => {} }).store.kind).toBe('memory');
  });
});
