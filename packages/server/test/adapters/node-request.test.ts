/**
 * adapters/node-http.ts toWebRequest over a real node:http server on 127.0.0.1: the Web Request's
 * method, URL, headers and body, and `request.signal` (an own property made on first use): it
 * aborts when the client goes away before the response is finished, also when first read after
 * that, and never once the response has finished. adapters/node-request.ts nodeRequest (the lazy
 * Request toNodeHandler uses) over raw HTTP/1.1: its URL equals URL's serialization, its headers
 * read as undici's Headers would, its body once, the rest from a real Request.
 * Pitfall: no sleep stands in for an event. The signal tests wait for the request to reach the
 * handler before the client leaves, for the abort or the response's close, and for the finish
 * callback, each bounded by `within` (a fixed sleep raced the server under load: a request not yet
 * handled when the client left, or an abort later than the 80 ms the check waited).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { toWebRequest } from '../../src/adapters/node-http.js';
import { nodeRequest } from '../../src/adapters/node-request.js';

type Seen = { req: Request; res: ServerResponse; incoming: IncomingMessage };

/** `run(url)` with `server` listening on a free 127.0.0.1 port; then every connection closed, and the server. */
async function listening(server: Server, run: (url: string) => Promise<void>): Promise<void> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

function withServer(onRequest: (s: Seen) => void, run: (url: string) => Promise<void>): Promise<void> {
  return listening(
    createServer((incoming, res) => onRequest({ req: toWebRequest(incoming, res), res, incoming })),
    run,
  );
}

/** A promise with its resolve, for an event one callback sees and another awaits. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** `p`, or a rejection naming `what` after `ms`: a bounded wait for an event, not a guess at how long it takes. */
function within<T>(p: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Resolves once `signal` has aborted (at once if it already has). */
function abortOf(signal: AbortSignal): Promise<void> {
  return signal.aborted ? Promise.resolve() : new Promise((r) => signal.addEventListener('abort', () => r(), { once: true }));
}

/** Resolves once `res` has closed (at once if it already has). */
function closeOf(res: ServerResponse): Promise<void> {
  return res.closed ? Promise.resolve() : new Promise((r) => res.once('close', () => r()));
}

/** Sends a GET on its own connection, waits until the server's handler has it (`arrived`), then goes away. */
async function leaveAfterArrival(url: string, arrived: () => Promise<void>): Promise<void> {
  const { hostname, port } = new URL(url);
  const c = httpRequest({ hostname, port, path: '/', method: 'GET' });
  c.on('error', () => undefined);
  c.end();
  await within(arrived(), 'the request reaching the handler');
  c.destroy();
}

describe('toWebRequest', () => {
  it('method, URL, headers and body as sent; the signal stays quiet once the response finished', async () => {
    const finished = deferred<AbortSignal>();
    await withServer(
      ({ req, res }) => {
        void (async () => {
          const body = await req.text();
          res.end(JSON.stringify({ method: req.method, url: req.url, x: req.headers.get('x-a'), body }), () => {
            const signal = req.signal; // first read once the response finished
            void closeOf(res).then(() => finished.resolve(signal));
          });
        })();
      },
      async (url) => {
        const r = await fetch(`${url}/p?q=1`, { method: 'PUT', headers: { 'x-a': 'b' }, body: 'hello' });
        expect(await r.json()).toEqual({ method: 'PUT', url: `${url}/p?q=1`, x: 'b', body: 'hello' });
        await within(finished.promise, 'the response finishing and closing');
      },
    );
    const signal = await finished.promise;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
  });

  it('request.signal aborts when the client goes away first, whether read before or after', async () => {
    const early: Promise<boolean>[] = [];
    const late: Promise<boolean>[] = [];
    let arrived = deferred<void>();
    await withServer(
      ({ req, res }) => {
        const signal = req.signal; // read at once (the controller is made now)
        early.push(within(abortOf(signal), 'the early signal aborting').then(() => signal.aborted));
        late.push(within(closeOf(res), 'the response closing').then(() => req.signal.aborted)); // first read after the client left
        arrived.resolve();
      },
      async (url) => {
        for (let i = 0; i < 2; i++) {
          arrived = deferred();
          await leaveAfterArrival(url, () => arrived.promise);
        }
        await Promise.all([...early, ...late]); // before the server closes the connections itself
      },
    );
    expect(early.length).toBe(2);
    expect(await Promise.all(early)).toEqual([true, true]);
    expect(await Promise.all(late)).toEqual([true, true]);
  });
});

/** A raw HTTP/1.1 request (exact header names, repeats, paths the fetch API would normalise). */
async function rawRequest(url: string, head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(url);
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(port), hostname, () => s.end(`${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`));
    let out = '';
    s.on('data', (d) => {
      out += d.toString();
    });
    s.on('end', () => resolve(out.slice(out.indexOf('\r\n\r\n') + 4)));
    s.on('error', reject);
  });
}

