/**
 * End to end with servers of their own (noble backend, ./e2e-fixture.ts): the handshake rate limit
 * behind a trusted proxy (429 + Retry-After), store outages, and the default client pinned by
 * NEXT_PUBLIC_NEN_SERVER_KEY alone.
 */
import { describe, expect, it, vi } from 'vitest';
import type { WireExchange } from '@nen/client';
import { createNen, memoryStore, StoreUnavailableError, type SessionStore } from '../src/index.js';
import { OTHER_SEED, setup } from './e2e-fixture.js';

describe('limits and failures with dedicated servers (noble)', () => {
  rateLimitIdleAndStore();

  rotateTimingAndAbort();
});

describe('the default client against a real server (issue 9 item 4)', () => {
  it('pins NEXT_PUBLIC_NEN_SERVER_KEY with no code: nenFetch runs pinned, a wrong pinned key fails the handshake', async () => {
    const ctx = await setup('noble');
    const saved = process.env.NEXT_PUBLIC_NEN_SERVER_KEY;
    try {
      process.env.NEXT_PUBLIC_NEN_SERVER_KEY = ctx.pin;
      vi.resetModules();
      const m = await import('@nen/client');
      m.defaultNenClient({ baseUrl: ctx.server.url, backend: 'noble' }); // Node needs a base URL; no serverKey given
      const res = await m.nenFetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(await res.json()).toEqual({ a: 1 });
      expect(m.defaultNenClient().session?.keyId).toBe('k1');
      // The variable decides the pin: another server key there → the handshake fails closed.
      const other = createNen({ backend: ctx.backend, serverKeys: `k1:${OTHER_SEED}`, logger: () => {} });
      process.env.NEXT_PUBLIC_NEN_SERVER_KEY = (await other.publicKeys())[0]!.pin;
      await other.close();
      vi.resetModules();
      const m2 = await import('@nen/client');
      m2.defaultNenClient({ baseUrl: ctx.server.url, backend: 'noble' });
      await expect(m2.handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
    } finally {
      if (saved === undefined) delete process.env.NEXT_PUBLIC_NEN_SERVER_KEY;
      else process.env.NEXT_PUBLIC_NEN_SERVER_KEY = saved;
      await ctx.server.close();
      await ctx.nen.close();
    }
  });
});

/** Handshake rate limit, idle timeout and store outage, each on a server of its own. */
function rateLimitIdleAndStore(): void {
  it('handshake rate limit per client address (trusted proxy, 1 hop) → 429 with Retry-After; rotating the client-written part of x-forwarded-for does not bypass it', async () => {
    const ctx = await setup('noble', { handshakeRateLimit: 3, trustProxy: 1 });
    try {
      let n = 0;
      // The client writes any x-forwarded-for it likes; the trusted proxy appends the address it saw.
      const viaProxy: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('x-forwarded-for', `198.51.100.${n++}, 10.0.0.1`);
        return fetch(input, { ...init, headers });
      };
      for (let i = 0; i < 3; i++) await ctx.client({ fetch: viaProxy }).handshake();
      const err = await ctx
        .client({ fetch: viaProxy })
        .handshake()
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'NEN_RATE_LIMITED', status: 429 });
      const other = await fetch(`${ctx.server.url}/api/nen/handshake`, {
        method: 'POST',
        headers: { 'content-type': 'application/nen-handshake', 'x-forwarded-for': '10.0.0.9' },
        body: new Uint8Array(3),
      });
      expect(other.status).toBe(400);
      await other.arrayBuffer();
    } finally {
      await ctx.server.close();
      await ctx.nen.close();
    }
  });

  it('idle timeout → 401 and transparent recovery', async () => {
    const ctx = await setup('noble', { idleTimeoutSeconds: 1 });
    try {
      const seen: WireExchange[] = [];
      const client = ctx.client({ onExchange: (e) => seen.push(e) });
      await (await client.fetch('/api/echo', { method: 'POST', body: 'x' })).arrayBuffer();
      await new Promise((r) => setTimeout(r, 1300));
      expect(await (await client.fetch('/api/echo', { method: 'POST', body: 'y' })).text()).toBe('y');
      expect(seen.map((e) => `${e.kind}:${e.status}`)).toEqual(['handshake:200', 'request:200', 'request:401', 'handshake:200', 'request:200']);
    } finally {
      await ctx.server.close();
      await ctx.nen.close();
    }
  });

  it('store unavailable → 503 NEN_STORE_UNAVAILABLE, recovers when the store is back', async () => {
    const inner = memoryStore({ shared: false });
    let down = false;
    const flaky: SessionStore = {
      kind: 'flaky',
      create: (s) => (down ? Promise.reject(new StoreUnavailableError('down')) : inner.create(s)),
      get: (i, n) => (down ? Promise.reject(new StoreUnavailableError('down')) : inner.get(i, n)),
      commit: (i, s, n) => (down ? Promise.reject(new StoreUnavailableError('down')) : inner.commit(i, s, n)),
      update: (i, p) => inner.update(i, p),
      delete: (i) => inner.delete(i),
      size: () => inner.size(),
      claimOnce: (k, t) => inner.claimOnce(k, t),
      close: () => inner.close(),
    };
    const ctx = await setup('noble', { store: flaky });
    try {
      const client = ctx.client();
      await client.handshake();
      down = true;
      await expect(client.fetch('/api/echo', { method: 'POST', body: 'x' })).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE', status: 503 });
      await expect(ctx.client().handshake()).rejects.toMatchObject({ code: 'NEN_STORE_UNAVAILABLE', status: 503 });
      down = false;
      expect(await (await client.fetch('/api/echo', { method: 'POST', body: 'ok' })).text()).toBe('ok');
    } finally {
      await ctx.server.close();
      await ctx.nen.close();
      await inner.close();
    }
  });
}

