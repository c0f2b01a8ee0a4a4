/**
 * OHTTP end to end over real HTTP on 127.0.0.1: @nen/client in OHTTP mode -> `nen relay`
 * (createOhttpRelay on node:http) -> @nen/server's gateway (`nen.ohttpGateway`, memory store) ->
 * unchanged `withNen` / `withNenStream` handlers. Attacks in OHTTP form, done by a relay that
 * misbehaves (a fetch wrapper between the client and the relay): a replayed encapsulated request
 * (the handler runs once), a rewritten header (key id) and a flipped ciphertext byte (refused
 * before any handler), headers added on the way (never reach the handler), a substituted key
 * config (refused by the pin before sending).
 */
import { createServer } from 'node:http';
import { createNenClient } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { OHTTP_KEM, OhttpGatewayKeys, encodeKeyConfig, generateOhttpKey } from '@nen/core/ohttp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../src/adapters/node-http.js';
import { createNen, memoryStore } from '../src/index.js';
import { createOhttpRelay } from '../src/relay.js';
import { listenLoopback } from './http-harness.js';

const nen = createNen({ serverKeys: undefined, store: memoryStore({ shared: false }), logger: () => {} });
const keys = OhttpGatewayKeys.parse(generateOhttpKey(3, OHTTP_KEM.XWING));
const config = keys.configs()[0] as ReturnType<typeof keys.configs>[0];
let runs = 0;
const seenHeaders: Record<string, string>[] = [];
const notes = nen.withNen(async (req, _ctx, body) => {
  runs++;
  const h: Record<string, string> = {};
  req.headers.forEach((v, k) => {
    h[k] = v;
  });
  seenHeaders.push(h);
  return { echo: body };
});
const tokens = nen.withNenStream(async function* () {
  for (const t of ['a', 'b', 'c']) {
    yield t;
    await new Promise((r) => setTimeout(r, 15));
  }
});
let gatewaySkewMs = 0; // the gateway's clock minus the real one (F9: a client ahead of the gateway)
const gateway = nen.ohttpGateway({
  keys,
  routes: { '/api/notes': { POST: notes }, '/api/tokens': { POST: tokens } },
  now: () => Date.now() + gatewaySkewMs,
});
const servers: ReturnType<typeof createServer>[] = [];
let gatewayUrl = '';
let relayUrl = '';

async function listen(h: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(h);
  servers.push(s);
  return listenLoopback(s);
}

beforeAll(async () => {
  gatewayUrl = `${await listen(toNodeHandler((r) => gateway.fetch(r)))}/.well-known/ohttp-gateway`;
  const relay = createOhttpRelay({ gateway: gatewayUrl });
  relayUrl = await listen(toNodeHandler((r) => relay(r)));
});
afterAll(async () => {
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  await nen.close();
});

/** A client whose requests pass through `tamper` on their way to the relay. */
function client(tamper?: (body: Uint8Array, headers: Headers) => Uint8Array, extra: Record<string, unknown> = {}) {
  const f: typeof fetch = async (input, init) => {
    if (!tamper || init?.method !== 'POST') return fetch(input, init);
    const headers = new Headers(init.headers);
    const body = tamper(new Uint8Array(init.body as Uint8Array), headers);
    return fetch(input, { ...init, headers, body: body as Uint8Array<ArrayBuffer> });
  };
  return createNenClient({
    mode: 'ohttp',
    baseUrl: 'https://app.example',
    relay: relayUrl,
    keyConfig: toBase64Url(encodeKeyConfig(config)),
    fetch: f,
    ...extra,
  });
}

describe('OHTTP through nen relay to @nen/server', () => {
  roundTripsAndReplay();

  datesAndTampering();
});

