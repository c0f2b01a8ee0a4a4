#!/usr/bin/env node
/**
 * The Node client's CPU per request, and what Nen adds to it (issue 21: "client CPU Nen adds per
 * request over plain undici"). Two ways:
 *
 *  - Default: over the network. The Hono bench target (bench/targets/hono.mjs, this build of
 *    @nen/server) runs in its own process pinned to core 0; this process, pinned to core 1, drives
 *    the JSON echo in interleaved slices: `plain` (the transport alone, `POST /api/plain/echo`),
 *    then one `A`, `B`, ... mode per client build given (`createNenClient` over the same transport,
 *    `POST /api/echo`). Per slice this process's own CPU (process.cpuUsage) per request; printed as
 *    medians over the rounds, and per build the µs it adds over plain (median of per-round deltas).
 *
 *      cp -r packages/client/dist packages/client/.dist-a            # the build before a change
 *      node packages/server/bench/client-roundtrip.mjs --a packages/client/.dist-a --b packages/client/dist
 *        [--size 1024] [--rounds 6] [--slice 2] [--concurrency 10] [--transport bench|fetch] [--no-pin]
 *        [--only plain,B]   (a subset of modes: e.g. one build under node --cpu-prof)
 *        [--server-dist packages/server/.dist-x]   (the server from another build, as hono.mjs takes it)
 *        [--timeout-ms N]   (the clients' timeoutMs; 0: no deadline, so no AbortController per request)
 *
 *    `--transport bench`: the bench's undici.request transport (bench/lib/transport.js, what the
 *    load stage and hono-ab.mjs use); `fetch`: Node's global fetch (undici inside).
 *
 *  - `--fake --a <dist> [--b <dist>] [--size N] [--rounds 8] [--requests 4000]`: the client alone, in
 *    this process, no network and no event-loop turns: its `fetch` answers at once, for `plain` with
 *    `new Response(body)`, for the builds with @nen/core's server functions on the same keys
 *    (parseRequest, openRequest, sealResponse: the "server part", its CPU read with process.cpuUsage
 *    around it, reported and subtracted from the client's figure). Batches of requests one after another, modes interleaved per round: the
 *    client's own JS cost per request, far less noisy than the network figure on a loaded machine.
 *    With --a and --b, each build runs in its own processes, alternating (see fakeAB).
 *  - `--in-process [--requests 10000]`: client and server in ONE process, no network (`createNenClient`
 *    whose `fetch` hands each Request to this package's `withNen` echo): both ends' CPU summed.
 *
 * Pitfalls: a client <dist> must sit inside packages/client (its `@nen/core` import resolves from
 * there); the machine is shared and noisy, so compare builds only within one run (interleaved
 * slices), several runs, and note `uptime`; the server is stopped (SIGTERM) at the end.
 */
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const { values: v } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    size: { type: 'string' },
    rounds: { type: 'string' },
    slice: { type: 'string' },
    concurrency: { type: 'string' },
    transport: { type: 'string' },
    only: { type: 'string' },
    'no-pin': { type: 'boolean' },
    'in-process': { type: 'boolean' },
    fake: { type: 'boolean' },
    requests: { type: 'string' },
    'server-dist': { type: 'string' },
    'timeout-ms': { type: 'string' },
  },
  strict: true,
});
// --timeout-ms N: the clients' timeoutMs (default: the client's own, 30 s; 0: no deadline, no AbortController)
const timeoutOption = v['timeout-ms'] === undefined ? {} : { timeoutMs: Number(v['timeout-ms']) };
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function inProcess(N) {
  const { createNenClient } = await import('@nen/client');
  const { toBase64Url } = await import('@nen/core');
  const { createNen, memoryStore } = await import('../dist/index.js');
  const { benchNen } = await import('./bench-session.mjs');
  const nen = benchNen({ createNen, memoryStore }, { toBase64Url });
  const pin = (await nen.publicKeys())[0].pin;
  const echo = nen.withNen(async (req, _ctx, body) => (req.headers.get('content-type') === 'application/json' ? body : null));
  const fetch = (url, init) => (String(url).includes('/api/nen/') ? nen.routes.POST(new Request(url, init)) : echo(new Request(url, init), {}));
  const client = createNenClient({ baseUrl: 'http://127.0.0.1', fetch, serverKey: pin, sessionPath: '/api/nen' });
  const body = JSON.stringify({ data: 'x'.repeat(1012) });
  const one = async () => {
    const r = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (r.status !== 200) throw new Error(`status ${r.status}`);
    await r.json();
  };
  for (let i = 0; i < 2000; i++) await one(); // warm-up
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await one();
  const c = process.cpuUsage(c0);
  console.log(
    `client + server, 1 KB JSON: ${(((performance.now() - t0) * 1000) / N).toFixed(1)} µs wall, ${((c.user + c.system) / N).toFixed(1)} µs CPU per request`,
  );
  await client.terminate().catch(() => undefined);
  await nen.close();
}

