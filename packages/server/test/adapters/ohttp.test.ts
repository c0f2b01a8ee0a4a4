/**
 * The OHTTP gateway on every Node surface over real HTTP on 127.0.0.1 (docs/adapters.md "OHTTP
 * gateway"): Hono on @hono/node-server (inner requests dispatched in process with `app.fetch`
 * through `nenMiddleware` / `nenStreamMiddleware` routes), Express 5 and node:http
 * (`toNodeHandler(gateway.fetch)`, inner requests to the listed `withNen` handlers). Each serves
 * GET (key configs) and POST (plain and chunked) at /.well-known/ohttp-gateway; the Next.js
 * surfaces (Node and Edge) are the demo's route (apps/demo).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as honoServe } from '@hono/node-server';
import {
  OHTTP_KEM,
  decodeBhttpResponse,
  encapsulateChunkedRequest,
  encapsulateRequest,
  encodeBhttpRequest,
  generateOhttpKey,
  parseKeyConfigs,
  type BhttpRequest,
} from '@nen/core';
import express from 'express';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nenMiddleware, nenStreamMiddleware } from '../../src/adapters/hono.js';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { createNen, memoryStore } from '../../src/index.js';
import { openChunkedResponse } from '../ohttp-inner.js';
import { textStream } from './fixture.js';

const KEYS = `${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`;
const nen = createNen({ store: memoryStore(), logger: () => {} });
const servers: Server[] = [];
const urls: Record<string, string> = {};

async function listen(s: Server): Promise<string> {
  servers.push(s);
  await new Promise<void>((r) => (s.listening ? r() : s.listen(0, '127.0.0.1', () => r())));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/.well-known/ohttp-gateway`;
}

async function* tokens() {
  for (const t of ['one ', 'two ', 'three']) yield t;
}

beforeAll(async () => {
  // Hono: the app's own routes behind Nen's middleware, reached in process through app.fetch.
  const app = new Hono();
  app.use('/api/echo', nenMiddleware(nen));
  app.post('/api/echo', async (c) => c.json({ via: 'hono', body: await c.req.json() }));
  app.use('/api/stream', nenStreamMiddleware(nen));
  app.post('/api/stream', () => new Response(textStream(tokens())));
  const honoGateway = nen.ohttpGateway({ keys: KEYS, dispatch: (r) => app.fetch(r) });
  app.all('/.well-known/ohttp-gateway', (c) => honoGateway.fetch(c.req.raw));
  const hono = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  urls.hono = await listen(hono);

  // Express 5 and node:http: the listed withNen handlers.
  const routes = {
    '/api/echo': { POST: nen.withNen(async (_r, _c, body) => ({ via: 'node', body })) },
    '/api/stream': { POST: nen.withNenStream(tokens) },
  };
  const gateway = nen.ohttpGateway({ keys: KEYS, routes });
  const ex = express();
  ex.all('/.well-known/ohttp-gateway', toNodeHandler(gateway.fetch));
  urls.express = await listen(createServer(ex));
  const h = toNodeHandler(gateway.fetch);
  urls.node = await listen(createServer((req, res) => (req.url?.startsWith('/.well-known/ohttp-gateway') ? h(req, res) : res.writeHead(404).end())));
});

afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  await nen.close();
});

const req = (path: string, body: unknown): BhttpRequest => ({
  method: 'POST',
  scheme: 'https',
  authority: '',
  path,
  headers: [
    ['content-type', 'application/json'],
    ['date', new Date().toUTCString()],
  ],
  content: new TextEncoder().encode(JSON.stringify(body)),
  trailers: [],
});

describe.each(['hono', 'express', 'node'])('OHTTP gateway on %s', (name) => {
  it('GET key configs; POST plain requests with X-Wing and X25519 reach the handler', async () => {
    const url = urls[name] as string;
    const got = await fetch(url);
    expect(got.headers.get('content-type')).toBe('application/ohttp-keys');
    const configs = parseKeyConfigs(new Uint8Array(await got.arrayBuffer()));
    for (const config of configs) {
      const c = encapsulateRequest(config, encodeBhttpRequest(req('/api/echo', { k: config.kemId })));
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'message/ohttp-req' },
        body: c.encapsulatedRequest as Uint8Array<ArrayBuffer>,
      });
      expect(res.status).toBe(200);
      const inner = decodeBhttpResponse(c.openResponse(new Uint8Array(await res.arrayBuffer())));
      expect(inner.status).toBe(200);
      expect(JSON.parse(new TextDecoder().decode(inner.content))).toEqual({ via: name === 'hono' ? 'hono' : 'node', body: { k: config.kemId } });
    }
  });

  it('POST chunked: the streamed answer arrives in chunks and opens with its final chunk', async () => {
    const url = urls[name] as string;
    const [config] = parseKeyConfigs(new Uint8Array(await (await fetch(url)).arrayBuffer()));
    const c = encapsulateChunkedRequest(config!);
    const body = new Uint8Array([...c.header, ...c.sealChunk(encodeBhttpRequest(req('/api/stream', {}), { indeterminate: true }), true)]);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'message/ohttp-chunked-req' }, body });
    expect(res.headers.get('content-type')).toBe('message/ohttp-chunked-res');
    const inner = await openChunkedResponse(res, c.responseOpener());
    expect(new TextDecoder().decode(inner.content)).toBe('one two three');
  });

  it('an unknown key id is an outer 400 problem, a wrong media type 415', async () => {
    const url = urls[name] as string;
    const bad = await fetch(url, { method: 'POST', headers: { 'content-type': 'message/ohttp-req' }, body: new Uint8Array(200).fill(9) });
    expect({ status: bad.status, code: bad.headers.get('nen-error') }).toEqual({ status: 400, code: 'NEN_OHTTP_KEY_UNKNOWN' });
    const wrong = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect({ status: wrong.status, code: wrong.headers.get('nen-error') }).toEqual({ status: 415, code: 'NEN_CONTENT_TYPE' });
  });
});
