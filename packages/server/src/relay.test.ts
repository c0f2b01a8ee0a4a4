/**
 * The development OHTTP relay (relay.ts) over real HTTP on 127.0.0.1: @nen/client in OHTTP mode
 * -> relay (node:http) -> a gateway built from @nen/core's codec that records what reaches it.
 * The relay forwards only to its gateway, only OHTTP media types, drops every client-identifying
 * header both ways, bounds bodies, and does not follow a gateway redirect.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createNenClient } from '@nen/client';
import {
  OHTTP_KEM,
  OhttpGatewayKeys,
  decapsulateRequest,
  decodeBhttpRequest,
  encodeBhttpResponse,
  encodeKeyConfig,
  generateOhttpKey,
  toBase64Url,
} from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from './adapters/node-http.js';
import { createOhttpRelay } from './relay.js';
import { listenLoopback } from '../test/http-harness.js';

const keys = OhttpGatewayKeys.parse(generateOhttpKey(7, OHTTP_KEM.XWING));
const received: { url: string; headers: Record<string, string | string[] | undefined>; inner: string[][] }[] = [];
let redirect = false;
const servers: ReturnType<typeof createServer>[] = [];
let relayUrl = '';

async function gateway(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  if (redirect) {
    res.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' });
    return void res.end();
  }
  const d = decapsulateRequest(keys, new Uint8Array(Buffer.concat(parts)));
  const inner = decodeBhttpRequest(d.request);
  received.push({ url: req.url ?? '', headers: req.headers, inner: inner.headers.map(([n, v]) => [n, v]) });
  const body = d.sealResponse(
    encodeBhttpResponse({ informational: [], status: 201, headers: [['x-inner', 'yes']], content: new TextEncoder().encode('ok'), trailers: [] }),
  );
  res.writeHead(200, { 'content-type': 'message/ohttp-res', 'set-cookie': 'track=1', 'x-gateway-secret': 'no', 'cache-control': 'no-store' });
  res.end(body);
}

async function listen(h: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(h);
  servers.push(s);
  return listenLoopback(s);
}

beforeAll(async () => {
  const gw = await listen((req, res) => void gateway(req, res).catch(() => res.writeHead(400).end()));
  const relay = createOhttpRelay({ gateway: `${gw}/.well-known/ohttp-gateway`, maxBodyBytes: 64 * 1024 });
  relayUrl = await listen(toNodeHandler((r) => relay(r)));
});
afterAll(async () => {
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
});

const client = (fetchImpl?: typeof fetch) =>
  createNenClient({
    mode: 'ohttp',
    baseUrl: 'https://app.example',
    relay: `${relayUrl}/any/path?target=http://evil.example`,
    keyConfig: toBase64Url(encodeKeyConfig(keys.configs()[0] as ReturnType<typeof keys.configs>[0])),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });

describe('nen relay', () => {
  it('forwards the client request to its one gateway with no identifying header, both ways', async () => {
    // the client's outer request, with everything a browser or proxy chain may add
    const noisy: typeof fetch = (input, init) => {
      const h = new Headers(init?.headers);
      for (const [k, v] of Object.entries({
        cookie: 'sid=1',
        'user-agent': 'Mozilla/5.0 me',
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-host': 'a.example',
        forwarded: 'for=203.0.113.9',
        via: '1.1 proxy',
        'x-real-ip': '203.0.113.9',
        authorization: 'Bearer t',
        referer: 'https://app.example/page',
        'accept-language': 'fr',
      }))
        h.set(k, v);
      return fetch(input, { ...init, headers: h });
    };
    const res = await client(noisy).fetch('/api/notes', { headers: { cookie: 'inner=1' } });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('ok');
    expect(res.headers.get('x-inner')).toBe('yes');
    const r = received.at(-1) as (typeof received)[0];
    expect(r.url).toBe('/.well-known/ohttp-gateway');
    const names = Object.keys(r.headers).sort();
    // what undici itself sets on the relay's own request, and the media type: nothing of the client
    for (const n of names)
      expect([
        'accept',
        'accept-encoding',
        'accept-language',
        'connection',
        'content-length',
        'content-type',
        'host',
        'sec-fetch-mode',
        'user-agent',
      ]).toContain(n);
    expect(r.headers['user-agent']).not.toContain('Mozilla');
    expect(r.headers['accept-language']).not.toBe('fr');
    expect(r.headers.cookie).toBeUndefined();
    expect(r.inner).toContainEqual(['cookie', 'inner=1']); // inside the encapsulation only
    const raw = await fetch(relayUrl, { method: 'POST', headers: { 'content-type': 'message/ohttp-req' }, body: new Uint8Array(200) });
    expect(raw.headers.get('set-cookie')).toBeNull();
    expect(raw.headers.get('x-gateway-secret')).toBeNull();
  });

  it('refuses other methods, media types and oversized bodies; does not follow a redirect', async () => {
    expect((await fetch(relayUrl)).status).toBe(405);
    expect((await fetch(relayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(415);
    const big = await fetch(relayUrl, { method: 'POST', headers: { 'content-type': 'message/ohttp-req' }, body: new Uint8Array(65 * 1024) });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toBe('application/problem+json');
    redirect = true;
    try {
      const r = await fetch(relayUrl, { method: 'POST', headers: { 'content-type': 'message/ohttp-req' }, body: new Uint8Array(100) });
      expect(r.status).toBe(502);
      await expect(client().fetch('/x')).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
    } finally {
      redirect = false;
    }
  });

  it('parses its command line', async () => {
    const { parseRelayArgs } = await import('./relay-cli.js');
    expect(parseRelayArgs(['--gateway', 'http://127.0.0.1:3000/g', '--port', '0'])).toMatchObject({ port: 0, host: '127.0.0.1' });
    expect(parseRelayArgs([])).toMatch(/--gateway is required/);
    expect(parseRelayArgs(['--gateway', 'ftp://x'])).toMatch(/http/);
    expect(parseRelayArgs(['--gateway', 'http://a', '--port', '99999'])).toMatch(/port/);
  });
});
