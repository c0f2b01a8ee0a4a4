/**
 * Streaming through the adapters with backpressure, over real HTTP on 127.0.0.1 (Hono on
 * @hono/node-server, Express 5, node:http): a 32 MiB sealed upload reaches the handler while the
 * client is still producing it (nothing buffers the whole body), a 32 MiB sealed download reaches
 * the client while the server is still producing it, a reader that stops reading stops the
 * producer (bounded by socket and stream buffers, not the stream length), and cancelling the
 * download finalises the server's generator. Also: URLs the adapter cannot build and bodies a
 * parser already consumed are 400 NEN_MALFORMED, not 5xx.
 */
import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { CHUNK, type Fixture, probe, setup } from './fixture.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await setup();
});
afterAll(async () => {
  await fx?.close();
});

const TOTAL_CHUNKS = 512; // 32 MiB

function producer(chunks: number): ReadableStream<Uint8Array> {
  probe.produced = 0;
  probe.producedAtFirstUpload = -1;
  const chunk = new Uint8Array(CHUNK).fill(1);
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (probe.produced === chunks) return c.close();
        probe.produced++;
        c.enqueue(chunk.slice());
      },
    },
    { highWaterMark: 0 },
  );
}

/** `read()` once it has not changed for `quietMs`, or undefined if it keeps changing past `ms` (a fixed sleep guessed when production had stalled). */
async function settled(read: () => number, quietMs: number, ms: number): Promise<number | undefined> {
  const end = Date.now() + ms;
  let last = read();
  let since = Date.now();
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    const now = read();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return now;
  }
  return undefined;
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return cond();
}

describe.each(['hono', 'express', 'node'] as const)('%s: streaming with backpressure', (name) => {
  const url = () => fx.servers.find((s) => s.name === name)!.url;

  it('32 MiB streamed upload: the handler reads while the client still produces', async () => {
    const c = createNenClient({ baseUrl: url(), serverKey: fx.pin });
    const res = await c.fetch('/api/upload', { method: 'POST', body: producer(TOTAL_CHUNKS), headers: { 'content-type': 'application/octet-stream' } });
    const out = (await res.json()) as { bytes: number; producedAtFirst: number };
    expect(out.bytes).toBe(TOTAL_CHUNKS * CHUNK);
    expect(out.producedAtFirst).toBeGreaterThan(0);
    expect(out.producedAtFirst).toBeLessThan(TOTAL_CHUNKS / 2);
  });

  it('32 MiB streamed download: the client reads while the server still produces', async () => {
    const c = createNenClient({ baseUrl: url(), serverKey: fx.pin });
    let bytes = 0;
    let producedAtFirst = -1;
    for await (const chunk of c.stream(`/api/download?n=${TOTAL_CHUNKS}`, { method: 'POST' })) {
      if (bytes === 0) producedAtFirst = probe.downloadProduced;
      bytes += chunk.length;
    }
    expect(bytes).toBe(TOTAL_CHUNKS * CHUNK);
    expect(producedAtFirst).toBeLessThan(TOTAL_CHUNKS / 2);
  });

  it('a reader that stops reading stops the producer; cancel finalises it', async () => {
    const c = createNenClient({ baseUrl: url(), serverKey: fx.pin });
    const n = 4096; // 256 MiB if nothing pushed back
    const res = await c.fetch(`/api/download?n=${n}`, { method: 'POST' });
    const reader = res.body!.getReader();
    await reader.read();
    const stalled = await settled(() => probe.downloadProduced, 200, 15_000);
    expect(stalled, 'the producer stopped (no new chunk for 200 ms within 15 s)').toBeDefined();
    expect(stalled! * CHUNK).toBeLessThan(48 * 1024 * 1024); // socket + stream buffers, not the stream
    expect(probe.downloadFinished).toBe(false); // stalled, not run to its end
    await reader.cancel();
    expect(await until(() => probe.downloadFinished, 3000)).toBe(true);
  });
});

describe('node adapter: input it cannot use', () => {
  let server: Server;
  let base: string;
  let port: number;
  beforeAll(async () => {
    const ex = express();
    ex.post('/api/parsed', express.raw({ type: '*/*' }), toNodeHandler(fx.nen.withNen(async () => ({ ok: true }))));
    ex.post('/api/echo', toNodeHandler(fx.nen.withNen(async () => ({ ok: true }))));
    server = createServer(ex);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a body parser ran first → 400 NEN_MALFORMED (not 5xx)', async () => {
    const res = await fetch(`${base}/api/parsed`, { method: 'POST', body: 'x' });
    await res.arrayBuffer();
    expect([res.status, res.headers.get('nen-error')]).toEqual([400, 'NEN_MALFORMED']);
  });

  it('an unparseable Host → 400 NEN_MALFORMED (not 5xx)', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.end('POST /api/echo HTTP/1.1\r\nHost: [bad\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
      let out = '';
      s.setEncoding('latin1');
      s.on('data', (d) => (out += d));
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });
    expect(raw.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 400/);
    expect(raw.toLowerCase()).toContain('nen-error: nen_malformed');
  });
});
