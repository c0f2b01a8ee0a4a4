/**
 * request-view.ts: the request a handler sees. Its headers are the original's without Nen's own
 * and the sealed body's framing, with the plaintext content type; its URL carries the restored
 * confidential query; its body accessors give the decrypted bytes; everything else is the
 * original's.
 */
import type { RequestHead } from '@nen/core';
import { describe, expect, it } from 'vitest';
import { deferredJsonError, handlerRequest } from './request-view.js';

const head = (over: Partial<RequestHead> = {}): RequestHead =>
  ({ method: 'POST', origin: 'http://127.0.0.1:3100', path: '/api/echo', search: '', contentType: 'application/json', ...over }) as RequestHead;

function sealed(): Request {
  const h = new Headers([
    ['content-type', 'application/nen'],
    ['content-length', '1100'],
    ['content-encoding', 'identity'],
    ['nen', '1.abc.0.93.1700000000000.0'],
    ['nen-type', 'application/json'],
    ['nen-body', 'AAAA'],
    ['accept', 'text/plain'],
    ['accept', 'application/json'],
    ['x-trace', 'a'],
    ['cookie', 'k=v'],
  ]);
  return new Request('http://127.0.0.1:3100/api/echo', { method: 'POST', headers: h, body: 'sealed bytes' });
}

describe('handlerRequest', () => {
  headersUrlAndMethod();

  bodyAccessors();
});

/** The headers a handler sees, its URL and method. */
function headersUrlAndMethod(): void {
  it("headers: Nen's and the sealed framing hidden, the plaintext content type, the others kept (repeats joined)", () => {
    const r = handlerRequest(sealed(), head(), null, new TextEncoder().encode('{"a":1}'));
    const seen: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      seen[k] = v;
    });
    expect(seen).toEqual({
      accept: 'text/plain, application/json',
      'x-trace': 'a',
      cookie: 'k=v',
      'content-type': 'application/json',
    });
    expect(r.headers).toBeInstanceOf(Headers);
    expect(r.headers).toBe(r.headers); // built once
  });

  it('headers read one by one (before any iteration) show the same view, whatever the name case; copies and mutations see it whole', () => {
    const r = handlerRequest(sealed(), head(), null, null);
    const h = r.headers;
    expect([h.get('Content-Type'), h.get('NEN'), h.get('nen-type'), h.get('nen-body'), h.get('content-length'), h.get('content-encoding')]).toEqual([
      'application/json',
      null,
      null,
      null,
      null,
      null,
    ]);
    expect([h.has('content-type'), h.has('Nen'), h.has('x-trace'), h.has('x-absent')]).toEqual([true, false, true, false]);
    expect([h.get('Accept'), h.get('x-absent')]).toEqual(['text/plain, application/json', null]);
    expect(() => h.get('bad name')).toThrow(TypeError);
    const want = [
      ['accept', 'text/plain, application/json'],
      ['content-type', 'application/json'],
      ['cookie', 'k=v'],
      ['x-trace', 'a'],
    ];
    const list = (x: Headers) => [...(x as unknown as Iterable<[string, string]>)];
    expect(list(new Headers(h))).toEqual(want);
    expect(list(new Response(null, { headers: h }).headers)).toEqual(want);
    expect([...(h as unknown as Iterable<[string, string]>)]).toEqual(want);
    const r2 = handlerRequest(sealed(), head({ contentType: '' }), null, null);
    r2.headers.set('x-trace', 'b');
    expect([r2.headers.get('x-trace'), r2.headers.get('nen'), r2.headers.get('content-type'), r2.headers.get('cookie')]).toEqual(['b', null, null, 'k=v']);
    const r3 = handlerRequest(sealed(), head(), null, null);
    r3.headers.delete('cookie');
    expect([...(r3.headers as unknown as Iterable<[string, string]>)].map(([k]) => k)).toEqual(['accept', 'content-type', 'x-trace']);
  });

  it('no plaintext content type: none shown', () => {
    const r = handlerRequest(sealed(), head({ contentType: '' }), null, null);
    expect(r.headers.get('content-type')).toBeNull();
    expect(r.headers.has('nen')).toBe(false);
  });

  it('the body accessors give the decrypted bytes; url carries the restored query; method is the plaintext one', async () => {
    const r = handlerRequest(sealed(), head({ method: 'PUT' }), 'q=1', new TextEncoder().encode('{"a":1}'));
    expect([r.url, r.method]).toEqual(['http://127.0.0.1:3100/api/echo?q=1', 'PUT']);
    expect(await r.json()).toEqual({ a: 1 });
    const r2 = handlerRequest(sealed(), head(), null, new TextEncoder().encode('hi'));
    expect(r2.url).toBe('http://127.0.0.1:3100/api/echo');
    expect(await r2.text()).toBe('hi');
    const r3 = handlerRequest(sealed(), head(), null, new TextEncoder().encode('xyz'));
    expect(new TextDecoder().decode(await new Response(r3.body).arrayBuffer())).toBe('xyz');
  });
}

