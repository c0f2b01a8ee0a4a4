/**
 * End to end, request authentication on the raw wire (THREAT_MODEL.md): a captured request with its
 * body, tag, bound headers, query, method or path changed → 401; replay → 409; the timestamp window
 * → 401 with client recovery; terminated / expired sessions → 401 with transparent recovery.
 * Then malformed input and limits: malformed `nen` headers, bodies and handshakes → 400 with
 * stable codes, oversize → 413; the last test checks that the server still serves and logged the
 * authentication failures above with a reason (so both stay in this file, in this order).
 * Real server and client per backend (./e2e-fixture.ts).
 */
import { describe, expect, it } from 'vitest';
import type { WireExchange } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { type Ctx, recorder, rawError, withHeader, flipByte, useServer, BACKENDS } from './e2e-fixture.js';

/** A request the real client sent and the server accepted, as it went over the wire. */
async function captured(srv: { ctx: Ctx }, path: string, init: RequestInit) {
  const rec = recorder();
  const client = srv.ctx.client({ fetch: rec.fetch });
  const r = await client.fetch(path, init);
  await r.arrayBuffer();
  expect(r.ok).toBe(true);
  return rec.last();
}
const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' };

describe.each(BACKENDS)('Nen over HTTP (%s backend)', (kind) => {
  const srv = {} as { ctx: Ctx };
  useServer(kind, (c) => {
    srv.ctx = c;
  });

  describe('request authentication (server side, raw wire)', () => {
    tamperAndReplay(srv);

    sessionRecovery(srv);
  });

  describe('malformed input and limits', () => {
    malformedInput(srv);
  });
});

/** A captured request changed, replayed or out of its time window. */
function tamperAndReplay(srv: { ctx: Ctx }): void {
  it('tampered body or tag → 401 NEN_AUTH_FAILED, and the handler never runs', async () => {
    const c = await captured(srv, '/api/echo', post);
    const body = c.init.body as Uint8Array;
    const runs = srv.ctx.handlerRuns.n;
    for (const mutated of [flipByte(body, 0), flipByte(body, -1), body.subarray(0, body.length - 1)]) {
      const seqBump = (c.init.headers as Headers).get('nen')!;
      expect(await rawError(await fetch(c.url, { ...c.init, body: mutated as Uint8Array<ArrayBuffer> }))).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
      expect(seqBump).toBeTruthy();
    }
    expect(srv.ctx.handlerRuns.n).toBe(runs);
  });

  it('any bound header, the query, the method or the path changed → 401', async () => {
    const c = await captured(srv, '/api/echo?q=1', post);
    const h = c.init.headers as Headers;
    const nenHdr = h.get('nen')!;
    const f = nenHdr.split('.');
    const variants: [string, RequestInit][] = [
      [c.url, withHeader(c.init, 'nen-type', 'text/plain')],
      [c.url, withHeader(c.init, 'nen', [...f.slice(0, 3), String(BigInt(f[3]!) + 1000n), f[4], f[5]].join('.'))],
      [c.url, withHeader(c.init, 'nen', [...f.slice(0, 4), String(Number(f[4]) + 1), f[5]].join('.'))],
      [c.url, withHeader(c.init, 'nen', [...f.slice(0, 5), '8'].join('.'))],
      [c.url.replace('q=1', 'q=2'), c.init],
      [c.url.replace('?q=1', ''), c.init],
      [c.url, { ...c.init, method: 'PUT' }],
      [c.url.replace('/api/echo', '/api/other'), c.init],
    ];
    for (const [url, init] of variants) {
      expect(await rawError(await fetch(url, init)), `${url} ${new Headers(init.headers).get('nen')}`).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
    }
  });

  it('bodyless GET is authenticated too: tag in nen-body tampered or missing → 401 / 400', async () => {
    const c = await captured(srv, '/api/echo?x=1', { method: 'GET' });
    const tag = (c.init.headers as Headers).get('nen-body')!;
    const bad = toBase64Url(flipByte(Buffer.from(tag, 'base64url'), 3));
    expect(await rawError(await fetch(c.url, withHeader(c.init, 'nen-body', bad)))).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
    const h = new Headers(c.init.headers);
    h.delete('nen-body');
    expect(await rawError(await fetch(c.url, { ...c.init, headers: h }))).toEqual({ status: 400, code: 'NEN_MALFORMED' });
  });

  it('replay → 409 NEN_REPLAY (window updated only after the AEAD check)', async () => {
    const c = await captured(srv, '/api/echo', post);
    expect(await rawError(await fetch(c.url, c.init))).toEqual({ status: 409, code: 'NEN_REPLAY' });
    // A forged request with a far-ahead seq must not advance the window and lock out the client.
    const f = (c.init.headers as Headers).get('nen')!.split('.');
    const forged = withHeader(c.init, 'nen', [...f.slice(0, 3), '999999', f[4], f[5]].join('.'));
    expect((await rawError(await fetch(c.url, forged))).status).toBe(401);
  });

  it('timestamp outside the window → 401 NEN_TIMESTAMP; the client corrects its clock and retries once', async () => {
    const seen: WireExchange[] = [];
    const client = srv.ctx.client({ onExchange: (e) => seen.push(e) });
    await client.handshake();
    // The client's clock is now 2 minutes ahead of the server's.
    srv.ctx.clockOffset.ms = -120_000;
    try {
      const r = await client.fetch('/api/echo', post);
      expect(await r.json()).toEqual({ a: 1 });
    } finally {
      srv.ctx.clockOffset.ms = 0;
    }
    expect(seen.map((e) => `${e.kind}:${e.status}`)).toEqual(['handshake:200', 'request:401', 'handshake:200', 'request:200']);
    expect(seen[1]!.responseHeaders['nen-error']).toBe('NEN_TIMESTAMP');
  });
}