async function withLazy(onRequest: (req: Request, res: ServerResponse) => Promise<unknown>, run: (url: string) => Promise<void>): Promise<void> {
  const server = createServer((incoming, res) => {
    let req: Request;
    try {
      req = nodeRequest(incoming, res);
    } catch (e) {
      res.end(JSON.stringify({ thrown: (e as Error).name }));
      return;
    }
    onRequest(req, res).then(
      (v) => res.end(JSON.stringify(v)),
      (e: Error) => res.end(JSON.stringify({ error: `${e.name}: ${e.message}` })),
    );
  });
  await listening(server, run);
}

describe('nodeRequest (the lazily built Request toNodeHandler hands its handlers)', () => {
  urlAndHeaders();

  bodyReads();

  parsersAndSignal();
});

/** nodeRequest's url and headers. */
function urlAndHeaders(): void {
  it('url is what new URL(path, origin).href gives, for plain paths and for those the parser rewrites', async () => {
    const paths = [
      '/a/b?x=1&y=%41',
      '/',
      '/a/./b/../c',
      '/a/%2e%2E/c',
      '/sp%20ace?q=a%20b',
      "/q?it's",
      '/a?x=/./',
      '/x{y}^`|',
      '//evil.example/p',
      '/a\\b',
      '/%C3%A9?%C3%BC',
      // whole dot segments only are resolved (DOTS): a leading dot in a longer segment is kept
      '/.well-known/ohttp-gateway',
      '/a/.',
      '/a/..',
      '/a/%2E',
      '/a/.%2e/b',
      '/a/%2e./b?x',
      '/a/..?q=1',
      '/.hidden/../x',
      '/a/.b/..c/...',
    ];
    await withLazy(
      async (req) => ({ url: req.url, method: req.method }),
      async (url) => {
        for (const host of ['127.0.0.1:8080', 'Example.COM:80', 'user@h.example']) {
          for (const p of paths) {
            const got = JSON.parse(await rawRequest(url, `GET ${p} HTTP/1.1\r\nhost: ${host}`)) as { url: string };
            expect(got.url, `${host} ${p}`).toBe(new URL(p, `http://${host}`).href);
          }
        }
      },
    );
  });

  it('headers: get/has from the raw headers as undici joins them (repeats, cookie with "; "), the full list on iteration', async () => {
    await withLazy(
      async (req) => {
        const h = req.headers;
        const before = {
          ct: h.get('Content-Type'),
          a: h.get('x-a'),
          cookie: h.get('cookie'),
          host: h.has('HOST'),
          none: h.get('x-none'),
          hasNone: h.has('x-none'),
          instance: h instanceof Headers,
        };
        let badName = '';
        try {
          h.get('bad name');
        } catch (e) {
          badName = (e as Error).name;
        }
        const copied = Object.fromEntries(new Headers(h) as unknown as Iterable<[string, string]>);
        h.set('x-b', 'set');
        return { before, badName, copied, after: h.get('x-b'), ct: h.get('content-type') };
      },
      async (url) => {
        const out = JSON.parse(
          await rawRequest(url, 'GET / HTTP/1.1\r\nHost: h\r\nContent-Type: a/b\r\ncontent-type: c/d\r\nX-A: 1\r\nx-a: 2\r\nCookie: k=1\r\ncookie: j=2'),
        ) as Record<string, unknown>;
        expect(out.before).toEqual({ ct: 'a/b, c/d', a: '1, 2', cookie: 'k=1; j=2', host: true, none: null, hasNone: false, instance: true });
        expect(out.badName).toBe('TypeError');
        expect(out.copied).toMatchObject({ 'content-type': 'a/b, c/d', 'x-a': '1, 2', cookie: 'k=1; j=2', host: 'h', connection: 'close' });
        expect(out.after).toBe('set');
        expect(out.ct).toBe('a/b, c/d');
      },
    );
  });
}

