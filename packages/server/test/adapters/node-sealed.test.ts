/**
 * `@nen/server/node` writes a `withNen` route's sealed answers from their parts (wrap.ts
 * SEALED_PARTS, sealed-parts.ts), not from a Response: over real HTTP on 127.0.0.1 every answer
 * must equal, header for header and byte for byte after opening, what the same route gives as a
 * Web Response written back by the adapter's Response path (respond.ts sealed()): status, the
 * handler's headers (two set-cookie kept apart, its own cache-control), Nen's headers, HEAD, a
 * null-body status, Server-Timing, a handler exception, and refusals before the handler ran.
 * The handshake's ServerHello likewise (session-routes.ts: `routes.POST`'s parts entry).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientHandshakeStart, loadBackend, MEDIA_TYPE, parseServerKeyPin, toBase64Url } from '@nen/core';
import { createNenClient } from '@nen/client';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSessionRoutes, toNodeHandler } from '../../src/adapters/node-http.js';
import { createNen, memoryStore, type Nen } from '../../src/index.js';
import { SEALED_PARTS } from '../../src/wrap.js';

const SEED = toBase64Url(new Uint8Array(32).map((_, i) => i + 11));
/** Past node.ts SMALL_MESSAGE even deflated: sealed by node:crypto, written as ciphertext and tag apart. */
const LARGE = randomBytes(90_000).toString('base64');

