/**
 * Framework adapters over real HTTP on 127.0.0.1: the same @nen/client talks to Hono on
 * @hono/node-server (middleware), Express 5 and plain node:http (`@nen/server/node`): sealed
 * requests and responses, query strings, streams, session actions, replay refused (THREAT_MODEL.md
 * property 4), tampering refused (property 1), and bad input answered with exactly the status and
 * code the plain Web handler (what Next.js runs) gives: never a 5xx.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve as honoServe } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient, type NenClient } from '@nen/client';
import { nenMiddleware, nenSessionRoutes } from '../../src/adapters/hono.js';
import { type Fixture, setup } from './fixture.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await setup();
});
afterAll(async () => {
  await fx?.close();
});

function client(url: string, f?: typeof fetch): NenClient {
  return createNenClient({ baseUrl: url, serverKey: fx.pin, ...(f ? { fetch: f } : {}) });
}

/** A fetch that records what it sends (to replay or tamper on the raw wire). */
function recorder() {
  const sent: { url: string; init: RequestInit }[] = [];
  const f: typeof fetch = async (input, init) => {
    sent.push({ url: String(input), init: { ...init } });
    return fetch(input, init);
  };
  return { fetch: f, last: () => sent[sent.length - 1]! };
}

async function rawError(res: Response): Promise<{ status: number; code: string | null }> {
  await res.arrayBuffer();
  return { status: res.status, code: res.headers.get('nen-error') };
}

const NAMES = ['hono', 'express', 'node'] as const;

describe.each(NAMES)('%s adapter', (name) => {
  const url = () => fx.servers.find((s) => s.name === name)!.url;

  it('sealed JSON round trip, query, GET', async () => {
    const c = client(url());
    const res = await c.fetch('/api/echo?x=1&y=two', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'POST', path: '/api/echo', query: '?x=1&y=two', body: { hello: 'world' }, ct: 'application/json' });
    const g = await c.fetch('/api/echo?q=3');
    expect(await g.json()).toMatchObject({ method: 'GET', query: '?q=3', body: null });
    expect((await c.status()).epoch).toBe(0);
    await c.terminate();
  });

  it('sealed stream: every token in order, ciphertext on the wire', async () => {
    const seen: string[] = [];
    const c = client(url());
    const wire = await fetchRawStream(url());
    expect(wire).not.toContain('token-');
    const dec = new TextDecoder();
    for await (const chunk of c.stream('/api/stream?n=20', { method: 'POST' })) seen.push(dec.decode(chunk));
    expect(seen.join('')).toBe(Array.from({ length: 20 }, (_, i) => `data: token-${i}\n\n`).join(''));
  });

  it('replay of a captured request → 409 NEN_REPLAY; tampered body → 401', async () => {
    const r = recorder();
    const c = client(url(), r.fetch);
    await (await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })).json();
    const cap = r.last();
    expect(await rawError(await fetch(cap.url, cap.init))).toEqual({ status: 409, code: 'NEN_REPLAY' });
    await (await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":2}' })).json();
    const cap2 = r.last();
    const body = new Uint8Array(cap2.init.body as Uint8Array);
    body[body.length - 1]! ^= 1;
    expect(await rawError(await fetch(cap2.url, { ...cap2.init, body }))).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
  });

  it('bad input: same status and code as the plain Web handler, never 5xx', async () => {
    const cases: { path: string; init: RequestInit }[] = [
      { path: '/api/echo', init: { method: 'POST', body: '{"plain":"json"}', headers: { 'content-type': 'application/json' } } },
      { path: '/api/echo', init: { method: 'POST', body: 'x', headers: { nen: 'garbage', 'nen-type': 'nope', 'content-type': 'application/nen' } } },
      { path: '/api/echo', init: { method: 'GET', headers: { nen: 'v1.AAAA.BBBB' } } },
      { path: '/api/stream', init: { method: 'POST', body: new Uint8Array(100) } },
      { path: '/api/upload', init: { method: 'POST', body: 'not sealed' } },
      { path: '/api/nen/handshake', init: { method: 'POST', body: new Uint8Array(7) } },
      { path: '/api/nen/handshake', init: { method: 'GET' } },
      { path: '/api/nen/nope', init: { method: 'POST' } },
      { path: '/api/nen/rotate', init: { method: 'POST', body: 'x' } },
      { path: '/api/nen/status', init: { method: 'PUT', body: 'x' } },
    ];
    for (const k of cases) {
      const got = await rawError(await fetch(url() + k.path, k.init));
      const route = k.path.startsWith('/api/nen/') ? fx.direct['/api/nen/']! : fx.direct[k.path]!;
      const want = await rawError(await route(new Request(`http://127.0.0.1${k.path}`, k.init), { params: Promise.resolve({}) }));
      expect({ case: `${k.init.method} ${k.path}`, ...got }).toEqual({ case: `${k.init.method} ${k.path}`, ...want });
      expect(got.status).toBeLessThan(500);
    }
  });

  it('sealed requests keep their connection (the body read to its Content-Length is a complete request, not one answered early)', async () => {
    const conn: (string | null)[] = [];
    const c = client(url(), async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).includes('/api/echo')) conn.push(res.headers.get('connection'));
      return res;
    });
    for (let i = 0; i < 3; i++) {
      const res = await c.fetch('/api/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ i, pad: 'x'.repeat(2000) }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(conn).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
  });

  it('sealed JSON that does not parse → 400 NEN_BAD_JSON (hono: step 8 deferred to c.req.json(), answered sealed)', async () => {
    const c = client(url());
    const sent = c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    if (name === 'hono') {
      const res = await sent;
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'NEN_BAD_JSON' } });
    } else {
      await expect(sent).rejects.toMatchObject({ code: 'NEN_BAD_JSON', status: 400 });
    }
    expect((await c.fetch('/api/echo?after=1')).status).toBe(200);
  });

  it('an oversized sealed body → 413 NEN_TOO_LARGE, and the connection stays usable', async () => {
    const c = client(url());
    await expect(
      c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }) }),
    ).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
    expect((await c.fetch('/api/echo?after=1')).status).toBe(200);
  });
});

