/**
 * Regression checks on handshakes and sessions (stages/regression.js): tampered handshakes,
 * authenticated session actions, the timestamp window, confidential query, compression, replay
 * and the session lifecycle (terminated, expired). Pitfalls: replays and dead sessions are sent
 * raw from requests captured without being delivered, since the client would refuse to send them.
 */
import { request } from 'undici';
import { flipByte, cloneReq, mutateNenField, describeError, isSessionUrl } from './util.js';

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function handshakeChecks(h) {
  const { ctx, check, echoInit } = h;
  // ---------------------------------------------------------------- handshake and server authentication
  const flipMiddle = (bytes) => flipByte(bytes, Math.floor(bytes.length / 2));
  await check(2, 'tampered handshake response (key confirmation)', 'client rejects the handshake', async () => {
    const client = await ctx.makeClient({
      tamperResponse: async (req, res) => {
        if (!req.url.endsWith('/handshake')) return undefined;
        const b = new Uint8Array(await res.arrayBuffer());
        return new Response(b.length ? flipMiddle(b) : b, { status: res.status, headers: res.headers });
      },
    });
    try {
      await client.handshake();
      return { actual: `handshake accepted (session ${client.session?.id ? 'set' : 'missing'})`, pass: false };
    } catch (e) {
      return { actual: `client threw ${describeError(e)}`, pass: true };
    }
  });
  await check(2, 'tampered handshake request (client key share)', 'handshake fails (server 4xx or client confirmation)', async () => {
    let status = null;
    const client = await ctx.makeClient({
      tamper: (req) => (req.url.endsWith('/handshake') ? { ...cloneReq(req), body: flipMiddle(req.body) } : undefined),
      tamperResponse: (req, res) => {
        if (req.url.endsWith('/handshake')) status = res.status;
        return undefined;
      },
    });
    try {
      await client.handshake();
      return { actual: `handshake accepted (server status ${status})`, pass: false };
    } catch (e) {
      return { actual: `server ${status}; client threw ${describeError(e)}`, pass: true };
    }
  });
  await check(
    3,
    'pinned server key (from GET /api/nen/keys): authenticated handshake; wrong key rejected',
    'keyId set and 200 with the pin; handshake fails with a wrong key under the same kid',
    async () => {
      const r = await request(ctx.url('/api/nen/keys'), { dispatcher: ctx.agent });
      let keys = null;
      if (r.statusCode === 200) keys = await r.body.json();
      else await r.body.dump();
      const pin = keys?.keys?.[0]?.pin;
      if (typeof pin !== 'string') return { actual: `GET /api/nen/keys → ${r.statusCode}, no pin`, pass: false };
      const good = await ctx.makeClient({ serverKey: pin });
      await good.handshake();
      const res = await good.fetch('/api/echo', echoInit());
      await res.arrayBuffer();
      const keyId = good.session?.keyId;
      await good.terminate().catch(() => {});
      const [kid, pk] = [pin.slice(0, pin.indexOf(':')), Buffer.from(pin.slice(pin.indexOf(':') + 1), 'base64url')];
      pk[Math.floor(pk.length / 3)] ^= 1;
      const bad = await ctx.makeClient({ serverKey: `${kid}:${pk.toString('base64url')}` });
      let badOutcome;
      let rejected = false;
      try {
        await bad.handshake();
        badOutcome = 'wrong key accepted';
      } catch (e) {
        rejected = true;
        badOutcome = `wrong key: client threw ${describeError(e)}`;
      }
      return { actual: `pinned: keyId ${keyId}, echo ${res.status}; ${badOutcome}`, pass: keyId === kid && res.status === 200 && rejected };
    },
  );
}

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function sessionActionChecks(h) {
  const { ctx, check, rawSend, fmt, tamperRequest, holdingClient, json, echoInit } = h;
  // ---------------------------------------------------------------- authenticated session actions
  await check(8, 'tampered terminate request (session id alone is not enough)', '401, and the session stays live on the server', async () => {
    let status = null;
    let hold = false;
    let held = null;
    const client = await ctx.makeClient({
      tamper: (req) => {
        if (hold && !isSessionUrl(req.url)) {
          hold = false;
          held = cloneReq(req);
          return new Response(null, { status: 503, headers: { 'nen-error': 'NEN_STORE_UNAVAILABLE' } });
        }
        if (!req.url.endsWith('/terminate')) return undefined;
        const r = cloneReq(req);
        if (r.body?.length) r.body = flipByte(r.body, r.body.length - 1);
        if (typeof r.headers['nen-body'] === 'string') r.headers['nen-body'] = r.headers['nen-body'].replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
        r.tampered = true;
        return r;
      },
      tamperResponse: (req, res) => {
        if (req.tampered) status = res.status;
        return undefined;
      },
    });
    await client.handshake();
    hold = true;
    await client
      .fetch('/api/echo', echoInit())
      .then((r) => r.arrayBuffer())
      .catch(() => {});
    if (!held) return { actual: 'bench could not capture a request', pass: false };
    await client.terminate().catch(() => {});
    // the client forgets its session either way; the server must still hold it: a request sealed
    // before the forged terminate is accepted
    const r = await rawSend(held);
    return { actual: `tampered terminate → ${status}; request on the session afterwards → ${fmt(r)}`, pass: status === 401 && r.status === 200 };
  });

  await check(7, 'timestamp outside the ±30 s window (+60 s)', '401 NEN_TIMESTAMP', async () => {
    const { wire, outcome } = await tamperRequest({
      path: '/api/echo',
      init: echoInit(),
      mutate: (r) => mutateNenField(r, 4, (v) => String(Number(v) + 60_000)),
    });
    return { actual: wire ? `${fmt(wire)}; ${outcome}` : 'not sent', pass: wire?.status === 401 && wire?.code === 'NEN_TIMESTAMP' };
  });
  await check(5, 'confidential query (confidentialQuery: true)', 'no query in the URL on the wire; the handler sees it', async () => {
    const urls = [];
    const client = await ctx.makeClient({ confidentialQuery: true, tamper: (req) => void (isSessionUrl(req.url) || urls.push(req.url)) });
    const res = await client.fetch('/api/echo?secret=hunter2&x=1');
    const b = await res.json();
    await client.terminate().catch(() => {});
    const leaked = urls.some((u) => u.includes('hunter2'));
    return {
      actual: `${res.status}, wire URL ${urls[0] ? new URL(urls[0]).pathname + new URL(urls[0]).search : '?'}, handler saw ${JSON.stringify(b?.query)}`,
      pass: res.status === 200 && !leaked && b?.query?.secret === 'hunter2',
    };
  });
  await check(10, 'compression inside the envelope (compress: true), 20 KB JSON', 'request body on the wire < plaintext, echo intact', async () => {
    const wires = [];
    const client = await ctx.makeClient({ compress: true, onWire: (e) => void (isSessionUrl(e.url) || wires.push(e)) });
    const doc = JSON.stringify({
      items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `user ${i}`, email: `user${i}@example.com`, active: i % 3 === 0 })),
    });
    const res = await client.fetch('/api/echo', { method: 'POST', headers: json, body: doc });
    const text = await res.text();
    await client.terminate().catch(() => {});
    const w = wires[0];
    return {
      actual: `${res.status}, plaintext ${doc.length} B, request wire ${w?.reqBytes} B, response wire ${w?.resBytes} B, echo ${text === doc ? 'intact' : 'differs'}`,
      pass: res.status === 200 && text === doc && w && w.reqBytes < doc.length / 2,
    };
  });
  await check(
    8,
    'rotate (rekey without a new KEM)',
    'same session, epoch + 1, new requests work, a request sealed before the rotation still accepted (grace)',
    async () => {
      const h = await holdingClient();
      await h.client.handshake();
      const before = h.client.session;
      const held = await h.capture('/api/echo', echoInit());
      await h.client.rotate();
      const after = h.client.session;
      const res = await h.client.fetch('/api/echo', echoInit());
      await res.arrayBuffer();
      const old = await rawSend(held);
      await h.client.terminate().catch(() => {});
      return {
        actual: `epoch ${before?.epoch} → ${after?.epoch}, ${after?.id === before?.id ? 'same' : 'different'} session, request ${res.status}, old-epoch request ${fmt(old)}`,
        pass: after?.id === before?.id && after?.epoch === (before?.epoch ?? 0) + 1 && res.status === 200 && old.status === 200,
      };
    },
  );
}

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function replayLifecycleChecks(h) {
  const { ctx, check, rawSend, fmt, holdingClient, echoInit } = h;
  // ---------------------------------------------------------------- replay
  await check(7, 'replay of an accepted request', '409', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    const first = await rawSend(req);
    const second = await rawSend(req);
    await h.client.terminate().catch(() => {});
    return { actual: `first ${fmt(first)}, replay ${fmt(second)}`, pass: first.status === 200 && second.status === 409 };
  });
  await check(
    7,
    'replay race: same request sent 8× concurrently' + (ctx.targets.length > 1 ? ' across instances' : ''),
    'exactly one 200, seven 409',
    async () => {
      const h = await holdingClient();
      await h.client.handshake();
      const req = await h.capture('/api/echo', echoInit());
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => rawSend(req, ctx.targets[i % ctx.targets.length])));
      await h.client.terminate().catch(() => {});
      const ok = results.filter((r) => r.status === 200).length;
      const replay = results.filter((r) => r.status === 409).length;
      return { actual: `${ok}× 200, ${replay}× 409 (${results.map((r) => r.status).join(',')})`, pass: ok === 1 && replay === 7 };
    },
  );
  if (ctx.targets.length > 1) {
    await check(7, 'session made on one instance works on another; replay there → 409', '200 on instance 2, then 409 on instance 1', async () => {
      const h = await holdingClient();
      await h.client.handshake();
      const req = await h.capture('/api/echo', echoInit());
      const a = await rawSend(req, ctx.targets[1]);
      const b = await rawSend(req, ctx.targets[0]);
      await h.client.terminate().catch(() => {});
      return { actual: `${fmt(a)}, ${fmt(b)}`, pass: a.status === 200 && b.status === 409 };
    });
  }

  // ---------------------------------------------------------------- lifecycle
  await check(8, 'request on a terminated session', '401', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    await h.client.terminate();
    const r = await rawSend(req);
    return { actual: fmt(r), pass: r.status === 401 };
  });
  await check(8, 'request on an expired session (sessionLifetimeSeconds: 2)', '401, then the client re-handshakes transparently: 200', async () => {
    const h = await holdingClient({ sessionLifetimeSeconds: 2 });
    await h.client.handshake();
    const expiresAt = h.client.session?.expiresAt;
    const req = await h.capture('/api/echo', echoInit());
    const lifetimeMs = typeof expiresAt === 'number' ? expiresAt - Date.now() : 2000;
    if (lifetimeMs > 10_000) return { actual: `server granted a session lifetime of ${Math.round(lifetimeMs / 1000)} s instead of 2 s`, pass: false };
    await new Promise((r) => setTimeout(r, Math.max(0, lifetimeMs) + 1200));
    const r = await rawSend(req);
    const res = await h.client.fetch('/api/echo', echoInit());
    await res.arrayBuffer();
    await h.client.terminate().catch(() => {});
    return { actual: `${fmt(r)}, then client.fetch → ${res.status}`, pass: r.status === 401 && res.status === 200 };
  });
}
