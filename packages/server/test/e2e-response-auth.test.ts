/**
 * End to end, what the client authenticates: substituted, plaintext or forged responses are
 * rejected; stream truncation / reordering / duplication is detected; a substituted handshake share
 * or server key fails the handshake; unauthenticated terminate / rotate are refused; key rotation
 * and lifetimes. Real server and client per backend (./e2e-fixture.ts).
 */
import { describe, expect, it } from 'vitest';
import { createNenClient, type WireExchange } from '@nen/client';
import { NenProtocolError } from '@nen/core';
import { createNen, memoryStore } from '../src/index.js';
import { SEED, OTHER_SEED, type Ctx, flipByte, useServer, BACKENDS } from './e2e-fixture.js';
import { serve } from './http-harness.js';

const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' };

describe.each(BACKENDS)('Nen over HTTP (%s backend)', (kind) => {
  const srv = {} as { ctx: Ctx };
  useServer(kind, (c) => {
    srv.ctx = c;
  });

  describe('response authentication (client side)', () => {
    substitutedResponses(srv);

    forgedErrorsAndStreams(srv);
  });

  describe('handshake authentication', () => {
    handshakeAuth(srv);
  });
});

/** Swapped, plaintext and altered responses. */
function substitutedResponses(srv: { ctx: Ctx }): void {
  it("a response swapped for another request's response is rejected", async () => {
    let stash: Response | undefined;
    let n = 0;
    const f: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!new Headers(init?.headers).get('nen')) return res;
      n++;
      if (n === 1) {
        stash = res;
        return res.clone();
      }
      return stash!;
    };
    const client = srv.ctx.client({ fetch: f });
    expect(await (await client.fetch('/api/echo', post)).json()).toEqual({ a: 1 });
    await expect(client.fetch('/api/echo', { ...post, body: '{"a":2}' })).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
  });

  it('a plaintext response, a changed status and a changed content type are rejected', async () => {
    const mk =
      (tamper: (r: Response, body: ArrayBuffer) => Response): typeof fetch =>
      async (input, init) => {
        const res = await fetch(input, init);
        if (!new Headers(init?.headers).get('nen')) return res;
        return tamper(res, await res.arrayBuffer());
      };
    const cases = [
      mk(() => Response.json({ a: 1 })),
      mk((r, b) => new Response(b, { status: 201, headers: r.headers })),
      mk((r, b) => {
        const h = new Headers(r.headers);
        h.set('nen-type', 'text/html');
        return new Response(b, { status: r.status, headers: h });
      }),
      mk((r, b) => {
        const h = new Headers(r.headers);
        h.set('nen', '1.1');
        return new Response(b, { status: r.status, headers: h });
      }),
    ];
    for (const f of cases) {
      const client = srv.ctx.client({ fetch: f });
      await expect(client.fetch('/api/echo', post)).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
    }
  });
}

/** Forged protocol errors and damaged stream records. */
function forgedErrorsAndStreams(srv: { ctx: Ctx }): void {
  it('a forged protocol error triggers at most one re-handshake, then surfaces as an error (never as data)', async () => {
    const seen: string[] = [];
    const f: typeof fetch = async (input, init) => {
      if (new Headers(init?.headers).get('nen')) {
        seen.push('request');
        return new Response('{"error":{"code":"NEN_SESSION_UNKNOWN"}}', {
          status: 401,
          headers: { 'nen-error': 'NEN_SESSION_UNKNOWN', 'content-type': 'application/json' },
        });
      }
      seen.push('handshake');
      return fetch(input, init);
    };
    const client = srv.ctx.client({ fetch: f });
    const err = await client.fetch('/api/echo', post).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NenProtocolError);
    // Sent, no authenticated answer: the handler may have run (PROTOCOL.md "Retries").
    expect(err).toMatchObject({ code: 'NEN_OUTCOME_UNKNOWN', cause: { code: 'NEN_SESSION_UNKNOWN', status: 401 } });
    expect(seen).toEqual(['handshake', 'request', 'handshake', 'request']);
  });

  it('truncated, reordered and duplicated stream records are rejected', async () => {
    const split = (b: Uint8Array): Uint8Array[] => {
      const out: Uint8Array[] = [];
      let o = 0;
      while (o < b.length) {
        const len = new DataView(b.buffer, b.byteOffset + o).getUint32(0);
        out.push(b.subarray(o, o + 4 + len));
        o += 4 + len;
      }
      return out;
    };
    const mk =
      (edit: (records: Uint8Array[]) => Uint8Array[]): typeof fetch =>
      async (input, init) => {
        const res = await fetch(input, init);
        if (res.headers.get('content-type') !== 'application/nen-stream') return res;
        const records = edit(split(new Uint8Array(await res.arrayBuffer())));
        return new Response(Buffer.concat(records), { status: res.status, headers: res.headers });
      };
    const cases: [string, (r: Uint8Array[]) => Uint8Array[]][] = [
      ['NEN_STREAM_TRUNCATED', (r) => r.slice(0, -1)],
      ['NEN_STREAM_TRUNCATED', (r) => [...r.slice(0, -1), r[r.length - 1]!.subarray(0, 10)]],
      ['NEN_STREAM_INVALID', (r) => [r[1]!, r[0]!, ...r.slice(2)]],
      ['NEN_STREAM_INVALID', (r) => [r[0]!, r[0]!, ...r.slice(1)]],
      ['NEN_STREAM_INVALID', (r) => [...r, r[0]!]],
    ];
    for (const [code, edit] of cases) {
      const client = srv.ctx.client({ fetch: mk(edit) });
      const got: string[] = [];
      const err = await (async () => {
        for await (const c of client.stream('/api/stream?n=3', { method: 'POST' })) got.push(new TextDecoder().decode(c));
      })().catch((e: unknown) => e);
      expect(err, code).toMatchObject({ code });
    }
  });
}

