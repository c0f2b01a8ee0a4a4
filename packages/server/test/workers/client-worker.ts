/**
 * A Worker that is a Nen CLIENT on workerd (./harness.ts binds it as `c`): it imports @nen/client
 * as a user would (the package's built entry, resolved under wrangler's export conditions) and
 * calls the Nen routes of Worker `a` through a service binding (NEN_SERVER), pinned to the server
 * key (PIN). Each route answers JSON for workerd.test.ts:
 *
 *   /client/roundtrip       handshake, a JSON request (withNen) and a streamed one (withNenStream)
 *   /client/tamper          after a good request, one whose sealed response gets a flipped byte
 *                           on the way back: the client must refuse it (its error code)
 *   /client/wrong-pin?pin=  a handshake pinned to another key: refused client-side (its error code)
 *   /client/ohttp?config=   @nen/client's OHTTP mode (Key Config pinned by value, base64url) through
 *                           `a`'s gateway: a JSON request, a chunked stream, then an answer with a
 *                           flipped byte (refused: its error code)
 */
import { loadBackend } from '@nen/core';
import { createNenClient, type NenClient } from '@nen/client';

interface Env {
  NEN_SERVER: { fetch(request: Request): Promise<Response> };
  PIN: string;
}

function client(env: Env, pin: string, tamper: { on: boolean }): NenClient {
  return createNenClient({
    serverKey: pin,
    baseUrl: 'https://nen.internal',
    fetch: async (input, init) => {
      const res = await env.NEN_SERVER.fetch(new Request(input, init));
      if (!tamper.on || !new URL(String(input instanceof Request ? input.url : input)).pathname.startsWith('/api/echo')) return res;
      const body = new Uint8Array(await res.arrayBuffer());
      body[body.length - 1]! ^= 1;
      return new Response(body, { status: res.status, headers: res.headers });
    },
  });
}

const codeOf = (e: unknown): string => (e as { code?: string }).code ?? (e instanceof Error ? e.name : 'error');

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const tamper = { on: false };
    const json = { method: 'POST', headers: { 'content-type': 'application/json' } };
    if (url.pathname === '/client/roundtrip') {
      const c = client(env, env.PIN, tamper);
      const r = await c.fetch('/api/echo', { ...json, body: JSON.stringify({ from: 'workerd client' }) });
      const s = await c.fetch('/api/stream', { method: 'POST' });
      return Response.json({
        status: r.status,
        body: await r.json(),
        stream: await s.text(),
        session: c.session?.id ?? null,
        backend: (await loadBackend()).name,
      });
    }
    if (url.pathname === '/client/tamper') {
      const c = client(env, env.PIN, tamper);
      const ok = await c.fetch('/api/echo', { ...json, body: '1' });
      const first = await ok.json();
      tamper.on = true;
      try {
        const r = await c.fetch('/api/echo', { ...json, body: '2' });
        return Response.json({ first, accepted: await r.text() });
      } catch (e) {
        return Response.json({ first, refused: codeOf(e) });
      }
    }
    if (url.pathname === '/client/wrong-pin') {
      const c = client(env, url.searchParams.get('pin') ?? '', tamper);
      try {
        const r = await c.fetch('/api/echo', { ...json, body: '3' });
        return Response.json({ accepted: await r.text() });
      } catch (e) {
        return Response.json({ refused: codeOf(e) });
      }
    }
    if (url.pathname === '/client/ohttp') return ohttp(env, url.searchParams.get('config') ?? '');
    return new Response('not found', { status: 404 });
  },
};

async function ohttp(env: Env, keyConfig: string): Promise<Response> {
  const tamper = { on: false };
  const c = createNenClient({
    mode: 'ohttp',
    baseUrl: 'https://nen.internal',
    relay: 'https://nen.internal/.well-known/ohttp-gateway',
    keyConfig,
    fetch: async (input, init) => {
      const res = await env.NEN_SERVER.fetch(new Request(input, init));
      if (!tamper.on) return res;
      const body = new Uint8Array(await res.arrayBuffer());
      body[body.length - 1]! ^= 1;
      return new Response(body, { status: res.status, headers: res.headers });
    },
  });
  const r = await c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: 'workerd ohttp' }) });
  const body = await r.json();
  const pieces: string[] = [];
  const dec = new TextDecoder();
  for await (const p of c.stream('/api/stream', { method: 'POST' })) pieces.push(dec.decode(p));
  tamper.on = true;
  let refused = '';
  try {
    await (await c.fetch('/api/echo', { method: 'POST', body: '"x"' })).text();
  } catch (e) {
    refused = codeOf(e);
  }
  return Response.json({ status: r.status, body, stream: pieces.join(''), refused });
}
