/**
 * Issue 20, parts 1-2, on the surfaces this package serves itself: Hono (@hono/node-server),
 * Express 5 and plain node:http, in a child process (surfaces.mjs) so that client and server do not
 * share an event loop and the server's memory is its own. (Next.js Node and Edge routes:
 * apps/demo/test/uploads.test.ts, with the same cases and sender.)
 *  - every hostile body of cases.ts, paced and at full speed over a bare socket, is answered
 *    413 + `nen-error: NEN_TOO_LARGE` within 1 s of crossing the limit, and the client reads it;
 *  - Node's fetch and nenFetch uploading 5 and 64 MiB at full speed get the 413 (nenFetch throws
 *    NEN_TOO_LARGE with status 413), not EPIPE / ECONNRESET: the server drains before closing;
 *  - the server's memory after all of it (GC'd) is within a bound, see the last test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { CASES, requestFor, requestHeaders } from './cases.js';
import { sendHostile } from './sender.js';

const here = dirname(fileURLToPath(import.meta.url));
const SURFACES = ['hono', 'express', 'node'] as const;
const PATHS = { echo: '/api/echo', handshake: '/api/nen/handshake' };

interface Memory {
  heapUsed: number;
  arrayBuffers: number;
  external: number;
  rss: number;
}

let child: ChildProcess;
let ports: Record<(typeof SURFACES)[number], number>;
let pin: string;
let baseline: Memory;

function memory(): Promise<Memory> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Memory));
    child.send('memory');
  });
}

beforeAll(async () => {
  child = spawn(process.execPath, ['--expose-gc', join(here, 'surfaces.mjs')], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString()));
    child.once('exit', (code) => reject(new Error(`surfaces.mjs exited (${code})`)));
  });
  ({ ports, pin } = JSON.parse(line) as { ports: typeof ports; pin: string });
  // one of each case first, so that the baseline has every code path loaded
  for (const s of SURFACES) for (const c of CASES.filter((x) => x.pace === 'full')) await sendHostile(requestFor(c, url(s), PATHS));
  baseline = await memory();
});

afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.send('stop');
  await exited;
});

const url = (s: (typeof SURFACES)[number]) => `http://127.0.0.1:${ports[s]}`;

describe.each(SURFACES)('%s: hostile uploads', (s) => {
  it.each(CASES.map((c) => [`${c.name}, ${c.pace}`, c] as const))('%s → 413 NEN_TOO_LARGE within 1 s of crossing the limit', async (_n, c) => {
    const r = await sendHostile(requestFor(c, url(s), PATHS));
    expect({ status: r.status, code: r.code }, `error: ${r.error}`).toEqual({ status: 413, code: 'NEN_TOO_LARGE' });
    expect(r.answerAfterCrossingMs).toBeLessThan(1000);
  });

  it('fetch and nenFetch uploading 5 to 64 MiB at full speed read the 413, not a network error', async () => {
    // Before the drain, about one in three of these failed with EPIPE on express and node:http.
    // 64 MiB (fetch) and 16 MiB (nenFetch) are past the drain's 8 MiB: the client must already have
    // read the answer when the server closes.
    const client = createNenClient({ baseUrl: url(s), serverKey: pin });
    for (const size of [5 << 20, 5 << 20, 5 << 20, 64 << 20]) {
      const res = await fetch(`${url(s)}/api/echo`, { method: 'POST', headers: requestHeaders(), body: new Uint8Array(size) });
      expect([res.status, res.headers.get('nen-error')]).toEqual([413, 'NEN_TOO_LARGE']);
      await res.arrayBuffer();
    }
    for (const size of [5 << 20, 5 << 20, 5 << 20, 16 << 20]) {
      await expect(client.fetch('/api/echo', { method: 'POST', body: new Uint8Array(size) })).rejects.toMatchObject({ code: 'NEN_TOO_LARGE', status: 413 });
    }
  });
});

describe('the drain after an early answer is bounded in time', () => {
  it.each(['express', 'node'] as const)(
    '%s: a client that declared 2^32 bytes and stops sending is disconnected ~DRAIN_MAX_MS (2 s) after its 413',
    async (s) => {
      const lie = CASES.find((c) => c.framing.kind === 'lying-length')!;
      const r = await sendHostile({ ...requestFor(lie, url(s), PATHS), awaitClose: true, timeoutMs: 6000 });
      expect([r.status, r.code, r.headers.connection, r.headers['content-length']]).toEqual([413, 'NEN_TOO_LARGE', 'close', expect.stringMatching(/^\d+$/)]);
      expect(r.closedAfterAnswerMs).toBeGreaterThan(1500);
      expect(r.closedAfterAnswerMs).toBeLessThan(3000);
    },
  );
});

describe('server memory after the hostile uploads', () => {
  it('heap + array buffers (after a full GC) within 16 MiB of the baseline', async () => {
    // Each encrypted case reads up to the 4 MiB limit (fetch offered up to 64 MiB); one retained
    // body per request would be >= 4 MiB x 18 of them per surface. 16 MiB leaves room for compiled
    // code and the session/key caches, not for even one retained body per surface.
    for (const s of SURFACES) for (const c of CASES.filter((x) => x.pace === 'full')) await sendHostile(requestFor(c, url(s), PATHS));
    const after = await memory();
    const grown = after.heapUsed + after.arrayBuffers - (baseline.heapUsed + baseline.arrayBuffers);
    expect(grown, JSON.stringify({ baseline, after })).toBeLessThan(16 * 1024 * 1024);
  });
});
