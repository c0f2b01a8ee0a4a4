/**
 * Micro-benchmark (issue 23): where the OHTTP gateway's time goes per 1 KB X-Wing request, in
 * process. Each iteration runs the gateway's POST path step by step *in sequence* with a mark after
 * each step (the steps' own code from the build, on one fresh request: caches as a request sees
 * them, not a hot loop of one step), then one whole `gateway.fetch` of another request for
 * comparison; medians per step after the first eighth. Steps: the media type, the outer body read
 * (undici Request), the header parse, X-Wing Decap's parts as xwing-split.ts runs them (X25519
 * public-key import + DH in OpenSSL, ML-KEM-768 Decap in Wasm, SHA3-256 combiner), the key
 * schedule, the AEAD open, Binary HTTP decode + Date check, the replay id + memory-store claim,
 * the inner request, the `withNen` dispatch of a value handler, reading its answer, Binary HTTP
 * encode, the response seal (nonce, Export, HKDF, AEAD), the outer Response and its body read.
 *
 * Run: `node bench/ohttp/gateway-split.mjs ROOT [ROOT...]` (ROOT laid out as for ./request-ab.mjs;
 * several roots: one process each, in turn). Env N (2500). Bounded: fixed counts, no network.
 * Env POLLUTE_KB (0): before each request, write one byte per 64-byte line of a buffer that size
 * (the caches as a request under `next start` finds them: Next's own per-request work between
 * two gateway requests evicts the gateway's code and data; tenth pass). Env POLLUTE_JS (0): as
 * many plain 1 KB echoes (undici Request, body read, JSON parse, Response.json, text) before
 * each request: other code through the caches and branch predictors, as Next's per request.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const roots = process.argv.slice(2).map((r) => path.resolve(r));
if (roots.length === 0) throw new Error('usage: node bench/ohttp/gateway-split.mjs ROOT [ROOT...]');
if (roots.length > 1) {
  for (const r of roots) process.stdout.write(execFileSync(process.execPath, [process.argv[1], r], { env: process.env }));
  process.exit(0);
}
const root = roots[0];
const N = Number(process.env.N ?? 2500);
const LABEL = Uint8Array.of(0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c);
const imp = (p) => import(pathToFileURL(path.join(root, p)).href);

/** The build's modules, a gateway and the X-Wing key's halves as xwing-split.ts holds them. */
async function setup() {
  const c = await imp('packages/core/dist/index.js');
  const backend = await c.loadBackend();
  process.env.NEN_SERVER_KEYS = `k1:${c.toBase64Url(backend.generateKeyPair(c.KEM_ID.XWING).privateKey)}`;
  const m = {
    c,
    hpke: await imp('packages/core/dist/ohttp/hpke.js'),
    encm: await imp('packages/core/dist/ohttp/encapsulation.js'),
    ks: await imp('packages/core/dist/ohttp/key-schedule.js'),
    nx: await imp('packages/core/dist/ohttp/node-x25519.js'),
    server: await imp('packages/server/dist/index.js'),
    readBody: (await imp('packages/server/dist/http.js')).readBody,
    innerRequest: (await imp('packages/server/dist/ohttp/messages.js')).innerRequest,
    routeDispatch: (await imp('packages/server/dist/ohttp/routes.js')).routeDispatch,
    readBounded: (await imp('packages/server/dist/ohttp/stream.js')).readBounded,
    glue: (await imp('packages/core/dist/backend/wasm-loaded.js')).wasmGlueIfLoaded(),
  };
  const keyText = c.generateOhttpKey(1, c.OHTTP_KEM.XWING);
  m.keys = c.OhttpGatewayKeys.parse(keyText);
  m.config = m.keys.configs()[0];
  const x = createHash('shake256', { outputLength: 96 })
    .update(c.fromBase64Url(keyText.split(':')[2]))
    .digest();
  m.mlkem = new m.glue.RecipientKey(0x0041, x.subarray(0, 64));
  m.pkX = m.config.publicKey.slice(1184);
  m.skX = m.nx.NodeX25519Static.create(x.subarray(64), m.pkX);
  m.suiteId = Uint8Array.of(0x48, 0x50, 0x4b, 0x45, 0x64, 0x7a, 0, 1, 0, 3);
  const nen = m.server.createNen({});
  const value = nen.withNen(async (_r, _c, json) => json);
  m.dispatch = m.routeDispatch({ '/api/value': { POST: value } });
  m.gateway = nen.ohttpGateway({ keys: m.keys, routes: { '/api/value': { POST: value } } });
  m.store = m.server.memoryStore({ maxClaims: 1_000_000 });
  m.body = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(1000) }));
  return m;
}

