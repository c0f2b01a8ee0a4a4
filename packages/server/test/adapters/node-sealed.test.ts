/**
 * `@nen/server/node` writes a `withNen` route's sealed answers from their parts (wrap.ts
 * SEALED_PARTS, sealed-parts.ts), not from a Response: over real HTTP on 127.0.0.1 every answer
 * must equal, header for header and byte for byte after opening, what the same route gives as a
 * Web Response written back by the adapter's Response path (respond.ts sealed()): status, the
 * handler's headers (two set-cookie kept apart, its own cache-control), Nen's headers, HEAD, a
 * null-body status, Server-Timing, a handler exception, and refusals before the handler ran.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toBase64Url } from '@nen/core';
import { createNenClient } from '@nen/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSessionRoutes, toNodeHandler } from '../../src/adapters/node-http.js';
import { createNen, memoryStore, type Nen } from '../../src/index.js';
import { SEALED_PARTS } from '../../src/wrap.js';

const SEED = toBase64Url(new Uint8Array(32).map((_, i) => i + 11));
/** Past node.ts SMALL_MESSAGE even deflated: sealed by node:crypto, written as ciphertext and tag apart. */
const LARGE = randomBytes(90_000).toString('base64');

function handler(req: Request): Response | { ok: true } {
  const u = new URL(req.url);
  const kind = u.searchParams.get('kind');
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
