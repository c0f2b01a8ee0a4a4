/** The gateway's inner Request (./messages.ts): method, URL, body, and the outer request's abort signal, read lazily. */
import { describe, expect, it } from 'vitest';
import { InnerRequest } from './inner-request.js';
import { isInner } from './inner.js';
import { innerRequest } from './messages.js';
import { routeDispatch } from './routes.js';

const b = {
  method: 'POST',
  scheme: 'https',
  authority: '',
  path: '/api/x?q=1',
  headers: [
    ['content-type', 'text/plain'],
    ['host', 'evil'],
  ],
  content: new TextEncoder().encode('hi'),
  trailers: [],
} as const;

describe('innerRequest', () => {
  it("url and route pathname are the URL parser's for scheme + authority + path, with or without its shortcut", () => {
    const authorities = [
      'app.example',
      'App.EXAMPLE:443',
      'h.example:8080',
      'h.example:',
      '127.1',
      '0x7f.0.0.1:80',
      '[::1]:8',
      'u@h.example',
      'evil.example/x?',
      'h.example#f',
    ];
    const paths = [
      '/api/x?q=1',
      '/',
      '/.well-known/ohttp-gateway',
      '/a/./b',
      '/a/%2E%2e/b',
      '/a/..',
      '//evil.example/p',
      'x',
      '',
      '/a\\b',
      '/sp ace',
      '/%C3%A9?a=/../',
    ];
    for (const scheme of ['https', 'http'] as const) {
      for (const authority of authorities) {
        for (const path of paths) {
          let want: URL;
          try {
            want = new URL(`${scheme}://${authority}${path}`);
          } catch {
            expect(() => innerRequest({ ...b, scheme, authority, path, headers: [] }, new URL('https://gw.example/')), `${authority} ${path}`).toThrow();
            continue;
          }
          const r = innerRequest({ ...b, scheme, authority, path, headers: [] }, new URL('https://gw.example/'));
          expect(r.url, `${scheme} ${authority} ${path}`).toBe(want.href);
          expect(InnerRequest.pathname(r), `${scheme} ${authority} ${path}`).toBe(want.pathname);
        }
      }
    }
  });
  it('builds the request on the gateway host and follows the outer signal only when read', async () => {
    const outer = new AbortController();
    let reads = 0;
    const r = innerRequest({ ...b, headers: [...b.headers] }, new URL('https://gw.example/.well-known/ohttp-gateway'), () => {
      reads++;
      return outer.signal;
    });
    expect(r.url).toBe('https://gw.example/api/x?q=1');
    expect(r.headers.get('host')).toBeNull();
    expect(await r.text()).toBe('hi');
    expect(reads).toBe(0);
    expect(r.signal.aborted).toBe(false);
    outer.abort();
    expect(r.signal.aborted).toBe(true);
    expect(reads).toBe(2);
  });
  it('is a Request marked inner (a Request made elsewhere is not), its body read once, the rest from a real Request', async () => {
    const r = innerRequest({ ...b, headers: [...b.headers] }, new URL('https://gw.example/'));
    expect(r).toBeInstanceOf(Request);
    expect(isInner(r)).toBe(true);
    expect(isInner(new Request('https://gw.example/api/x', { method: 'POST', body: 'hi' }))).toBe(false);
    expect(r.method).toBe('POST');
    expect(r.headers.get('content-type')).toBe('text/plain');
    const copy = r.clone(); // not answered by the inner request itself: made from a real Request
    expect(await copy.text()).toBe('hi');
    const bytes = await r.bytes();
    bytes[0] = 0; // the reader's copy: the gateway's content is unchanged
    expect(new TextDecoder().decode((r as unknown as { content: Uint8Array }).content)).toBe('hi');
    const fresh = innerRequest({ ...b, headers: [] }, new URL('https://gw.example/'));
    expect(await fresh.text()).toBe('hi');
    expect(fresh.bodyUsed).toBe(true);
    await expect(fresh.text()).rejects.toThrow(TypeError);
  });
  it('reads the gateway host only without an authority; routes by the path of its one URL parse (dot segments resolved, no query)', async () => {
    let hosts = 0;
    const host = () => {
      hosts++;
      return 'gw.example';
    };
    const named = innerRequest({ ...b, authority: 'app.example', path: '/api/a/../echo?q=1', headers: [] }, host);
    expect([named.url, InnerRequest.pathname(named), hosts]).toEqual(['https://app.example/api/echo?q=1', '/api/echo', 0]);
    const bare = innerRequest({ ...b, headers: [] }, host);
    expect([bare.url, hosts]).toEqual(['https://gw.example/api/x?q=1', 1]);
    expect(InnerRequest.pathname(new Request('https://gw.example/api/y?z=2'))).toBe('/api/y');
    const dispatch = routeDispatch({ '/api/echo': { POST: (r) => new Response(new URL(r.url).search) } });
    expect(await (await dispatch(named)).text()).toBe('?q=1');
    expect((await dispatch(bare)).status).toBe(404);
  });
  it('without an outer signal keeps its own', () => {
    const r = innerRequest({ ...b, headers: [] }, new URL('https://gw.example/'));
    expect(r.signal.aborted).toBe(false);
  });
});
