/**
 * The closed-loop driver and the bench transport against tiny local node:http servers (127.0.0.1,
 * started and stopped by the test): request counts, error accounting, interleaving, round-robin
 * across targets, exact wire byte counts and the tamper hooks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createFetch } from '../lib/transport.js';
import { runSlice, runInterleaved, createAccumulator, finish } from '../lib/driver.js';

interface Srv {
  server: http.Server;
  base: string;
  hits: number;
  inFlight: number;
  maxInFlight: number;
}

async function startEcho(): Promise<Srv> {
  const s: Srv = { server: http.createServer(), base: '', hits: 0, inFlight: 0, maxInFlight: 0 };
  s.server.on('request', (req, res) => {
    s.hits++;
    s.inFlight++;
    s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      setTimeout(() => {
        s.inFlight--;
        if (req.url?.startsWith('/fail')) {
          res.writeHead(500).end('no');
          return;
        }
        res.writeHead(200, {
          'content-type': req.headers['content-type'] ?? 'application/octet-stream',
          'x-method': req.method ?? '',
          'x-path': req.url ?? '',
        });
        res.end(body);
      }, 2);
    });
  });
  await new Promise<void>((r) => s.server.listen(0, '127.0.0.1', r));
  s.base = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
  return s;
}

let a: Srv;
let b: Srv;
const agent = createAgent({ connections: 64, timeoutMs: 5000 });

beforeAll(async () => {
  a = await startEcho();
  b = await startEcho();
});
afterAll(async () => {
  await agent.close();
  for (const s of [a, b]) await new Promise((r) => s.server.close(r));
});

describe('transport', () => {
  it('round-robins origins and keeps path and query', async () => {
    const f = createFetch({ agent, targets: [a.base, b.base] });
    const before = [a.hits, b.hits];
    const paths = [];
    for (let i = 0; i < 6; i++) {
      const res = await f(`${a.base}/p/${i}?q=${i}`, { method: 'POST', body: `x${i}` });
      expect(await res.text()).toBe(`x${i}`);
      paths.push(res.headers.get('x-path'));
    }
    expect([a.hits - before[0]!, b.hits - before[1]!]).toEqual([3, 3]);
    expect(paths[5]).toBe('/p/5?q=5');
  });

  it('counts exact wire bytes and lets a tamper hook rewrite the request', async () => {
    const wires: Array<{ reqBytes: number; resBytes: number; status: number; method: string }> = [];
    const f = createFetch({
      agent,
      onWire: (e: (typeof wires)[number]) => wires.push(e),
      tamper: (req: { method: string; url: string; headers: Record<string, string>; body?: Uint8Array }) => ({
        ...req,
        method: 'PUT',
        body: new Uint8Array([...(req.body ?? []), 0x21]),
      }),
    });
    const res = await f(`${a.base}/x`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: new Uint8Array(1000).fill(65) });
    const text = await res.text();
    expect(text.length).toBe(1001);
    expect(text.endsWith('!')).toBe(true);
    expect(res.headers.get('x-method')).toBe('PUT');
    expect(wires).toEqual([expect.objectContaining({ reqBytes: 1001, resBytes: 1001, status: 200, method: 'PUT' })]);
  });

  it('a tamper hook may answer instead of the server, and tamperResponse may replace the answer', async () => {
    const before = a.hits;
    const f = createFetch({ agent, tamper: () => new Response('held', { status: 503 }) });
    const res = await f(`${a.base}/held`);
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('held');
    expect(a.hits).toBe(before);
    const g = createFetch({ agent, tamperResponse: async (_req: unknown, r: Response) => new Response((await r.text()).toUpperCase(), { status: 201 }) });
    const r2 = await g(`${a.base}/y`, { method: 'POST', body: 'abc' });
    expect(r2.status).toBe(201);
    expect(await r2.text()).toBe('ABC');
  });
});

describe('closed-loop driver', () => {
  it('keeps exactly `concurrency` requests in flight and honours a request budget', async () => {
    const f = createFetch({ agent });
    a.maxInFlight = 0;
    const acc = await runSlice({
      concurrency: 8,
      requests: 200,
      op: async () => {
        const r = await f(`${a.base}/ok`, { method: 'POST', body: 'ping' });
        if ((await r.text()) !== 'ping') throw new Error('mismatch');
      },
    });
    const r = finish(acc, { cores: 2 });
    expect(r.requests).toBe(200);
    expect(r.errors).toBe(0);
    expect(r.latencyMs.n).toBe(200);
    expect(r.latencyMs.p50).toBeGreaterThan(1);
    expect(a.maxInFlight).toBe(8);
    expect(r.rps).toBeGreaterThan(0);
    expect(r.client.cpuShareOfMachine).toBeGreaterThan(0);
  });

  it('counts failures by kind instead of hiding them', async () => {
    const f = createFetch({ agent });
    const acc = await runSlice({
      concurrency: 4,
      requests: 40,
      op: async (_w: number, i: number) => {
        const r = await f(`${a.base}/${i % 4 === 0 ? 'fail' : 'ok'}`, { method: 'POST', body: 'z' });
        await r.arrayBuffer();
        if (r.status !== 200) throw Object.assign(new Error(`status ${r.status}`), { code: 'HTTP', status: r.status });
      },
    });
    const r = finish(acc);
    expect(r.requests + r.errors).toBe(40);
    expect(r.errors).toBe(10);
    expect(r.errorKinds).toEqual({ 'HTTP 500': 10 });
    expect(r.errorSamples[0]).toBe('status 500');
  });

  it('stops at the deadline and interleaves modes', async () => {
    const f = createFetch({ agent });
    const order: string[] = [];
    const mk = (path: string) => async () => {
      const r = await f(`${a.base}${path}`, { method: 'POST', body: 'q' });
      await r.text();
    };
    const t0 = performance.now();
    const r = await runInterleaved({
      modes: { encrypted: mk('/e'), plain: mk('/p') },
      concurrency: 4,
      durationMs: 400,
      sliceMs: 100,
      onSlice: (m: string) => order.push(m),
    });
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThan(750);
    expect(elapsed).toBeLessThan(3000);
    expect(order).toEqual(['encrypted', 'plain', 'plain', 'encrypted', 'encrypted', 'plain', 'plain', 'encrypted']);
    expect(r.encrypted.requests).toBeGreaterThan(20);
    expect(r.plain.requests).toBeGreaterThan(20);
    expect(r.encrypted.seconds).toBeGreaterThan(0.35);
  });

  it('rounds an odd number of alternating rounds up to an even one (each mode leads as often)', async () => {
    const order: string[] = [];
    const r = await runInterleaved({
      modes: { encrypted: async () => {}, plain: async () => {} },
      concurrency: 1,
      durationMs: 50,
      sliceMs: 10,
      onSlice: (m: string) => order.push(m),
    });
    expect(order).toEqual(['encrypted', 'plain', 'plain', 'encrypted', 'encrypted', 'plain', 'plain', 'encrypted', 'encrypted', 'plain', 'plain', 'encrypted']);
    expect(r.encrypted.seconds).toBeGreaterThan(0.045);
    const one: string[] = [];
    await runInterleaved({ modes: { only: async () => {} }, concurrency: 1, durationMs: 30, sliceMs: 10, onSlice: (m: string) => one.push(m) });
    expect(one).toHaveLength(3);
  });

  it('rejects a run without a bound', async () => {
    await expect(runSlice({ concurrency: 1, op: async () => {}, acc: createAccumulator() })).rejects.toThrow(/durationMs or requests/);
  });
});
