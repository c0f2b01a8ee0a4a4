/**
 * Hostile-input battery against a live `next start` of the demo (THREAT_MODEL.md properties 5, 7, 11, 12):
 * every row of hostile-cases.ts is sent over a raw HTTP/1.1 socket and must get its documented
 * status and `nen-error` code; after every row a normal pinned client makes an encrypted round trip
 * (the server keeps serving), and at the end the server has logged no internal error and is alive.
 * Special rows: a handshake flood (429 for the flooding address, other clients unaffected), a
 * trickled body (answered when complete, others served meanwhile) and an abandoned upload.
 *
 * HOSTILE_CASES.md is the table rendered from hostile-cases.ts; this suite fails when it is stale
 * (regenerate with NEN_UPDATE_TABLES=1).
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient, type NenClient } from '@nen/client';
import { HOSTILE_CASES, renderMarkdown, type Captured, type CaseContext, type HostileCase } from './hostile-cases';
import { appDir, rawRequest, sleep, startNext, stopAll, type LiveServer, type RawResponse } from './live';

let server: LiveServer;
let normal: NenClient;
let capturer: NenClient;
let ctx: CaseContext;
let roundTrips = 0;
let normalSessionId: string | undefined;
let addrCounter = 0;

beforeAll(async () => {
  server = await startNext({ env: { NEN_MAX_BODY: '65536', NEN_HANDSHAKE_RATE: '40', NEN_TRUST_PROXY: '1', NEN_LOG: 'warn' } });
  normal = createNenClient({ baseUrl: server.url, serverKey: server.pin });
  let pending: Captured | undefined;
  capturer = createNenClient({
    baseUrl: server.url,
    serverKey: server.pin,
    fetch: async (input, init) => {
      const req = new Request(input, init);
      const u = new URL(req.url);
      if (u.pathname.startsWith('/api/nen/')) return fetch(req);
      pending = { method: req.method, path: u.pathname + u.search, headers: [...req.headers.entries()], body: new Uint8Array(await req.arrayBuffer()) };
      throw new Error('captured, not sent');
    },
  });
  await capturer.handshake();
  const [kid, pk] = server.pin.split(':') as [string, string];
  ctx = {
    async capture(method, path, init = {}) {
      pending = undefined;
      await capturer
        .fetch(path, { method, ...(init.body !== undefined ? { body: init.body, headers: { 'content-type': init.contentType ?? 'application/json' } } : {}) })
        .catch(() => undefined);
      if (!pending) throw new Error(`capture of ${method} ${path} failed`);
      return pending;
    },
    get sessionId() {
      return capturer.session!.id;
    },
    serverPublicKey: new Uint8Array(Buffer.from(pk, 'base64url')),
    kid,
    addr: () => `198.51.100.${++addrCounter}`,
  };
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await stopAll();
});

async function normalRoundTrip(): Promise<void> {
  const n = ++roundTrips;
  const res = await normal.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ n });
}

function expectAnswer(c: HostileCase, r: RawResponse): void {
  const detail = `${c.id} ${c.title}: got ${r.status} ${r.headers['nen-error'] ?? '-'} ${r.body.toString('utf8').slice(0, 200)}`;
  expect(r.status, detail).toBe(c.expect.status);
  if (c.expect.code) {
    expect(r.headers['nen-error'], detail).toBe(c.expect.code);
    const j = JSON.parse(r.body.toString('utf8')) as { error: { code: string; message: string } };
    expect(j.error.code).toBe(c.expect.code);
    expect(j.error.message).toMatch(/^nen: /);
  }
  // Generic wire messages only: no stack traces or internals on the wire.
  expect(r.body.toString('utf8')).not.toMatch(/at .*\.(js|ts):\d+|TypeError|RangeError/);
}

describe('hostile-input battery (live next start)', () => {
  it('has at least 40 cases with unique ids, and HOSTILE_CASES.md is up to date', () => {
    expect(HOSTILE_CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(HOSTILE_CASES.map((c) => c.id)).size).toBe(HOSTILE_CASES.length);
    const file = join(appDir, 'test/HOSTILE_CASES.md');
    const md = renderMarkdown();
    if (process.env.NEN_UPDATE_TABLES === '1' || !existsSync(file)) writeFileSync(file, md);
    expect(readFileSync(file, 'utf8')).toBe(md);
  });

  it('the normal client works before the battery', async () => {
    await normalRoundTrip();
    normalSessionId = normal.session?.id;
    expect(normalSessionId).toBeTruthy();
  });

  for (const c of HOSTILE_CASES.filter((x) => (x.runner ?? 'raw') === 'raw')) {
    it(`${c.id} ${c.title} → ${c.expect.status} ${c.expect.code ?? ''}`, async () => {
      const built = await c.build!(ctx);
      for (const p of built.pre ?? []) {
        const r = await rawRequest(server.url, p.req);
        expect(r.status, `${c.id} setup request`).toBe(p.status);
      }
      const r = await rawRequest(server.url, built.req, 10_000);
      expectAnswer(c, r);
      await normalRoundTrip();
    });
  }

  it('X01 handshake flood → 429 NEN_RATE_LIMITED for the flooding address, other clients unaffected', async () => {
    const c = HOSTILE_CASES.find((x) => x.id === 'X01')!;
    // A valid X-Wing pk_eph that is not the server's own key (PROTOCOL.md §3.2 refuses that one,
    // finding F1): the server key's ML-KEM half with the X25519 base point (u = 9) as the X25519 half.
    const hello = new Uint8Array(8 + ctx.serverPublicKey.length);
    hello.set([1, 0x64, 0x7a, 0, 0, 0, 0, 0]);
    hello.set(ctx.serverPublicKey, 8);
    hello.fill(0, hello.length - 32);
    hello[hello.length - 32] = 9;
    const flood = async () => {
      const out: RawResponse[] = [];
      for (let i = 0; i < 70; i++) {
        out.push(
          await rawRequest(server.url, {
            method: 'POST',
            path: '/api/nen/handshake',
            headers: [
              ['content-type', 'application/nen-handshake'],
              ['x-forwarded-for', '203.0.113.66'],
            ],
            body: hello,
          }),
        );
      }
      return out;
    };
    const bystander = async () => {
      await sleep(200);
      const other = createNenClient({ baseUrl: server.url, serverKey: server.pin });
      const res = await other.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"bystander":true}' });
      return { status: res.status, body: await res.json() };
    };
    const [answers, other] = await Promise.all([flood(), bystander()]);
    expect(answers.slice(0, 40).every((r) => r.status === 200)).toBe(true);
    const limited = answers.slice(40);
    expect(limited.length).toBe(30);
    for (const r of limited) {
      expectAnswer(c, r);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(other).toEqual({ status: 200, body: { bystander: true } });
    await normalRoundTrip();
  });

  it('B08 slow (trickled) body: answered when complete, other clients served meanwhile', async () => {
    const cap = await ctx.capture('POST', '/api/echo', { body: JSON.stringify({ slow: 'y'.repeat(200) }), contentType: 'application/json' });
    const slow = rawRequest(
      server.url,
      { method: cap.method, path: cap.path, headers: cap.headers, body: cap.body, trickle: { bytes: 8, everyMs: 100 } },
      20_000,
    );
    const t0 = Date.now();
    let served = 0;
    // 20 normal round trips while the slow body trickles in.
    for (let i = 0; i < 20; i++) {
      await normalRoundTrip();
      served++;
    }
    const r = await slow;
    expect(served).toBe(20);
    expect(r.ms).toBeGreaterThan(2000); // it really trickled
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/nen');
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('B09 abandoned upload: the socket closes mid-body, the server keeps serving', async () => {
    const cap = await ctx.capture('POST', '/api/echo', { body: JSON.stringify({ abandoned: 'z'.repeat(4000) }), contentType: 'application/json' });
    for (let i = 0; i < 5; i++) {
      await expect(rawRequest(server.url, { method: 'POST', path: cap.path, headers: cap.headers, body: cap.body, abandonAfter: 100 })).rejects.toThrow(
        /abandoned/,
      );
    }
    await normalRoundTrip();
  });

  it('after the battery: server alive, no internal error logged, the normal session never re-handshook', async () => {
    expect(server.alive()).toBe(true);
    const m = await server.metrics();
    const internal = Object.entries(m.counters).filter(([k]) => /INTERNAL|internal|handler\.error/.test(k));
    expect(internal, server.log().slice(-3000)).toEqual([]);
    expect(server.log()).not.toMatch(/uncaught|unhandled/i);
    await normalRoundTrip();
    expect(normal.session?.id).toBe(normalSessionId);
  });
});
