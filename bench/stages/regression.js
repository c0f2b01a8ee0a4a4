/**
 * Stage 1: the regression suite. Every security property (THREAT_MODEL.md properties 1-12, wire
 * format in PROTOCOL.md) that can be
 * observed from outside (handshake confirmation, server pinning, request and response
 * authentication, replay, lifecycle, streams, limits, errors) is asserted against the live target, each printed with what was expected
 * and what actually happened. A man in the middle is played by the bench transport (the client's
 * `fetch` option): it rewrites one outgoing request (body byte, tag byte, each field of the `nen`
 * header, `nen-type`, the path, the query, the method, the content type) or replaces the incoming
 * response (tampered body, status, substituted response, plaintext response, truncated /
 * reordered / duplicated stream records). Replays, terminated and expired sessions, oversize and
 * malformed requests are sent raw, from requests captured on the wire without being delivered.
 *
 * Wire format facts used (packages/core/src/protocol/constants.ts, PROTOCOL.md): request header
 * `nen: 1.<sid b64url>.<epoch>.<seq>.<ts ms>.<flags>`, `nen-type` (plaintext content type, in
 * the AAD), body `application/nen` (ciphertext || 16-byte tag), GET's sealed record in
 * `nen-body`; responses carry `nen: 1.<flags>`; protocol errors a `nen-error` code; streams are
 * `application/nen-stream` records framed as u32 big-endian length || sealed record.
 *
 * Pitfalls: the client may legitimately re-handshake and retry once after a 401, so the tamper
 * hooks touch only the first application request and the asserted status is the one the tampered
 * request got on the wire; every check has a timeout, so a hang is a failure, not a stuck run.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';

/** Byte concatenation (local: @nen/core keeps its byte helpers internal). */
function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out;
}

const CHECK_TIMEOUT_MS = 30_000;

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`${what}: no answer within ${ms} ms`), { code: 'BENCH_TIMEOUT' })), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

const isSessionUrl = (url) => new URL(url).pathname.includes('/api/nen/');

function flipByte(bytes, index) {
  const out = new Uint8Array(bytes);
  out[index] ^= 0x01;
  return out;
}

function cloneReq(req) {
  return { method: req.method, url: req.url, headers: { ...req.headers }, body: req.body ? new Uint8Array(req.body) : req.body };
}

/** Replace field `i` of the request `nen` header. */
function mutateNenField(req, i, f) {
  const parts = String(req.headers.nen ?? '').split('.');
  parts[i] = f(parts[i] ?? '');
  req.headers.nen = parts.join('.');
  return req;
}

function describeError(e) {
  return `${e?.name ?? 'Error'}${e?.code ? ' ' + e.code : ''}${e?.status ? ' (status ' + e.status + ')' : ''}`;
}

/** Parse an application/nen-stream body into its framed records (u32 BE length || sealed). */
export function splitRecords(bytes) {
  const records = [];
  let o = 0;
  while (o + 4 <= bytes.length) {
    const len = new DataView(bytes.buffer, bytes.byteOffset + o, 4).getUint32(0);
    if (o + 4 + len > bytes.length) break;
    records.push(bytes.subarray(o, o + 4 + len));
    o += 4 + len;
  }
  return { records, rest: bytes.length - o };
}

