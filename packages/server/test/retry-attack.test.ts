/**
 * Issue 10 item 1: a forged unauthenticated error never makes a request run twice (PROTOCOL.md §10
 * "Retries", THREAT_MODEL.md property 13). Everything over real HTTP on 127.0.0.1: the real
 * @nen/client → an intercepting node:http proxy → Nen servers (node:http + createNen).
 *
 * The attack: the proxy forwards the request (the handler runs, the server answers sealed), drops
 * that answer and returns an unauthenticated 401 with NEN_SESSION_UNKNOWN / NEN_SESSION_EXPIRED /
 * NEN_TIMESTAMP / NEN_AUTH_FAILED. For POST, PUT, PATCH, DELETE and GET, on the memory store and on
 * Redis with two createNen instances (the proxy alternates between them, so the original and its
 * retry reach different instances): the handler runs exactly once and the client reports the
 * sealed NEN_RETRY_COMMITTED. Variants: the original dropped (the retry runs, once), the original
 * held back and delivered after the retry (refused as a replay). Genuine errors (idle expiry, a
 * restarted memory-store server) still recover transparently where the server can prove the
 * original did not run.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NenClient, createNenClient } from '@nen/client';
import { createNen, memoryStore, type Nen, type NenConfig } from '../src/index.js';
import { redisStore } from '../src/redis.js';
import { serve, type TestServer } from './http-harness.js';
import { startRedis, sleep, type RedisServer } from './redis/harness.js';

const SEED = Buffer.from(new Uint8Array(32).map((_, i) => 11 * i + 5)).toString('base64url');
const WRAP = new Uint8Array(32).fill(9);
const CODES = ['NEN_SESSION_UNKNOWN', 'NEN_SESSION_EXPIRED', 'NEN_TIMESTAMP', 'NEN_AUTH_FAILED'] as const;
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET'] as const;

/** Handler runs per operation id (the `x-op` header), shared by every instance. */
const runs = new Map<string, number>();

interface Instance {
  nen: Nen;
  server: TestServer;
}

async function instance(config: NenConfig): Promise<Instance> {
  const nen = createNen({ serverKeys: `k1:${SEED}`, handshakeRateLimit: 0, logger: () => undefined, ...config });
  const op = nen.withNen(async (req: Request) => {
    const id = req.headers.get('x-op') ?? '?';
    runs.set(id, (runs.get(id) ?? 0) + 1);
    return { op: id, method: req.method };
  });
  const server = await serve({
    '/api/nen/*': { GET: nen.routes.GET, POST: nen.routes.POST },
    '/api/op': { GET: op, POST: op, PUT: op, PATCH: op, DELETE: op },
  });
  return { nen, server };
}

type Forge = { code: string; mode: 'forward' | 'drop' | 'late' } | null;

/** The intercepting proxy: forwards to the targets in turn; `forge` replaces one answer. */
class InterceptingProxy {
  forge: Forge = null;
  /** Answer retries as a protocol 1.0 server does (RETRY is an unknown flag bit there). */
  oldServer = false;
  targets: string[] = [];
  #next = 0;
  /** A held-back original (mode 'late'): delivers it and resolves with the server's answer. */
  late: (() => Promise<Response>) | null = null;
  readonly #server: Server;
  url = '';
  constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }

  #send(path: string, method: string, headers: Headers, body: Uint8Array | null): Promise<Response> {
    const target = this.targets[this.#next++ % this.targets.length]!;
    return fetch(target + path, { method, headers, ...(body ? { body: body as Uint8Array<ArrayBuffer> } : {}) });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : new Uint8Array(Buffer.concat(chunks));
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect'].includes(k)) headers.set(k, v);
    const path = req.url ?? '/';
    if (this.oldServer && headers.has('nen-retry')) {
      res.writeHead(400, { 'content-type': 'application/json', 'nen-error': 'NEN_MALFORMED' });
      res.end(JSON.stringify({ error: { code: 'NEN_MALFORMED', message: 'nen: malformed Nen request' } }));
      return;
    }
    const forge = this.forge;
    if (forge && path.startsWith('/api/op') && headers.has('nen') && !headers.has('nen-retry')) {
      this.forge = null;
      if (forge.mode === 'forward') await (await this.#send(path, req.method!, headers, body)).arrayBuffer(); // the handler ran; its sealed answer is dropped
      if (forge.mode === 'late') this.late = () => this.#send(path, req.method!, headers, body);
      res.writeHead(401, { 'content-type': 'application/json', 'nen-error': forge.code });
      res.end(JSON.stringify({ error: { code: forge.code, message: 'nen: forged' } }));
      return;
    }
    const r = await this.#send(path, req.method!, headers, body);
    const out: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
    });
    const buf = Buffer.from(await r.arrayBuffer());
    res.writeHead(r.status, out);
    res.end(buf);
  }
}

