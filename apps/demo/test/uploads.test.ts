/**
 * Issue 20, parts 1-2, under a real `next build && next start` of the demo: the hostile uploads of
 * packages/server/test/hostile/cases.ts (same bare-socket sender as the Hono / Express / node:http
 * suite there) against the Node routes (/api/echo, /api/nen/handshake) and the Edge routes
 * (/api/edge/echo, /api/edge/nen/handshake, `runtime = 'edge'`), default limits (4 MiB, 4096):
 * 413 + `nen-error: NEN_TOO_LARGE` within 1 s of crossing the limit; Node's fetch and nenFetch
 * read the 413; the server's memory after a full GC stays within a bound.
 *
 * Pitfalls:
 *  - Under `next start` Next sends an Edge route's answer only once the request body has ended
 *    (its Edge sandbox awaits the body's `finalize()`, next/dist/server/web/sandbox/sandbox.js),
 *    whatever the route does: the "Next holds an Edge answer" rows pin that with no Nen code on
 *    the request (the catch-all's 404). So the demo's next.config.ts rewrites an over-limit
 *    declared length on /api/edge/* to a Node route that answers 413 at once
 *    (lib/edge-body-limit.ts), and a chunked body on Edge is answered when it ends (within 1 s of
 *    the crossing for these bodies).
 *  - Memory comes from memory-probe.cjs, preloaded with --expose-gc: SIGUSR2 → GC → JSON file; the
 *    lowest of three readings (settledMemory), as one reading may catch the last upload in flight.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { CASES, DEFAULT_LIMIT, HANDSHAKE_HEADERS, HELLO_LIMIT, requestFor, requestHeaders } from '../../../packages/server/test/hostile/cases';
import { type Framing, sendHostile } from '../../../packages/server/test/hostile/sender';
import { decimalOver, sealedLimit } from '../lib/edge-body-limit';
import { type LiveServer, sleep, startNext } from './live';

const probeFile = join(tmpdir(), `nen-uploads-memory-${process.pid}`);
let server: LiveServer;

beforeAll(async () => {
  server = await startNext({
    env: {
      NEN_LOG: 'silent',
      NEN_HANDSHAKE_RATE: '0',
      NEN_MAX_BODY: undefined,
      NEN_MEMORY_PROBE: probeFile,
      NODE_OPTIONS: `--expose-gc --require ${join(dirname(fileURLToPath(import.meta.url)), 'memory-probe.cjs')}`,
    },
  });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  rmSync(`${probeFile}.${server?.pid()}`, { force: true });
});

/** The server's memory after a full GC (memory-probe.cjs). */
async function memory(): Promise<{ heapUsed: number; arrayBuffers: number; rss: number }> {
  const file = `${probeFile}.${server.pid()}`;
  rmSync(file, { force: true });
  process.kill(server.pid()!, 'SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(50);
  await sleep(50);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The lowest of three readings 300 ms apart (heap + array buffers): a body still in flight when the
 * first one is taken (the last hostile request's upload, Next's Edge sandbox copies) is gone by a
 * later one, while a retained body is in every reading, so the bound below still catches it.
 */
async function settledMemory(): Promise<{ heapUsed: number; arrayBuffers: number; rss: number }> {
  let best = await memory();
  for (let i = 0; i < 2; i++) {
    await sleep(300);
    const m = await memory();
    if (m.heapUsed + m.arrayBuffers < best.heapUsed + best.arrayBuffers) best = m;
  }
  return best;
}

const ROUTES = {
  node: { echo: '/api/echo', handshake: '/api/nen/handshake', sessionPath: '/api/nen' },
  edge: { echo: '/api/edge/echo', handshake: '/api/edge/nen/handshake', sessionPath: '/api/edge/nen' },
} as const;

describe.each(['node', 'edge'] as const)('next start, %s routes: hostile uploads', (runtime) => {
  const routes = ROUTES[runtime];

  it.each(CASES.map((c) => [`${c.name}, ${c.pace}`, c] as const))('%s', async (_n, c) => {
    const r = await sendHostile(requestFor(c, server.url, routes));
    expect({ status: r.status, code: r.code }, `error: ${r.error}`).toEqual({ status: 413, code: 'NEN_TOO_LARGE' });
    expect(r.answerAfterCrossingMs).toBeLessThan(1000);
  });

  it('a ClientHello declaring 5000 bytes (limit 4096) that sends 100 and waits: 413 at once', async () => {
    const r = await sendHostile({
      url: server.url,
      path: routes.handshake,
      headers: { ...HANDSHAKE_HEADERS },
      framing: { kind: 'lying-length', declared: 5000, send: 100 },
      limit: HELLO_LIMIT,
      pace: 'paced',
    });
    expect({ status: r.status, code: r.code }, `error: ${r.error}`).toEqual({ status: 413, code: 'NEN_TOO_LARGE' });
    expect(r.answerAfterCrossingMs).toBeLessThan(1000);
  });

  it('fetch and nenFetch uploading 5 MiB at full speed read the 413', async () => {
    const client = createNenClient({ baseUrl: server.url, serverKey: server.pin, sessionPath: routes.sessionPath });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(server.url + routes.echo, { method: 'POST', headers: requestHeaders(), body: new Uint8Array(5 << 20) });
      expect([res.status, res.headers.get('nen-error')]).toEqual([413, 'NEN_TOO_LARGE']);
      await res.arrayBuffer();
      await expect(client.fetch(routes.echo, { method: 'POST', body: new Uint8Array(5 << 20) })).rejects.toMatchObject({ code: 'NEN_TOO_LARGE', status: 413 });
    }
    // and the routes still serve a normal request
    const ok = await client.fetch(routes.echo, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
  });
});

describe('next start: Next holds an Edge answer until the request body ends (no Nen code on the request)', () => {
  // The catch-all Edge route answers 404 for an unknown path without reading the body; Next's own
  // Node-side 404 is the control.
  const bare = { edge: '/api/edge/no-such-route', node: '/api/no-such-route' } as const;
  const send = (path: string, framing: Framing) =>
    sendHostile({ url: server.url, path, headers: {}, framing, limit: 0, pace: 'paced', keepWriting: false, timeoutMs: 1500 });

  it("a declared length under the rewrites' threshold, never completed: Edge does not answer, Node does", async () => {
    const framing: Framing = { kind: 'lying-length', declared: 1000, send: 100 };
    const edge = await send(bare.edge, framing);
    expect({ status: edge.status, error: edge.error }).toEqual({ status: 0, error: 'timeout' });
    const node = await send(bare.node, framing);
    expect(node.status).toBe(404);
  });

  it('a chunked body: Edge answers only once all of it was sent, Node before', async () => {
    const framing: Framing = { kind: 'chunked', total: 1 << 20 };
    const edge = await send(bare.edge, framing);
    expect([edge.status, edge.bodyBytesWritten]).toEqual([404, 1 << 20]);
    const node = await send(bare.node, framing);
    expect(node.status).toBe(404);
    expect(node.bodyBytesWritten).toBeLessThan(1 << 20);
  });
});

describe("lib/edge-body-limit: the rewrites' content-length pattern", () => {
  it('matches exactly the decimal integers over the limit (leading zeros too)', () => {
    for (const limit of [0, 9, 10, 99, 4096, HELLO_LIMIT, DEFAULT_LIMIT, sealedLimit({}), 1_000_000, 4_199_999]) {
      const re = new RegExp(`^(?:${decimalOver(limit)})$`);
      const values = [0, 1, limit - 1, limit, limit + 1, limit + 9, limit + 10, limit * 10, 4294967296, 2 ** 53];
      for (let i = 0; i < 200; i++) values.push(Math.floor(Math.random() * limit * 3));
      for (const v of values.filter((x) => x >= 0)) {
        expect(re.test(String(v)), `${v} vs ${limit}`).toBe(v > limit);
        expect(re.test(`00${v}`), `00${v} vs ${limit}`).toBe(v > limit);
      }
      expect(re.test('99999999999999999999999')).toBe(true);
      for (const bad of ['', '-1', '1e9', ' 5000000', '5000000x', 'abc']) expect(re.test(bad), bad).toBe(false);
    }
    expect(sealedLimit({})).toBe(DEFAULT_LIMIT);
  });
});

describe('next start: memory after the hostile uploads', () => {
  it('heap + array buffers (after a full GC) within 24 MiB of the baseline', async () => {
    const full = CASES.filter((c) => c.pace === 'full');
    const round = async () => {
      for (const runtime of ['node', 'edge'] as const) for (const c of full) await sendHostile(requestFor(c, server.url, ROUTES[runtime]));
    };
    await round();
    const before = await settledMemory();
    await round();
    await round();
    const after = await settledMemory();
    // 2 rounds x 8 requests, each reading up to the 4 MiB limit (Next's Edge sandbox also buffers up
    // to 10 MB of each body twice while it is in flight): one retained body per request would be
    // >= 64 MiB. 24 MiB leaves room for Next's and V8's caches, not for retained bodies.
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    expect(grown, JSON.stringify({ before, after })).toBeLessThan(24 * 1024 * 1024);
  });
});
