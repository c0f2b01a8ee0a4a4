/** ./next-edge.ts: only the query parameters Next's Edge adapter appended for the route params are removed, and only on Edge. */
import { afterEach, describe, expect, it } from 'vitest';
import { forNextEdge, withoutRouteParams } from './next-edge.js';

const g = globalThis as { EdgeRuntime?: string };
afterEach(() => {
  delete g.EdgeRuntime;
});

describe('withoutRouteParams', () => {
  it('removes a param Next appended: one value, catch-all as repeated values or joined by /', () => {
    expect(withoutRouteParams(new Request('http://x/api/nen/rotate?action=rotate'), { action: 'rotate' }).url).toBe('http://x/api/nen/rotate');
    expect(withoutRouteParams(new Request('http://x/api/e/nen/hs?p=nen&p=hs'), { p: ['nen', 'hs'] }).url).toBe('http://x/api/e/nen/hs');
    expect(withoutRouteParams(new Request('http://x/api/e/nen/hs?q=1&p=nen%2Fhs'), { p: ['nen', 'hs'] }).url).toBe('http://x/api/e/nen/hs?q=1');
  });

  it('keeps everything else: other params, a same-named param with other values, no params', () => {
    const r = new Request('http://x/a?id=7&x=1');
    expect(withoutRouteParams(r, { id: '8' })).toBe(r);
    expect(withoutRouteParams(r, undefined)).toBe(r);
    expect(withoutRouteParams(new Request('http://x/a?id=7&x=1'), { id: '7' }).url).toBe('http://x/a?x=1');
  });

  it('carries method, headers and the body stream over', async () => {
    const r = withoutRouteParams(new Request('http://x/a?id=7', { method: 'POST', headers: { nen: 'h' }, body: 'sealed' }), { id: '7' });
    expect([r.method, r.headers.get('nen'), await r.text()]).toEqual(['POST', 'h', 'sealed']);
  });
});

describe('forNextEdge', () => {
  const seen = (r: Request) => Promise.resolve(new Response(r.url));
  const ctx = { params: Promise.resolve({ action: 'status' }) };

  it('is the handler itself off Edge', async () => {
    expect(forNextEdge(seen)).toBe(seen);
  });

  it('on Next Edge, the handler gets the URL the client sent', async () => {
    g.EdgeRuntime = 'edge-runtime';
    const h = forNextEdge(seen);
    expect(await (await h(new Request('http://x/api/nen/status?action=status'), ctx)).text()).toBe('http://x/api/nen/status');
    expect(await (await h(new Request('http://x/api/nen/status'), undefined)).text()).toBe('http://x/api/nen/status');
  });
});
