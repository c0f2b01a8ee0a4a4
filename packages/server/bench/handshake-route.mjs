#!/usr/bin/env node
/**
 * The handshake route in process, split into its parts (issue 21: a Hono handshake request costs
 * ~290-380 µs of server CPU, `serverHandshake` alone ~145): CPU µs per handshake of
 *  - `core`: `serverHandshake` alone (the KEM work, transcript, key schedule);
 *  - `core+keys`: plus the new session's `SessionKeys` (epoch key derivation, two AEAD objects) and
 *    their disposal, which the route does for the key cache;
 *  - `route`: the whole `nen.routes.POST` of one or two server builds (`--a` / `--b`: a
 *    packages/server dist each) on the memory store, its Response read; the Requests are built
 *    before each timed batch (the caller's cost, not the server's).
 * Pinned ClientHellos (static key + ephemeral), made beforehand and cycled. Interleaved rounds,
 * medians [min-max].
 *
 *   taskset -c 1 node packages/server/bench/handshake-route.mjs [--a packages/server/dist] [--b /tmp/server-dist-before] [--rounds 9] [--per 300]
 *
 * Pitfalls: CPU time of this process; the route's sessions pile up in the memory store (bounded
 * by its maxSessions) as they do on a server under a handshake load, so GC is part of the figure;
 * compare A and B from one run on the shared machine.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as core from '@nen/core';

const { values: v } = parseArgs({
  options: {
    a: { type: 'string', default: path.join(import.meta.dirname, '../dist') },
    b: { type: 'string' },
    rounds: { type: 'string', default: '9' },
    per: { type: 'string', default: '300' },
  },
  strict: true,
});
const rounds = Number(v.rounds);
const per = Number(v.per);
const KEY = `k1:${core.toBase64Url(new Uint8Array(32).fill(5))}`;

async function setupRoute(dir) {
  const server = await import(pathToFileURL(path.resolve(dir, 'index.js')).href);
  const nen = server.createNen({
    backend: 'auto',
    store: server.memoryStore({ shared: false }),
    serverKeys: KEY,
    logger: () => {},
    handshakeRateLimit: 0,
    handshakesPerSecond: 0,
  });
  const pin = core.parseServerKeyPin((await nen.publicKeys())[0].pin);
  return { nen, pin };
}

const backend = await core.loadBackend('auto');
const routes = { A: await setupRoute(v.a) };
if (v.b) routes.B = await setupRoute(v.b);
const pin = routes.A.pin;
const keyring = await (async () => {
  // the same static key as the routes, loaded as the server loads it
  const sk = core.fromBase64Url(KEY.slice(3));
  return new Map([['k1', backend.createRecipientKey(core.KEM_ID.XWING, sk)]]);
})();
const hellos = Array.from({ length: 64 }, () => {
  const st = core.clientHandshakeStart(backend, { pin });
  const h = st.hello;
  st.dispose();
  return h;
});
let i = 0;
const params = () => ({ keys: keyring, sessionId: backend.randomBytes(16), maxLifetime: 3600, idleTimeout: 600, now: Date.now() });
const coreOnly = () => {
  const r = core.serverHandshake(backend, hellos[i++ & 63], params());
  r.secret.fill(0);
};
const coreKeys = () => {
  const r = core.serverHandshake(backend, hellos[i++ & 63], params());
  new core.SessionKeys(backend, r.secret, 0).dispose();
  r.secret.fill(0);
};
const request = () =>
  new Request('http://127.0.0.1/api/nen/handshake', {
    method: 'POST',
    headers: { 'content-type': 'application/nen-handshake' },
    body: hellos[i++ & 63],
  });

// Correctness: a client completes against each route build.
for (const [label, r] of Object.entries(routes)) {
  const st = core.clientHandshakeStart(backend, { pin });
  const res = await r.nen.routes.POST(
    new Request('http://127.0.0.1/api/nen/handshake', { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: st.hello }),
  );
  if (res.status !== 200) throw new Error(`${label}: handshake status ${res.status}`);
  st.finish(new Uint8Array(await res.arrayBuffer()));
}

const ops = [
  { name: 'core (serverHandshake)', sync: coreOnly, t: [] },
  { name: 'core+keys (+ SessionKeys)', sync: coreKeys, t: [] },
  ...Object.entries(routes).map(([label, r]) => ({ name: `${label} route`, route: r.nen.routes, t: [] })),
];
async function batch(o, n) {
  if (o.sync) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < n; k++) o.sync();
    return process.cpuUsage(c0);
  }
  const reqs = Array.from({ length: n }, request);
  const c0 = process.cpuUsage();
  for (const req of reqs) {
    const res = await o.route.POST(req);
    if (res.status !== 200) throw new Error(`route: status ${res.status}`);
    await res.arrayBuffer();
  }
  return process.cpuUsage(c0);
}
for (const o of ops) await batch(o, 200); // warm-up (JIT)
for (let r = 0; r < rounds; r++) {
  for (const o of r % 2 ? [...ops].reverse() : ops) {
    const c = await batch(o, per);
    o.t.push((c.user + c.system) / per);
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
console.log(
  `Node ${process.version}, backend ${backend.name}; ${rounds} interleaved rounds of ${per} pinned handshakes; CPU µs per handshake, median [min-max]`,
);
console.log(`A = ${v.a}${v.b ? `\nB = ${v.b}` : ''}`);
for (const o of ops) console.log(`${median(o.t).toFixed(1).padStart(8)}  [${Math.min(...o.t).toFixed(1)}-${Math.max(...o.t).toFixed(1)}]  ${o.name}`);
for (const r of Object.values(routes)) await r.nen.close?.();
for (const k of keyring.values()) k.dispose();
