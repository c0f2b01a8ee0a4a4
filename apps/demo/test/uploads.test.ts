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
 *    whatever the route does. So on Edge a chunked or paced body is answered when it ends (within
 *    1 s of the crossing for these bodies), and a Content-Length that lies is not answered while the
 *    client waits: that row pins Next's behaviour (it fails, and should be turned into a 413 row,
 *    when a Next release answers it).
 *  - Memory comes from memory-probe.cjs, preloaded with --expose-gc: SIGUSR2 → GC → JSON file.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { CASES, type HostileCase, requestFor, requestHeaders } from '../../../packages/server/test/hostile/cases';
import { sendHostile } from '../../../packages/server/test/hostile/sender';
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

const ROUTES = {
  node: { echo: '/api/echo', handshake: '/api/nen/handshake', sessionPath: '/api/nen' },
  edge: { echo: '/api/edge/echo', handshake: '/api/edge/nen/handshake', sessionPath: '/api/edge/nen' },
} as const;

/** On Edge a declared length that the client never completes gets no answer (see the header). */
const edgeWaitsForTheBody = (c: HostileCase) => c.framing.kind === 'lying-length';

describe.each(['node', 'edge'] as const)('next start, %s routes: hostile uploads', (runtime) => {
  const routes = ROUTES[runtime];

  it.each(CASES.map((c) => [`${c.name}, ${c.pace}`, c] as const))('%s', async (_n, c) => {
    if (runtime === 'edge' && edgeWaitsForTheBody(c)) {
      const r = await sendHostile({ ...requestFor(c, server.url, routes), timeoutMs: 1500 });
      expect({ status: r.status, error: r.error }).toEqual({ status: 0, error: 'timeout' });
      return;
    }
    const r = await sendHostile(requestFor(c, server.url, routes));
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

describe('next start: memory after the hostile uploads', () => {
  it('heap + array buffers (after a full GC) within 24 MiB of the baseline', async () => {
    const full = CASES.filter((c) => c.pace === 'full' && !edgeWaitsForTheBody(c));
    const round = async () => {
      for (const runtime of ['node', 'edge'] as const) for (const c of full) await sendHostile(requestFor(c, server.url, ROUTES[runtime]));
    };
    await round();
    const before = await memory();
    await round();
    await round();
    const after = await memory();
    // 2 rounds x 8 requests, each reading up to the 4 MiB limit (Next's Edge sandbox also buffers up
    // to 10 MB of each body twice while it is in flight): one retained body per request would be
    // >= 64 MiB. 24 MiB leaves room for Next's and V8's caches, not for retained bodies.
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    expect(grown, JSON.stringify({ before, after })).toBeLessThan(24 * 1024 * 1024);
  });
});
