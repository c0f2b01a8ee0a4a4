/**
 * An OHTTP gateway on a real node:http server on 127.0.0.1 for the client's browser tests, written
 * from @nen/core's codec (RFC 9458, Binary HTTP) and answering a page of ANOTHER origin (CORS), as
 * a gateway behind a relay on its own host does:
 *  - GET /keys: the current key list (`application/ohttp-keys`) with `cache-control: public,
 *    max-age=3600`, as @nen/server's gateway serves it (no validator);
 *  - POST /relay: a `message/ohttp-req` opened with the current keys; its inner request "runs"
 *    (`runs` gets its body) and is answered `{ ok: <body> }`; a key id not in the list is the outer
 *    400 problem NEN_OHTTP_KEY_UNKNOWN the client acts on;
 *  - OPTIONS: the preflight a POST of `message/ohttp-req` needs (recorded in `wire.preflights`).
 * `use(keys)` swaps the list (a rotation, as a restart with a new NEN_OHTTP_KEYS would do).
 *
 * Pitfall: this is not @nen/server's gateway (no Date window, no replay claim): the client's
 * behaviour toward a key list is under test, not the gateway's checks (packages/server/test).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OhttpGatewayKeys, decapsulateRequest, decodeBhttpRequest, encodeBhttpResponse, encodeKeyConfigs } from '@nen/core/ohttp';

export interface CorsGateway {
  readonly origin: string;
  /** GETs of /keys that reached the server (with their cache-related request headers), preflights, POSTs. */
  readonly wire: { gets: Record<string, string>[]; preflights: string[]; posts: number };
  /** Bodies of the inner requests that ran, in order. */
  readonly runs: unknown[];
  use(keys: OhttpGatewayKeys): void;
  close(): Promise<void>;
}

const CACHE_HEADERS = ['cache-control', 'pragma', 'if-none-match', 'if-modified-since'];

async function readAll(req: IncomingMessage): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return new Uint8Array(Buffer.concat(parts));
}

export async function startCorsGateway(first: OhttpGatewayKeys): Promise<CorsGateway> {
  let keys = first;
  const wire = { gets: [] as Record<string, string>[], preflights: [] as string[], posts: 0 };
  const runs: unknown[] = [];
  const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'nen-error' };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'OPTIONS') {
      wire.preflights.push(`${req.headers['access-control-request-method']} ${path}`);
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type' }).end();
    } else if (req.method === 'GET' && path === '/keys') {
      wire.gets.push(Object.fromEntries(CACHE_HEADERS.filter((h) => req.headers[h] !== undefined).map((h) => [h, String(req.headers[h])])));
      res.writeHead(200, { ...cors, 'content-type': 'application/ohttp-keys', 'cache-control': 'public, max-age=3600' });
      res.end(encodeKeyConfigs(keys.configs()));
    } else if (req.method === 'POST' && path === '/relay') {
      wire.posts++;
      const raw = await readAll(req);
      let d: ReturnType<typeof decapsulateRequest>;
      try {
        d = decapsulateRequest(keys, raw);
      } catch (e) {
        const code = (e as { code?: string }).code ?? 'NEN_OHTTP_DECRYPT';
        res.writeHead(400, { ...cors, 'content-type': 'application/problem+json', 'cache-control': 'no-store', 'nen-error': code });
        return void res.end(JSON.stringify({ code }));
      }
      const inner = decodeBhttpRequest(d.request);
      const body: unknown = JSON.parse(new TextDecoder().decode(inner.content));
      runs.push(body);
      const content = new TextEncoder().encode(JSON.stringify({ ok: body }));
      const answer = encodeBhttpResponse({ status: 200, informational: [], headers: [['content-type', 'application/json']], content, trailers: [] });
      res.writeHead(200, { ...cors, 'content-type': 'message/ohttp-res', 'cache-control': 'no-store' });
      res.end(d.sealResponse(answer));
    } else {
      res.writeHead(404, cors).end();
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, cors);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    wire,
    runs,
    use: (k) => {
      keys = k;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
