/**
 * The OHTTP gateway on Cloudflare Workers, end to end on the real workerd runtime (./harness.ts):
 * both Nen Workers (two isolates) serve `/.well-known/ohttp-gateway` from `nen.ohttpGateway()`
 * with NEN_OHTTP_KEYS, and claim replay ids in the Durable Object store (one `c:ohttp:<hex>`
 * object per encapsulated key, SQLite-backed, shared by the isolates). Driven from Node:
 *  - GET: the same `application/ohttp-keys` on both isolates (X-Wing first, X25519 second);
 *  - @nen/client's OHTTP mode (message/ohttp-req, and chunked for a withNenStream handler, read
 *    incrementally) reaches the withNen / withNenStream handlers unchanged, X-Wing and X25519,
 *    from Node and from inside workerd (Worker `c`, ./client-worker.ts);
 *  - replay: one encapsulated request sent to both isolates at once runs the handler exactly once
 *    (the handlers' run counters), the other answer is an encapsulated 409 NEN_REPLAY; the claim
 *    is a row in the claim's Durable Object; the same for a chunked request;
 *  - a Date outside the window: encapsulated 400 NEN_OHTTP_DATE with the gateway's Date;
 *  - bad key id (problem type ohttp-key), tampered, truncated (plain and chunked), oversized,
 *    wrong media type: 4xx application/problem+json with Nen's code, the handler never runs and
 *    no answer (nor workerd's log) shows a 5xx.
 */
import { createNenClient } from '@nen/client';
import {
  OHTTP_KEM,
  type OhttpKeyConfig,
  decodeBhttpResponse,
  encapsulateChunkedRequest,
  encapsulateRequest,
  encodeBhttpRequest,
  encodeKeyConfig,
  generateOhttpKey,
  parseKeyConfigs,
  toBase64Url,
} from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerd, type Workerd } from './harness.js';
import { inner, openChunkedResponse } from '../ohttp-inner.js';

const KEYS = `k1:${Buffer.alloc(32, 12).toString('base64url')}`;
const OHTTP_KEYS = `${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`;
const GW = '/.well-known/ohttp-gateway';
const dec = new TextDecoder();
let wd: Workerd;
let configs: OhttpKeyConfig[];

beforeAll(async () => {
  wd = await startWorkerd(KEYS, { ohttpKeys: OHTTP_KEYS });
  configs = parseKeyConfigs(new Uint8Array(await (await fetch(wd.urls[0] + GW)).arrayBuffer()));
}, 60_000);

afterAll(async () => {
  await wd?.stop();
});

/** Handler runs so far, both isolates together. */
async function runs(): Promise<number> {
  const n = await Promise.all(wd.urls.map(async (u) => ((await (await fetch(`${u}/__test/runs`)).json()) as { runs: number }).runs));
  return n[0]! + n[1]!;
}

const post = (origin: string, body: Uint8Array, type = 'message/ohttp-req'): Promise<Response> =>
  fetch(origin + GW, { method: 'POST', headers: { 'content-type': type }, body: body as Uint8Array<ArrayBuffer> });

/** The replay id's Durable Object: how many claims it holds. */
async function claimsFor(enc: Uint8Array): Promise<number> {
  const h = Buffer.from(await crypto.subtle.digest('SHA-256', enc as Uint8Array<ArrayBuffer>)).toString('hex');
  const r = await fetch(`${wd.urls[0]}/__test/object?name=${encodeURIComponent(`c:ohttp:${h}`)}`);
  return ((await r.json()) as { claims: number }).claims;
}

describe('the OHTTP gateway on workerd, replay ids in the Durable Object store', () => {
  keysAndClients();

  replayAndRefusals();
});

