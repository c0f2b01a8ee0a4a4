/**
 * The OHTTP gateway when the application fails (issue 23: "no 5xx and no hang"; PROTOCOL.md §11
 * "Errors"), over real HTTP on 127.0.0.1 with @nen/client in OHTTP mode: after decapsulation
 * every failure is answered *encapsulated*, so the relay and the network see an outer 200 and
 * nothing of the cause:
 *  - a `withNen` handler that throws, and a bare route handler that throws: an encapsulated 500
 *    `NEN_INTERNAL` whose body does not carry the exception's message;
 *  - an inner answer over `maxResponseBytes`: an encapsulated 500 `NEN_INTERNAL`;
 *  - an inner path the gateway does not list (also under another authority: routes are by path and
 *    the gateway never forwards) or a method its route does not: an encapsulated 404 `NEN_NOT_FOUND` / 405 `NEN_METHOD_NOT_ALLOWED`;
 *  - a `withNenStream` generator that throws after its first chunk: the chunked answer ends without
 *    its final chunk, so the client's read fails (never a shortened body that reads as complete).
 *    Over node:http the connection is cut; the client reports it as NEN_OHTTP_TRUNCATED, as
 *    session mode reports NEN_STREAM_TRUNCATED (client/src/ohttp/client.ts), not undici's TypeError.
 * The store failing (fail closed, the handler not run): test/redis/ohttp-store-down.test.ts.
 */
import { createServer } from 'node:http';
import { createNenClient } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { OHTTP_KEM, OhttpGatewayKeys, encodeKeyConfig, generateOhttpKey } from '@nen/core/ohttp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../src/adapters/node-http.js';
import { createNen, memoryStore } from '../src/index.js';
import { closeServer, listenLoopback } from './http-harness.js';

const SECRET = 'db password is hunter2';
const nen = createNen({ serverKeys: undefined, store: memoryStore({ shared: false }), logger: () => {} });
const keys = OhttpGatewayKeys.parse(generateOhttpKey(7, OHTTP_KEM.XWING));
const config = keys.configs()[0] as ReturnType<typeof keys.configs>[0];
const logged: string[] = [];
const gateway = nen.ohttpGateway({
  keys,
  maxResponseBytes: 4096,
  log: (e) => void logged.push(String(e.code)),
  routes: {
    '/api/crash': {
      POST: nen.withNen(async () => {
        throw new Error(SECRET);
      }),
    },
    '/api/bare-crash': {
      POST: async () => {
        throw new Error(SECRET);
      },
    },
    '/api/big': { POST: nen.withNen(async () => new Response(new Uint8Array(8192).fill(0x61))) },
    '/api/stream-crash': {
      POST: nen.withNenStream(async function* () {
        yield 'first ';
        await new Promise((r) => setTimeout(r, 10));
        throw new Error(SECRET);
      }),
    },
  },
});
const server = createServer(toNodeHandler((r) => gateway.fetch(r)));
const outer: number[] = [];
let url = '';

beforeAll(async () => {
  url = await listenLoopback(server);
});
afterAll(async () => {
  await closeServer(server);
  await nen.close();
});

const client = () =>
  createNenClient({
    mode: 'ohttp',
    baseUrl: 'https://app.example',
    relay: `${url}/.well-known/ohttp-gateway`,
    keyConfig: toBase64Url(encodeKeyConfig(config)),
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      outer.push(res.status);
      return res;
    },
  });

/** The code of an error body: Nen's `{ error: { code } }` (a withNen handler's) or a problem's `{ code }` (the gateway's). */
function codeIn(text: string): unknown {
  const j = JSON.parse(text) as { code?: string; error?: { code?: string } };
  return j.error?.code ?? j.code;
}

const post = (path: string) => client().fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });

describe('OHTTP gateway: application failures are encapsulated, never a 5xx', () => {
  it('a throwing withNen handler and a throwing bare handler: encapsulated 500 NEN_INTERNAL, the message not sent', async () => {
    // withNen's own answer, as in session mode: a 500 whose JSON body carries the code
    outer.length = 0;
    const res = await post('/api/crash');
    const text = await res.text();
    expect({ status: res.status, code: codeIn(text) }).toEqual({ status: 500, code: 'NEN_INTERNAL' });
    expect(text).not.toContain('hunter2');
    // the gateway's problem (nen-error): authenticated, so the client throws the catalogued code
    const e = (await post('/api/bare-crash').then(
      () => ({ code: 'answered' }),
      (x: unknown) => x,
    )) as { code?: string; status?: number; message?: string };
    expect({ code: e.code, status: e.status }).toEqual({ code: 'NEN_INTERNAL', status: 500 });
    expect(e.message).not.toContain('hunter2');
    expect(outer).toEqual([200, 200]);
    expect(logged).toContain('NEN_INTERNAL'); // the server keeps the cause in its log
  });

  it('a path the gateway does not list, or a method its route does not: encapsulated 404 / 405, never a proxy', async () => {
    outer.length = 0;
    const codes = [];
    for (const [path, method] of [
      ['/api/elsewhere', 'POST'],
      ['https://other.example/api/elsewhere', 'POST'],
      ['/api/crash', 'PUT'],
    ] as const) {
      const e = (await client()
        .fetch(path, { method, body: '{}' })
        .then(
          (r) => ({ code: `answered ${r.status}` }),
          (x: unknown) => x,
        )) as { code?: string; status?: number };
      codes.push([e.code, e.status]);
    }
    expect(codes).toEqual([
      ['NEN_NOT_FOUND', 404],
      ['NEN_NOT_FOUND', 404],
      ['NEN_METHOD_NOT_ALLOWED', 405],
    ]);
    expect(outer).toEqual([200, 200, 200]);
  });

  it('an inner answer over maxResponseBytes: encapsulated 500 NEN_INTERNAL', async () => {
    outer.length = 0;
    const res = await post('/api/big');
    expect(res.status).toBe(500);
    expect(codeIn(await res.text())).toBe('NEN_INTERNAL');
    expect(outer).toEqual([200]);
  });

  it('a stream handler that throws midway: the chunked answer has no final chunk, the read fails', async () => {
    outer.length = 0;
    const read: string[] = [];
    const err = await (async () => {
      try {
        for await (const chunk of client().stream('/api/stream-crash', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })) {
          read.push(new TextDecoder().decode(chunk));
        }
        return 'ended as if complete';
      } catch (e) {
        return (e as { code?: string }).code ?? String(e);
      }
    })();
    // never a shortened body that reads as complete: NEN_OHTTP_TRUNCATED whether the answer ends
    // cleanly without its final chunk or the connection is cut (the gateway's stream errored), as
    // session mode's NEN_STREAM_TRUNCATED
    expect(err).toBe('NEN_OHTTP_TRUNCATED');
    expect(read.join('')).toBe('first ');
    expect(read.join('')).not.toContain('hunter2');
    expect(outer).toEqual([200]);
  });
});