/** nodeRequest as a Request: instanceof, one body read, the other properties. */
function bodyReads(): void {
  it('is instanceof Request; the body is read once (arrayBuffer/text/json, or as a stream); other properties from a real Request', async () => {
    await withLazy(
      async (req) => {
        const instance = req instanceof Request;
        const json = await req.json();
        let second = '';
        try {
          await req.text();
        } catch (e) {
          second = (e as Error).name;
        }
        return {
          instance,
          json,
          second,
          used: req.bodyUsed,
          cache: req.cache,
          mode: req.mode,
          redirect: req.redirect,
          tag: Object.prototype.toString.call(req),
        };
      },
      async (url) => {
        const out = JSON.parse(await rawRequest(url, 'POST /j HTTP/1.1\r\nhost: h', '{"a":[1,2]}')) as Record<string, unknown>;
        expect(out).toEqual({
          instance: true,
          json: { a: [1, 2] },
          second: 'TypeError',
          used: true,
          cache: 'default',
          mode: 'cors',
          redirect: 'follow',
          tag: '[object Request]',
        });
      },
    );
    await withLazy(
      async (req) => {
        const clone = req.clone();
        const chunks: number[] = [];
        const reader = req.body!.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value.byteLength);
        return { total: chunks.reduce((a, b) => a + b, 0), used: req.bodyUsed, cloned: (await clone.text()).length, cloneUrl: clone.url };
      },
      async (url) => {
        const out = JSON.parse(await rawRequest(url, 'PUT /s HTTP/1.1\r\nhost: h', 'z'.repeat(200_000))) as Record<string, unknown>;
        expect(out).toEqual({ total: 200_000, used: true, cloned: 200_000, cloneUrl: 'http://h/s' });
      },
    );
    await withLazy(
      async (req) => ({ body: req.body, bytes: (await req.bytes()).byteLength }),
      async (url) => {
        expect(JSON.parse(await rawRequest(url, 'GET /g HTTP/1.1\r\nhost: h'))).toEqual({ body: null, bytes: 0 });
      },
    );
  });
}

/** A body parser that ran first, a URL that does not parse, and the lazy signal. */
function parsersAndSignal(): void {
  it('a body parser that ran first, or a URL that does not parse, throws at once', async () => {
    await withLazy(
      async () => ({}),
      async (url) => {
        expect(JSON.parse(await rawRequest(url, 'GET / HTTP/1.1\r\nhost: a b'))).toEqual({ thrown: 'TypeError' });
      },
    );
    const server = createServer((incoming, res) => {
      incoming.resume();
      incoming.on('end', () => {
        try {
          nodeRequest(incoming, res);
          res.end('built');
        } catch (e) {
          res.end((e as Error).name);
        }
      });
    });
    await listening(server, async (url) => {
      expect(await rawRequest(url, 'POST / HTTP/1.1\r\nhost: h', 'x')).toBe('TypeError');
    });
  });

  it('signal: made on first use, aborted when the client left before the response finished, quiet after it finished', async () => {
    const seen: Promise<boolean>[] = [];
    const arrived = deferred<void>();
    const finished = deferred<AbortSignal>();
    const server = createServer((incoming, res) => {
      const req = nodeRequest(incoming, res);
      if (incoming.url === '/done') {
        res.end('ok', () => {
          const signal = req.signal; // first read once the response finished
          void closeOf(res).then(() => finished.resolve(signal));
        });
        return;
      }
      const early = req.signal;
      seen.push(within(abortOf(early), 'the signal aborting').then(() => early.aborted && req.signal.aborted));
      arrived.resolve();
    });
    await listening(server, async (url) => {
      await leaveAfterArrival(url, () => arrived.promise);
      await Promise.all(seen); // before the server closes the connections itself
      await (await fetch(`${url}/done`)).text();
      await within(finished.promise, 'the response finishing and closing');
    });
    expect(await Promise.all(seen)).toEqual([true]);
    expect((await finished.promise).aborted).toBe(false);
  });
}