/** The fake transport's server side: one session made with core's serverHandshake, requests opened and answered sealed. */
async function fakeServer(core) {
  const backend = await core.loadBackend('auto');
  let keys = null;
  let serverUs = 0;
  const fetch = async (url, init) => {
    const c0 = process.cpuUsage();
    const u = String(url);
    const body = init.body instanceof Uint8Array ? init.body : new Uint8Array(await new Response(init.body).arrayBuffer());
    if (u.endsWith('/api/nen/handshake')) {
      const r = core.serverHandshake(backend, body, {
        keys: new Map(),
        sessionId: crypto.getRandomValues(new Uint8Array(16)),
        maxLifetime: 3600,
        idleTimeout: 600,
        now: Date.now(),
      });
      keys = new core.SessionKeys(backend, r.secret, 0);
      return new Response(r.response, { status: 200, headers: { 'content-type': 'application/nen-handshake' } });
    }
    const h = init.headers;
    const head = core.parseRequest(h, init.method, u, Date.now(), 60_000);
    const plain = core.openRequest(head, keys, body);
    const out = core.sealResponse({ keys, meta: head.meta, method: head.method }, 200, head.contentType, plain);
    const headers = new Headers();
    for (const [k, v] of out.headers) headers.append(k, v);
    headers.append('content-length', String(out.body.length));
    const c = process.cpuUsage(c0);
    serverUs += c.user + c.system;
    return new Response(out.body, { status: 200, headers });
  };
  return { fetch, read: () => serverUs, reset: () => (serverUs = 0) };
}

/**
 * --fake with two builds: each build in its own process (in one process the two builds' Responses
 * share undici's call sites, whose JIT state then blends their costs), alternating A, B, B, A, ...
 * for `rounds` processes per build, each measuring plain and its build (2 interleaved rounds).
 */
async function fakeAB() {
  const rounds = Number(v.rounds ?? 6);
  const per = { A: [], B: [] };
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? ['B', 'A'] : ['A', 'B']) {
      const args = [fileURLToPath(import.meta.url), '--fake', '--a', path.resolve(v[name.toLowerCase()]), '--rounds', '2'];
      for (const o of ['size', 'requests', 'timeout-ms']) if (v[o]) args.push(`--${o}`, v[o]);
      const out = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const rows = JSON.parse(out.trim().split('\n').at(-1)).rows;
      per[name].push(rows.find((x) => x.mode === 'A'));
    }
  }
  console.log(`client CPU, fake transport, each build in its own process (${rounds} each, alternating): ${v.size ?? 1024} B`);
  console.log('| build | client µs/req | added over plain (same process) |\n|---|---|---|');
  for (const name of ['A', 'B']) {
    const us = per[name].map((x) => x.clientUsPerRequest);
    const add = per[name].map((x) => x.addedUs);
    console.log(
      `| ${name} (${path.relative(repo, path.resolve(v[name.toLowerCase()]))}) | ${median(us).toFixed(1)} | ${median(add).toFixed(1)} (${Math.min(...add)}-${Math.max(...add)}) |`,
    );
  }
  return 0;
}

