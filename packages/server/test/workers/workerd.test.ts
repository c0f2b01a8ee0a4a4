/**
 * Nen on Cloudflare Workers, on the real workerd runtime (./harness.ts): two Workers (two isolates)
 * share one Durable Object namespace holding the sessions (@nen/server/workers). The real
 * @nen/client drives them from Node over loopback HTTP:
 *  - round trip (withNen, withNenStream, and the Hono middleware from @nen/server/hono);
 *  - a session made on one isolate works on the other;
 *  - replay refused (409 NEN_REPLAY), also when one sealed request reaches both isolates at once:
 *    exactly one is accepted (the Durable Object's commit is the single atomic step, property 7);
 *  - tamper refused (401 NEN_AUTH_FAILED, handler not run); terminate is authenticated (a
 *    forged terminate changes nothing, the client's terminate ends the session on both isolates);
 *  - bad input gets its codes, never a 5xx;
 *  - the bundle for workerd contains no `node:` import and no ioredis.
 */
import { createNenClient, type NenClient } from '@nen/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNen } from '../../src/index.js';
import { startWorkerd, type Workerd } from './harness.js';

const KEYS = `k1:${Buffer.alloc(32, 11).toString('base64url')}`;
let wd: Workerd;
let pin: string;

beforeAll(async () => {
  const local = createNen({ serverKeys: KEYS, backend: 'noble', logger: () => {} });
  pin = (await local.publicKeys())[0]!.pin;
  await local.close();
  wd = await startWorkerd(KEYS);
}, 60_000);

afterAll(async () => {
  await wd?.stop();
});

interface Sent {
  url: string;
  init: RequestInit;
  body: Uint8Array | null;
}

/** A client whose requests go to isolate `pick()` (0 = a, 1 = b); every request sent is recorded with its body bytes. */
function client(pick: () => 0 | 1 = () => 0): { c: NenClient; sent: Sent[] } {
  const sent: Sent[] = [];
  const f: typeof fetch = async (input, init = {}) => {
    const u = new URL(String(input));
    const url = `${wd.urls[pick()]}${u.pathname}${u.search}`;
    const body: Uint8Array | null =
      init.body instanceof Uint8Array ? new Uint8Array(init.body) : typeof init.body === 'string' ? new TextEncoder().encode(init.body) : null;
    sent.push({ url, init: { method: init.method, headers: new Headers(init.headers) }, body });
    return fetch(url, init);
  };
  return { c: createNenClient({ baseUrl: 'http://nen.test', serverKey: pin, backend: 'noble', fetch: f }), sent };
}

const replay = (s: Sent, base: string = new URL(s.url).origin, body = s.body): Promise<Response> =>
  fetch(base + new URL(s.url).pathname + new URL(s.url).search, {
    method: s.init.method,
    headers: s.init.headers,
    body: body as Uint8Array<ArrayBuffer> | null,
  });

