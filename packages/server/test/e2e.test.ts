/**
 * End-to-end protocol tests, round trips: real route handlers from createNen() behind a real
 * node:http server on 127.0.0.1, the real @nen/client over real HTTP, under the noble, wasm and
 * auto (node:crypto + Wasm, what servers use) backends (./e2e-fixture.ts). JSON, bytes, methods,
 * GET bodies, confidential queries, compression, streams and streamed uploads must arrive intact.
 *
 * The THREAT_MODEL.md properties (1-12) each have at least one test in e2e*.test.ts that fails when the
 * property is broken: tampering with body / tag / bound headers / query / method / path → 401,
 * replay → 409, timestamp window → 401 + client recovery, terminated / expired session → 401 +
 * transparent recovery (e2e-request-auth.test.ts); response substitution / plaintext / forged errors
 * rejected by the client, stream truncation / reordering / duplication detected, substituted
 * handshake share or server key → handshake fails, unauthenticated terminate / rotate refused
 * (e2e-response-auth.test.ts); oversize → 413, malformed input → 400 (e2e-request-auth.test.ts),
 * rate limit → 429 (e2e-dedicated.test.ts).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WireExchange } from '@nen/client';
import { type Ctx, useServer, BACKENDS } from './e2e-fixture.js';

describe.each(BACKENDS)('Nen over HTTP (%s backend)', (kind) => {
  const srv = {} as { ctx: Ctx };
  useServer(kind, (c) => {
    srv.ctx = c;
  });

  describe('round trips', () => {
    basics(srv);

    sessionsAndStreams(srv);
  });
});

/** Methods, the handler's view of the request and the wire overhead. */
function basics(srv: { ctx: Ctx }): void {
  it('POST JSON, GET with query, HEAD, DELETE, PUT binary, statuses and headers pass through', async () => {
    const client = srv.ctx.client();
    const r1 = await client.fetch('/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world', n: 1 }),
    });
    expect(r1.status).toBe(200);
    expect(r1.headers.get('content-type')).toBe('application/json');
    expect(await r1.json()).toEqual({ hello: 'world', n: 1 });
    expect(client.session?.keyId).toBe('k1');

    const r2 = await client.fetch('/api/echo?a=1&b=two', { method: 'GET' });
    expect(await r2.json()).toEqual({ method: 'GET', path: '/api/echo', query: { a: '1', b: 'two' } });

    const r3 = await client.fetch('/api/echo?x=1', { method: 'HEAD' });
    expect(r3.status).toBe(200);
    expect(await r3.text()).toBe('');

    const r4 = await client.fetch('/api/echo', { method: 'DELETE' });
    expect(r4.status).toBe(204);

    const bin = new Uint8Array(5000).map((_, i) => (i * 7) & 0xff);
    const r5 = await client.fetch('/api/echo', { method: 'PUT', headers: { 'content-type': 'application/x-thing' }, body: bin });
    expect(r5.headers.get('content-type')).toBe('application/x-thing');
    expect(new Uint8Array(await r5.arrayBuffer())).toEqual(bin);

    const r6 = await client.fetch('/api/created', { method: 'POST' });
    expect(r6.status).toBe(201);
    expect(r6.headers.get('x-custom')).toBe('yes');
    expect(await r6.json()).toEqual({ made: true });

    const r7 = await client.fetch('/api/empty', { method: 'POST' });
    expect(r7.status).toBe(204);

    const r9 = await client.fetch('/api/moved');
    expect(r9.status).toBe(307);
    expect(r9.headers.get('location')).toBe('http://127.0.0.1/elsewhere');

    const r8 = await client.fetch('/api/throw', { method: 'POST' });
    expect(r8.status).toBe(500);
    expect((await r8.json()).error.code).toBe('NEN_INTERNAL');
  });

  it('handlers see a Request with the decrypted body, plaintext content type and restored query', async () => {
    const client = srv.ctx.client({ confidentialQuery: true });
    const r = await client.fetch('/api/view?k=v', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":[1,2]}' });
    expect(await r.json()).toEqual({
      isRequest: true,
      json: { x: [1, 2] },
      text: '{"x":[1,2]}',
      same: true,
      ct: 'application/json',
      nenHeaders: [],
      url: '/api/view?k=v',
      signal: true,
    });
  });

  it('body overhead is exactly the 16-byte tag; metadata in a few short headers', async () => {
    const seen: WireExchange[] = [];
    const client = srv.ctx.client({ onExchange: (e) => seen.push(e) });
    const body = new Uint8Array(1024).fill(7);
    const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
    await res.arrayBuffer();
    const ex = seen.find((e) => e.kind === 'request')!;
    expect(ex.requestBodyLength).toBe(1024 + 16);
    expect(ex.responseBodyLength).toBe(1024 + 16);
    expect(
      Object.keys(ex.requestHeaders)
        .filter((h) => h.startsWith('nen'))
        .sort(),
    ).toEqual(['nen', 'nen-type']);
  });
}

