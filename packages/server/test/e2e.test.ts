/**
 * End-to-end protocol tests: real route handlers from createNen() behind a real node:http server
 * on 127.0.0.1, the real @nen/client over real HTTP, under the noble, wasm and auto (node:crypto +
 * Wasm, what servers use) backends.
 *
 * Each THREAT_MODEL.md property (1-12) has at least one test here that fails when the property is broken:
 * tampering with body / tag / bound headers / query / method / path → 401, replay → 409, timestamp
 * window → 401 + client recovery, terminated / expired session → 401 + transparent recovery,
 * response substitution / plaintext / forged errors rejected by the client, stream truncation /
 * reordering / duplication detected, substituted handshake share or server key → handshake fails,
 * unauthenticated terminate / rotate refused, oversize → 413, malformed input → 400, rate limit → 429.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNenClient, type NenClient, type NenClientOptions, type WireExchange } from '@nen/client';
import { type Backend, type BackendKind, loadBackend, NenProtocolError, toBase64Url } from '@nen/core';
import { createNen, memoryStore, StoreUnavailableError, type Nen, type NenLogEvent, type SessionStore } from '../src/index.js';
import { serve, type TestServer } from './http-harness.js';

const SEED = toBase64Url(new Uint8Array(32).map((_, i) => i + 1));
const OTHER_SEED = toBase64Url(new Uint8Array(32).map((_, i) => 200 - i));

async function echo(request: Request, body: unknown): Promise<Response> {
  const ct = request.headers.get('content-type') ?? 'application/octet-stream';
  if (body instanceof Uint8Array) return new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': ct } });
  if (body === undefined) return new Response(null, { status: 204 });
  return Response.json(body, { headers: { 'content-type': ct } });
}

interface Ctx {
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

async function setup(kind: BackendKind, extra: Parameters<typeof createNen>[0] = {}): Promise<Ctx> {
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
function recorder() {
  const sent: { url: string; init: RequestInit }[] = [];
  const f: typeof fetch = async (input, init) => {
    sent.push({ url: String(input), init: { ...init } });
    return fetch(input, init);
  };
  return { fetch: f, sent, last: () => sent[sent.length - 1]! };
}

async function rawError(res: Response): Promise<{ status: number; code: string | null }> {
  await res.arrayBuffer();
  return { status: res.status, code: res.headers.get('nen-error') };
}

function withHeader(init: RequestInit, name: string, value: string): RequestInit {
  const h = new Headers(init.headers);
  h.set(name, value);
  return { ...init, headers: h };
}

function flipByte(b: Uint8Array, i: number): Uint8Array {
  const c = b.slice();
  const j = i < 0 ? c.length + i : i;
  c[j] = c[j]! ^ 1;
  return c;
}

describe.each(['noble', 'wasm', 'auto'] as const)('Nen over HTTP (%s backend)', (kind) => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await setup(kind);
  });
  afterAll(async () => {
    await ctx.server.close();
    await ctx.nen.close();
    await ctx.store.close();
  });

  describe('round trips', () => {
    it('POST JSON, GET with query, HEAD, DELETE, PUT binary, statuses and headers pass through', async () => {
      const client = ctx.client();
      const r1 = await client.fetch('/api/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hello: 'world', n: 1 }),
      });
      expect(r1.status).toBe(200);
      expect(r1.headers.get('content-type')).toBe('application/json');
      expect(await r1.json()).toEqual({ hello: 'world', n: 1 });
      expect(client.session?.keyId).toBe('k1');

      const r2 = await client.fetch('/api/echo?a=1&b=two', { method: 'GET' });
      expect(await r2.json()).toEqual({ method: 'GET', path: '/api/echo', query: { a: '1', b: 'two' } });

      const r3 = await client.fetch('/api/echo?x=1', { method: 'HEAD' });
      expect(r3.status).toBe(200);
      expect(await r3.text()).toBe('');

      const r4 = await client.fetch('/api/echo', { method: 'DELETE' });
      expect(r4.status).toBe(204);

      const bin = new Uint8Array(5000).map((_, i) => (i * 7) & 0xff);
      const r5 = await client.fetch('/api/echo', { method: 'PUT', headers: { 'content-type': 'application/x-thing' }, body: bin });
      expect(r5.headers.get('content-type')).toBe('application/x-thing');
      expect(new Uint8Array(await r5.arrayBuffer())).toEqual(bin);

      const r6 = await client.fetch('/api/created', { method: 'POST' });
      expect(r6.status).toBe(201);
      expect(r6.headers.get('x-custom')).toBe('yes');
      expect(await r6.json()).toEqual({ made: true });

      const r7 = await client.fetch('/api/empty', { method: 'POST' });
      expect(r7.status).toBe(204);

      const r9 = await client.fetch('/api/moved');
      expect(r9.status).toBe(307);
      expect(r9.headers.get('location')).toBe('http://127.0.0.1/elsewhere');

      const r8 = await client.fetch('/api/throw', { method: 'POST' });
      expect(r8.status).toBe(500);
      expect((await r8.json()).error.code).toBe('NEN_INTERNAL');
    });

    it('handlers see a Request with the decrypted body, plaintext content type and restored query', async () => {
      const client = ctx.client({ confidentialQuery: true });
      const r = await client.fetch('/api/view?k=v', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":[1,2]}' });
      expect(await r.json()).toEqual({
        isRequest: true,
        json: { x: [1, 2] },
        text: '{"x":[1,2]}',
        same: true,
        ct: 'application/json',
        nenHeaders: [],
        url: '/api/view?k=v',
        signal: true,
      });
    });

    it('body overhead is exactly the 16-byte tag; metadata in a few short headers', async () => {
      const seen: WireExchange[] = [];
      const client = ctx.client({ onExchange: (e) => seen.push(e) });
      const body = new Uint8Array(1024).fill(7);
      const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
      await res.arrayBuffer();
      const ex = seen.find((e) => e.kind === 'request')!;
      expect(ex.requestBodyLength).toBe(1024 + 16);
      expect(ex.responseBodyLength).toBe(1024 + 16);
      expect(
        Object.keys(ex.requestHeaders)
          .filter((h) => h.startsWith('nen'))
          .sort(),
      ).toEqual(['nen', 'nen-type']);
    });

    it('one handshake however many concurrent calls', async () => {
      const seen: WireExchange[] = [];
      const client = ctx.client({ onExchange: (e) => seen.push(e) });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) }).then((r) => r.json()),
        ),
      );
      expect(results.map((r) => r.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(seen.filter((e) => e.kind === 'handshake')).toHaveLength(1);
    });

    it('confidential query: the URL on the wire has no query, the handler sees it', async () => {
      const seen: WireExchange[] = [];
      const client = ctx.client({ confidentialQuery: true, onExchange: (e) => seen.push(e) });
      const res = await client.fetch('/api/echo?secret=s3cr3t', { method: 'GET' });
      expect((await res.json()).query).toEqual({ secret: 's3cr3t' });
      const ex = seen.find((e) => e.kind === 'request')!;
      expect(ex.url).not.toContain('s3cr3t');
      expect(JSON.stringify(ex.requestHeaders)).not.toContain('s3cr3t');
    });

    it('compression inside the envelope when both sides opt in (off by default)', async () => {
      const seenOn: WireExchange[] = [];
      const seenOff: WireExchange[] = [];
      const on = ctx.client({ compress: true, onExchange: (e) => seenOn.push(e) });
      const off = ctx.client({ onExchange: (e) => seenOff.push(e) });
      const a = await (await on.fetch('/api/big')).json();
      const b = await (await off.fetch('/api/big')).json();
      expect(a).toEqual(b);
      const wireOn = seenOn.find((e) => e.kind === 'request')!.responseBodyLength!;
      const wireOff = seenOff.find((e) => e.kind === 'request')!.responseBodyLength!;
      expect(wireOn).toBeLessThan(wireOff / 4);
      expect(wireOff).toBe(JSON.stringify(b).length + 16);
    });

    it('rekey (rotate) without a KEM, then requests use the new epoch', async () => {
      const client = ctx.client();
      await client.handshake();
      const before = client.session!;
      const info = await client.rotate();
      expect(info.epoch).toBe(1);
      expect(info.id).toBe(before.id);
      const r = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"after":"rotate"}' });
      expect(await r.json()).toEqual({ after: 'rotate' });
      const st = await client.status();
      expect(st.epoch).toBe(1);
      expect(st.keyId).toBe('k1');
    });

    it('streams: records decrypted in order, final record required', async () => {
      const client = ctx.client();
      const chunks: string[] = [];
      for await (const c of client.stream('/api/stream?n=4', { method: 'POST' })) chunks.push(new TextDecoder().decode(c));
      expect(chunks.join('')).toBe('data: token-0\n\ndata: token-1\n\ndata: token-2\n\ndata: token-3\n\n');
      const res = await client.fetch('/api/stream?n=2', { method: 'POST' });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(await res.text()).toBe('data: token-0\n\ndata: token-1\n\n');
    });

    it('streaming upload: framed records, verified by the server', async () => {
      const client = ctx.client();
      const parts = [new Uint8Array(70_000).fill(1), new Uint8Array(10).fill(2), new Uint8Array(3000).fill(3)];
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (const p of parts) c.enqueue(p);
          c.close();
        },
      });
      const res = await client.fetch('/api/upload', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body,
        duplex: 'half',
      } as RequestInit);
      const h = createHash('sha256');
      for (const p of parts) h.update(p);
      expect(await res.json()).toEqual({ bytes: 73_010, sha256: h.digest('hex') });
    });
  });

  describe('request authentication (server side, raw wire)', () => {
    async function captured(path: string, init: RequestInit) {
      const rec = recorder();
      const client = ctx.client({ fetch: rec.fetch });
      const r = await client.fetch(path, init);
      await r.arrayBuffer();
      expect(r.ok).toBe(true);
      return rec.last();
    }
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' };

    it('tampered body or tag → 401 NEN_AUTH_FAILED, and the handler never runs', async () => {
      const c = await captured('/api/echo', post);
      const body = c.init.body as Uint8Array;
      const runs = ctx.handlerRuns.n;
      for (const mutated of [flipByte(body, 0), flipByte(body, -1), body.subarray(0, body.length - 1)]) {
        const seqBump = (c.init.headers as Headers).get('nen')!;
        expect(await rawError(await fetch(c.url, { ...c.init, body: mutated as Uint8Array<ArrayBuffer> }))).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
        expect(seqBump).toBeTruthy();
      }
      expect(ctx.handlerRuns.n).toBe(runs);
    });

    it('any bound header, the query, the method or the path changed → 401', async () => {
      const c = await captured('/api/echo?q=1', post);
      const h = c.init.headers as Headers;
      const nenHdr = h.get('nen')!;
      const f = nenHdr.split('.');
      const variants: [string, RequestInit][] = [
        [c.url, withHeader(c.init, 'nen-type', 'text/plain')],
        [c.url, withHeader(c.init, 'nen', [...f.slice(0, 3), String(BigInt(f[3]!) + 1000n), f[4], f[5]].join('.'))],
        [c.url, withHeader(c.init, 'nen', [...f.slice(0, 4), String(Number(f[4]) + 1), f[5]].join('.'))],
        [c.url, withHeader(c.init, 'nen', [...f.slice(0, 5), '8'].join('.'))],
        [c.url.replace('q=1', 'q=2'), c.init],
        [c.url.replace('?q=1', ''), c.init],
        [c.url, { ...c.init, method: 'PUT' }],
        [c.url.replace('/api/echo', '/api/other'), c.init],
      ];
      for (const [url, init] of variants) {
        expect(await rawError(await fetch(url, init)), `${url} ${new Headers(init.headers).get('nen')}`).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
      }
    });

    it('bodyless GET is authenticated too: tag in nen-body tampered or missing → 401 / 400', async () => {
      const c = await captured('/api/echo?x=1', { method: 'GET' });
      const tag = (c.init.headers as Headers).get('nen-body')!;
      const bad = toBase64Url(flipByte(Buffer.from(tag, 'base64url'), 3));
      expect(await rawError(await fetch(c.url, withHeader(c.init, 'nen-body', bad)))).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
      const h = new Headers(c.init.headers);
      h.delete('nen-body');
      expect(await rawError(await fetch(c.url, { ...c.init, headers: h }))).toEqual({ status: 400, code: 'NEN_MALFORMED' });
    });

    it('replay → 409 NEN_REPLAY (window updated only after the AEAD check)', async () => {
      const c = await captured('/api/echo', post);
      expect(await rawError(await fetch(c.url, c.init))).toEqual({ status: 409, code: 'NEN_REPLAY' });
      // A forged request with a far-ahead seq must not advance the window and lock out the client.
      const f = (c.init.headers as Headers).get('nen')!.split('.');
      const forged = withHeader(c.init, 'nen', [...f.slice(0, 3), '999999', f[4], f[5]].join('.'));
      expect((await rawError(await fetch(c.url, forged))).status).toBe(401);
    });

    it('timestamp outside the window → 401 NEN_TIMESTAMP; the client corrects its clock and retries once', async () => {
      const seen: WireExchange[] = [];
      const client = ctx.client({ onExchange: (e) => seen.push(e) });
      await client.handshake();
      // The client's clock is now 2 minutes ahead of the server's.
      ctx.clockOffset.ms = -120_000;
      try {
        const r = await client.fetch('/api/echo', post);
        expect(await r.json()).toEqual({ a: 1 });
      } finally {
        ctx.clockOffset.ms = 0;
      }
      expect(seen.map((e) => `${e.kind}:${e.status}`)).toEqual(['handshake:200', 'request:401', 'handshake:200', 'request:200']);
      expect(seen[1]!.responseHeaders['nen-error']).toBe('NEN_TIMESTAMP');
    });

    it('terminated session → 401, and the client recovers by itself (one re-handshake, one retry)', async () => {
      const seen: WireExchange[] = [];
      const rec = recorder();
      const client = ctx.client({ onExchange: (e) => seen.push(e), fetch: rec.fetch });
      await (await client.fetch('/api/echo', post)).arrayBuffer();
      const old = rec.last();
      await client.terminate();
      expect(client.session).toBeNull();
      expect(await rawError(await fetch(old.url, withHeader(old.init, 'x-retry', '1')))).toMatchObject({ status: 401 });
      const r = await client.fetch('/api/echo', post);
      expect(await r.json()).toEqual({ a: 1 });
      // Server-side deletion (e.g. another instance, admin) is recovered from transparently too.
      await ctx.store.delete(client.session!.id);
      seen.length = 0;
      const r2 = await client.fetch('/api/echo', post);
      expect(await r2.json()).toEqual({ a: 1 });
      expect(seen.map((e) => `${e.kind}:${e.status}`)).toEqual(['request:401', 'handshake:200', 'request:200']);
    });

    it('expired session (absolute TTL) → 401 NEN_SESSION_EXPIRED and transparent recovery', async () => {
      const seen: WireExchange[] = [];
      const client = ctx.client({ onExchange: (e) => seen.push(e) });
      await (await client.fetch('/api/echo', post)).arrayBuffer(); // confirmed: its window outlives it (PROTOCOL.md "Retries")
      const id = client.session!.id;
      await ctx.store.update(id, { expiresAt: Date.now() - 1 });
      const r = await client.fetch('/api/echo', post);
      expect(await r.json()).toEqual({ a: 1 });
      expect(seen.map((e) => `${e.kind}:${e.status}:${e.responseHeaders['nen-error'] ?? ''}`)).toEqual([
        'handshake:200:',
        'request:200:',
        'request:401:NEN_SESSION_EXPIRED',
        'handshake:200:',
        'request:200:',
      ]);
      expect(seen[4]!.requestHeaders['nen-retry']).toMatch(new RegExp(`^${id}\\.0\\.2\\.\\d+$`));
    });

    it('terminate / rotate / status without the session keys are refused', async () => {
      const client = ctx.client();
      await client.handshake();
      const sid = client.session!.id;
      for (const action of ['terminate', 'rotate', 'status']) {
        const res = await fetch(`${ctx.server.url}/api/nen/${action}`, {
          method: 'POST',
          headers: { 'content-type': 'application/nen', nen: `1.${sid}.0.${1000 + action.length}.${Date.now()}.0` },
          body: new Uint8Array(16),
        });
        expect(await rawError(res)).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
      }
      // The session is untouched.
      const r = await client.fetch('/api/echo', post);
      expect(await r.json()).toEqual({ a: 1 });
      expect((await client.status()).epoch).toBe(0);
    });
  });

  describe('response authentication (client side)', () => {
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' };

    it("a response swapped for another request's response is rejected", async () => {
      let stash: Response | undefined;
      let n = 0;
      const f: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        if (!new Headers(init?.headers).get('nen')) return res;
        n++;
        if (n === 1) {
          stash = res;
          return res.clone();
        }
        return stash!;
      };
      const client = ctx.client({ fetch: f });
      expect(await (await client.fetch('/api/echo', post)).json()).toEqual({ a: 1 });
      await expect(client.fetch('/api/echo', { ...post, body: '{"a":2}' })).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
    });

    it('a plaintext response, a changed status and a changed content type are rejected', async () => {
      const mk =
        (tamper: (r: Response, body: ArrayBuffer) => Response): typeof fetch =>
        async (input, init) => {
          const res = await fetch(input, init);
          if (!new Headers(init?.headers).get('nen')) return res;
          return tamper(res, await res.arrayBuffer());
        };
      const cases = [
        mk(() => Response.json({ a: 1 })),
        mk((r, b) => new Response(b, { status: 201, headers: r.headers })),
        mk((r, b) => {
          const h = new Headers(r.headers);
          h.set('nen-type', 'text/html');
          return new Response(b, { status: r.status, headers: h });
        }),
        mk((r, b) => {
          const h = new Headers(r.headers);
          h.set('nen', '1.1');
          return new Response(b, { status: r.status, headers: h });
        }),
      ];
      for (const f of cases) {
        const client = ctx.client({ fetch: f });
        await expect(client.fetch('/api/echo', post)).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
      }
    });

    it('a forged protocol error triggers at most one re-handshake, then surfaces as an error (never as data)', async () => {
      const seen: string[] = [];
      const f: typeof fetch = async (input, init) => {
        if (new Headers(init?.headers).get('nen')) {
          seen.push('request');
          return new Response('{"error":{"code":"NEN_SESSION_UNKNOWN"}}', {
            status: 401,
            headers: { 'nen-error': 'NEN_SESSION_UNKNOWN', 'content-type': 'application/json' },
          });
        }
        seen.push('handshake');
        return fetch(input, init);
      };
      const client = ctx.client({ fetch: f });
      const err = await client.fetch('/api/echo', post).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NenProtocolError);
      // Sent, no authenticated answer: the handler may have run (PROTOCOL.md "Retries").
      expect(err).toMatchObject({ code: 'NEN_OUTCOME_UNKNOWN', cause: { code: 'NEN_SESSION_UNKNOWN', status: 401 } });
      expect(seen).toEqual(['handshake', 'request', 'handshake', 'request']);
    });

    it('truncated, reordered and duplicated stream records are rejected', async () => {
      const split = (b: Uint8Array): Uint8Array[] => {
        const out: Uint8Array[] = [];
        let o = 0;
        while (o < b.length) {
          const len = new DataView(b.buffer, b.byteOffset + o).getUint32(0);
          out.push(b.subarray(o, o + 4 + len));
          o += 4 + len;
        }
        return out;
      };
      const mk =
        (edit: (records: Uint8Array[]) => Uint8Array[]): typeof fetch =>
        async (input, init) => {
          const res = await fetch(input, init);
          if (res.headers.get('content-type') !== 'application/nen-stream') return res;
          const records = edit(split(new Uint8Array(await res.arrayBuffer())));
          return new Response(Buffer.concat(records), { status: res.status, headers: res.headers });
        };
      const cases: [string, (r: Uint8Array[]) => Uint8Array[]][] = [
        ['NEN_STREAM_TRUNCATED', (r) => r.slice(0, -1)],
        ['NEN_STREAM_TRUNCATED', (r) => [...r.slice(0, -1), r[r.length - 1]!.subarray(0, 10)]],
        ['NEN_STREAM_INVALID', (r) => [r[1]!, r[0]!, ...r.slice(2)]],
        ['NEN_STREAM_INVALID', (r) => [r[0]!, r[0]!, ...r.slice(1)]],
        ['NEN_STREAM_INVALID', (r) => [...r, r[0]!]],
      ];
      for (const [code, edit] of cases) {
        const client = ctx.client({ fetch: mk(edit) });
        const got: string[] = [];
        const err = await (async () => {
          for await (const c of client.stream('/api/stream?n=3', { method: 'POST' })) got.push(new TextDecoder().decode(c));
        })().catch((e: unknown) => e);
        expect(err, code).toMatchObject({ code });
      }
    });
  });

  describe('handshake authentication', () => {
    it('a substituted client share is detected at once (key confirmation)', async () => {
      const f: typeof fetch = async (input, init) => {
        if (String(input).endsWith('/handshake')) {
          const b = (init!.body as Uint8Array).slice();
          const kp = ctx.backend.generateKeyPair(0x647a);
          b.set(kp.publicKey, 8);
          return fetch(input, { ...init, body: b });
        }
        return fetch(input, init);
      };
      await expect(ctx.client({ fetch: f }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
    });

    it('a tampered server response (enc_e, session id, lifetime, server time) fails confirmation', async () => {
      for (const offset of [4, 22, 30, 40, -1]) {
        const f: typeof fetch = async (input, init) => {
          const res = await fetch(input, init);
          if (!String(input).endsWith('/handshake')) return res;
          const b = flipByte(new Uint8Array(await res.arrayBuffer()), offset);
          return new Response(b as Uint8Array<ArrayBuffer>, { status: 200, headers: res.headers });
        };
        await expect(ctx.client({ fetch: f }).handshake(), `offset ${offset}`).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
      }
    });

    it('a pinned key the server does not hold fails (substituted server key / unknown key id)', async () => {
      const other = createNen({ backend: ctx.backend, serverKeys: `k1:${OTHER_SEED}`, store: memoryStore({ shared: false }) });
      const otherPin = (await other.publicKeys())[0]!.pin;
      await other.close();
      await expect(ctx.client({ serverKey: otherPin }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
      await expect(ctx.client({ serverKey: otherPin.replace(/^k1:/, 'zz:') }).handshake()).rejects.toMatchObject({ code: 'NEN_UNKNOWN_KEY_ID', status: 400 });
      await expect(Promise.resolve().then(() => ctx.client({ serverKey: 'k1:not-a-key' }))).rejects.toMatchObject({ code: 'NEN_BAD_SERVER_KEY' });
    });

    it('several pins bridge a rotation: the next pin is tried only on NEN_UNKNOWN_KEY_ID, each once', async () => {
      // After the rotation: this instance holds k1 and k2 (k2 = OTHER_SEED); ctx.server holds only k1 (before it).
      const rotated = createNen({
        backend: ctx.backend,
        serverKeys: `k1:${SEED},k2:${OTHER_SEED}`,
        store: memoryStore({ shared: false }),
        handshakeRateLimit: 0,
      });
      const server2 = await serve({ '/api/nen/*': rotated.routes });
      try {
        const byKid = new Map((await rotated.publicKeys()).map((k) => [k.kid, k.pin]));
        const k1 = byKid.get('k1')!;
        const k2 = byKid.get('k2')!;
        expect(k1).toBe(ctx.pin);
        const attempt = async (url: string, serverKey: string[]) => {
          const seen: WireExchange[] = [];
          const c = createNenClient({ baseUrl: url, backend: ctx.backend, serverKey, onExchange: (e) => seen.push(e) });
          const r = await c.handshake().then(
            (info) => info.keyId,
            (e: unknown) => e,
          );
          return { r, statuses: seen.map((e) => e.status) };
        };
        // A client shipped with [new, old] against a server before the rotation: k2 unknown → k1.
        expect(await attempt(ctx.server.url, [k2, k1])).toEqual({ r: 'k1', statuses: [400, 200] });
        // ... and after it: the first pin at once.
        expect(await attempt(server2.url, [k2, k1])).toEqual({ r: 'k2', statuses: [200] });
        // A key confirmation failure under a kid the server holds is final (substituted key), not a reason to try the next pin.
        const wrongK1 = `k1:${k2.slice(3)}`;
        const failed = await attempt(server2.url, [wrongK1, k2]);
        expect(failed.r).toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
        expect(failed.statuses).toEqual([200]);
        // Every pin unknown: each tried once, then the typed error.
        const none = await attempt(ctx.server.url, [k2, `k3:${k2.slice(3)}`]);
        expect(none.r).toMatchObject({ code: 'NEN_UNKNOWN_KEY_ID', status: 400 });
        expect(none.statuses).toEqual([400, 400]);
        // Requests work on the session made with the fallback pin.
        const c = createNenClient({ baseUrl: ctx.server.url, backend: ctx.backend, serverKey: [k2, k1] });
        expect(await (await c.fetch('/api/echo', { method: 'POST', body: 'after fallback' })).text()).toBe('after fallback');
      } finally {
        await server2.close();
        await rotated.close();
      }
    });

    it('unpinned handshakes work (ML-KEM-768 selectable) and the client may ask for a shorter lifetime', async () => {
      const client = createNenClient({ baseUrl: ctx.server.url, backend: ctx.backend, kem: 'mlkem768', sessionLifetimeSeconds: 60, unpinned: true });
      const info = await client.handshake();
      expect(info.keyId).toBeNull();
      expect(info.expiresAt - Date.now()).toBeLessThanOrEqual(61_000);
      expect(info.expiresAt - Date.now()).toBeGreaterThan(50_000);
      const st = await client.status();
      expect(st.kem).toBe('mlkem768');
      expect((st.expiresAt as number) - Date.now()).toBeLessThanOrEqual(60_000);
    });
  });

  describe('malformed input and limits', () => {
    const sid = () => toBase64Url(new Uint8Array(16).fill(9));
    it('malformed headers, lengths, base64, content types → 400/415 with a code, no crash', async () => {
      const u = `${ctx.server.url}/api/echo`;
      const now = Date.now();
      const cases: [RequestInit, number, string][] = [
        [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, 400, 'NEN_NOT_ENCRYPTED'],
        [{ method: 'POST', headers: { nen: 'garbage', 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
        [{ method: 'POST', headers: { nen: `2.${sid()}.0.1.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_UNSUPPORTED_VERSION'],
        [{ method: 'POST', headers: { nen: `1.${sid()}x.0.1.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
        [{ method: 'POST', headers: { nen: `1.${sid()}.0.0.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
        [
          { method: 'POST', headers: { nen: `1.${sid()}.0.18446744073709551616.${now}.0`, 'content-type': 'application/nen' }, body: 'x' },
          400,
          'NEN_MALFORMED',
        ],
        [{ method: 'POST', headers: { nen: `1.${sid()}.0.01.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
        [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now}.64`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
        [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now}.0`, 'content-type': 'application/json' }, body: 'x' }, 415, 'NEN_CONTENT_TYPE'],
        [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 401, 'NEN_SESSION_UNKNOWN'],
        [{ method: 'GET', headers: { nen: `1.${sid()}.0.1.${now}.0`, 'nen-body': '!!!' } }, 400, 'NEN_MALFORMED'],
        [{ method: 'GET', headers: { nen: `1.${sid()}.0.1.${now}.4`, 'nen-body': 'AAAA' } }, 400, 'NEN_MALFORMED'],
        [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now - 3_600_000}.0`, 'content-type': 'application/nen' }, body: 'x' }, 401, 'NEN_TIMESTAMP'],
      ];
      for (const [init, status, code] of cases) {
        expect(await rawError(await fetch(u, init)), JSON.stringify(init.headers)).toEqual({ status, code });
      }
      const hs = `${ctx.server.url}/api/nen/handshake`;
      const hsCases: [RequestInit, number, string][] = [
        [{ method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array(3) }, 400, 'NEN_MALFORMED'],
        [
          { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array([1, 0x64, 0x7a, 0, 0, 0, 0, 0, 1]) },
          400,
          'NEN_MALFORMED',
        ],
        [
          { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array([1, 0x12, 0x34, 0, 0, 0, 0, 0]) },
          400,
          'NEN_UNSUPPORTED_KEM',
        ],
        [
          { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array([9, 0x64, 0x7a, 0, 0, 0, 0, 0]) },
          400,
          'NEN_UNSUPPORTED_VERSION',
        ],
        [{ method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array(10_000) }, 413, 'NEN_TOO_LARGE'],
        [{ method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }, 415, 'NEN_CONTENT_TYPE'],
        [{ method: 'GET' }, 405, 'NEN_METHOD_NOT_ALLOWED'],
      ];
      for (const [init, status, code] of hsCases) expect(await rawError(await fetch(hs, init))).toEqual({ status, code });
      expect(await rawError(await fetch(`${ctx.server.url}/api/nen/nope`, { method: 'POST' }))).toEqual({ status: 404, code: 'NEN_NOT_FOUND' });
      const keys = await (await fetch(`${ctx.server.url}/api/nen/keys`)).json();
      expect(keys.keys[0]).toMatchObject({ kid: 'k1', kem: 'xwing', pin: ctx.pin });
    });

    it('JSON that does not parse after decryption → 400 NEN_BAD_JSON', async () => {
      const client = ctx.client();
      await expect(client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' })).rejects.toMatchObject({
        code: 'NEN_BAD_JSON',
        status: 400,
      });
    });

    it('oversize body → 413 NEN_TOO_LARGE (declared or streamed)', async () => {
      const client = ctx.client();
      await expect(client.fetch('/api/echo', { method: 'POST', body: new Uint8Array(300 * 1024) })).rejects.toMatchObject({
        code: 'NEN_TOO_LARGE',
        status: 413,
      });
      const big = new ReadableStream<Uint8Array>({
        pull(c) {
          c.enqueue(new Uint8Array(64 * 1024));
        },
      });
      const res = await fetch(`${ctx.server.url}/api/echo`, {
        method: 'POST',
        body: big,
        duplex: 'half',
        headers: { 'content-type': 'application/nen', nen: `1.${sid()}.0.1.${Date.now()}.0` },
      } as RequestInit);
      expect(await rawError(res)).toEqual({ status: 413, code: 'NEN_TOO_LARGE' });
    });

    it('the server keeps serving after all of the above', async () => {
      const r = await ctx.client().fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2,3]' });
      expect(await r.json()).toEqual([1, 2, 3]);
      expect(ctx.logs.some((l) => l.code === 'NEN_AUTH_FAILED' && typeof l.reason === 'string')).toBe(true);
    });
  });
});

describe('limits and failures with dedicated servers (noble)', () => {
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

  it('rotate: requests sealed under the previous epoch are accepted only during the grace period', async () => {
    for (const grace of [30_000, 0]) {
      const ctx = await setup('noble', { rotateGraceMs: grace });
      try {
        let release: () => void = () => {};
        let hold = false;
        const gate = new Promise<void>((r) => {
          release = r;
        });
        const seen: WireExchange[] = [];
        const f: typeof fetch = async (input, init) => {
          if (hold && String(input).endsWith('/api/echo')) {
            hold = false;
            await gate;
          }
          return fetch(input, init);
        };
        const client = ctx.client({ fetch: f, onExchange: (e) => seen.push(e) });
        await client.handshake();
        hold = true;
        const inFlight = client.fetch('/api/echo', { method: 'POST', body: 'sealed under epoch 0' });
        await new Promise((r) => setTimeout(r, 50));
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
      const slow: typeof fetch = async (input, init) => {
        if (String(input).endsWith('/handshake')) await new Promise((r) => setTimeout(r, 150));
        return fetch(input, init);
      };
      const shared = ctx.client({ fetch: slow });
      const ac2 = new AbortController();
      const a = shared.fetch('/api/echo', { method: 'POST', body: 'a', signal: ac2.signal });
      const b = shared.fetch('/api/echo', { method: 'POST', body: 'b' });
      setTimeout(() => ac2.abort(new Error('user left')), 30);
      await expect(a).rejects.toThrow('user left');
      expect(await (await b).text()).toBe('b');
      const hang: typeof fetch = (_i, init) => new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
      await expect(ctx.client({ fetch: hang, timeoutMs: 100 }).handshake()).rejects.toMatchObject({ code: 'NEN_TIMEOUT' });
    } finally {
      await ctx.server.close();
      await ctx.nen.close();
    }
  });
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