/** Handshake authentication: shares, server answers, pins, unpinned handshakes. */
function handshakeAuth(srv: { ctx: Ctx }): void {
  it('a substituted client share is detected at once (key confirmation)', async () => {
    const f: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/handshake')) {
        const b = (init!.body as Uint8Array).slice();
        const kp = srv.ctx.backend.generateKeyPair(0x647a);
        b.set(kp.publicKey, 8);
        return fetch(input, { ...init, body: b });
      }
      return fetch(input, init);
    };
    await expect(srv.ctx.client({ fetch: f }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
  });

  it('a tampered server response (enc_e, session id, lifetime, server time) fails confirmation', async () => {
    for (const offset of [4, 22, 30, 40, -1]) {
      const f: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        if (!String(input).endsWith('/handshake')) return res;
        const b = flipByte(new Uint8Array(await res.arrayBuffer()), offset);
        return new Response(b as Uint8Array<ArrayBuffer>, { status: 200, headers: res.headers });
      };
      await expect(srv.ctx.client({ fetch: f }).handshake(), `offset ${offset}`).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
    }
  });

  it('a pinned key the server does not hold fails (substituted server key / unknown key id)', async () => {
    const other = createNen({ backend: srv.ctx.backend, serverKeys: `k1:${OTHER_SEED}`, store: memoryStore({ shared: false }) });
    const otherPin = (await other.publicKeys())[0]!.pin;
    await other.close();
    await expect(srv.ctx.client({ serverKey: otherPin }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
    await expect(srv.ctx.client({ serverKey: otherPin.replace(/^k1:/, 'zz:') }).handshake()).rejects.toMatchObject({ code: 'NEN_UNKNOWN_KEY_ID', status: 400 });
    await expect(Promise.resolve().then(() => srv.ctx.client({ serverKey: 'k1:not-a-key' }))).rejects.toMatchObject({ code: 'NEN_BAD_SERVER_KEY' });
  });

  it('several pins bridge a rotation: the next pin is tried only on NEN_UNKNOWN_KEY_ID, each once', async () => {
    // After the rotation: this instance holds k1 and k2 (k2 = OTHER_SEED); srv.ctx.server holds only k1 (before it).
    const rotated = createNen({
      backend: srv.ctx.backend,
      serverKeys: `k1:${SEED},k2:${OTHER_SEED}`,
      store: memoryStore({ shared: false }),
      handshakeRateLimit: 0,
    });
    const server2 = await serve({ '/api/nen/*': rotated.routes });
    try {
      const byKid = new Map((await rotated.publicKeys()).map((k) => [k.kid, k.pin]));
      const k1 = byKid.get('k1')!;
      const k2 = byKid.get('k2')!;
      expect(k1).toBe(srv.ctx.pin);
      const attempt = async (url: string, serverKey: string[]) => {
        const seen: WireExchange[] = [];
        const c = createNenClient({ baseUrl: url, backend: srv.ctx.backend, serverKey, onExchange: (e) => seen.push(e) });
        const r = await c.handshake().then(
          (info) => info.keyId,
          (e: unknown) => e,
        );
        return { r, statuses: seen.map((e) => e.status) };
      };
      // A client shipped with [new, old] against a server before the rotation: k2 unknown → k1.
      expect(await attempt(srv.ctx.server.url, [k2, k1])).toEqual({ r: 'k1', statuses: [400, 200] });
      // ... and after it: the first pin at once.
      expect(await attempt(server2.url, [k2, k1])).toEqual({ r: 'k2', statuses: [200] });
      // A key confirmation failure under a kid the server holds is final (substituted key), not a reason to try the next pin.
      const wrongK1 = `k1:${k2.slice(3)}`;
      const failed = await attempt(server2.url, [wrongK1, k2]);
      expect(failed.r).toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
      expect(failed.statuses).toEqual([200]);
      // Every pin unknown: each tried once, then the typed error.
      const none = await attempt(srv.ctx.server.url, [k2, `k3:${k2.slice(3)}`]);
      expect(none.r).toMatchObject({ code: 'NEN_UNKNOWN_KEY_ID', status: 400 });
      expect(none.statuses).toEqual([400, 400]);
      // Requests work on the session made with the fallback pin.
      const c = createNenClient({ baseUrl: srv.ctx.server.url, backend: srv.ctx.backend, serverKey: [k2, k1] });
      expect(await (await c.fetch('/api/echo', { method: 'POST', body: 'after fallback' })).text()).toBe('after fallback');
    } finally {
      await server2.close();
      await rotated.close();
    }
  });

  it('unpinned handshakes work (ML-KEM-768 selectable) and the client may ask for a shorter lifetime', async () => {
    const client = createNenClient({ baseUrl: srv.ctx.server.url, backend: srv.ctx.backend, kem: 'mlkem768', sessionLifetimeSeconds: 60, unpinned: true });
    const info = await client.handshake();
    expect(info.keyId).toBeNull();
    expect(info.expiresAt - Date.now()).toBeLessThanOrEqual(61_000);
    expect(info.expiresAt - Date.now()).toBeGreaterThan(50_000);
    const st = await client.status();
    expect(st.kem).toBe('mlkem768');
    expect((st.expiresAt as number) - Date.now()).toBeLessThanOrEqual(60_000);
  });
}