async function fake() {
  if (v.a && v.b) return fakeAB();
  const rounds = Number(v.rounds ?? 8);
  const n = Number(v.requests ?? 4000);
  const size = Number(v.size ?? 1024);
  const { ECHO_1K, realisticJson } = await import(pathToFileURL(path.join(repo, 'bench/lib/payloads.js')).href);
  const BODY = size === 1024 ? ECHO_1K : realisticJson(size, 7);
  const core = await import('@nen/core');
  const builds = Object.entries({ A: v.a, B: v.b }).filter(([, d]) => d);
  if (builds.length === 0) builds.push(['A', path.join(repo, 'packages/client/dist')]);
  const headers = { 'content-type': 'application/json' };
  const enc = new TextEncoder();
  const modes = {
    plain: {
      op: async () => {
        const init = { method: 'POST', headers, body: BODY };
        const b = typeof init.body === 'string' ? enc.encode(init.body) : init.body;
        const res = new Response(b, { status: 200, headers: new Headers(init.headers) });
        if (res.status !== 200 || (await res.text()) !== BODY) throw new Error('plain echo mismatch');
      },
      server: null,
    },
  };
  for (const [name, dist] of builds) {
    const { createNenClient } = await import(pathToFileURL(path.resolve(dist, 'index.js')).href);
    const server = await fakeServer(core);
    const client = createNenClient({ baseUrl: 'http://127.0.0.1', fetch: server.fetch, unpinned: true, ...timeoutOption });
    await client.handshake();
    modes[name] = {
      op: async () => {
        const res = await client.fetch('/api/echo', { method: 'POST', headers, body: BODY });
        if (res.status !== 200 || (await res.text()) !== BODY) throw new Error(`${name}: encrypted echo mismatch`);
      },
      server,
    };
  }
  const names = v.only ? v.only.split(',') : Object.keys(modes);
  const cells = names.map((m) => ({ mode: m, us: [], serverUs: [] }));
  const batch = async (m, count) => {
    for (let i = 0; i < count; i++) await modes[m].op();
  };
  for (const c of cells) await batch(c.mode, Math.max(2000, n)); // warm-up (JIT)
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < cells.length; k++) {
      const c = cells[(k + r) % cells.length];
      const srv = modes[c.mode].server;
      srv?.reset();
      const c0 = process.cpuUsage();
      await batch(c.mode, n);
      const cpu = process.cpuUsage(c0);
      const sUs = srv ? srv.read() / n : 0;
      c.serverUs.push(sUs);
      c.us.push((cpu.user + cpu.system) / n - sUs);
    }
  }
  const plain = cells.find((c) => c.mode === 'plain');
  const rows = cells.map((c) => ({
    mode: c.mode,
    clientUsPerRequest: Number(median(c.us).toFixed(1)),
    serverPartUs: Number(median(c.serverUs).toFixed(1)),
    addedUs: plain && c !== plain ? Number(median(c.us.map((x, i) => x - plain.us[i])).toFixed(1)) : null,
    spread: [Math.min(...c.us), Math.max(...c.us)].map((x) => Number(x.toFixed(1))),
  }));
  console.log(`client CPU, fake transport: ${size} B JSON echo, ${rounds} rounds × ${n} requests one after another (server part excluded)`);
  console.log('| mode | client µs/req (min-max) | added over plain | server part µs |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.mode} | ${r.clientUsPerRequest} (${r.spread[0]}-${r.spread[1]}) | ${r.addedUs ?? ''} | ${r.serverPartUs || ''} |`);
  console.log(JSON.stringify({ mode: 'fake', size, rounds, requests: n, rows }));
  return 0;
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

async function startServer(pin) {
  const port = await freePort();
  const args = [path.join(repo, 'bench/targets/hono.mjs'), '--port', String(port)];
  if (v['server-dist']) args.push('--server-dist', path.resolve(v['server-dist']));
  const child = spawn(pin ? 'taskset' : process.execPath, pin ? ['-c', '0', process.execPath, ...args] : args, {
    env: { ...process.env, NEN_HANDSHAKE_RATE: '100000000', NEN_HANDSHAKES_PER_SECOND: '0', NEN_LOG: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`client-roundtrip: server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/api/bench/metrics`)).ok) return { child, base };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  child.kill('SIGTERM');
  throw new Error('client-roundtrip: server not ready');
}

async function overNetwork() {
  const rounds = Number(v.rounds ?? 6);
  const sliceMs = Number(v.slice ?? 2) * 1000;
  const concurrency = Number(v.concurrency ?? 10);
  const size = Number(v.size ?? 1024);
  const pin = !v['no-pin'];
  const transport = v.transport ?? 'bench';
  if (!['bench', 'fetch'].includes(transport)) throw new Error('client-roundtrip: --transport takes bench or fetch');
  const { runSlice, createAccumulator } = await import(pathToFileURL(path.join(repo, 'bench/lib/driver.js')).href);
  const { ECHO_1K, realisticJson } = await import(pathToFileURL(path.join(repo, 'bench/lib/payloads.js')).href);
  const { createAgent, createFetch } = await import(pathToFileURL(path.join(repo, 'bench/lib/transport.js')).href);
  const BODY = size === 1024 ? ECHO_1K : realisticJson(size, 7);
  const builds = Object.entries({ A: v.a, B: v.b }).filter(([, d]) => d);
  if (builds.length === 0) builds.push(['A', path.join(repo, 'packages/client/dist')]);
  if (pin) execFileSync('taskset', ['-a', '-c', '-p', '1', String(process.pid)], { stdio: 'ignore' });
  const { child, base } = await startServer(pin);
  const agent = transport === 'bench' ? createAgent({ connections: concurrency + 4 }) : null;
  try {
    const send = agent ? createFetch({ agent, targets: [base] }) : globalThis.fetch;
    const headers = { 'content-type': 'application/json' };
    const modes = {
      plain: async () => {
        const res = await send(`${base}/api/plain/echo`, { method: 'POST', headers, body: BODY });
        if (res.status !== 200 || (await res.text()) !== BODY) throw new Error('plain echo mismatch');
      },
    };
    for (const [name, dist] of builds) {
      const { createNenClient } = await import(pathToFileURL(path.resolve(dist, 'index.js')).href);
      const client = createNenClient({ baseUrl: base, fetch: send, unpinned: true, ...timeoutOption });
      await client.handshake();
      modes[name] = async () => {
        const res = await client.fetch('/api/echo', { method: 'POST', headers, body: BODY });
        if (res.status !== 200 || (await res.text()) !== BODY) throw new Error(`${name}: encrypted echo mismatch`);
      };
    }
    const only = v.only ? v.only.split(',') : Object.keys(modes);
    const cells = only.map((m) => {
      if (!modes[m]) throw new Error(`client-roundtrip: no mode ${m}`);
      return { mode: m, rps: [], us: [], errors: 0, requests: 3000 };
    });
    for (const c of cells) await runSlice({ op: modes[c.mode], concurrency, requests: 3000 }); // warm-up (JIT)
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < cells.length; k++) {
        const c = cells[(k + r) % cells.length];
        const acc = createAccumulator();
        await runSlice({ op: modes[c.mode], concurrency, durationMs: sliceMs, acc });
        const n = acc.completed + acc.errors;
        c.errors += acc.errors;
        c.requests += n;
        if (acc.errors && !c.sample) c.sample = acc.errorSamples[0];
        c.rps.push(acc.completed / (acc.busyMs / 1000));
        c.us.push((acc.cpuUserUs + acc.cpuSystemUs) / n);
      }
    }
    const plain = cells.find((c) => c.mode === 'plain');
    const rows = cells.map((c) => ({
      mode: c.mode,
      dist: builds.find(([n]) => n === c.mode)?.[1] ?? null,
      rps: Math.round(median(c.rps)),
      clientUsPerRequest: Number(median(c.us).toFixed(1)),
      addedUs: plain && c !== plain ? Number(median(c.us.map((x, i) => x - plain.us[i])).toFixed(1)) : null,
      errors: c.errors,
      requests: c.requests, // warm-up included: what a --cpu-prof of this run divides by
    }));
    console.log(
      `client CPU: ${size} B JSON echo (Hono target), ${transport} transport, c=${concurrency}, ${rounds} rounds × ${sliceMs / 1000} s slices, ${pin ? 'server on core 0, client core 1' : 'shared cores'}`,
    );
    console.log('| mode | req/s | client µs/req | added over plain |\n|---|---|---|---|');
    for (const r of rows)
      console.log(`| ${r.mode}${r.dist ? ` (${path.relative(repo, r.dist)})` : ''} | ${r.rps} | ${r.clientUsPerRequest} | ${r.addedUs ?? ''} |`);
    console.log(JSON.stringify({ size, transport, concurrency, rounds, sliceMs, pin, rows }));
    for (const c of cells) if (c.sample) console.error(`client-roundtrip: ${c.mode}: ${c.errors} errors, e.g. ${c.sample}`);
    return rows.some((r) => r.errors > 0) ? 1 : 0;
  } finally {
    child.kill('SIGTERM');
    await agent?.close();
  }
}

const run = v['in-process'] ? () => inProcess(Number(v.requests ?? 10_000)) : v.fake ? fake : overNetwork;
run().then(
  (code) => (process.exitCode = code ?? 0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exitCode = 1;
  },
);