/** Concurrency, confidential query, compression, rotate and streams both ways. */
function sessionsAndStreams(srv: { ctx: Ctx }): void {
  it('one handshake however many concurrent calls', async () => {
    const seen: WireExchange[] = [];
    const client = srv.ctx.client({ onExchange: (e) => seen.push(e) });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) }).then((r) => r.json()),
      ),
    );
    expect(results.map((r) => r.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(seen.filter((e) => e.kind === 'handshake')).toHaveLength(1);
  });

  it('confidential query: the URL on the wire has no query, the handler sees it', async () => {
    const seen: WireExchange[] = [];
    const client = srv.ctx.client({ confidentialQuery: true, onExchange: (e) => seen.push(e) });
    const res = await client.fetch('/api/echo?secret=s3cr3t', { method: 'GET' });
    expect((await res.json()).query).toEqual({ secret: 's3cr3t' });
    const ex = seen.find((e) => e.kind === 'request')!;
    expect(ex.url).not.toContain('s3cr3t');
    expect(JSON.stringify(ex.requestHeaders)).not.toContain('s3cr3t');
  });

  it('compression inside the envelope when both sides opt in (off by default)', async () => {
    const seenOn: WireExchange[] = [];
    const seenOff: WireExchange[] = [];
    const on = srv.ctx.client({ compress: true, onExchange: (e) => seenOn.push(e) });
    const off = srv.ctx.client({ onExchange: (e) => seenOff.push(e) });
    const a = await (await on.fetch('/api/big')).json();
    const b = await (await off.fetch('/api/big')).json();
    expect(a).toEqual(b);
    const wireOn = seenOn.find((e) => e.kind === 'request')!.responseBodyLength!;
    const wireOff = seenOff.find((e) => e.kind === 'request')!.responseBodyLength!;
    expect(wireOn).toBeLessThan(wireOff / 4);
    expect(wireOff).toBe(JSON.stringify(b).length + 16);
  });

  it('rekey (rotate) without a KEM, then requests use the new epoch', async () => {
    const client = srv.ctx.client();
    await client.handshake();
    const before = client.session!;
    const info = await client.rotate();
    expect(info.epoch).toBe(1);
    expect(info.id).toBe(before.id);
    const r = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"after":"rotate"}' });
    expect(await r.json()).toEqual({ after: 'rotate' });
    const st = await client.status();
    expect(st.epoch).toBe(1);
    expect(st.keyId).toBe('k1');
  });

  it('streams: records decrypted in order, final record required', async () => {
    const client = srv.ctx.client();
    const chunks: string[] = [];
    for await (const c of client.stream('/api/stream?n=4', { method: 'POST' })) chunks.push(new TextDecoder().decode(c));
    expect(chunks.join('')).toBe('data: token-0\n\ndata: token-1\n\ndata: token-2\n\ndata: token-3\n\n');
    const res = await client.fetch('/api/stream?n=2', { method: 'POST' });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe('data: token-0\n\ndata: token-1\n\n');
  });

  it('streaming upload: framed records, verified by the server', async () => {
    const client = srv.ctx.client();
    const parts = [new Uint8Array(70_000).fill(1), new Uint8Array(10).fill(2), new Uint8Array(3000).fill(3)];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    });
    const res = await client.fetch('/api/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    expect(await res.json()).toEqual({ bytes: 73_010, sha256: h.digest('hex') });
  });
}
