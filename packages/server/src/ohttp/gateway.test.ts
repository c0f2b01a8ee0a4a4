/**
 * The OHTTP gateway through `createNen().ohttpGateway()` with `withNen` / `withNenStream` handlers
 * reached unchanged (memory store): key configs, round trips (X-Wing and X25519, chunked and
 * not), and the attacks in OHTTP form: replay (the handler runs once), a Date outside the window
 * (§6.5 problem with the gateway's Date, handler not run), a tampered / truncated encapsulation,
 * an unknown key id, a swapped response, a relay adding headers, oversized and malformed bodies.
 */
import {
  type BhttpRequest,
  OHTTP_KEM,
  OhttpGatewayKeys,
  decodeBhttpResponse,
  encapsulateChunkedRequest,
  encapsulateRequest,
  encodeBhttpRequest,
  generateOhttpKey,
  parseKeyConfigs,
} from '@nen/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createNen } from '../nen.js';
import { memoryStore } from '../stores/memory.js';
import { inner, openChunkedResponse } from '../../test/ohttp-inner.js';

const keysText = `${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`;
const nen = createNen({ store: memoryStore(), serverKeys: undefined });
let runs = 0;
const seen: { body: unknown; headers: Record<string, string>; url: string }[] = [];
const notes = nen.withNen(async (req, _ctx, body) => {
  runs++;
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => {
    headers[k] = v;
  });
  seen.push({ body, headers, url: req.url });
  return { ok: true, echo: body };
});
const stream = nen.withNenStream(async function* () {
  yield 'a';
  yield 'bb';
  yield 'ccc';
});
const gateway = nen.ohttpGateway({ keys: OhttpGatewayKeys.parse(keysText), routes: { '/api/notes': { POST: notes }, '/api/stream': { POST: stream } } });
const configs = gateway.keys.configs();
afterAll(() => nen.close());

const URL_ = 'https://gw.example/.well-known/ohttp-gateway';
const dec = new TextDecoder();

function post(body: Uint8Array, type = 'message/ohttp-req', extra: Record<string, string> = {}): Promise<Response> {
  return gateway.POST(new Request(URL_, { method: 'POST', headers: { 'content-type': type, ...extra }, body: body as Uint8Array<ArrayBuffer> }));
}

async function roundTrip(req: BhttpRequest, config = configs[0]!) {
  const c = encapsulateRequest(config, encodeBhttpRequest(req));
  const res = await post(c.encapsulatedRequest);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('message/ohttp-res');
  const raw = new Uint8Array(await res.arrayBuffer());
  expect(res.headers.get('content-length')).toBe(String(raw.length)); // known length: no chunked framing
  const inner = decodeBhttpResponse(c.openResponse(raw));
  return { c, inner, json: inner.content.length ? JSON.parse(dec.decode(inner.content)) : undefined };
}

describe('OHTTP gateway', () => {
  keysRoundTripsAndReplay();

  refusalsAndChunked();
});

/** Key configs, round trips, outer headers, replay and the Date window. */
function keysRoundTripsAndReplay(): void {
  it('GET: application/ohttp-keys with both configs, X-Wing first', async () => {
    const res = await gateway.GET();
    expect(res.headers.get('content-type')).toBe('application/ohttp-keys');
    const list = parseKeyConfigs(new Uint8Array(await res.arrayBuffer()));
    expect(list.map((c) => [c.keyId, c.kemId])).toEqual([
      [1, OHTTP_KEM.XWING],
      [2, OHTTP_KEM.X25519],
    ]);
  });

  it('a withNen handler runs unchanged behind the gateway (X-Wing and X25519): parsed body, inner headers only', async () => {
    for (const config of configs) {
      const before = runs;
      const { inner: r, json } = await roundTrip(inner('/api/notes', { n: config.keyId }), config);
      expect(r.status).toBe(200);
      expect(json).toEqual({ ok: true, echo: { n: config.keyId } });
      expect(runs).toBe(before + 1);
    }
    expect(seen.at(-1)?.url).toBe('https://app.example/api/notes');
  });

  it('a relay adding or rewriting outer headers changes nothing inside', async () => {
    const c = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/notes', { r: 1 })));
    const res = await post(c.encapsulatedRequest, 'message/ohttp-req', {
      cookie: 'sid=evil',
      'x-forwarded-for': '10.0.0.1',
      date: 'Mon, 01 Jan 2001 00:00:00 GMT',
    });
    expect(decodeBhttpResponse(c.openResponse(new Uint8Array(await res.arrayBuffer()))).status).toBe(200);
    const h = seen.at(-1)?.headers ?? {};
    expect(h.cookie).toBeUndefined();
    expect(h['x-forwarded-for']).toBeUndefined();
  });

  it('replay: the same encapsulated request twice runs the handler once, the replay gets an encapsulated 409 NEN_REPLAY', async () => {
    const c = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/notes', { replay: true })));
    const before = runs;
    const [a, b] = await Promise.all([post(c.encapsulatedRequest), post(c.encapsulatedRequest)]);
    const statuses = await Promise.all([a, b].map(async (r) => decodeBhttpResponse(c.openResponse(new Uint8Array(await r.arrayBuffer())))));
    expect(statuses.map((s) => s.status).sort()).toEqual([200, 409]);
    const refused = statuses.find((s) => s.status === 409);
    expect(JSON.parse(dec.decode(refused?.content))).toMatchObject({ code: 'NEN_REPLAY' });
    expect(runs).toBe(before + 1);
  });

  it('a Date outside the window: encapsulated 400 problem type date with the gateway Date; the handler does not run', async () => {
    const before = runs;
    for (const date of [new Date(Date.now() - 10 * 60_000), new Date(Date.now() + 10 * 60_000)]) {
      const { inner: r, json } = await roundTrip(inner('/api/notes', {}, date));
      expect(r.status).toBe(400);
      expect(json).toEqual({
        type: 'https://iana.org/assignments/http-problem-types#date',
        title: 'date field in request outside of acceptable range',
        code: 'NEN_OHTTP_DATE',
      });
      const gwDate = r.headers.find(([n]) => n === 'date')?.[1] ?? '';
      expect(Math.abs(Date.parse(gwDate) - Date.now())).toBeLessThan(5_000);
    }
    const noDate = { ...inner('/api/notes', {}), headers: [['content-type', 'application/json'] as const] };
    expect((await roundTrip(noDate)).inner.status).toBe(400);
    expect(runs).toBe(before);
  });
}