export async function run(ctx) {
  const checks = [];
  const log = (c) => ctx.progress?.log(`  ${c.pass ? 'PASS' : 'FAIL'} [P${c.property}] ${c.name}: expected ${c.expected}, actual ${c.actual}`);

  async function check(property, name, expected, fn) {
    ctx.progress?.detail(name);
    const t0 = performance.now();
    let c;
    try {
      const { actual, pass } = await withTimeout(fn(), CHECK_TIMEOUT_MS, name);
      c = { property, name, expected, actual, pass: Boolean(pass) };
    } catch (e) {
      c = { property, name, expected, actual: `bench error: ${String(e?.message ?? e).slice(0, 300)}`, pass: false };
    }
    c.ms = Math.round(performance.now() - t0);
    checks.push(c);
    log(c);
    return c;
  }

  /** Send a captured request as is (raw HTTP, no client), optionally to another target. */
  async function rawSend(req, target) {
    let url = req.url;
    if (target) {
      const u = new URL(req.url);
      url = target + u.pathname + u.search;
    }
    const res = await request(url, { method: req.method, headers: req.headers, body: req.body, dispatcher: ctx.agent });
    const body = new Uint8Array(await res.body.arrayBuffer());
    ctx.countRequest();
    const h = res.headers['nen-error'];
    return { status: res.statusCode, code: Array.isArray(h) ? h[0] : (h ?? null), body };
  }
  const fmt = (r) => `${r.status}${r.code ? ' ' + r.code : ''}`;

  /**
   * A client whose transport applies `mutate` to the first application request only and records
   * what that tampered request got on the wire. Returns { wire, outcome }.
   */
  async function tamperRequest({ path, init, mutate, clientOptions = {} }) {
    let armed = true;
    const seen = [];
    const client = await ctx.makeClient({
      ...clientOptions,
      tamper: (req) => {
        if (!armed || isSessionUrl(req.url)) return undefined;
        armed = false;
        const r = mutate(cloneReq(req));
        r.tampered = true;
        return r;
      },
      tamperResponse: (req, res) => {
        if (req.tampered) seen.push({ status: res.status, code: res.headers.get('nen-error') });
        return undefined;
      },
    });
    await client.handshake();
    let outcome;
    try {
      const res = await client.fetch(path, init);
      await res.arrayBuffer();
      outcome = `application got ${res.status}`;
    } catch (e) {
      outcome = `client threw ${describeError(e)}`;
    }
    ctx.countRequest();
    await client.terminate().catch(() => {});
    return { wire: seen[0] ?? null, outcome };
  }

  async function expectStatus(property, name, status, opts) {
    return check(property, name, String(status), async () => {
      const { wire, outcome } = await tamperRequest(opts);
      if (!wire) return { actual: `tampered request never sent (${outcome})`, pass: false };
      return { actual: `${fmt(wire)}; ${outcome}`, pass: wire.status === status };
    });
  }

  /** A client that captures (and does not deliver) its next application request. */
  async function holdingClient(clientOptions = {}) {
    const state = { hold: false, held: null };
    const client = await ctx.makeClient({
      ...clientOptions,
      tamper: (req) => {
        if (!state.hold || isSessionUrl(req.url)) return undefined;
        state.hold = false;
        state.held = cloneReq(req);
        return new Response(null, { status: 503, headers: { 'nen-error': 'NEN_STORE_UNAVAILABLE' } });
      },
    });
    return {
      client,
      async capture(path, init) {
        state.hold = true;
        try {
          const res = await client.fetch(path, init);
          await res.arrayBuffer().catch(() => {});
        } catch {
          /* expected: the bench answered the held request itself */
        }
        if (!state.held) throw new Error('bench: no request was captured');
        return state.held;
      },
    };
  }

  /** A client whose transport may replace the response to the first application request. */
  async function tamperResponse({ path, init, replace, clientOptions = {}, consume = (res) => res.arrayBuffer() }) {
    let armed = true;
    const client = await ctx.makeClient({
      ...clientOptions,
      tamperResponse: async (req, res) => {
        if (!armed || isSessionUrl(req.url)) return undefined;
        armed = false;
        return replace(req, res);
      },
    });
    await client.handshake();
    try {
      const res = await client.fetch(path, init);
      const body = await consume(res, client);
      return { rejected: false, outcome: `application got ${res.status} with ${body?.byteLength ?? body?.length ?? 0} bytes` };
    } catch (e) {
      return { rejected: true, outcome: `client threw ${describeError(e)}` };
    } finally {
      ctx.countRequest();
      await client.terminate().catch(() => {});
    }
  }

  const json = { 'content-type': 'application/json' };
  const marker = `bench-plaintext-marker-${randomBytes(6).toString('hex')}`;
  const echoInit = () => ({ method: 'POST', headers: json, body: JSON.stringify({ marker, n: 42, list: [1, 2, 3] }) });

  // ---------------------------------------------------------------- happy paths
  await check(6, 'encrypted POST echo round-trips; wire body is ciphertext', '200, same JSON back, no plaintext on the wire', async () => {
    const wires = [];
    const client = await ctx.makeClient({ onWire: (e) => wires.push(e), tamper: (req) => void wires.push({ req }) });
    await client.handshake();
    const res = await client.fetch('/api/echo', echoInit());
    const got = await res.json();
    await client.terminate().catch(() => {});
    const sent = wires.find((w) => w.req && !isSessionUrl(w.req.url))?.req;
    const leaked = sent ? Buffer.from(sent.body ?? []).includes(marker) : true;
    const ct = sent?.headers['content-type'];
    return {
      actual: `${res.status}, marker ${got?.marker === marker ? 'echoed' : 'missing'}, wire content-type ${ct}, plaintext on wire: ${leaked}`,
      pass: res.status === 200 && got?.marker === marker && !leaked && ct === 'application/nen',
    };
  });

  await check(5, 'encrypted GET with query works', '200, method GET, query x=1&y=two echoed', async () => {
    const client = await ctx.makeClient();
    const res = await client.fetch('/api/echo?x=1&y=two');
    const got = await res.json();
    await client.terminate().catch(() => {});
    return {
      actual: `${res.status}, ${JSON.stringify(got)}`,
      pass: res.status === 200 && got?.method === 'GET' && got?.query?.x === '1' && got?.query?.y === 'two',
    };
  });

  // Any query a browser or fetch() sends must authenticate, not only the form-encoded canonical
  // one (a server that rebuilds the query, e.g. with URLSearchParams, breaks on %20, ~, ! or a bare key).
  await check(5, 'encrypted GET with query strings as sent (%20, +, ~, !, bare key, %2F, UTF-8)', '200 for each, query decoded by the handler', async () => {
    const client = await ctx.makeClient();
    const cases = [
      ['q=a%20b', 'q', 'a b'],
      ['q=a+b', 'q', 'a b'],
      ['q=a~b', 'q', 'a~b'],
      ['q=a!b', 'q', 'a!b'],
      ['flag', 'flag', ''],
      ['q=a%2Fb', 'q', 'a/b'],
      ['q=caf%C3%A9', 'q', 'café'],
    ];
    const got = [];
    let pass = true;
    for (const [raw, key, want] of cases) {
      try {
        const res = await client.fetch(`/api/echo?${raw}`);
        const b = await res.json();
        got.push(`${raw}→${res.status}${res.status === 200 ? ' ' + JSON.stringify(b?.query?.[key]) : ''}`);
        pass &&= res.status === 200 && b?.query?.[key] === want;
      } catch (e) {
        got.push(`${raw}→${describeError(e)}`);
        pass = false;
      }
    }
    await client.terminate().catch(() => {});
    return { actual: got.join(', '), pass };
  });

  // ---------------------------------------------------------------- tampered requests → 401
  await expectStatus(5, 'tampered request body (ciphertext byte flipped)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, body: flipByte(r.body, Math.floor(r.body.length / 3)) }),
  });
  await expectStatus(5, 'tampered tag (last body byte flipped)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, body: flipByte(r.body, r.body.length - 1) }),
  });
  await expectStatus(5, 'tampered nen header: session id', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 1, () => randomBytes(16).toString('base64url')),
  });
  await expectStatus(4, 'tampered nen header: epoch', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 2, (v) => String(Number(v) + 1)),
  });
  await expectStatus(4, 'tampered nen header: sequence number', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 3, (v) => String(BigInt(v) + 1n)),
  });
  await expectStatus(5, 'tampered nen header: timestamp (+1 ms)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 4, (v) => String(Number(v) + 1)),
  });
  await expectStatus(5, 'tampered nen header: flags (accept-compressed bit toggled)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 5, (v) => String(Number(v) ^ 8)),
  });
  await expectStatus(5, 'tampered nen-type (plaintext content type)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, headers: { ...r.headers, 'nen-type': 'text/plain' } }),
  });
  await expectStatus(5, 'tampered query string', 401, {
    path: '/api/echo?x=1',
    init: undefined,
    mutate: (r) => ({ ...r, url: r.url.replace('x=1', 'x=2') }),
  });
  await expectStatus(5, 'tampered GET sealed record (nen-body header)', 401, {
    path: '/api/echo?x=1',
    init: undefined,
    mutate: (r) => {
      const v = r.headers['nen-body'];
      if (typeof v !== 'string' || v.length < 2) return r;
      const i = Math.floor(v.length / 2);
      return { ...r, headers: { ...r.headers, 'nen-body': v.slice(0, i) + (v[i] === 'A' ? 'B' : 'A') + v.slice(i + 1) } };
    },
  });
  await expectStatus(5, 'tampered path (/api/notes/<id> → another id)', 401, {
    path: '/api/notes/AAAAAAAAAAAA',
    init: undefined,
    mutate: (r) => ({ ...r, url: r.url.replace('AAAAAAAAAAAA', 'BBBBBBBBBBBB') }),
  });
  await expectStatus(5, 'tampered method (DELETE → PUT)', 401, {
    path: '/api/notes/AAAAAAAAAAAA',
    init: { method: 'DELETE' },
    mutate: (r) => ({ ...r, method: 'PUT' }),
  });
  await expectStatus(11, 'wrong wire content type (application/nen → application/json)', 415, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/json' } }),
  });

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

  // ---------------------------------------------------------------- responses
  await check(6, 'tampered response body', 'client rejects', async () => {
    const r = await tamperResponse({
      path: '/api/echo',
      init: echoInit(),
      replace: async (_req, res) => new Response(flipByte(new Uint8Array(await res.arrayBuffer()), 3), { status: res.status, headers: res.headers }),
    });
    return { actual: r.outcome, pass: r.rejected };
  });
  await check(6, 'tampered response status (200 → 201)', 'client rejects', async () => {
    const r = await tamperResponse({
      path: '/api/echo',
      init: echoInit(),
      replace: async (_req, res) => new Response(await res.arrayBuffer(), { status: 201, headers: res.headers }),
    });
    return { actual: r.outcome, pass: r.rejected };
  });
  await check(6, 'response substitution (an earlier response of the same session)', 'client rejects', async () => {
    let saved = null;
    let n = 0;
    const client = await ctx.makeClient({
      tamperResponse: async (req, res) => {
        if (isSessionUrl(req.url)) return undefined;
        n++;
        if (n === 1) {
          saved = { body: new Uint8Array(await res.arrayBuffer()), status: res.status, headers: res.headers };
          return new Response(saved.body, { status: saved.status, headers: saved.headers });
        }
        if (n === 2 && saved) {
          await res.arrayBuffer();
          return new Response(saved.body, { status: saved.status, headers: saved.headers });
        }
        return undefined;
      },
    });
    await client.handshake();
    const first = await client.fetch('/api/echo', echoInit());
    await first.arrayBuffer();
    let outcome;
    let rejected = false;
    try {
      const res = await client.fetch('/api/echo', { method: 'POST', headers: json, body: JSON.stringify({ other: true }) });
      outcome = `application got ${res.status}: ${(await res.text()).slice(0, 60)}`;
    } catch (e) {
      rejected = true;
      outcome = `client threw ${describeError(e)}`;
    }
    await client.terminate().catch(() => {});
    return { actual: outcome, pass: rejected && first.status === 200 };
  });
  await check(6, 'plaintext response substituted for an encrypted one', 'client rejects', async () => {
    const r = await tamperResponse({
      path: '/api/echo',
      init: echoInit(),
      replace: async (_req, res) => {
        await res.arrayBuffer();
        return Response.json({ marker: 'forged' }, { status: 200 });
      },
    });
    return { actual: r.outcome, pass: r.rejected };
  });

  // ---------------------------------------------------------------- streams
  const readStream = async (res) => {
    const text = await res.text();
    return text;
  };
  await check(9, 'encrypted stream delivers every record', '21 events ending in [DONE]', async () => {
    const client = await ctx.makeClient();
    const res = await client.fetch('/api/stream?n=20', { method: 'POST', headers: json, body: '{}' });
    const text = await readStream(res);
    await client.terminate().catch(() => {});
    const events = text.split('\n\n').filter(Boolean);
    return {
      actual: `${res.status}, ${events.length} events, last ${JSON.stringify(events.at(-1))}`,
      pass: res.status === 200 && events.length === 21 && events.at(-1) === 'data: [DONE]',
    };
  });
  const streamTamper = (name, edit) =>
    check(9, name, 'client rejects', async () => {
      let info = '';
      const r = await tamperResponse({
        path: '/api/stream?n=20',
        init: { method: 'POST', headers: json, body: '{}' },
        consume: (res) => res.arrayBuffer(),
        replace: async (_req, res) => {
          const bytes = new Uint8Array(await res.arrayBuffer());
          const { records, rest } = splitRecords(bytes);
          info = `${records.length} records, ${rest} stray bytes`;
          return new Response(edit(records, bytes), { status: res.status, headers: res.headers });
        },
      });
      return { actual: `${r.outcome} (${info})`, pass: r.rejected };
    });
  await streamTamper('truncated stream (final record dropped)', (recs) => concatBytes(...recs.slice(0, -1)));
  await streamTamper('truncated stream (cut inside a record)', (_r, bytes) => bytes.subarray(0, Math.floor(bytes.length / 2)));
  await streamTamper('reordered stream records', (recs) => concatBytes(recs[1], recs[0], ...recs.slice(2)));
  await streamTamper('duplicated stream record', (recs) => concatBytes(recs[0], ...recs));

  // ---------------------------------------------------------------- limits and malformed input
  await check(12, 'oversize request body (16 MiB)', '413', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    const big = new Uint8Array(16 * 1024 * 1024);
    const r = await rawSend({ ...req, body: big, headers: { ...req.headers, 'content-length': String(big.length) } });
    await h.client.terminate().catch(() => {});
    return { actual: fmt(r), pass: r.status === 413 };
  });
  await check(11, 'malformed nen header (5 fields)', '400', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    const r = await rawSend({ ...req, headers: { ...req.headers, nen: String(req.headers.nen).split('.').slice(0, 5).join('.') } });
    await h.client.terminate().catch(() => {});
    return { actual: fmt(r), pass: r.status === 400 };
  });
  await check(11, 'unsupported protocol version in nen header', '400', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    const r = await rawSend({ ...req, headers: { ...req.headers, nen: String(req.headers.nen).replace(/^1\./, '9.') } });
    await h.client.terminate().catch(() => {});
    return { actual: fmt(r), pass: r.status === 400 };
  });
  await check(11, 'plaintext request to an encrypted route', '400', async () => {
    const r = await rawSend({ method: 'POST', url: ctx.url('/api/echo'), headers: json, body: JSON.stringify({ hello: 'plain' }) });
    return { actual: fmt(r), pass: r.status === 400 };
  });
  await check(11, 'garbage handshake body', '400', async () => {
    const r = await rawSend({
      method: 'POST',
      url: ctx.url('/api/nen/handshake'),
      headers: { 'content-type': 'application/nen-handshake' },
      body: randomBytes(57),
    });
    return { actual: fmt(r), pass: r.status === 400 };
  });

  const passed = checks.filter((c) => c.pass).length;
  const failed = checks.filter((c) => !c.pass);
  return {
    ok: failed.length === 0,
    failure: failed.length ? `regression: ${failed.length} of ${checks.length} checks failed: ${failed.map((c) => c.name).join('; ')}` : null,
    data: { passed, total: checks.length, checks },
  };
}
