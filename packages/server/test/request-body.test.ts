/**
 * The request a withNen handler sees: its body accessors return exactly the plaintext bytes,
 * whatever buffer the server opened or inflated them into (a view over zlib's output buffer must
 * never leak through `arrayBuffer()`: handlers hashing or echoing it would see extra bytes).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { createNen, memoryStore } from '../src/index.js';
import { serve, type TestServer } from './http-harness.js';

describe('withNen request body accessors', () => {
  let server: TestServer;
  let pin: string;
  beforeAll(async () => {
    const nen = createNen({ store: memoryStore() });
    const digest = async (b: ArrayBuffer | Uint8Array) => ({ n: b.byteLength, sha256: createHash('sha256').update(new Uint8Array(b)).digest('hex') });
    server = await serve({
      '/api/nen/*': nen.routes,
      '/api/ab': { POST: nen.withNen(async (req: Request) => digest(await req.arrayBuffer())) },
      '/api/bytes': { POST: nen.withNen(async (req: Request) => digest(await req.bytes())) },
      '/api/text': { POST: nen.withNen(async (req: Request) => ({ text: await req.text() })) },
    });
    pin = (await nen.publicKeys())[0]!.pin;
  });
  afterAll(async () => server?.close());

  const body = 'x'.repeat(700) + 'y'.repeat(324); // 1 KiB, compressible
  const want = { n: 1024, sha256: createHash('sha256').update(body).digest('hex') };

  for (const compress of [false, true]) {
    it(`arrayBuffer(), bytes() and text() are exactly the body (compress: ${compress})`, async () => {
      const client = createNenClient({ baseUrl: server.url, serverKey: pin, compress });
      const post = (path: string) => client.fetch(path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
      expect(await (await post('/api/ab')).json()).toEqual(want);
      expect(await (await post('/api/bytes')).json()).toEqual(want);
      expect(await (await post('/api/text')).json()).toEqual({ text: body });
    });
  }
});