/** Key configs and @nen/client's OHTTP mode, from Node and inside workerd. */
function keysAndClients(): void {
  it('GET: both isolates serve the same application/ohttp-keys, X-Wing first, X25519 second', async () => {
    const bodies = await Promise.all(
      wd.urls.map(async (u) => {
        const r = await fetch(u + GW);
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('application/ohttp-keys');
        return Buffer.from(await r.arrayBuffer()).toString('hex');
      }),
    );
    expect(bodies[0]).toBe(bodies[1]);
    expect(configs.map((c) => [c.keyId, c.kemId])).toEqual([
      [1, OHTTP_KEM.XWING],
      [2, OHTTP_KEM.X25519],
    ]);
  });

  it('@nen/client OHTTP mode: withNen and a streamed withNenStream answer (chunked, read incrementally), X-Wing and X25519', async () => {
    for (const [i, config] of configs.entries()) {
      const c = createNenClient({
        mode: 'ohttp',
        baseUrl: 'https://app.example',
        relay: wd.urls[i % 2]! + GW,
        keyConfig: toBase64Url(encodeKeyConfig(config)),
        allowClassical: config.kemId === OHTTP_KEM.X25519,
      });
      const before = await runs();
      const r = await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kem: config.kemId }) });
      expect([r.status, await r.json()]).toEqual([200, { instance: i % 2 ? 'b' : 'a', body: { kem: config.kemId } }]);
      const pieces: string[] = [];
      for await (const piece of c.stream('/api/stream', { method: 'POST' })) pieces.push(typeof piece === 'string' ? piece : dec.decode(piece));
      expect(pieces.join('')).toBe('data: post\n\ndata: quantum\n\ndata: workerd\n\n');
      // a 100 KB answer read as chunked OHTTP: the gateway splits it into chunks the client takes (<= 64 KiB)
      const big = 'q'.repeat(100_000);
      const cc = createNenClient({
        mode: 'ohttp',
        baseUrl: 'https://app.example',
        relay: wd.urls[0] + GW,
        keyConfig: toBase64Url(encodeKeyConfig(configs[0]!)),
        chunked: true,
      });
      const rb = await cc.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(big) });
      expect(((await rb.json()) as { body: string }).body).toBe(big);
      expect(await runs()).toBe(before + 3);
    }
  });

  it('@nen/client OHTTP mode inside workerd (Worker `c` over a service binding): JSON and a chunked stream; a flipped answer byte is refused', async () => {
    const config = toBase64Url(encodeKeyConfig(configs[0]!));
    const r = await fetch(`${wd.clientUrl}/client/ohttp?config=${config}`);
    expect(await r.json()).toEqual({
      status: 200,
      body: { instance: 'a', body: { from: 'workerd ohttp' } },
      stream: 'data: post\n\ndata: quantum\n\ndata: workerd\n\n',
      refused: 'NEN_OHTTP_DECRYPT',
    });
  });
}