/** text(), json(), bytes() and arrayBuffer() over the decrypted bytes. */
function bodyAccessors(): void {
  it('text() and json() decode as Body does (BOM stripped, invalid UTF-8 replaced), only the view of a larger buffer', async () => {
    const pool = new Uint8Array(64).fill(0x41); // bytes around the body that must never show
    const raw = [0xef, 0xbb, 0xbf, 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]; // BOM {"a":"\xff"}
    pool.set(raw, 10);
    const view = pool.subarray(10, 10 + raw.length);
    const want = await new Response(new Uint8Array(raw)).text();
    expect(await handlerRequest(sealed(), head(), null, view).text()).toBe(want);
    expect(await handlerRequest(sealed(), head(), null, view).json()).toEqual(await new Response(new Uint8Array(raw)).json());
    expect(await handlerRequest(sealed(), head({ method: 'GET' }), null, null).text()).toBe('');
  });

  it('bytes() and arrayBuffer(): a view of a larger buffer (or a Buffer) is copied to its own exact buffer; an array that owns its exact buffer is handed over as is', async () => {
    const pool = new Uint8Array(64).fill(0x41);
    pool.set([1, 2, 3], 10);
    const view = pool.subarray(10, 13);
    const b = await handlerRequest(sealed(), head({ contentType: '' }), null, view).bytes();
    expect([...b]).toEqual([1, 2, 3]);
    expect(b.buffer.byteLength).toBe(3); // the pool never shows through .buffer
    expect((await handlerRequest(sealed(), head({ contentType: '' }), null, view).arrayBuffer()).byteLength).toBe(3);
    const pooled = Buffer.from([4, 5]); // a Buffer (maybe pooled): always copied into a plain Uint8Array
    const pb = await handlerRequest(sealed(), head({ contentType: '' }), null, pooled).bytes();
    expect(pb).not.toBe(pooled);
    expect(Object.getPrototypeOf(pb)).toBe(Uint8Array.prototype);
    expect(pb.buffer.byteLength).toBe(2);
    const own = new Uint8Array([7, 8, 9]);
    expect(await handlerRequest(sealed(), head({ contentType: '' }), null, own).bytes()).toBe(own);
  });

  it('json() returns the value the pipeline parsed (no second parse), the same object the handler got as body', async () => {
    const value = { a: [1, 2, 3] };
    const bytes = new TextEncoder().encode('{"a":"not what json() returns if it re-parsed"}');
    const r = handlerRequest(sealed(), head(), null, bytes, { value });
    expect(await r.json()).toBe(value);
    expect(await r.text()).toBe('{"a":"not what json() returns if it re-parsed"}'); // the bytes stay the bytes
    // a bodiless method never shows a body, parsed or not
    const g = handlerRequest(sealed(), head({ method: 'GET' }), null, bytes, { value });
    await expect(g.json()).rejects.toThrow(SyntaxError);
  });

  it('lazyJson (step 8 deferred): json() parses on first use and refuses bad JSON or bad UTF-8 with NEN_BAD_JSON; text() and bytes() are the bytes', async () => {
    const enc = new TextEncoder();
    const ok = handlerRequest(sealed(), head(), null, enc.encode('{"a":[1,2]}'), undefined, true);
    const v = await ok.json();
    expect(v).toEqual({ a: [1, 2] });
    expect(await ok.json()).toBe(v); // parsed once
    expect(deferredJsonError(ok)).toBeUndefined();
    for (const bad of [enc.encode('{not json'), new Uint8Array([0x22, 0xff, 0x22])]) {
      const r = handlerRequest(sealed(), head(), null, bad, undefined, true);
      expect(await r.bytes()).toEqual(bad); // a handler that reads bytes gets them as sent
      await expect(r.json()).rejects.toMatchObject({ code: 'NEN_BAD_JSON', status: 400 });
      expect(deferredJsonError(r)).toMatchObject({ code: 'NEN_BAD_JSON' });
    }
    // without lazyJson (or for a non-JSON type) there is nothing deferred
    expect(deferredJsonError(handlerRequest(sealed(), head(), null, enc.encode('{not json')))).toBeUndefined();
    expect(deferredJsonError(new Request('http://127.0.0.1/'))).toBeUndefined();
    await expect(handlerRequest(sealed(), head({ contentType: 'text/plain' }), null, enc.encode('{x'), undefined, false).json()).rejects.toThrow(SyntaxError);
  });
}
