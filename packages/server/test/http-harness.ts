/**
 * Test harness: serves Web-standard route handlers (Request → Response, exactly what Next.js App
 * Router calls) through a real node:http server on 127.0.0.1, so the client talks real HTTP.
 *
 * Also `listenLoopback` and `closeServer` for the tests that build their own node:http server.
 *
 * Pitfalls: the server listens on an ephemeral loopback port and `close()` must be awaited by the
 * test (afterAll); request bodies are streamed (duplex 'half'), never buffered here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';

export type RouteHandler = (request: Request, context: unknown) => Promise<Response>;

export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Routes: exact path → { METHOD: handler }, or a path ending in "/*" for a prefix. */
export async function serve(routes: Record<string, Partial<Record<string, RouteHandler>>>): Promise<TestServer> {
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      let table = routes[url.pathname];
      if (!table) {
        for (const [k, v] of Object.entries(routes)) if (k.endsWith('/*') && url.pathname.startsWith(k.slice(0, -1))) table = v;
      }
      const method = (req.method ?? 'GET').toUpperCase();
      const h = table?.[method];
      if (!h) {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (Array.isArray(v)) for (const x of v) headers.append(k, x);
        else if (v !== undefined) headers.set(k, v);
      }
      const ac = new AbortController();
      res.on('close', () => ac.abort());
      const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: ac.signal };
      if (method !== 'GET' && method !== 'HEAD') {
        init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
        init.duplex = 'half';
      }
      const response = await h(new Request(url, init), { params: Promise.resolve({}) });
      const out: Record<string, string | string[]> = {};
      response.headers.forEach((v, k) => {
        out[k] = v;
      });
      // A handler that answered without reading the whole request body (413): don't let the
      // client reuse this connection with unread bytes in it.
      if (!req.complete) out.connection = 'close';
      res.writeHead(response.status, response.statusText, out);
      if (!response.body || method === 'HEAD') {
        res.end();
        return;
      }
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!res.write(value)) await new Promise<void>((r) => res.once('drain', () => r()));
        if (res.destroyed) {
          await reader.cancel();
          break;
        }
      }
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(599);
      res.end();
      console.error('harness error', e);
    }
  }
  return { url: await listenLoopback(server), close: () => closeServer(server) };
}

/** Starts `server` on an ephemeral 127.0.0.1 port; its base URL (`http://127.0.0.1:<port>`). */
export function listenLoopback(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Closes `server` and its open (keep-alive) connections at once. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