/** Ended and expired sessions, and session actions without the session keys. */
function sessionRecovery(srv: { ctx: Ctx }): void {
  it('terminated session → 401, and the client recovers by itself (one re-handshake, one retry)', async () => {
    const seen: WireExchange[] = [];
    const rec = recorder();
    const client = srv.ctx.client({ onExchange: (e) => seen.push(e), fetch: rec.fetch });
    await (await client.fetch('/api/echo', post)).arrayBuffer();
    const old = rec.last();
    await client.terminate();
    expect(client.session).toBeNull();
    expect(await rawError(await fetch(old.url, withHeader(old.init, 'x-retry', '1')))).toMatchObject({ status: 401 });
    const r = await client.fetch('/api/echo', post);
    expect(await r.json()).toEqual({ a: 1 });
    // Server-side deletion (e.g. another instance, admin) is recovered from transparently too.
    await srv.ctx.store.delete(client.session!.id);
    seen.length = 0;
    const r2 = await client.fetch('/api/echo', post);
    expect(await r2.json()).toEqual({ a: 1 });
    expect(seen.map((e) => `${e.kind}:${e.status}`)).toEqual(['request:401', 'handshake:200', 'request:200']);
  });

  it('expired session (absolute TTL) → 401 NEN_SESSION_EXPIRED and transparent recovery', async () => {
    const seen: WireExchange[] = [];
    const client = srv.ctx.client({ onExchange: (e) => seen.push(e) });
    await (await client.fetch('/api/echo', post)).arrayBuffer(); // confirmed: its window outlives it (PROTOCOL.md "Retries")
    const id = client.session!.id;
    await srv.ctx.store.update(id, { expiresAt: Date.now() - 1 });
    const r = await client.fetch('/api/echo', post);
    expect(await r.json()).toEqual({ a: 1 });
    expect(seen.map((e) => `${e.kind}:${e.status}:${e.responseHeaders['nen-error'] ?? ''}`)).toEqual([
      'handshake:200:',
      'request:200:',
      'request:401:NEN_SESSION_EXPIRED',
      'handshake:200:',
      'request:200:',
    ]);
    expect(seen[4]!.requestHeaders['nen-retry']).toMatch(new RegExp(`^${id}\\.0\\.2\\.\\d+$`));
  });

  it('terminate / rotate / status without the session keys are refused', async () => {
    const client = srv.ctx.client();
    await client.handshake();
    const sid = client.session!.id;
    for (const action of ['terminate', 'rotate', 'status']) {
      const res = await fetch(`${srv.ctx.server.url}/api/nen/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/nen', nen: `1.${sid}.0.${1000 + action.length}.${Date.now()}.0` },
        body: new Uint8Array(16),
      });
      expect(await rawError(res)).toEqual({ status: 401, code: 'NEN_AUTH_FAILED' });
    }
    // The session is untouched.
    const r = await client.fetch('/api/echo', post);
    expect(await r.json()).toEqual({ a: 1 });
    expect((await client.status()).epoch).toBe(0);
  });
}

/** Malformed input and limits on the raw wire. */
function malformedInput(srv: { ctx: Ctx }): void {
  const sid = () => toBase64Url(new Uint8Array(16).fill(9));
  it('malformed headers, lengths, base64, content types → 400/415 with a code, no crash', async () => {
    const u = `${srv.ctx.server.url}/api/echo`;
    const now = Date.now();
    const cases: [RequestInit, number, string][] = [
      [{ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, 400, 'NEN_NOT_ENCRYPTED'],
      [{ method: 'POST', headers: { nen: 'garbage', 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
      [{ method: 'POST', headers: { nen: `2.${sid()}.0.1.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_UNSUPPORTED_VERSION'],
      [{ method: 'POST', headers: { nen: `1.${sid()}x.0.1.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
      [{ method: 'POST', headers: { nen: `1.${sid()}.0.0.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
      [{ method: 'POST', headers: { nen: `1.${sid()}.0.18446744073709551616.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
      [{ method: 'POST', headers: { nen: `1.${sid()}.0.01.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
      [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now}.64`, 'content-type': 'application/nen' }, body: 'x' }, 400, 'NEN_MALFORMED'],
      [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now}.0`, 'content-type': 'application/json' }, body: 'x' }, 415, 'NEN_CONTENT_TYPE'],
      [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now}.0`, 'content-type': 'application/nen' }, body: 'x' }, 401, 'NEN_SESSION_UNKNOWN'],
      [{ method: 'GET', headers: { nen: `1.${sid()}.0.1.${now}.0`, 'nen-body': '!!!' } }, 400, 'NEN_MALFORMED'],
      [{ method: 'GET', headers: { nen: `1.${sid()}.0.1.${now}.4`, 'nen-body': 'AAAA' } }, 400, 'NEN_MALFORMED'],
      [{ method: 'POST', headers: { nen: `1.${sid()}.0.1.${now - 3_600_000}.0`, 'content-type': 'application/nen' }, body: 'x' }, 401, 'NEN_TIMESTAMP'],
    ];
    for (const [init, status, code] of cases) {
      expect(await rawError(await fetch(u, init)), JSON.stringify(init.headers)).toEqual({ status, code });
    }
    const hs = `${srv.ctx.server.url}/api/nen/handshake`;
    const hsCases: [RequestInit, number, string][] = [
      [{ method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array(3) }, 400, 'NEN_MALFORMED'],
      [
        { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array([1, 0x64, 0x7a, 0, 0, 0, 0, 0, 1]) },
        400,
        'NEN_MALFORMED',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array([1, 0x12, 0x34, 0, 0, 0, 0, 0]) },
        400,
        'NEN_UNSUPPORTED_KEM',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array([9, 0x64, 0x7a, 0, 0, 0, 0, 0]) },
        400,
        'NEN_UNSUPPORTED_VERSION',
      ],
      [{ method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: new Uint8Array(10_000) }, 413, 'NEN_TOO_LARGE'],
      [{ method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }, 415, 'NEN_CONTENT_TYPE'],
      [{ method: 'GET' }, 405, 'NEN_METHOD_NOT_ALLOWED'],
    ];
    for (const [init, status, code] of hsCases) expect(await rawError(await fetch(hs, init))).toEqual({ status, code });
    expect(await rawError(await fetch(`${srv.ctx.server.url}/api/nen/nope`, { method: 'POST' }))).toEqual({ status: 404, code: 'NEN_NOT_FOUND' });
    const keys = await (await fetch(`${srv.ctx.server.url}/api/nen/keys`)).json();
    expect(keys.keys[0]).toMatchObject({ kid: 'k1', kem: 'xwing', pin: srv.ctx.pin });
  });

  it('JSON that does not parse after decryption → 400 NEN_BAD_JSON', async () => {
    const client = srv.ctx.client();
    await expect(client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' })).rejects.toMatchObject({
      code: 'NEN_BAD_JSON',
      status: 400,
    });
  });

  it('oversize body → 413 NEN_TOO_LARGE (declared or streamed)', async () => {
    const client = srv.ctx.client();
    await expect(client.fetch('/api/echo', { method: 'POST', body: new Uint8Array(300 * 1024) })).rejects.toMatchObject({
      code: 'NEN_TOO_LARGE',
      status: 413,
    });
    const big = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await fetch(`${srv.ctx.server.url}/api/echo`, {
      method: 'POST',
      body: big,
      duplex: 'half',
      headers: { 'content-type': 'application/nen', nen: `1.${sid()}.0.1.${Date.now()}.0` },
    } as RequestInit);
    expect(await rawError(res)).toEqual({ status: 413, code: 'NEN_TOO_LARGE' });
  });

  it('the server keeps serving after all of the above', async () => {
    const r = await srv.ctx.client().fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2,3]' });
    expect(await r.json()).toEqual([1, 2, 3]);
    expect(srv.ctx.logs.some((l) => l.code === 'NEN_AUTH_FAILED' && typeof l.reason === 'string')).toBe(true);
  });
}
