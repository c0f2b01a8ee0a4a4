/**
 * adapters/node-http.ts toWebRequest over a real node:http server on 127.0.0.1: the Web Request's
 * method, URL, headers and body, and `request.signal` (an own property made on first use): it
 * aborts when the client goes away before the response is finished, also when first read after
 * that, and never once the response has finished.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { toWebRequest } from '../../src/adapters/node-http.js';

type Seen = { req: Request; res: ServerResponse; incoming: IncomingMessage };

async function withServer(onRequest: (s: Seen) => void, run: (url: string) => Promise<void>): Promise<void> {
  const server = createServer((incoming, res) => onRequest({ req: toWebRequest(incoming, res), res, incoming }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('toWebRequest', () => {
  it('method, URL, headers and body as sent; the signal stays quiet once the response finished', async () => {
    let signal: AbortSignal | undefined;
    await withServer(
      ({ req, res }) => {
        void (async () => {
          const body = await req.text();
          res.end(JSON.stringify({ method: req.method, url: req.url, x: req.headers.get('x-a'), body }));
          await sleep(20);
          signal = req.signal;
        })();
      },
      async (url) => {
        const r = await fetch(`${url}/p?q=1`, { method: 'PUT', headers: { 'x-a': 'b' }, body: 'hello' });
        expect(await r.json()).toEqual({ method: 'PUT', url: `${url}/p?q=1`, x: 'b', body: 'hello' });
        await sleep(60);
      },
    );
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal!.aborted).toBe(false);
  });

  it('request.signal aborts when the client goes away first, whether read before or after', async () => {
    const early: AbortSignal[] = [];
    const late: Promise<AbortSignal>[] = [];
    await withServer(
      ({ req }) => {
        early.push(req.signal); // read at once (the controller is made now)
        late.push(sleep(80).then(() => req.signal)); // first read after the client left
      },
      async (url) => {
        const { hostname, port } = new URL(url);
        for (let i = 0; i < 2; i++) {
          const c = httpRequest({ hostname, port, path: '/', method: 'GET' });
          c.on('error', () => undefined);
          c.end();
          await sleep(20);
          c.destroy();
        }
        await sleep(30);
      },
    );
    expect(early.length).toBe(2);
    expect(early.every((s) => s.aborted)).toBe(true);
    expect((await Promise.all(late)).every((s) => s.aborted)).toBe(true);
  });
});