let opId = 0;
function call(client: NenClient, method: string): { id: string; result: Promise<unknown> } {
  const id = `op-${++opId}`;
  const init: RequestInit = { method, headers: { 'x-op': id, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) } };
  if (method !== 'GET') init.body = JSON.stringify({ id });
  const result = client.fetch('/api/op', init).then(
    async (r) => ({ status: r.status, json: await r.json() }),
    (e: unknown) => e,
  );
  return { id, result };
}

const stores: [string, () => Promise<{ instances: Instance[]; close: () => Promise<void> }>][] = [
  [
    'memory store',
    async () => {
      const one = await instance({ store: memoryStore({ shared: false }) });
      return {
        instances: [one],
        close: async () => {
          await one.server.close();
          await one.nen.close();
        },
      };
    },
  ],
  [
    'Redis, two instances',
    async () => {
      const redis: RedisServer = await startRedis();
      const two = [
        await instance({ store: redisStore({ url: redis.url, wrapKey: WRAP, logger: () => undefined }) }),
        await instance({ store: redisStore({ url: redis.url, wrapKey: WRAP, logger: () => undefined }) }),
      ];
      return {
        instances: two,
        close: async () => {
          for (const x of two) {
            await x.server.close();
            await x.nen.close();
          }
          await redis.stop();
        },
      };
    },
  ],
];

describe.each(stores)('forged errors never run a request twice (%s)', (_name, make) => {
  let env: Awaited<ReturnType<typeof make>>;
  const proxy = new InterceptingProxy();
  let pin = '';
  const client = (): NenClient => createNenClient({ baseUrl: proxy.url, serverKey: pin, timeoutMs: 10_000 });

  beforeAll(async () => {
    env = await make();
    await proxy.listen();
    proxy.targets = env.instances.map((x) => x.server.url);
    pin = (await env.instances[0]!.nen.publicKeys())[0]!.pin;
  });
  afterAll(async () => {
    await proxy.close();
    await env.close();
  });

  it.each(CODES)('%s forged after the handler ran: POST, PUT, PATCH, DELETE, GET each run exactly once (NEN_RETRY_COMMITTED)', async (code) => {
    for (const method of METHODS) {
      const c = client();
      await c.handshake();
      proxy.forge = { code, mode: 'forward' };
      const { id, result } = call(c, method);
      expect(await result, `${code} ${method}`).toMatchObject({ code: 'NEN_RETRY_COMMITTED', status: 409 });
      expect(runs.get(id), `${code} ${method}`).toBe(1);
      // the client goes on with its new session
      const next = call(c, method);
      expect(await next.result).toMatchObject({ status: 200, json: { op: next.id, method } });
      expect(runs.get(next.id)).toBe(1);
    }
  });

  it('a streamed body is never retried, and a 1.0 server refusing the retry: NEN_OUTCOME_UNKNOWN, run at most once', async () => {
    const c = client();
    await c.handshake();
    proxy.forge = { code: 'NEN_SESSION_UNKNOWN', mode: 'forward' };
    const id = `op-stream-${++opId}`;
    const body = new ReadableStream<Uint8Array>({
      start(ctl) {
        ctl.enqueue(new TextEncoder().encode('{"a":1}'));
        ctl.close();
      },
    });
    const err = await c.fetch('/api/op', { method: 'POST', headers: { 'x-op': id }, body, duplex: 'half' } as RequestInit).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'NEN_OUTCOME_UNKNOWN', cause: { code: 'NEN_SESSION_UNKNOWN' } });
    expect(runs.get(id)).toBe(1);
    proxy.oldServer = true;
    try {
      proxy.forge = { code: 'NEN_TIMESTAMP', mode: 'forward' };
      const { id: id2, result } = call(client(), 'PATCH');
      expect(await result).toMatchObject({ code: 'NEN_OUTCOME_UNKNOWN', cause: { code: 'NEN_MALFORMED', status: 400 } });
      expect(runs.get(id2)).toBe(1);
    } finally {
      proxy.oldServer = false;
    }
  });

  it('the original dropped: the retry runs, once', async () => {
    for (const method of METHODS) {
      const c = client();
      proxy.forge = { code: 'NEN_SESSION_UNKNOWN', mode: 'drop' };
      const { id, result } = call(c, method);
      expect(await result).toMatchObject({ status: 200, json: { op: id, method } });
      expect(runs.get(id)).toBe(1);
    }
  });

  it('the original held back and delivered after its retry ran: refused as a replay (409), never run', async () => {
    const c = client();
    await c.handshake();
    proxy.forge = { code: 'NEN_SESSION_EXPIRED', mode: 'late' };
    const { id, result } = call(c, 'POST');
    expect(await result).toMatchObject({ status: 200, json: { op: id } });
    const late = await proxy.late!();
    expect({ status: late.status, code: late.headers.get('nen-error') }).toEqual({ status: 409, code: 'NEN_REPLAY' });
    await late.arrayBuffer();
    expect(runs.get(id)).toBe(1);
  });
});