describe('hono: overlapping middleware mounts', () => {
  it("app.use('/api/*') and app.use('/api/notes/*') (which also matches /api/notes) open the request once", async () => {
    const app = new Hono();
    app.all('/api/nen/:action', nenSessionRoutes(fx.nen));
    app.use('/api/*', nenMiddleware(fx.nen));
    app.use('/api/notes', nenMiddleware(fx.nen));
    app.use('/api/notes/*', nenMiddleware(fx.nen));
    app.post('/api/notes', async (c) => c.json({ got: await c.req.json() }, 201));
    const server = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())));
    try {
      const c = client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const res = await c.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"t"}' });
      expect([res.status, await res.json()]).toEqual([201, { got: { title: 't' } }]);
      // A plaintext request is still refused by the outermost middleware.
      expect(
        await rawError(
          await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/notes`, {
            method: 'POST',
            body: '{}',
            headers: { 'content-type': 'application/json' },
          }),
        ),
      ).toEqual({ status: 400, code: 'NEN_NOT_ENCRYPTED' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("hono: the downstream Response's bytes", () => {
  it('every response shape (c.json, c.text, c.body of bytes, a header record, its own cache-control, two cookies, null, new Response of a string or a stream) comes back sealed as the plain Hono route sends it', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const shapes: Record<string, (c: Context) => Response> = {
      json: (c) => c.json({ a: 1 }, 201),
      text: (c) => c.text('hi there'),
      bytes: (c) => c.body(bytes, 200, { 'content-type': 'application/octet-stream', 'x-extra': 'yes' }),
      headerless: (c) => c.body(bytes),
      empty: (c) => c.body(null, 204),
      string: () => new Response('raw string', { status: 202, headers: { 'x-a': 'b' } }),
      // the sealed answer's headers as a record (respond.ts headerRecord), and the set() path that
      // repeated set-cookie headers fall back to: the handler's cache-control and cookies pass
      cached: (c) => c.text('cached', 200, { 'cache-control': 'private, max-age=5', 'x-extra': 'r' }),
      cookies: (c) => {
        c.header('set-cookie', 'a=1; Path=/', { append: true });
        c.header('set-cookie', 'b=2; Path=/', { append: true });
        return c.text('cookies', 200, { 'x-extra': 'c' });
      },
      stream: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(ctl) {
              ctl.enqueue(new TextEncoder().encode('streamed'));
              ctl.close();
            },
          }),
          { headers: { 'content-type': 'text/x-s' } },
        ),
    };
    const app = new Hono();
    app.all('/api/nen/:action', nenSessionRoutes(fx.nen));
    app.use('/api/sealed/*', nenMiddleware(fx.nen));
    for (const [name, make] of Object.entries(shapes)) {
      app.post(`/api/sealed/${name}`, make);
      app.post(`/api/plain/${name}`, make);
    }
    const server = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const c = client(base);
      const seen = async (res: Response) => ({
        status: res.status,
        type: res.headers.get('content-type')?.replace(/;\s*/g, ';').toLowerCase() ?? null,
        extra: res.headers.get('x-extra') ?? res.headers.get('x-a'),
        cookies: res.headers.getSetCookie(),
        body: [...new Uint8Array(await res.arrayBuffer())],
      });
      const cacheControl: Record<string, string | null> = {};
      for (const name of Object.keys(shapes)) {
        const sealedRes = await c.fetch(`/api/sealed/${name}`, { method: 'POST' });
        cacheControl[name] = sealedRes.headers.get('cache-control');
        const sealed = await seen(sealedRes);
        const plain = await seen(await fetch(`${base}/api/plain/${name}`, { method: 'POST' }));
        // Content types as undici's Response has them (what Nen sealed before it read the bytes
        // directly): none for headerless bytes, text/plain for a string, where @hono/node-server
        // sends its own default for the first and none for the second
        const undiciType: Record<string, string | null> = { headerless: null, string: 'text/plain;charset=utf-8' };
        expect({ name, ...sealed }).toEqual({ name, ...plain, ...(name in undiciType ? { type: undiciType[name] } : {}) });
      }
      // no-store unless the handler set its own
      expect(cacheControl).toMatchObject({ json: 'no-store', bytes: 'no-store', cached: 'private, max-age=5', cookies: 'no-store' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('hono: one Nen route per middleware, many requests', () => {
  const honoUrl = () => fx.servers.find((s) => s.name === 'hono')!.url;

  it('concurrent requests through one middleware each get their own answer', async () => {
    const c = client(honoUrl());
    const answers = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const res = await c.fetch(`/api/echo?i=${i}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) });
        return [res.status, await res.json()];
      }),
    );
    answers.forEach(([status, body], i) => expect([status, body]).toEqual([200, expect.objectContaining({ query: `?i=${i}`, body: { i } })]));
  });

  it('a sealed body sent chunked (no Content-Length) is read as a stream and answered alike', async () => {
    // The client's own request goes out with its body as a stream: chunked on the wire.
    let streamed = 0;
    const asStream: typeof fetch = async (input, init) => {
      if (!String(input).includes('/api/echo') || !(init?.body instanceof Uint8Array)) return fetch(input, init);
      streamed++;
      const bytes = init.body;
      const headers = new Headers(init.headers);
      headers.delete('content-length');
      const body = new ReadableStream<Uint8Array>({
        start(ctl) {
          ctl.enqueue(bytes.subarray(0, 10));
          ctl.enqueue(bytes.subarray(10));
          ctl.close();
        },
      });
      return fetch(input, { ...init, headers, body, duplex: 'half' } as RequestInit);
    };
    const res = await client(honoUrl(), asStream).fetch('/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chunked: true }),
    });
    expect([res.status, await res.json()]).toEqual([200, expect.objectContaining({ body: { chunked: true } })]);
    expect(streamed).toBe(1);
  });
});

/** The raw bytes of one sealed stream response, as an intermediary sees them. */
async function fetchRawStream(base: string): Promise<string> {
  const r = recorder();
  const c2 = createNenClient({
    baseUrl: base,
    serverKey: fx.pin,
    fetch: async (input, init) => {
      const res = await r.fetch(input, init);
      if (!String(input).includes('/api/stream')) return res;
      const raw = new Uint8Array(await res.clone().arrayBuffer());
      captured = new TextDecoder('latin1').decode(raw);
      return res;
    },
  });
  let captured = '';
  for await (const _ of c2.stream('/api/stream?n=5', { method: 'POST' })) void _;
  expect(captured.length).toBeGreaterThan(0);
  return captured;
}
