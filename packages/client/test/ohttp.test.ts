/**
 * The client's OHTTP mode against a gateway on a real node:http server on 127.0.0.1, written here
 * from @nen/core's codec (RFC 9458 / chunked OHTTP) so that it can misbehave on purpose: round
 * trips (X-Wing; X25519 only with allowClassical), streamed answers read incrementally, and the
 * attacks: a substituted key config (pin), a tampered / truncated / swapped response or chunk, the
 * §6.5.2 Date retry. @nen/server's own gateway and the relay: packages/server/src/relay.test.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ChunkedRequestOpener,
  OHTTP_KEM,
  OhttpGatewayKeys,
  decapsulateRequest,
  decodeBhttpRequest,
  encodeBhttpContentChunk,
  encodeBhttpResponse,
  encodeBhttpResponseHead,
  encodeBhttpResponseTail,
  encodeKeyConfig,
  encodeKeyConfigs,
  generateOhttpKey,
} from '@nen/core/ohttp';
import { WIRE_ERRORS, toBase64Url } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '../src/index.js';
import { createOhttpClient } from '../src/ohttp/index.js';
import { keyConfigPin } from '../src/ohttp/key-config.js';

const keys = OhttpGatewayKeys.parse(`${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`);
const other = OhttpGatewayKeys.parse(generateOhttpKey(1, OHTTP_KEM.XWING));
const [xwing, x25519] = keys.configs() as [ReturnType<typeof keys.configs>[0], ReturnType<typeof keys.configs>[0]];

type Mode = 'ok' | 'tamper' | 'truncate' | 'swap' | 'date' | 'substitute' | 'replay';
let mode: Mode = 'ok';
let lastAnswer: Uint8Array | null = null;
let dateRefusals = 0;
const seen: { headers: Record<string, string>; inner: string[][] }[] = [];
let base = '';
let server: ReturnType<typeof createServer>;

async function readAll(req: IncomingMessage): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return new Uint8Array(Buffer.concat(parts));
}

function answerFor(path: string, body: Uint8Array): { status: number; headers: [string, string][]; content: Uint8Array } {
  return {
    status: path === '/missing' ? 404 : 200,
    headers: [['content-type', 'application/json']],
    content: new TextEncoder().encode(JSON.stringify({ path, n: body.length })),
  };
}

async function gateway(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/ohttp-keys' });
    res.end(encodeKeyConfigs(mode === 'substitute' ? other.configs() : keys.configs()));
    return;
  }
  const raw = await readAll(req);
  seen.push({ headers: req.headers as Record<string, string>, inner: [] });
  if (req.headers['content-type'] === 'message/ohttp-req') {
    const d = decapsulateRequest(keys, raw);
    const inner = decodeBhttpRequest(d.request);
    (seen.at(-1) as { inner: string[][] }).inner = inner.headers.map(([n, v]) => [n, v]);
    const a =
      mode === 'date' && dateRefusals++ === 0
        ? {
            status: 400,
            headers: [
              ['content-type', 'application/problem+json'],
              ['nen-error', 'NEN_OHTTP_DATE'],
              ['date', new Date(Date.now() + 3_600_000).toUTCString()],
            ] as [string, string][],
            content: new Uint8Array(0),
          }
        : mode === 'replay'
          ? {
              status: WIRE_ERRORS.NEN_REPLAY.status,
              headers: [
                ['content-type', 'application/problem+json'],
                ['nen-error', 'NEN_REPLAY'],
              ] as [string, string][],
              content: new TextEncoder().encode('{}'),
            }
          : answerFor(inner.path, inner.content);
    let out = d.sealResponse(encodeBhttpResponse({ informational: [], trailers: [], ...a }));
    if (mode === 'tamper') out[out.length - 1] = (out[out.length - 1] as number) ^ 1;
    if (mode === 'truncate') out = out.subarray(0, out.length - 5);
    if (mode === 'swap' && lastAnswer) out = lastAnswer;
    lastAnswer = out;
    res.writeHead(200, { 'content-type': 'message/ohttp-res' });
    res.end(out);
    return;
  }
  const opener = new ChunkedRequestOpener(keys);
  opener.push(raw);
  const inner = decodeBhttpRequest(opener.end());
  const sealer = opener.responseSealer();
  res.writeHead(200, { 'content-type': 'message/ohttp-chunked-res' });
  res.write(sealer.start());
  res.write(sealer.sealChunk(encodeBhttpResponseHead(200, [['content-type', 'text/plain']])));
  for (const t of ['one ', 'two ', 'three']) {
    const c = sealer.sealChunk(encodeBhttpContentChunk(new TextEncoder().encode(t)));
    if (mode === 'tamper' && t === 'two ') c[c.length - 1] = (c[c.length - 1] as number) ^ 1;
    res.write(c);
    await new Promise((r) => setTimeout(r, 20));
  }
  if (mode === 'truncate') return void res.end();
  res.end(sealer.sealChunk(encodeBhttpResponseTail(), true));
  void inner;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    gateway(req, res).catch(() => {
      res.writeHead(400, { 'content-type': 'application/problem+json', 'nen-error': 'NEN_OHTTP_DECRYPT' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (o: Record<string, unknown> = {}) =>
  createNenClient({ mode: 'ohttp', baseUrl: 'https://app.example', relay: `${base}/gw`, keyConfig: toBase64Url(encodeKeyConfig(xwing)), ...o });

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'no error';
}

describe('OHTTP mode', () => {
  it('sends one encapsulated request (no handshake) and returns the inner answer; outer headers carry nothing of it', async () => {
    mode = 'ok';
    const res = await client().fetch('/api/notes?x=1', { method: 'POST', headers: { 'content-type': 'application/json', cookie: 'sid=1' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.constructor.name).toBe('OhttpOpenedResponse'); // Node: read from the opened bytes, no body stream
    expect(await res.json()).toEqual({ path: '/api/notes?x=1', n: 7 });
    const s = seen.at(-1) as { headers: Record<string, string>; inner: string[][] };
    expect(s.headers.cookie).toBeUndefined();
    expect(s.inner).toContainEqual(['cookie', 'sid=1']);
    expect(s.inner.some(([n]) => n === 'date')).toBe(true);
    expect((await client().fetch('/missing')).status).toBe(404);
    await expect(client().handshake()).rejects.toMatchObject({ code: 'NEN_BAD_INPUT' });
    expect(() => createNenClient({ mode: 'ohttp', baseUrl: 'https://a.example' })).toThrow(expect.objectContaining({ code: 'NEN_BAD_INPUT' }));
  });

  it('streams a chunked answer incrementally (chunks before the end) and detects a truncated or tampered chunk', async () => {
    mode = 'ok';
    const got: string[] = [];
    for await (const c of client().stream('/api/stream', { method: 'POST' })) got.push(new TextDecoder().decode(c));
    expect(got.join('')).toBe('one two three');
    expect(got.length).toBeGreaterThan(1);
    mode = 'truncate';
    const r = await client()
      .fetch('/s', { method: 'POST' })
      .catch((e: unknown) => e);
    expect(r).toBeInstanceOf(Error); // non-chunked truncation
    const res = await client({ chunked: true }).fetch('/s', { method: 'POST' });
    await expect(res.text()).rejects.toMatchObject({ code: 'NEN_OHTTP_TRUNCATED' });
    mode = 'tamper';
    const res2 = await client({ chunked: true }).fetch('/s', { method: 'POST' });
    await expect(res2.text()).rejects.toMatchObject({ code: 'NEN_OHTTP_DECRYPT' });
  });

  it('a tampered, truncated or swapped encapsulated response fails authentication', async () => {
    mode = 'tamper';
    expect(await codeOf(client().fetch('/a'))).toBe('NEN_OHTTP_DECRYPT');
    mode = 'truncate';
    expect(await codeOf(client().fetch('/a'))).toBe('NEN_OHTTP_DECRYPT');
    mode = 'ok';
    await client().fetch('/a');
    mode = 'swap';
    expect(await codeOf(client().fetch('/b'))).toBe('NEN_OHTTP_DECRYPT');
  });

  it('pins the key config: a substituted one is refused before anything is sent; X25519 only with allowClassical', async () => {
    mode = 'ok';
    const pin = await keyConfigPin(xwing);
    const pinned = (o: Record<string, unknown> = {}) => client({ keyConfig: [pin], keyConfigUrl: `${base}/keys`, ...o });
    expect((await pinned().fetch('/a')).status).toBe(200);
    mode = 'substitute';
    const before = seen.length;
    expect(await codeOf(pinned().fetch('/a'))).toBe('NEN_OHTTP_KEY_MISMATCH');
    expect(seen.length).toBe(before);
    mode = 'ok';
    expect(await codeOf(client({ keyConfig: toBase64Url(encodeKeyConfig(x25519)) }).fetch('/a'))).toBe('NEN_OHTTP_KEY_MISMATCH');
    expect((await client({ keyConfig: toBase64Url(encodeKeyConfig(x25519)), allowClassical: true }).fetch('/a')).status).toBe(200);
    expect(() => client({ keyConfig: [pin] })).not.toThrow(); // checked on first use
    expect(await codeOf(client({ keyConfig: [pin] }).fetch('/a'))).toBe('NEN_BAD_INPUT');
  });

  it('a Date refusal (RFC 9458 §6.5.2) is retried once with the gateway clock', async () => {
    mode = 'date';
    dateRefusals = 0;
    const res = await client().fetch('/d');
    expect(res.status).toBe(200);
    expect(dateRefusals).toBe(2);
    const last = (seen.at(-1) as { inner: string[][] }).inner.find(([n]) => n === 'date') as string[];
    expect(Math.abs(Date.parse(last[1] as string) - (Date.now() + 3_600_000))).toBeLessThan(5_000);
  });

  it('an encapsulated problem answer throws its code; the client reads problem fields of 4xx / 5xx answers only, so every wire error must be one', async () => {
    mode = 'replay';
    expect(await codeOf(client().fetch('/r'))).toBe('NEN_REPLAY');
    mode = 'ok';
    for (const [code, spec] of Object.entries(WIRE_ERRORS)) expect([code, spec.status >= 400]).toEqual([code, true]);
  });

  it('an unencapsulated error from the relay or gateway is a typed hint', async () => {
    mode = 'ok';
    const c = createNenClient({
      mode: 'ohttp',
      baseUrl: 'https://a.example',
      relay: `${base}/gw`,
      keyConfig: toBase64Url(encodeKeyConfig(other.configs()[0] as typeof xwing)),
    });
    expect(await codeOf(c.fetch('/a'))).toBe('NEN_OHTTP_DECRYPT');
  });

  it('@nen/client/ohttp: createOhttpClient is the same mode with the code loaded eagerly (one request, pinned, options checked)', async () => {
    mode = 'ok';
    const before = seen.length;
    const pin = await keyConfigPin(xwing);
    const entry = () => createOhttpClient({ baseUrl: 'https://app.example', relay: `${base}/gw`, keyConfig: [pin], keyConfigUrl: `${base}/keys` });
    const c = entry();
    const res = await c.fetch('/api/e', { method: 'POST', body: 'hi' });
    expect(await res.json()).toEqual({ path: '/api/e', n: 2 });
    expect(seen.length).toBe(before + 1);
    expect(c.session).toBeNull();
    await expect(c.rotate()).rejects.toMatchObject({ code: 'NEN_BAD_INPUT' });
    mode = 'substitute';
    expect(await codeOf(entry().fetch('/a'))).toBe('NEN_OHTTP_KEY_MISMATCH');
    mode = 'ok';
    expect(() => createOhttpClient({ baseUrl: 'https://a.example', relay: `${base}/gw` })).toThrow(expect.objectContaining({ code: 'NEN_BAD_INPUT' }));
  });
});