/** Replay across isolates (plain and chunked), the Date window and the outside errors. */
function replayAndRefusals(): void {
  it('replay: one encapsulation sent to both isolates at once runs the handler once; the other gets an encapsulated 409 NEN_REPLAY; the claim is in its Durable Object', async () => {
    const c = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/echo', { race: 1 })));
    expect(await claimsFor(c.enc)).toBe(0);
    const before = await runs();
    const answers = await Promise.all(wd.urls.map((u) => post(u, c.encapsulatedRequest)));
    expect(answers.map((a) => [a.status, a.headers.get('content-type')])).toEqual([
      [200, 'message/ohttp-res'],
      [200, 'message/ohttp-res'],
    ]);
    const opened = await Promise.all(answers.map(async (a) => decodeBhttpResponse(c.openResponse(new Uint8Array(await a.arrayBuffer())))));
    expect(opened.map((o) => o.status).sort()).toEqual([200, 409]);
    expect(JSON.parse(dec.decode(opened.find((o) => o.status === 409)!.content))).toMatchObject({ code: 'NEN_REPLAY' });
    expect(await runs()).toBe(before + 1);
    expect(await claimsFor(c.enc)).toBe(1);
    // and later, on either isolate: still refused, still not run
    for (const u of wd.urls) {
      const again = await post(u, c.encapsulatedRequest);
      expect(decodeBhttpResponse(c.openResponse(new Uint8Array(await again.arrayBuffer()))).status).toBe(409);
    }
    expect(await runs()).toBe(before + 1);
  });

  it('replay of a chunked request: the stream handler runs once, the replay is an encapsulated 409 in a chunked answer', async () => {
    const c = encapsulateChunkedRequest(configs[0]!);
    const bhttp = encodeBhttpRequest(inner('/api/stream', {}), { indeterminate: true });
    const body = new Uint8Array([...c.header, ...c.sealChunk(bhttp.subarray(0, 7)), ...c.sealChunk(bhttp.subarray(7), true)]);
    const before = await runs();
    const statuses: number[] = [];
    for (const u of wd.urls) {
      const res = await post(u, body, 'message/ohttp-chunked-req');
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'message/ohttp-chunked-res']);
      const r = await openChunkedResponse(res, c.responseOpener());
      statuses.push(r.status);
      if (r.status === 200) expect(dec.decode(r.content)).toBe('data: post\n\ndata: quantum\n\ndata: workerd\n\n');
    }
    expect(statuses).toEqual([200, 409]);
    expect(await runs()).toBe(before + 1);
    expect(await claimsFor(c.enc)).toBe(1);
  });

  it('a Date outside the window: encapsulated 400 NEN_OHTTP_DATE with the gateway Date; the handler does not run', async () => {
    const before = await runs();
    const c = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/echo', {}, new Date(Date.now() - 10 * 60_000))));
    const r = decodeBhttpResponse(c.openResponse(new Uint8Array(await (await post(wd.urls[1], c.encapsulatedRequest)).arrayBuffer())));
    expect([r.status, JSON.parse(dec.decode(r.content)).code]).toEqual([400, 'NEN_OHTTP_DATE']);
    expect(Math.abs(Date.parse(r.headers.find(([n]) => n === 'date')?.[1] ?? '') - Date.now())).toBeLessThan(10_000);
    expect(await runs()).toBe(before);
  });

  it('bad key id, tampered, truncated (plain and chunked), oversized, wrong type: 4xx problem+json with Nen codes; never a 5xx, never a handler', async () => {
    const before = await runs();
    const er = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/echo', { bad: 1 }))).encapsulatedRequest;
    const wrongKey = er.slice();
    wrongKey[0] = 9;
    const tampered = er.slice();
    tampered[er.length - 1]! ^= 1;
    const ch = encapsulateChunkedRequest(configs[0]!);
    const chunk = ch.sealChunk(encodeBhttpRequest(inner('/api/stream', {}), { indeterminate: true }));
    const noFinal = new Uint8Array([...ch.header, ...chunk]);
    const badChunk = noFinal.slice();
    badChunk[badChunk.length - 1]! ^= 1;
    const cases: [Uint8Array, string, number, string, string?][] = [
      [wrongKey, 'message/ohttp-req', 400, 'NEN_OHTTP_KEY_UNKNOWN', 'https://iana.org/assignments/http-problem-types#ohttp-key'],
      [tampered, 'message/ohttp-req', 400, 'NEN_OHTTP_DECRYPT'],
      [er.subarray(0, 40), 'message/ohttp-req', 400, 'NEN_OHTTP_MALFORMED'],
      [noFinal, 'message/ohttp-chunked-req', 400, 'NEN_OHTTP_TRUNCATED'],
      [badChunk, 'message/ohttp-chunked-req', 400, 'NEN_OHTTP_DECRYPT'],
      [new Uint8Array(2 * 1024 * 1024), 'message/ohttp-req', 413, 'NEN_TOO_LARGE'],
      [er, 'application/json', 415, 'NEN_CONTENT_TYPE'],
    ];
    for (const [i, [body, type, status, code, problemType]] of cases.entries()) {
      const res = await post(wd.urls[i % 2]!, body, type);
      expect({ i, status: res.status, code: res.headers.get('nen-error'), type: res.headers.get('content-type') }).toEqual({
        i,
        status,
        code,
        type: 'application/problem+json',
      });
      const p = (await res.json()) as { type: string; code: string };
      expect(p.code).toBe(code);
      if (problemType) expect(p.type).toBe(problemType);
    }
    const put = await fetch(wd.urls[0] + GW, { method: 'PUT', body: 'x' });
    expect([put.status, put.headers.get('nen-error')]).toEqual([405, 'NEN_METHOD_NOT_ALLOWED']);
    expect(await runs()).toBe(before);
    expect(wd.logs()).not.toMatch(/Uncaught|NEN_INTERNAL/);
  });
}
