/**
 * `withNenStream` handler results: a generator, an iterable, or (a promise of) a ReadableStream
 * such as the AI SDK's `toUIMessageStreamResponse().body`, read directly through its reader. Real
 * node:http server on 127.0.0.1, the real @nen/client: records arrive in order and as produced, a
 * client that stops reading cancels the source, and a handler that rejects or returns something
 * else gets a sealed 500 (never a 5xx in the clear, never a hang).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient, type NenClient } from '@nen/client';
import { SessionKeys, clientHandshakeStart, formatRequestHeader, loadBackend, parseServerKeyPin, requestAad, sealMessage, toBase64Url } from '@nen/core';
import { createNen, memoryStore } from '../src/index.js';
import { serve, type TestServer } from './http-harness.js';

const SEED = toBase64Url(new Uint8Array(32).map((_, i) => i + 7));
const dec = new TextDecoder();

let server: TestServer;
let client: NenClient;
/** A client whose fetch reads each streamed body whole (all records in one chunk) and counts its records. */
let batching: NenClient;
const wire: { records: number; edit?: (b: Uint8Array) => Uint8Array }[] = [];
const cancelled: { reason: unknown }[] = [];
const pulls = { n: 0 };

/** A source that produces one chunk per pull, forever, and records its cancellation. */
function endless(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        pulls.n++;
        c.enqueue(new TextEncoder().encode(`chunk-${pulls.n};`));
      },
      cancel(reason) {
        cancelled.push({ reason });
      },
    },
    { highWaterMark: 0 },
  );
}

beforeAll(async () => {
  const nen = createNen({ backend: 'auto', store: memoryStore({ shared: false }), serverKeys: `k1:${SEED}`, handshakeRateLimit: 0, logger: () => {} });
  server = await serve({
    '/api/nen/*': nen.routes,
    '/api/readable': {
      POST: nen.withNenStream(async () => {
        await new Promise((r) => setTimeout(r, 5)); // the handler awaits before it has its stream
        return new Response('data: a\n\ndata: b\n\ndata: c\n\n').body as ReadableStream<Uint8Array>;
      }),
    },
    '/api/strings': {
      POST: nen.withNenStream(
        () =>
          new ReadableStream<string>({
            start(c) {
              for (const s of ['x', 'yy', 'zzz']) c.enqueue(s);
              c.close();
            },
          }),
      ),
    },
    '/api/array': { POST: nen.withNenStream(() => ['one', 'two']) },
    '/api/rejects': {
      POST: nen.withNenStream(async () => {
        throw new Error('model unavailable');
      }),
    },
    '/api/not-a-stream': { POST: nen.withNenStream((() => 42) as unknown as () => Iterable<string>) },
  });
  client = createNenClient({ baseUrl: server.url, serverKey: (await nen.publicKeys())[0]!.pin });
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.headers.get('content-type') !== 'application/nen-stream') return res;
    let bytes: Uint8Array = new Uint8Array(await res.arrayBuffer());
    let records = 0;
    for (let o = 0; o < bytes.length; o += 4 + new DataView(bytes.buffer, bytes.byteOffset + o).getUint32(0)) records++;
    const w = wire[wire.length - 1];
    if (w) {
      w.records = records;
      if (w.edit) bytes = w.edit(bytes);
    }
    return new Response(bytes as Uint8Array<ArrayBuffer>, { status: res.status, headers: res.headers });
  };
  batching = createNenClient({ baseUrl: server.url, serverKey: (await nen.publicKeys())[0]!.pin, fetch: recording });
});

afterAll(async () => {
  await server?.close();
});

/** A Nen instance and a factory of sealed requests for it, with no HTTP in between. */
async function inProcess(logger: (e: unknown) => void = () => {}) {
  const backend = await loadBackend('auto');
  const nen = createNen({ backend, store: memoryStore({ shared: false }), serverKeys: `k1:${SEED}`, handshakeRateLimit: 0, logger });
  const c = clientHandshakeStart(backend, { pin: parseServerKeyPin((await nen.publicKeys())[0]!.pin) });
  const hs = await nen.routes.POST(
    new Request('http://127.0.0.1/api/nen/handshake', {
      method: 'POST',
      headers: { 'content-type': 'application/nen-handshake' },
      body: c.hello as Uint8Array<ArrayBuffer>,
    }),
  );
  const r = c.finish(new Uint8Array(await hs.arrayBuffer()));
  const keys = new SessionKeys(backend, r.secret, 0);
  let seq = 1n;
  const hello = async () => {
    const meta = { sessionId: r.sessionId, epoch: 0, seq: seq++, timestamp: Date.now(), flags: 0 };
    const body = sealMessage(keys.c2s, keys.c2sIv, meta.seq, requestAad(meta, 'POST', '/api/endless', 'application/json'), new TextEncoder().encode('{}'));
    return new Request('http://127.0.0.1/api/endless', {
      method: 'POST',
      headers: { nen: formatRequestHeader(meta), 'nen-type': 'application/json', 'content-type': 'application/nen' },
      body: body as Uint8Array<ArrayBuffer>,
    });
  };
  return { nen, hello };
}

async function collect(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const c of client.stream(path, { method: 'POST' })) out.push(dec.decode(c));
  return out;
}