describe('Nen on workerd, sessions in a Durable Object', () => {
  it('the workerd bundle has no node: import and no ioredis', () => {
    expect(wd.bundle).not.toMatch(/from\s*["']node:|import\(\s*["']node:|require\(\s*["']node:/);
    expect(wd.bundle).not.toMatch(/ioredis/);
  });

  it("crypto runs on Wasm: @nen/core's workerd entry instantiates its .wasm module (workerd refuses Wasm compiled from bytes)", async () => {
    const r = await fetch(`${wd.urls[0]}/backend`);
    expect(await r.text()).toBe('wasm');
    expect(wd.logs()).not.toMatch(/Wasm unavailable|@noble/);
  });

  it('round trip: withNen, withNenStream and the Hono middlewares (one record, streamed), pinned to the server key', async () => {
    const { c } = client();
    const r = await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hello: 'workerd' }) });
    expect(await r.json()).toEqual({ instance: 'a', body: { hello: 'workerd' } });
    const s = await c.fetch('/api/stream', { method: 'POST' });
    expect(await s.text()).toBe('data: post\n\ndata: quantum\n\ndata: workerd\n\n');
    const h = await c.fetch('/hono/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([1, 2]) });
    expect([h.status, await h.json()]).toEqual([200, { via: 'hono', instance: 'a', body: [1, 2] }]);
    const hs = await c.fetch('/hono/stream', { method: 'POST' });
    expect(await hs.text()).toBe('data: a\n\ndata: b\n\n');
    const big = 'x'.repeat(200_000);
    const b = await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(big) });
    expect(((await b.json()) as { body: string }).body).toBe(big);
  });

  it('a session made on one isolate works on the other (the Durable Object is shared)', async () => {
    let n = 0;
    const { c } = client(() => (n++ % 2) as 0 | 1);
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: String(i) });
      const j = (await r.json()) as { instance: string; body: number };
      expect(j.body).toBe(i);
      seen.add(j.instance);
    }
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  it('replay refused on either isolate; one sealed request sent to both at once is accepted exactly once', async () => {
    const { c, sent } = client();
    await (await c.fetch('/api/echo', { method: 'POST', body: 'once' })).arrayBuffer();
    const captured = sent[sent.length - 1]!;
    for (const base of wd.urls) {
      const r = await replay(captured, base);
      expect([r.status, r.headers.get('nen-error')]).toEqual([409, 'NEN_REPLAY']);
      await r.arrayBuffer();
    }
    // Race: a fresh sealed request, never delivered by the client, sent to both isolates concurrently.
    let hold: Sent | undefined;
    const racing = createNenClient({
      baseUrl: 'http://nen.test',
      serverKey: pin,
      backend: 'noble',
      fetch: async (input, init = {}) => {
        const u = new URL(String(input));
        if (u.pathname === '/api/echo' && !hold) {
          hold = {
            url: wd.urls[0] + u.pathname,
            init: { method: init.method, headers: new Headers(init.headers) },
            body: init.body instanceof Uint8Array ? new Uint8Array(init.body) : null,
          };
          throw new TypeError('held back by the test');
        }
        return fetch(`${wd.urls[0]}${u.pathname}${u.search}`, init);
      },
    });
    await racing.fetch('/api/echo', { method: 'POST', body: 'race' }).catch(() => undefined);
    expect(hold).toBeDefined();
    const rs = await Promise.all(wd.urls.map((base) => replay(hold!, base)));
    const statuses = rs.map((r) => r.status).sort();
    await Promise.all(rs.map((r) => r.arrayBuffer()));
    expect(statuses).toEqual([200, 409]);
  });

  it('tamper refused: a flipped ciphertext byte is 401 NEN_AUTH_FAILED; the session is unharmed', async () => {
    const { c, sent } = client();
    await (await c.fetch('/api/echo', { method: 'POST', body: 'original' })).arrayBuffer();
    const captured = sent[sent.length - 1]!;
    const bad = captured.body!.slice();
    bad[bad.length - 1]! ^= 1;
    const r = await replay(captured, undefined, bad);
    expect([r.status, r.headers.get('nen-error')]).toEqual([401, 'NEN_AUTH_FAILED']);
    await r.arrayBuffer();
    // The session is unharmed.
    expect(
      ((await (await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '7' })).json()) as { body: number }).body,
    ).toBe(7);
  });

  it('terminate is authenticated: a forged one changes nothing; the real one ends the session on both isolates', async () => {
    const { c, sent } = client();
    await (await c.fetch('/api/echo', { method: 'POST', body: 'x' })).arrayBuffer();
    const captured = sent[sent.length - 1]!;
    // A real sealed request re-aimed at the terminate action: the path is authenticated, so it is refused.
    const u = new URL(captured.url);
    const forged = await fetch(`${wd.urls[1]}/api/nen/terminate`, {
      method: 'POST',
      headers: captured.init.headers,
      body: captured.body as Uint8Array<ArrayBuffer>,
    });
    expect([forged.status, forged.headers.get('nen-error')]).toEqual([401, 'NEN_AUTH_FAILED']);
    await forged.arrayBuffer();
    const unsealed = await fetch(`${u.origin}/api/nen/terminate`, { method: 'POST', body: 'terminate' });
    expect([unsealed.status, unsealed.headers.get('nen-error')]).toEqual([400, 'NEN_NOT_ENCRYPTED']);
    await unsealed.arrayBuffer();
    // Still alive after the forgery.
    expect((await c.fetch('/api/echo', { method: 'POST', body: 'alive' })).status).toBe(200);
    await c.terminate();
    for (const base of wd.urls) {
      const r = await replay(captured, base);
      expect(r.status).toBe(401);
      expect(['NEN_SESSION_UNKNOWN', 'NEN_SESSION_EXPIRED']).toContain(r.headers.get('nen-error'));
      await r.arrayBuffer();
    }
  });

  it('bad input gets codes, never a 5xx', async () => {
    const base = wd.urls[1];
    const cases: [string, RequestInit, string][] = [
      ['/api/echo', { method: 'POST', body: 'plain' }, 'NEN_NOT_ENCRYPTED'],
      ['/api/echo', { method: 'POST', headers: { nen: 'garbage', 'content-type': 'application/nen' }, body: new Uint8Array(40) }, 'NEN_MALFORMED'],
      ['/api/nen/handshake', { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array(7) }, ''],
      ['/api/nen/handshake', { method: 'POST', body: 'x'.repeat(100_000) }, ''],
      ['/api/nen/nope', { method: 'POST' }, 'NEN_NOT_FOUND'],
      ['/api/nen/handshake', { method: 'GET' }, 'NEN_METHOD_NOT_ALLOWED'],
      ['/hono/echo', { method: 'POST', body: '{}' }, 'NEN_NOT_ENCRYPTED'],
    ];
    for (const [path, init, code] of cases) {
      const r = await fetch(base + path, init);
      await r.arrayBuffer();
      expect(r.status, `${path} ${code}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${path} ${code}`).toBeLessThan(500);
      const got = r.headers.get('nen-error') ?? '';
      if (code) expect(got, path).toBe(code);
      else expect(got, path).toMatch(/^NEN_/);
    }
    expect(wd.logs()).not.toMatch(/Uncaught|uncaught exception/i);
  });
});