describe('genuine errors still recover transparently where the server can prove the handler did not run', () => {
  it('idle expiry (memory and Redis): the retry names the expired session, whose window outlives it', async () => {
    const redis = await startRedis();
    try {
      for (const store of [memoryStore({ shared: false }), redisStore({ url: redis.url, wrapKey: WRAP, logger: () => undefined })]) {
        const x = await instance({ store, idleTimeoutSeconds: 1 });
        try {
          const statuses: string[] = [];
          const c = createNenClient({
            baseUrl: x.server.url,
            unpinned: true,
            onExchange: (e) => void (e.kind === 'request' && statuses.push(`${e.status}${e.requestHeaders['nen-retry'] ? ' retry' : ''}`)),
          });
          const first = call(c, 'POST');
          expect(await first.result).toMatchObject({ status: 200 });
          await sleep(1300);
          const second = call(c, 'POST');
          expect(await second.result, store.kind).toMatchObject({ status: 200, json: { op: second.id } });
          expect(runs.get(second.id)).toBe(1);
          expect(statuses).toEqual(['200', '401', '200 retry']);
        } finally {
          await x.server.close();
          await x.nen.close();
        }
      }
    } finally {
      await redis.stop();
    }
  });

  it('a restarted memory-store server: recovers once the new process has been up longer than the timestamp window; before that the outcome is reported unknown and nothing ran', async () => {
    const proxy = new InterceptingProxy();
    await proxy.listen();
    const before = await instance({ store: memoryStore({ shared: false }) });
    proxy.targets = [before.server.url];
    const c = createNenClient({ baseUrl: proxy.url, unpinned: true });
    try {
      expect(await call(c, 'POST').result).toMatchObject({ status: 200 });
      // "restart": a new process state (fresh memory store) behind the same address
      const after = await instance({ store: memoryStore({ shared: false }), timestampWindowMs: 1000 });
      proxy.targets = [after.server.url];
      const early = call(c, 'PUT');
      expect(await early.result).toMatchObject({ code: 'NEN_OUTCOME_UNKNOWN', cause: { code: 'NEN_RETRY_UNKNOWN' } });
      expect(runs.get(early.id)).toBeUndefined();
      await sleep(1200);
      // a session of the old process again (the client's last one is gone: make one, then lose it)
      const again = await instance({ store: memoryStore({ shared: false }), timestampWindowMs: 1000 });
      proxy.targets = [again.server.url];
      await sleep(1100);
      const { id, result } = call(c, 'PUT');
      expect(await result).toMatchObject({ status: 200, json: { op: id } });
      expect(runs.get(id)).toBe(1);
      for (const x of [after, again]) {
        await x.server.close();
        await x.nen.close();
      }
    } finally {
      await proxy.close();
      await before.server.close();
      await before.nen.close();
    }
  });
});
