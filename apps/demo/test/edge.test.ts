/**
 * Nen on the Next.js Edge runtime: app/api/edge/[...path]/route.ts (`runtime = 'edge'`, withNen,
 * withNenStream and the session routes from @nen/server's main entry) under `next build` (Turbopack)
 * and `next start`, driven over loopback HTTP by the real @nen/client from Node:
 * round trip (compressed in the envelope: fflate on Edge), the handler ran on Edge and saw the URL
 * the client sent (not the one Next's Edge adapter extended with the catch-all's values), streaming,
 * the sealed session calls (status, rotate, terminate), replay refused, tamper refused, bad input
 * answered with codes (never a 5xx).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { type LiveServer, startNext } from './live';

let server: LiveServer;

beforeAll(async () => {
  server = await startNext({ env: { NEN_LOG: 'silent', NEN_HANDSHAKE_RATE: '0' } });
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

interface Sent {
  url: string;
  headers: Headers;
  body: Uint8Array | null;
}

function edgeClient() {
  const sent: Sent[] = [];
  const received: number[] = [];
  const f: typeof fetch = async (input, init = {}) => {
    const body = init.body instanceof Uint8Array ? new Uint8Array(init.body) : typeof init.body === 'string' ? new TextEncoder().encode(init.body) : null;
    sent.push({ url: String(input), headers: new Headers(init.headers), body });
    const res = await fetch(input, init);
    received.push((await res.clone().arrayBuffer()).byteLength);
    return res;
  };
  const client = createNenClient({ baseUrl: server.url, sessionPath: '/api/edge/nen', serverKey: server.pin, backend: 'wasm', compress: true, fetch: f });
  return { client, sent, received };
}

const resend = (s: Sent, body = s.body) => fetch(s.url, { method: 'POST', headers: s.headers, body: body as Uint8Array<ArrayBuffer> | null });

describe('Edge route (runtime = "edge") with withNen', () => {
  it('round trip: the handler ran on Edge and got the decrypted JSON; a compressible reply comes back intact', async () => {
    const { client, sent, received } = edgeClient();
    const text = 'post-quantum '.repeat(500);
    const r = await client.fetch('/api/edge/echo?q=1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ runtime: 'edge', method: 'POST', path: '/api/edge/echo?q=1', body: { text } });
    // Compressed both ways inside the envelope: the client's request, and the reply deflated on Edge (fflate).
    expect(sent[sent.length - 1]!.body!.length).toBeLessThan(text.length / 4);
    expect(received[received.length - 1]).toBeGreaterThan(0);
    expect(received[received.length - 1]).toBeLessThan(text.length / 4);
    const s = await client.fetch('/api/edge/stream', { method: 'POST' });
    expect(await s.text()).toBe('data: post\n\ndata: quantum\n\ndata: edge\n\n');
  });

  it('the sealed session calls work on the dynamic Edge route: status, rotate, terminate', async () => {
    const { client, sent } = edgeClient();
    await (await client.fetch('/api/edge/echo', { method: 'POST', body: 'x' })).arrayBuffer();
    expect(await client.status()).toEqual(expect.objectContaining({ epoch: 0 }));
    expect((await client.rotate()).epoch).toBe(1);
    expect(
      (
        (await (await client.fetch('/api/edge/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '2' })).json()) as {
          body: number;
        }
      ).body,
    ).toBe(2);
    const captured = sent[sent.length - 1]!;
    await client.terminate();
    const after = await resend(captured);
    expect(after.status).toBe(401);
    await after.arrayBuffer();
  });

  it('replay refused (409 NEN_REPLAY); tamper refused (401 NEN_AUTH_FAILED); the session stays usable', async () => {
    const { client, sent } = edgeClient();
    await (await client.fetch('/api/edge/echo', { method: 'POST', body: 'once' })).arrayBuffer();
    const captured = sent[sent.length - 1]!;
    const replay = await resend(captured);
    expect([replay.status, replay.headers.get('nen-error')]).toEqual([409, 'NEN_REPLAY']);
    await replay.arrayBuffer();
    const bad = captured.body!.slice();
    bad[bad.length - 1]! ^= 1;
    const tampered = await resend(captured, bad);
    expect([tampered.status, tampered.headers.get('nen-error')]).toEqual([401, 'NEN_AUTH_FAILED']);
    await tampered.arrayBuffer();
    const again = await client.fetch('/api/edge/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '1' });
    expect(((await again.json()) as { body: number }).body).toBe(1);
  });

  it('bad input gets codes, never a 5xx', async () => {
    const cases: [string, RequestInit, string][] = [
      ['/api/edge/echo', { method: 'POST', body: 'plain' }, 'NEN_NOT_ENCRYPTED'],
      ['/api/edge/echo', { method: 'POST', headers: { nen: 'garbage', 'content-type': 'application/nen' }, body: new Uint8Array(40) }, 'NEN_MALFORMED'],
      ['/api/edge/nen/handshake', { method: 'POST', body: new Uint8Array(7) }, ''],
      ['/api/edge/nen/nope', { method: 'POST' }, 'NEN_NOT_FOUND'],
      ['/api/edge/nen/handshake', { method: 'GET' }, 'NEN_METHOD_NOT_ALLOWED'],
    ];
    for (const [path, init, code] of cases) {
      const r = await fetch(server.url + path, init);
      await r.arrayBuffer();
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      if (code) expect(r.headers.get('nen-error'), path).toBe(code);
      else expect(r.headers.get('nen-error'), path).toMatch(/^NEN_/);
    }
  });
});