/** Rotation grace, Server-Timing and abort / timeouts, each on a server of its own. */
function rotateTimingAndAbort(): void {
  it('rotate: requests sealed under the previous epoch are accepted only during the grace period', async () => {
    for (const grace of [30_000, 0]) {
      const ctx = await setup('noble', { rotateGraceMs: grace });
      try {
        let release: () => void = () => {};
        let hold = false;
        const gate = new Promise<void>((r) => {
          release = r;
        });
        let sealed: () => void = () => {};
        const reachedFetch = new Promise<void>((r) => {
          sealed = r;
        });
        const seen: WireExchange[] = [];
        const f: typeof fetch = async (input, init) => {
          if (hold && String(input).endsWith('/api/echo')) {
            hold = false;
            sealed();
            await gate;
          }
          return fetch(input, init);
        };
        const client = ctx.client({ fetch: f, onExchange: (e) => seen.push(e) });
        await client.handshake();
        hold = true;
        const inFlight = client.fetch('/api/echo', { method: 'POST', body: 'sealed under epoch 0' });
        await reachedFetch; // sealed and on its way (a fixed 50 ms raced the sealing under load)
        expect((await client.rotate()).epoch).toBe(1);
        release();
        expect(await (await inFlight).text()).toBe('sealed under epoch 0');
        const statuses = seen.filter((e) => e.kind === 'request').map((e) => e.status);
        expect(statuses, `grace ${grace}`).toEqual(grace > 0 ? [200] : [401, 200]);
      } finally {
        await ctx.server.close();
        await ctx.nen.close();
      }
    }
  });

  it('optional Server-Timing carries the Nen crypto and store timings', async () => {
    const ctx = await setup('noble', { serverTiming: true });
    try {
      const r = await ctx.client().fetch('/api/echo', { method: 'POST', body: 'x' });
      expect(r.headers.get('server-timing')).toMatch(/^nen;dur=\d+\.\d+, nen-store;dur=\d+\.\d+$/);
      await r.arrayBuffer();
    } finally {
      await ctx.server.close();
      await ctx.nen.close();
    }
  });

  it('AbortSignal and timeouts are honoured', async () => {
    const ctx = await setup('noble');
    try {
      const ac = new AbortController();
      ac.abort(new Error('stop'));
      await expect(ctx.client().fetch('/api/echo', { method: 'POST', body: 'x', signal: ac.signal })).rejects.toThrow('stop');
      // One caller aborting during the shared handshake does not fail the other callers.
      // The handshake is held until the abort: it is in flight when one caller leaves, whatever the load.
      let handshaking: () => void = () => {};
      const inHandshake = new Promise<void>((r) => {
        handshaking = r;
      });
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const slow: typeof fetch = async (input, init) => {
        if (String(input).endsWith('/handshake')) {
          handshaking();
          await gate;
        }
        return fetch(input, init);
      };
      const shared = ctx.client({ fetch: slow });
      const ac2 = new AbortController();
      const a = shared.fetch('/api/echo', { method: 'POST', body: 'a', signal: ac2.signal });
      const b = shared.fetch('/api/echo', { method: 'POST', body: 'b' });
      await inHandshake;
      ac2.abort(new Error('user left'));
      release();
      await expect(a).rejects.toThrow('user left');
      expect(await (await b).text()).toBe('b');
      const hang: typeof fetch = (_i, init) => new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
      await expect(ctx.client({ fetch: hang, timeoutMs: 100 }).handshake()).rejects.toMatchObject({ code: 'NEN_TIMEOUT' });
    } finally {
      await ctx.server.close();
      await ctx.nen.close();
    }
  });
}
