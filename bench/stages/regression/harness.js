/**
 * The regression stage's harness (stages/regression.js): `check` (runs one assertion with a
 * timeout and records expected vs actual), raw sends of captured requests, and the man in the
 * middle played by the bench transport (tamper the first application request, hold it without
 * delivering it, or replace its response). Pitfalls: the client may re-handshake and retry once
 * after a 401, so the tamper hooks touch only the first application request and what is asserted
 * is the status the tampered request got on the wire; every check has a timeout.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { withTimeout, CHECK_TIMEOUT_MS, isSessionUrl, cloneReq, describeError } from './util.js';

/** Send a captured request as is (raw HTTP, no client), optionally to another target. */
async function rawSend(ctx, req, target) {
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
async function tamperRequest(ctx, { path, init, mutate, clientOptions = {} }) {
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

/** A client that captures (and does not deliver) its next application request. */
async function holdingClient(ctx, clientOptions = {}) {
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
async function tamperResponse(ctx, { path, init, replace, clientOptions = {}, consume = (res) => res.arrayBuffer() }) {
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

/** The checks list and the helpers the check groups share, bound to the stage's ctx. */
export function makeHarness(ctx) {
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

  async function expectStatus(property, name, status, opts) {
    return check(property, name, String(status), async () => {
      const { wire, outcome } = await tamperRequest(ctx, opts);
      if (!wire) return { actual: `tampered request never sent (${outcome})`, pass: false };
      return { actual: `${fmt(wire)}; ${outcome}`, pass: wire.status === status };
    });
  }

  const json = { 'content-type': 'application/json' };
  const marker = `bench-plaintext-marker-${randomBytes(6).toString('hex')}`;
  const echoInit = () => ({ method: 'POST', headers: json, body: JSON.stringify({ marker, n: 42, list: [1, 2, 3] }) });
  return {
    ctx,
    checks,
    check,
    rawSend: (req, target) => rawSend(ctx, req, target),
    fmt,
    tamperRequest: (opts) => tamperRequest(ctx, opts),
    expectStatus,
    holdingClient: (clientOptions) => holdingClient(ctx, clientOptions),
    tamperResponse: (opts) => tamperResponse(ctx, opts),
    json,
    marker,
    echoInit,
  };
}