/** F9, the outside errors, malformed Binary HTTP, swapped responses and chunked answers. */
function refusalsAndChunked(): void {
  it('F9: a request refused as ahead keeps its enc claimed: replayed once its Date is inside, NEN_REPLAY; over 1 h ahead, no Date hint', async () => {
    let skew = -5 * 60_000; // the gateway's clock 5 min behind the request's Date
    const g = nen.ohttpGateway({ keys: OhttpGatewayKeys.parse(keysText), routes: { '/api/notes': { POST: notes } }, now: () => Date.now() + skew });
    const send = async (c: ReturnType<typeof encapsulateRequest>) => {
      const res = await g.POST(
        new Request(URL_, { method: 'POST', headers: { 'content-type': 'message/ohttp-req' }, body: c.encapsulatedRequest as Uint8Array<ArrayBuffer> }),
      );
      const r = decodeBhttpResponse(c.openResponse(new Uint8Array(await res.arrayBuffer())));
      return { status: r.status, code: JSON.parse(dec.decode(r.content)).code, date: r.headers.find(([n]) => n === 'date')?.[1] };
    };
    const before = runs;
    const near = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/notes', { f9: 1 })));
    const far = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/notes', { f9: 2 }, new Date(Date.now() + 2 * 3_600_000))));
    expect(await send(near)).toMatchObject({ status: 400, code: 'NEN_OHTTP_DATE', date: expect.any(String) });
    expect(await send(far)).toEqual({ status: 400, code: 'NEN_OHTTP_DATE', date: undefined });
    skew = 0; // time passes: the near request's Date is inside the window
    expect(await send(near)).toMatchObject({ status: 409, code: 'NEN_REPLAY' });
    expect(runs).toBe(before);
  });

  it('outside errors are 4xx problem+json: unknown key id (ohttp-key), tampered, truncated, oversized, wrong type', async () => {
    const c = encapsulateRequest(configs[1]!, encodeBhttpRequest(inner('/api/notes', {})));
    const er = c.encapsulatedRequest;
    const wrongKey = er.slice();
    wrongKey[0] = 9;
    const tampered = er.slice();
    tampered[er.length - 1] = (tampered[er.length - 1] as number) ^ 1;
    const cases: [Response, number, string, string?][] = [
      [await post(wrongKey), 400, 'NEN_OHTTP_KEY_UNKNOWN', 'https://iana.org/assignments/http-problem-types#ohttp-key'],
      [await post(tampered), 400, 'NEN_OHTTP_DECRYPT'],
      [await post(er.subarray(0, 20)), 400, 'NEN_OHTTP_MALFORMED'],
      [await post(new Uint8Array(2 * 1024 * 1024)), 413, 'NEN_TOO_LARGE'],
      [await post(er, 'application/json'), 415, 'NEN_CONTENT_TYPE'],
    ];
    for (const [res, status, code, type] of cases) {
      expect({ status: res.status, code }).toEqual({ status, code: res.headers.get('nen-error') });
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const p = (await res.json()) as { type: string; code: string };
      expect(p.code).toBe(code);
      if (type) expect(p.type).toBe(type);
    }
  });

  it('malformed Binary HTTP inside a valid encapsulation: encapsulated 400 NEN_OHTTP_BHTTP', async () => {
    const c = encapsulateRequest(configs[0]!, Uint8Array.of(0, 3, 0x47));
    const res = await post(c.encapsulatedRequest);
    const r = decodeBhttpResponse(c.openResponse(new Uint8Array(await res.arrayBuffer())));
    expect({ status: r.status, code: JSON.parse(dec.decode(r.content)).code }).toEqual({ status: 400, code: 'NEN_OHTTP_BHTTP' });
  });

  it('a response cannot be swapped onto another request', async () => {
    const a = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/notes', { a: 1 })));
    const b = encapsulateRequest(configs[0]!, encodeBhttpRequest(inner('/api/notes', { b: 1 })));
    const ra = new Uint8Array(await (await post(a.encapsulatedRequest)).arrayBuffer());
    expect(() => b.openResponse(ra)).toThrow(expect.objectContaining({ code: 'NEN_OHTTP_DECRYPT', status: 400 }));
  });

  it('chunked: a withNenStream handler streams back, read chunk by chunk, final chunk verified', async () => {
    for (const config of configs) {
      const c = encapsulateChunkedRequest(config);
      const bhttp = encodeBhttpRequest(inner('/api/stream', { s: 1 }), { indeterminate: true });
      const body = new Uint8Array([...c.header, ...c.sealChunk(bhttp.subarray(0, 10)), ...c.sealChunk(bhttp.subarray(10), true)]);
      const res = await post(body, 'message/ohttp-chunked-req');
      expect(res.headers.get('content-type')).toBe('message/ohttp-chunked-res');
      const r = await openChunkedResponse(res, c.responseOpener());
      expect(r.status).toBe(200);
      expect(dec.decode(r.content)).toBe('abbccc');
    }
  });
}