/** Round trips (JSON, streamed), replay and a Date ahead of the window. */
function roundTripsAndReplay(): void {
  it('a JSON request reaches the withNen handler unchanged and its answer comes back', async () => {
    const before = runs;
    const res = await client().fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echo: { n: 1 } });
    expect(runs).toBe(before + 1);
  });

  it('a withNenStream answer streams through the relay as chunked OHTTP, read incrementally', async () => {
    const got: string[] = [];
    for await (const c of client().stream('/api/tokens', { method: 'POST' })) got.push(new TextDecoder().decode(c));
    expect(got.join('')).toContain('a');
    expect(got.join('')).toContain('c');
    expect(got.length).toBeGreaterThan(1);
  });

  it('a replayed encapsulated request never reaches the handler again', async () => {
    let captured: Uint8Array | null = null;
    const before = runs;
    await (
      await client((b) => {
        captured = b.slice();
        return b;
      }).fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":2}' })
    ).json();
    expect(runs).toBe(before + 1);
    const replay = await fetch(relayUrl, {
      method: 'POST',
      headers: { 'content-type': 'message/ohttp-req' },
      body: captured as unknown as Uint8Array<ArrayBuffer>,
    });
    await replay.arrayBuffer();
    expect(replay.status).toBe(200); // an encapsulated refusal (NEN_REPLAY) only the client could open
    expect(runs).toBe(before + 1);
  });

  it('F9: a request refused for a Date ahead of the window never runs, even replayed once its Date is inside', async () => {
    const captured: Uint8Array[] = [];
    const before = runs;
    const c = client((b) => {
      captured.push(b.slice());
      return b;
    });
    gatewaySkewMs = -5 * 60_000; // the client's clock is 5 min ahead of the gateway's (window 60 s)
    try {
      const send = () => c.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":"f9"}' });
      await expect(send()).rejects.toMatchObject({ code: 'NEN_OHTTP_DATE' }); // R1: reported, not re-sent
      expect(captured.length).toBe(1);
      expect(runs).toBe(before);
      expect((await send()).status).toBe(200); // R2: the application's retry carries the corrected Date
      expect(runs).toBe(before + 1);
    } finally {
      gatewaySkewMs = 0; // time passes: R1's Date is now inside the gateway's window
    }
    const replay = await fetch(relayUrl, {
      method: 'POST',
      headers: { 'content-type': 'message/ohttp-req' },
      body: captured[0] as unknown as Uint8Array<ArrayBuffer>,
    });
    await replay.arrayBuffer();
    expect(replay.status).toBe(200); // an encapsulated NEN_REPLAY only the client could open
    expect(runs).toBe(before + 1);
  });
}

/** A client behind the window, a tampering relay, added headers and a foreign key config. */
function datesAndTampering(): void {
  it('F9: a client whose Date is behind the window re-sends once by itself and runs once', async () => {
    const before = runs;
    gatewaySkewMs = 5 * 60_000;
    try {
      const res = await client().fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(200);
    } finally {
      gatewaySkewMs = 0;
    }
    expect(runs).toBe(before + 1);
  });

  it('a relay that rewrites the key id or a ciphertext byte gets a refusal; the handler does not run', async () => {
    const before = runs;
    const keyId = client((b) => {
      const c = b.slice();
      c[0] = 99;
      return c;
    });
    await expect(keyId.fetch('/api/notes', { method: 'POST', body: 'x' })).rejects.toMatchObject({ code: 'NEN_OHTTP_KEY_UNKNOWN' });
    const flip = client((b) => {
      const c = b.slice();
      c[c.length - 1] = (c[c.length - 1] as number) ^ 1;
      return c;
    });
    await expect(flip.fetch('/api/notes', { method: 'POST', body: 'x' })).rejects.toMatchObject({ code: 'NEN_OHTTP_DECRYPT' });
    expect(runs).toBe(before);
  });

  it('headers added on the way reach neither the gateway request the handler sees nor its answer', async () => {
    const res = await client((b, h) => {
      h.set('x-forwarded-for', '203.0.113.7');
      h.set('cookie', 'relay=1');
      h.set('user-agent', 'evil-relay');
      return b;
    }).fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json', 'x-app': 'inner' }, body: '{}' });
    expect(res.status).toBe(200);
    const h = seenHeaders.at(-1) as Record<string, string>;
    expect(h['x-app']).toBe('inner');
    expect(h['x-forwarded-for']).toBeUndefined();
    expect(h.cookie).toBeUndefined();
    expect(h['user-agent']).toBeUndefined();
  });

  it('a key config served by someone else fails the pin before anything is sent', async () => {
    const other = OhttpGatewayKeys.parse(generateOhttpKey(3, OHTTP_KEM.XWING));
    const digest = await crypto.subtle.digest('SHA-256', encodeKeyConfig(other.configs()[0] as typeof config) as Uint8Array<ArrayBuffer>);
    const pin = `sha256:${toBase64Url(new Uint8Array(digest))}`;
    const own = `sha256:${toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', encodeKeyConfig(config) as Uint8Array<ArrayBuffer>)))}`;
    expect(
      (
        await client(undefined, { keyConfig: [own], keyConfigUrl: gatewayUrl }).fetch('/api/notes', {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    const before = runs;
    const c = client(undefined, { keyConfig: [pin], keyConfigUrl: gatewayUrl });
    await expect(c.fetch('/api/notes', { method: 'POST', body: 'x' })).rejects.toMatchObject({ code: 'NEN_OHTTP_KEY_MISMATCH' });
    expect(runs).toBe(before);
  });
}