function handler(req: Request): Response | Promise<Response> | { ok: true } {
  const u = new URL(req.url);
  const kind = u.searchParams.get('kind');
  if (kind === 'echo') return req.bytes().then((b) => new Response(b as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/octet-stream' } }));
  if (kind === 'throw') throw new Error('boom');
  if (kind === 'value') return { ok: true };
  if (kind === 'large') return new Response(LARGE, { headers: { 'content-type': 'text/plain' } });
  if (kind === 'empty') return new Response(null, { status: 204, headers: { 'x-e': '1' } });
  const h = new Headers({ 'content-type': 'text/plain', 'x-custom': 'a', 'cache-control': 'private, max-age=5' });
  h.append('set-cookie', 'a=1; Path=/');
  h.append('set-cookie', 'b=2; Path=/');
  return new Response(`hello ${req.method}`, { status: 201, statusText: 'Made', headers: h });
}

let nens: Nen[] = [];
const servers: Server[] = [];
const urls: Record<string, string> = {};
let pin = '';

async function serve(name: string, nen: Nen, viaResponse: boolean): Promise<void> {
  const route = nen.withNen((req) => handler(req));
  // A plain function has no SEALED_PARTS entry: the adapter writes the Response route's answer.
  const sealedRoute = viaResponse ? toNodeHandler((r, c) => route(r, c)) : toNodeHandler(route);
  const sessions = nodeSessionRoutes(nen);
  const server = createServer((req, res) => void ((req.url ?? '').startsWith('/api/nen/') ? sessions(req, res) : sealedRoute(req, res)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const make = (serverTiming: boolean) =>
    createNen({ serverKeys: `k1:${SEED}`, store: memoryStore({ shared: false }), handshakeRateLimit: 0, serverTiming, logger: () => undefined });
  nens = [make(false), make(true)];
  pin = (await nens[0]!.publicKeys())[0]!.pin;
  await serve('parts', nens[0]!, false);
  await serve('response', nens[0]!, true);
  await serve('parts-timing', nens[1]!, false);
  await serve('response-timing', nens[1]!, true);
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  await Promise.all(nens.map((n) => n.close()));
});

/** One answer as the client sees it: status, wire headers but the per-connection ones, opened body. */
async function answer(base: string, path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  let wire: Headers | undefined;
  const c = createNenClient({
    baseUrl: base,
    serverKey: pin,
    fetch: async (input, i) => {
      const r = await fetch(input, i);
      if (!String(input).includes('/api/nen/')) wire = r.headers;
      return r;
    },
  });
  const res = await c.fetch(path, init);
  const body = await res.text();
  const headers: Record<string, string> = {};
  wire?.forEach((v, k) => {
    if (k !== 'date' && k !== 'keep-alive' && k !== 'connection' && k !== 'nen-body' && k !== 'server-timing') headers[k] = v;
  });
  return {
    status: res.status,
    statusText: res.statusText,
    body,
    headers,
    cookies: wire?.getSetCookie(),
    timing: wire?.has('server-timing'),
    sealedLength: wire?.get('content-length') !== null,
  };
}

describe('node adapter: sealed answers written from their parts', () => {
  it('the route has the parts entry; the plain-function wrapper does not', () => {
    const route = nens[0]!.withNen(() => ({ ok: true }));
    expect(typeof (route as unknown as Record<symbol, unknown>)[SEALED_PARTS]).toBe('function');
  });

  for (const [path, method] of [
    ['/api/x', 'POST'],
    ['/api/x', 'GET'],
    ['/api/x', 'HEAD'],
    ['/api/x?kind=value', 'PUT'],
    ['/api/x?kind=empty', 'DELETE'],
    ['/api/x?kind=throw', 'POST'],
    ['/api/x?kind=large', 'POST'],
    ['/api/x?kind=large', 'HEAD'],
  ] as const) {
    it(`${method} ${path}: the same answer as the Response path`, async () => {
      const init: RequestInit = method === 'GET' || method === 'HEAD' ? { method } : { method, body: 'in', headers: { 'content-type': 'text/plain' } };
      for (const [a, b] of [
        ['parts', 'response'],
        ['parts-timing', 'response-timing'],
      ] as const) {
        const pa = await answer(urls[a]!, path, init);
        const pb = await answer(urls[b]!, path, init);
        expect(pa).toEqual(pb);
        expect(pa.timing).toBe(a === 'parts-timing');
      }
    });
  }

  it('a large answer (node:crypto: ciphertext and tag written apart) opens whole', async () => {
    const a = await answer(urls.parts!, '/api/x?kind=large', { method: 'POST', body: 'x' });
    expect(a).toMatchObject({ status: 200, body: LARGE, sealedLength: true });
  });

  it('a sealed body in many socket chunks (joined only for the open, in a reused buffer) reaches the handler whole, also 8 at once', async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => randomBytes(150_000 + i * 7_001));
    const c = createNenClient({ baseUrl: urls.parts!, serverKey: pin });
    const answers = await Promise.all(
      bodies.map(async (b) => {
        const r = await c.fetch('/api/x?kind=echo', { method: 'POST', body: b, headers: { 'content-type': 'application/octet-stream' } });
        return new Uint8Array(await r.arrayBuffer());
      }),
    );
    answers.forEach((a, i) => expect(Buffer.compare(a, bodies[i]!)).toBe(0));
    const small = await c.fetch('/api/x?kind=echo', { method: 'POST', body: 'one chunk', headers: { 'content-type': 'text/plain' } });
    expect(await small.text()).toBe('one chunk');
  });

  it('a sealed body tampered past its first socket chunk is refused 401 NEN_AUTH_FAILED', async () => {
    const wire: [number, string | null][] = [];
    const c = createNenClient({
      baseUrl: urls.parts!,
      serverKey: pin,
      fetch: async (input, init) => {
        const b = init?.body;
        if (String(input).includes('/api/nen/') || !(b instanceof Uint8Array) || b.length < 150_000) return fetch(input, init);
        const t = new Uint8Array(b as Uint8Array);
        t[140_000] = (t[140_000] as number) ^ 1;
        const r = await fetch(input, { ...init, body: t });
        wire.push([r.status, r.headers.get('nen-error')]);
        return r;
      },
    });
    await expect(
      c.fetch('/api/x?kind=echo', { method: 'POST', body: randomBytes(160_000), headers: { 'content-type': 'application/octet-stream' } }),
    ).rejects.toThrow();
    expect(wire.length).toBeGreaterThan(0);
    for (const w of wire) expect(w).toEqual([401, 'NEN_AUTH_FAILED']);
  });

  it("the default context's params: Express 5's route params, {} on plain node:http, one promise per request", async () => {
    const route = nens[0]!.withNen(async (_req, ctx: { params: Promise<Record<string, string>> }) => {
      const first = ctx.params;
      const same = first === ctx.params;
      return { params: await ctx.params, same };
    });
    const sessions = nodeSessionRoutes(nens[0]!);
    const app = express();
    app.all('/api/nen/:action', sessions);
    app.post('/api/items/:id', toNodeHandler(route));
    const ex = createServer(app);
    const plain = createServer((req, res) => void ((req.url ?? '').startsWith('/api/nen/') ? sessions : toNodeHandler(route))(req, res));
    try {
      for (const [server, want] of [
        [ex, { id: 'a42' }],
        [plain, {}],
      ] as const) {
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
        const c = createNenClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, serverKey: pin });
        const r = await c.fetch('/api/items/a42', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
        expect(await r.json()).toEqual({ params: want, same: true });
      }
    } finally {
      for (const s of [ex, plain]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    }
  });

  it('the handler headers pass, two set-cookie apart; refusals before the handler are the same error', async () => {
    const a = await answer(urls.parts!, '/api/x', { method: 'POST', body: 'x' });
    expect(a).toMatchObject({ status: 201, body: 'hello POST', cookies: ['a=1; Path=/', 'b=2; Path=/'], sealedLength: true });
    expect(a.headers).toMatchObject({ 'x-custom': 'a', 'cache-control': 'private, max-age=5' });
    for (const u of [urls.parts!, urls.response!]) {
      const r = await fetch(`${u}/api/x`, { method: 'POST', body: 'not sealed' });
      expect([r.status, r.headers.get('nen-error')]).toEqual([400, 'NEN_NOT_ENCRYPTED']);
      await r.arrayBuffer();
    }
  });
});

/** One server's handshake answers: a pinned ClientHello (finished by the client), a 7-byte one, a GET. */
async function handshakeAnswers(h: ReturnType<typeof toNodeHandler>, parts: boolean): Promise<Record<string, unknown>> {
  const be = await loadBackend('auto');
  const server = createServer((req, res) => void h(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/nen/handshake`;
  try {
    const st = clientHandshakeStart(be, { pin: parseServerKeyPin(pin) });
    const r = await fetch(url, { method: 'POST', body: st.hello as Uint8Array<ArrayBuffer>, headers: { 'content-type': MEDIA_TYPE.handshake } });
    const body = new Uint8Array(await r.arrayBuffer());
    expect(st.finish(body).sessionId.length).toBe(16); // the confirm MAC checks: a complete, correct ServerHello
    const length = r.headers.get('content-length');
    if (parts) expect(length).toBe(String(body.length));
    const bad = await fetch(url, { method: 'POST', body: new Uint8Array(7), headers: { 'content-type': MEDIA_TYPE.handshake } });
    await bad.arrayBuffer();
    const get = await fetch(url);
    await get.arrayBuffer();
    return {
      status: r.status,
      type: r.headers.get('content-type'),
      cache: r.headers.get('cache-control'),
      length: length ?? String(body.length),
      bad: [bad.status, bad.headers.get('nen-error')],
      get: [get.status, get.headers.get('nen-error'), get.headers.get('allow')],
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

describe('node adapter: the handshake written from its parts', () => {
  it("the ServerHello: the Response path's status, headers and bytes, with its content-length", async () => {
    const nen = nens[0]!;
    expect(typeof (nen.routes.POST as unknown as Record<symbol, unknown>)[SEALED_PARTS]).toBe('function');
    // A plain function has no parts entry: the adapter writes the route's Response.
    const viaResponse = toNodeHandler((r, c) => (r.method === 'GET' || r.method === 'HEAD' ? nen.routes.GET(r, c) : nen.routes.POST(r, c)));
    const a = await handshakeAnswers(nodeSessionRoutes(nen), true);
    expect(a).toEqual(await handshakeAnswers(viaResponse, false));
    expect(a).toMatchObject({
      status: 200,
      type: MEDIA_TYPE.handshake,
      cache: 'no-store',
      bad: [400, 'NEN_MALFORMED'],
      get: [405, 'NEN_METHOD_NOT_ALLOWED', 'POST'],
    });
  });
});
