/**
 * What the end-to-end protocol suites (e2e*.test.ts) share: a createNen() instance with its routes
 * (echo, GET/HEAD views, streams, uploads, redirects, throws, compression) behind a real node:http
 * server on 127.0.0.1 under one backend, a client factory pinned to it, and raw-wire helpers
 * (a recording fetch, flipping a byte, setting a header, reading an error's code).
 *
 * Pitfalls:
 *  - Each suite file gets its own server per backend (useServer); tests in one file share its
 *    session store, log and handler counter, never across files.
 *  - `clockOffset` moves the server's clock only; reset it in `finally`.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createNenClient, type NenClient, type NenClientOptions } from '@nen/client';
import { type Backend, type BackendKind, loadBackend, toBase64Url } from '@nen/core';
import { createNen, memoryStore, type Nen, type NenLogEvent, type SessionStore } from '../src/index.js';
import { serve, type TestServer } from './http-harness.js';

export const SEED = toBase64Url(new Uint8Array(32).map((_, i) => i + 1));
export const OTHER_SEED = toBase64Url(new Uint8Array(32).map((_, i) => 200 - i));

async function echo(request: Request, body: unknown): Promise<Response> {
  const ct = request.headers.get('content-type') ?? 'application/octet-stream';
  if (body instanceof Uint8Array) return new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': ct } });
  if (body === undefined) return new Response(null, { status: 204 });
  return Response.json(body, { headers: { 'content-type': ct } });
}

export interface Ctx {
  backend: Backend;
  nen: Nen;
  server: TestServer;
  pin: string;
  logs: NenLogEvent[];
  store: SessionStore;
  handlerRuns: { n: number };
  /** Added to the server's clock (ms). */
  clockOffset: { ms: number };
  client(o?: NenClientOptions): NenClient;
}

export async function setup(kind: BackendKind, extra: Parameters<typeof createNen>[0] = {}): Promise<Ctx> {
  const backend = await loadBackend(kind);
  const logs: NenLogEvent[] = [];
  const clockOffset = { ms: 0 };
  const store = extra.store ?? memoryStore({ shared: false });
  const nen = createNen({
    backend,
    store,
    serverKeys: `k1:${SEED}`,
    handshakeRateLimit: 0,
    now: () => Date.now() + clockOffset.ms,
    maxBodyBytes: 256 * 1024,
    logger: (e) => {
      if (logs.length < 1000) logs.push(e);
    },
    ...extra,
  });
  const handlerRuns = { n: 0 };
  const counted =
    <T extends unknown[], R>(f: (...a: T) => R) =>
    (...a: T): R => {
      handlerRuns.n++;
      return f(...a);
    };
  const echoRoute = nen.withNen(counted(async (req: Request, _c: unknown, body: unknown) => echo(req, body)));
  const getRoute = nen.withNen(
    counted(async (req: Request) => {
      const u = new URL(req.url);
      return { method: req.method, path: u.pathname, query: Object.fromEntries(u.searchParams) };
    }),
  );
  const server = await serve({
    '/api/nen/*': nen.routes,
    '/api/echo': { POST: echoRoute, PUT: echoRoute, DELETE: echoRoute, GET: getRoute, HEAD: getRoute },
    '/api/other': { POST: echoRoute },
    '/api/created': { POST: nen.withNen(async () => Response.json({ made: true }, { status: 201, headers: { 'x-custom': 'yes' } })) },
    '/api/view': {
      POST: nen.withNen(async (req: Request, _c: unknown, body: unknown) => ({
        isRequest: req instanceof Request,
        json: await req.json(),
        text: await req.text(),
        same: JSON.stringify(body) === (await req.text()),
        ct: req.headers.get('content-type'),
        nenHeaders: (() => {
          const names: string[] = [];
          req.headers.forEach((_v, k) => names.push(k));
          return names.filter((k) => k.startsWith('nen'));
        })(),
        url: req.url.replace(/^http:\/\/[^/]+/, ''),
        signal: req.signal instanceof AbortSignal,
      })),
    },
    '/api/moved': { GET: nen.withNen(async () => Response.redirect('http://127.0.0.1/elsewhere', 307)) },
    '/api/empty': { POST: nen.withNen(async () => new Response(null, { status: 204 })) },
    '/api/throw': {
      POST: nen.withNen(async () => {
        throw new Error('boom');
      }),
    },
    '/api/big': {
      GET: nen.withNen(async () => ({ rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row number ${i}`, ok: i % 2 === 0 })) }), {
        compress: true,
      }),
    },
    '/api/stream': {
      POST: nen.withNenStream(async function* (req: Request) {
        const n = Number(new URL(req.url).searchParams.get('n') ?? '5');
        for (let i = 0; i < n; i++) yield `data: token-${i}\n\n`;
      }),
    },
    '/api/upload': {
      POST: nen.withNen(async (_req: Request, _c: unknown, body: unknown) => {
        const h = createHash('sha256');
        let n = 0;
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          h.update(chunk);
          n += chunk.length;
        }
        return { bytes: n, sha256: h.digest('hex') };
      }),
    },
  });
  const pin = (await nen.publicKeys())[0]!.pin;
  return {
    backend,
    nen,
    server,
    pin,
    logs,
    store,
    handlerRuns,
    clockOffset,
    client: (o = {}) => createNenClient({ baseUrl: server.url, backend, serverKey: pin, ...o }),
  };
}

/** A fetch that records what it sends (to replay or mutate on the raw wire). */
export function recorder() {
  const sent: { url: string; init: RequestInit }[] = [];
  const f: typeof fetch = async (input, init) => {
    sent.push({ url: String(input), init: { ...init } });
    return fetch(input, init);
  };
  return { fetch: f, sent, last: () => sent[sent.length - 1]! };
}

export async function rawError(res: Response): Promise<{ status: number; code: string | null }> {
  await res.arrayBuffer();
  return { status: res.status, code: res.headers.get('nen-error') };
}

export function withHeader(init: RequestInit, name: string, value: string): RequestInit {
  const h = new Headers(init.headers);
  h.set(name, value);
  return { ...init, headers: h };
}

export function flipByte(b: Uint8Array, i: number): Uint8Array {
  const c = b.slice();
  const j = i < 0 ? c.length + i : i;
  c[j] = c[j]! ^ 1;
  return c;
}

/** The backends the per-backend suites run under (auto: node:crypto + Wasm, what servers use). */
export const BACKENDS = ['noble', 'wasm', 'auto'] as const;

/** One server per backend for the enclosing describe: started in beforeAll, stopped in afterAll. */
export function useServer(kind: BackendKind, set: (ctx: Ctx) => void): void {
  let ctx: Ctx | undefined;
  beforeAll(async () => {
    ctx = await setup(kind);
    set(ctx);
  });
  afterAll(async () => {
    if (!ctx) return;
    await ctx.server.close();
    await ctx.nen.close();
    await ctx.store.close();
  });
}