const request = (m) => {
  const inner = { method: 'POST', scheme: 'https', authority: 'x', path: '/api/value', content: m.body, trailers: [] };
  inner.headers = [
    ['content-type', 'application/json'],
    ['date', new Date().toUTCString()],
  ];
  const e = m.c.encapsulateRequest(m.config, m.c.encodeBhttpRequest(inner)).encapsulatedRequest;
  return new Request('http://127.0.0.1/.well-known/ohttp-gateway', {
    method: 'POST',
    headers: { 'content-type': 'message/ohttp-req', 'content-length': String(e.length) },
    body: e,
  });
};

/** One request through the steps; `mark(name)` after each. */
async function steps(m, req, mark) {
  const { c, encm } = m;
  (req.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  mark('media type');
  const raw = await m.readBody(req, 1 << 20);
  mark('read outer body');
  const h = encm.parseRequestHeader(m.keys, raw);
  const info = encm.requestInfo('message/bhttp request', h.hdr);
  mark('header parse + info');
  const ctX = h.enc.subarray(1088);
  const ssX = m.skX.dh(ctX);
  mark('X25519 import + DH (OpenSSL)');
  const ssM = m.mlkem.decap(h.enc.subarray(0, 1088));
  mark('ML-KEM-768 Decap (Wasm)');
  const ss = createHash('sha3-256').update(ssM).update(ssX).update(ctX).update(m.pkX).update(LABEL).digest();
  mark('SHA3-256 combiner');
  const ctx = new m.hpke.HpkeContext(0x647a, 3, m.ks.ohttpKeySchedule(m.hpke.hkdf, m.suiteId, ss, info, 32, 12), info);
  mark('key schedule');
  const pt = ctx.open(new Uint8Array(0), raw.subarray(h.length));
  mark('AEAD open');
  const b = c.decodeBhttpRequest(pt, { maxContent: 1 << 20 });
  c.checkOhttpDate(b.headers, Date.now(), 60_000);
  mark('Binary HTTP decode + Date');
  await m.store.claimOnce(`ohttp:${c.ohttpReplayId(h.enc)}`, 125_000);
  mark('replay id + memory claim');
  const inner = m.innerRequest(
    b,
    () => new URL(req.url).host,
    () => req.signal,
  );
  mark('inner request');
  const answer = await m.dispatch(inner);
  mark('withNen dispatch (value)');
  const content = await m.readBounded(answer, 8 << 20);
  const bytes = c.encodeBhttpResponse({ informational: [], status: answer.status, headers: [['content-type', 'application/json']], content, trailers: [] });
  mark('answer + Binary HTTP encode');
  const sealed = encm.sealResponseWithNonce(ctx, h.enc, c.fromBase64Url('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), bytes);
  mark('response seal');
  const res = new Response(sealed, {
    status: 200,
    headers: { 'content-type': 'message/ohttp-res', 'cache-control': 'no-store', 'content-length': String(sealed.length) },
  });
  mark('outer Response');
  await res.arrayBuffer();
  mark('outer body read (the server)');
}

const m = await setup();
const times = new Map();
const dirt = new Uint8Array(Number(process.env.POLLUTE_KB ?? 0) * 1024);
const plainEchoes = Number(process.env.POLLUTE_JS ?? 0);
const pollute = async () => {
  for (let j = 0; j < dirt.length; j += 64) dirt[j]++;
  for (let j = 0; j < plainEchoes; j++) {
    const r = new Request('http://127.0.0.1/api/plain/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: m.body });
    await Response.json(JSON.parse(new TextDecoder().decode(await r.arrayBuffer()))).text();
  }
};
for (let i = 0; i < N; i++) {
  const req = request(m);
  await pollute();
  let t = performance.now();
  const t0 = t;
  await steps(m, req, (name) => {
    const now = performance.now();
    if (!times.has(name)) times.set(name, []);
    times.get(name).push((now - t) * 1000);
    t = now;
  });
  if (!times.has('SUM')) times.set('SUM', []);
  times.get('SUM').push((t - t0) * 1000);
  const other = request(m);
  await pollute();
  const w = performance.now();
  await (await m.gateway.fetch(other)).arrayBuffer();
  if (!times.has('WHOLE gateway.fetch + body read')) times.set('WHOLE gateway.fetch + body read', []);
  times.get('WHOLE gateway.fetch + body read').push((performance.now() - w) * 1000);
}
const med = (a) => [...a.slice(N >> 3)].sort((x, y) => x - y)[(N - (N >> 3)) >> 1];
console.log(`${root} (${process.version}; µs, medians of ${N - (N >> 3)} requests; POLLUTE_KB=${dirt.length >> 10}, POLLUTE_JS=${plainEchoes})`);
for (const [name, a] of times) console.log(`  ${name.padEnd(34)} ${med(a).toFixed(1).padStart(7)}`);
process.exit(0);
