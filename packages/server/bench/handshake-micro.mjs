#!/usr/bin/env node
/**
 * The server's handshake function alone (`serverHandshake` of @nen/core with the backend a server
 * loads: 'auto' = node), in process, no HTTP: CPU µs per handshake, unpinned (ephemeral X-Wing
 * encapsulation only) and pinned (plus the static key's decapsulation). One or two core builds
 * side by side (`--a <core dist> --b <core dist>`), interleaved rounds, medians. ClientHellos are
 * made beforehand (64, cycled) so only the server's work is timed. `--client` adds a pinned client
 * and server together (clientHandshakeStart, serverHandshake, finish: the Node client's share is
 * that row minus the pinned one).
 *
 *   node packages/server/bench/handshake-micro.mjs [--a packages/core/dist] [--b /tmp/core-dist-before] [--rounds 7] [--per 300] [--client]
 *   .tools/node24/bin/node packages/server/bench/handshake-micro.mjs ...   # Node 24 (OpenSSL 3.5)
 *
 * Pitfalls: CPU time of this process (process.cpuUsage), so another process's load changes the
 * absolute figures less than wall time would, but not the cache / frequency effects: compare A and
 * B from one run. Pin it (`taskset -c 1`) on the shared machine.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { handshakeFixture } from './bench-session.mjs';

const { values: v } = parseArgs({
  options: {
    a: { type: 'string', default: path.join(import.meta.dirname, '../../core/dist') },
    b: { type: 'string' },
    rounds: { type: 'string', default: '7' },
    per: { type: 'string', default: '300' },
    backend: { type: 'string', default: 'auto' },
    client: { type: 'boolean', default: false },
  },
});
const rounds = Number(v.rounds);
const per = Number(v.per);

async function setup(dir) {
  const core = await import(pathToFileURL(path.resolve(dir, 'index.js')).href);
  const backend = await core.loadBackend(v.backend);
  const kp = backend.generateKeyPair(core.KEM_ID.XWING);
  const { keys, pin, unpinned, pinned } = handshakeFixture(core, backend, kp);
  const sessionId = new Uint8Array(16);
  let i = 0;
  const run = (list) => () => {
    const r = core.serverHandshake(backend, list[i++ & 63], { keys, sessionId, maxLifetime: 3600, idleTimeout: 600, now: Date.now() });
    r.secret.fill(0);
  };
  // Correctness: a client completes against this server.
  const st = core.clientHandshakeStart(backend, { pin });
  const r = core.serverHandshake(backend, st.hello, { keys, sessionId, maxLifetime: 3600, idleTimeout: 600, now: Date.now() });
  const done = st.finish(r.response);
  if (done.secret.some((b, j) => b !== r.secret[j])) throw new Error(`${dir}: client and server secrets differ`);
  const both = () => {
    const c = core.clientHandshakeStart(backend, { pin });
    const s = core.serverHandshake(backend, c.hello, { keys, sessionId, maxLifetime: 3600, idleTimeout: 600, now: Date.now() });
    c.finish(s.response).secret.fill(0);
    s.secret.fill(0);
  };
  return { name: backend.name, unpinned: run(unpinned), pinned: run(pinned), both };
}

const builds = { A: await setup(v.a) };
if (v.b) builds.B = await setup(v.b);
const ops = [];
for (const [label, b] of Object.entries(builds)) {
  ops.push({ name: `${label} unpinned`, f: b.unpinned, t: [] }, { name: `${label} pinned`, f: b.pinned, t: [] });
  if (v.client) ops.push({ name: `${label} client + server, pinned`, f: b.both, t: [] });
}
for (const o of ops) for (let k = 0; k < 100; k++) o.f();
for (let r = 0; r < rounds; r++) {
  for (const o of ops) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < per; k++) o.f();
    const c = process.cpuUsage(c0);
    o.t.push((c.user + c.system) / per);
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
console.log(
  `Node ${process.version}, OpenSSL ${process.versions.openssl}, backend ${builds.A.name}; ${rounds} interleaved rounds of ${per}; CPU µs per serverHandshake, median [min-max]`,
);
console.log(`A = ${v.a}${v.b ? `\nB = ${v.b}` : ''}`);
for (const o of ops) console.log(`${median(o.t).toFixed(1).padStart(8)}  [${Math.min(...o.t).toFixed(1)}-${Math.max(...o.t).toFixed(1)}]  ${o.name}`);