/** The chunks the batching client hands over (the whole body arrives in one read), and the records on the wire. */
async function collectBatched(path: string, edit?: (b: Uint8Array) => Uint8Array): Promise<{ chunks: string[]; records: number }> {
  const w: { records: number; edit?: (b: Uint8Array) => Uint8Array } = { records: 0, edit };
  wire.push(w);
  const chunks: string[] = [];
  for await (const c of batching.stream(path, { method: 'POST' })) chunks.push(dec.decode(c));
  return { chunks, records: w.records };
}

describe('withNenStream sources', () => {
  it('a ReadableStream returned from an async handler is sealed record by record, then the final record', async () => {
    expect((await collect('/api/readable')).join('')).toBe('data: a\n\ndata: b\n\ndata: c\n\n');
  });

  it('a ReadableStream of strings: one record per string, in order', async () => {
    expect((await collect('/api/strings')).join('')).toBe('xyyzzz');
    // On the wire: one record per string, then the (empty) final record.
    expect(await collectBatched('/api/strings')).toEqual({ chunks: ['xyyzzz'], records: 4 });
  });

  it('a plain iterable still works', async () => {
    expect((await collect('/api/array')).join('')).toBe('onetwo');
    expect(await collectBatched('/api/array')).toEqual({ chunks: ['onetwo'], records: 3 });
  });

  it('records that arrive in one read are all authenticated before any is handed over: a bad one fails the batch', async () => {
    const recordStarts = (b: Uint8Array) => {
      const out: number[] = [];
      for (let o = 0; o < b.length; o += 4 + new DataView(b.buffer, b.byteOffset + o).getUint32(0)) out.push(o);
      return out;
    };
    const edits: [string, (b: Uint8Array) => Uint8Array][] = [
      // a flipped tag byte in the third record (the first two are valid and must not come out)
      [
        'NEN_STREAM_INVALID',
        (b) => {
          const at = recordStarts(b)[3]! - 1;
          const m = b.slice();
          m[at] = m[at]! ^ 1;
          return m;
        },
      ],
      // records 2 and 3 swapped
      [
        'NEN_STREAM_INVALID',
        (b) => {
          const [, r1, r2, r3] = recordStarts(b) as [number, number, number, number];
          return Buffer.concat([b.subarray(0, r1), b.subarray(r2, r3), b.subarray(r1, r2), b.subarray(r3)]);
        },
      ],
      // the final record cut off
      ['NEN_STREAM_TRUNCATED', (b) => b.subarray(0, recordStarts(b)[3]!)],
    ];
    for (const [code, edit] of edits) {
      const got: string[] = [];
      const err = await (async () => {
        wire.push({ records: 0, edit });
        for await (const c of batching.stream('/api/strings', { method: 'POST' })) got.push(dec.decode(c));
      })().catch((e: unknown) => e);
      expect(err, code).toMatchObject({ code });
      // Truncation: every record that came was authentic, so its bytes may be handed over before the end shows the cut.
      expect(got.join(''), code).toBe(code === 'NEN_STREAM_TRUNCATED' ? 'xyyzzz' : '');
    }
  });

  it('cancelling the sealed response cancels the source stream (no endless production)', async () => {
    // in-process: the route's own Response, as Next.js cancels it when the client goes away
    const { nen, hello } = await inProcess();
    const res = await nen.withNenStream(() => endless())(await hello(), {});
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let i = 0; i < 3; i++) expect((await reader.read()).done).toBe(false);
    await reader.cancel('client went away');
    expect(cancelled.length).toBe(1);
    const at = pulls.n;
    await new Promise((r) => setTimeout(r, 50));
    expect(pulls.n).toBe(at); // nothing pulls after the cancel
  });

  it('a cancel while the sealer waits for its source ends it quietly (no stream.error, source cancelled once)', async () => {
    const logs: unknown[] = [];
    const { nen, hello } = await inProcess((e) => logs.push(e));
    let sourceCancelled = 0;
    const first = new TextEncoder().encode('first');
    // Hands out one chunk, then never another until cancelled: the sealer's pull is left waiting.
    let pulled: () => void = () => {};
    const waiting = new Promise<void>((r) => {
      pulled = r;
    });
    const stalled = new ReadableStream<Uint8Array>(
      {
        start(c) {
          c.enqueue(first);
        },
        pull() {
          pulled(); // the sealer asked for the second chunk
        },
        cancel() {
          sourceCancelled++;
        },
      },
      { highWaterMark: 0 },
    );
    const res = await nen.withNenStream(() => stalled)(await hello(), {});
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    const pending = reader.read();
    await waiting; // the sealer's pull is now waiting on the source (a fixed 10 ms could come too soon under load)
    await reader.cancel('client went away');
    expect((await pending).done).toBe(true);
    expect(sourceCancelled).toBe(1);
    await new Promise((r) => setTimeout(r, 10));
    expect(logs.filter((l) => (l as { event?: string }).event === 'stream.error')).toEqual([]);
  });

  it('a handler that rejects, or returns no stream, gets a sealed 500 NEN_INTERNAL', async () => {
    for (const path of ['/api/rejects', '/api/not-a-stream']) {
      const res = await client.fetch(path, { method: 'POST' });
      expect(res.status).toBe(500); // verified by the client: a sealed answer
      const body = (await res.json()) as { error: { code: string } };
      expect(body.error.code).toBe('NEN_INTERNAL');
    }
  });
});
