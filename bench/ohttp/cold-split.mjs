/**
 * Where the stage's cold OHTTP request spends its time over the cold plain one (issue 23), with
 * timestamps on every side of the same fresh-connection path as bench/stages/ohttp.js: a fresh
 * undici Agent (and, for OHTTP, a fresh client) per sample through a delaying TCP proxy adding
 * RTT_MS per round trip, modes interleaved. One clock for all: process.hrtime (CLOCK_MONOTONIC,
 * shared by the processes of one machine).
 *   client marks  t0 (before the client is made), the outer fetch called, undici's connect
 *                 (diagnostics channels beforeConnect / connected / sendHeaders), the first
 *                 socket write, its Response resolved, the body read (end); and the steps of a
 *                 copied dist in which `globalThis.__m?.('name')` calls were inserted (as
 *                 ../browser/cold-marks.js does), printed as medians per step with this
 *                 script's own 'fetch', 'fetch resolved' and 'body read' between them;
 *   proxy log     every chunk it reads from either side (time, bytes) and when it writes it on;
 *   server marks  the stage's server (./server.mjs) with a preload (this file, role `server`):
 *                 the connection accepted, the 'request' event, each write of the socket
 *                 (time, bytes, buffers), the response's 'finish'.
 * Printed per mode (medians over N samples of each row on its own, so rows do not add up): the
 * client before its fetch, connect and first write, the proxy's read of it, the server's time
 * and writes, the client after the last response byte, and the total.
 *
 * The delaying proxy is ./delay-proxy.mjs in a worker thread, as the stage runs it;
 * `PROXY=inline` runs it on this thread (the stage's layout before the tenth pass), PROXY_CPUS
 * its CPUs (default all, as the stage; `0`, the server's core, keeps it off the client's core:
 * bench/README.md OHTTP eleventh pass). `ROOTS=a,b`: one OHTTP mode per built tree (laid out as
 * ./request-ab.mjs takes them) instead of this checkout's client; `SERVER_ROOT=tree`: that tree's
 * bench/ohttp/server.mjs (its bench/node_modules/@nen linked to its packages), whose dist's
 * `globalThis.__m?.()` marks are printed per step from the 'request' event.
 * Run: `node bench/ohttp/cold-split.mjs` (env N samples per mode, default 15; RTT_MS 20;
 * MODES plain,ohttp, also `floor` / `floor-x25519`: OHTTP's cryptography alone,
 * ./floor-client.mjs; JSON=file writes every sample's rows, with each sample's absolute marks
 * under `abs` to line up with `perf record -k CLOCK_MONOTONIC -e sched:sched_switch -a`; WARM
 * requests per mode warming the server first from a process of its own, as the stage does,
 * default 2,000, 0 none). The server is started under `taskset -c 0` (every thread of it, as the
 * stage starts it). Loopback only, fixed counts, the server and proxy stopped at the end.
 * Pitfalls: the server is pinned to core 0 and this process to core 1 when `taskset` exists,
 * as in the stage; report the load (printed). Each row's median is taken on its own, so they add
 * up to less than the total's median: most samples have one row well above its median (a
 * preempted burst on a shared machine), a different row each time.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startDelayProxy, startInlineDelayProxy } from './delay-proxy.mjs';
import { floorFetch } from './floor-client.mjs';

const ROLE = process.env.COLD_SPLIT_ROLE;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const here = path.dirname(fileURLToPath(import.meta.url));

/** Role `server` (preloaded into ./server.mjs with --import): marks per request, served at GET /marks. */
async function serverHooks() {
  const http = await import('node:http');
  const done = [];
  let current = null;
  globalThis.__m = (name) => current && (current.steps ??= []).push([name, nowMs()]);
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (ev, ...a) {
    if (ev === 'connection') {
      const s = a[0];
      s.__marks = { accepted: nowMs(), writes: [] };
      const gen = s._writeGeneric;
      s._writeGeneric = function (writev, data, enc, cb) {
        const bytes = writev ? data.reduce((n, c) => n + (c.chunk ?? c).length, 0) : data.length;
        s.__marks.writes.push([nowMs(), bytes, writev ? data.length : 1]);
        return gen.call(this, writev, data, enc, cb);
      };
    }
    if (ev === 'request') {
      const [req, res] = a;
      if (req.url === '/marks') {
        const body = JSON.stringify(done.splice(0));
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        return true;
      }
      const m = req.socket.__marks;
      if (m) {
        // per request: a keep-alive socket (the WARM requests) must not pile every request's marks on one object
        m.url = req.url;
        m.request = nowMs();
        m.steps = undefined;
        if (m.finish !== undefined) m.writes = [];
        current = m;
        res.once('finish', () => {
          m.finish = nowMs();
          if (done.length < 1000) done.push({ ...m });
        });
      }
    }
    return emit.call(this, ev, ...a);
  };
}

let hasTaskset = false;
function taskset(core, pid) {
  try {
    execFileSync('taskset', ['-pc', String(core), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Spawns `args` with node (pinned to `core` when possible) and resolves its first stdout JSON line. */
async function child(args, env, core) {
  // `taskset -c` around the exec, as the stage starts its server: every thread of it pinned, not only the main one
  const [cmd, argv] = core !== null && hasTaskset ? ['taskset', ['-c', String(core), process.execPath, ...args]] : [process.execPath, args];
  const c = spawn(cmd, argv, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const lines = [];
  let buf = '';
  let wake = () => {};
  c.stdout.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
      wake();
    }
  });
  const next = () =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('child did not answer in 20 s')), 20_000);
      const take = () => {
        if (lines.length === 0) return void (wake = take);
        clearTimeout(t);
        resolve(lines.shift());
      };
      take();
    });
  return { proc: c, first: await next(), next };
}

const med = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : Number.NaN;
};

/** One sample's split (ms) from the client marks, its proxy connection and the server's marks. */
function splitOf(c, conn, srv) {
  const req = conn.chunks.filter((x) => x[0] === 'req');
  const res = conn.chunks.filter((x) => x[0] === 'res');
  const reqFirst = req[0][1];
  const reqLast = req.at(-1)[1];
  const resFirst = res[0][1];
  const resLast = res.at(-1)[1];
  return {
    'client before fetch': c.fetchAt - c.t0,
    'client: fetch -> beforeConnect': c.beforeConnect - c.fetchAt,
    'client: beforeConnect -> connected': c.connected - c.beforeConnect,
    'client: connected -> sendHeaders': c.sendHeaders - c.connected,
    'client: fetch -> 1st socket write': c.firstWrite - c.fetchAt,
    'client socket writes': c.writes,
    'fetch -> 1st req byte at proxy': reqFirst - c.fetchAt,
    'client 1st write -> proxy read': reqFirst - c.firstWrite,
    'req chunks': req.length,
    'req bytes': req.reduce((n, x) => n + x[2], 0),
    'req spread': reqLast - reqFirst,
    'proxy: req delay (timer lateness over one way)': req.at(-1)[3] - reqLast,
    'server: last req byte out -> request event': srv ? srv.request - req.at(-1)[3] : Number.NaN,
    'server: request -> finish': srv ? srv.finish - srv.request : Number.NaN,
    'server writes': srv ? srv.writes.length : Number.NaN,
    'server: request -> last write': srv ? srv.writes.at(-1)[0] - srv.request : Number.NaN,
    'server: last write -> 1st res byte at proxy': srv ? resFirst - srv.writes.at(-1)[0] : Number.NaN,
    'server: last req byte out -> 1st res byte at proxy': resFirst - req.at(-1)[3],
    'res chunks': res.length,
    'res bytes': res.reduce((n, x) => n + x[2], 0),
    'res spread': resLast - resFirst,
    'proxy: res delay (timer lateness over one way)': res.at(-1)[3] - resLast,
    'client: last res byte out -> headers': c.headersAt - res.at(-1)[3],
    'client: last res byte out -> end': c.end - res.at(-1)[3],
    total: c.end - c.t0,
    // absolute marks (process.hrtime ms = CLOCK_MONOTONIC) for JSON=, to line up with a `perf record -k CLOCK_MONOTONIC` trace
    abs: {
      t0: c.t0,
      fetch: c.fetchAt,
      firstWrite: c.firstWrite,
      reqAtProxy: reqFirst,
      reqToServer: req.at(-1)[3],
      request: srv?.request,
      lastWrite: srv?.writes.at(-1)[0],
      resAtProxy: resFirst,
      resToClient: res.at(-1)[3],
      end: c.end,
    },
    ...(c.steps ? { steps: c.steps.map(([n, t], i) => [n, t - (i ? c.steps[i - 1][1] : c.t0)]) } : {}),
    ...(srv?.steps ? { serverSteps: srv.steps.map(([n, t], i) => [n, t - (i ? srv.steps[i - 1][1] : srv.request)]) } : {}),
  };
}

/** The per-step medians (marks) and the table of rows, one column per mode. */
function printRows(rows, MODES) {
  for (const m of MODES) {
    for (const [key, from] of [
      ['steps', 't0'],
      ['serverSteps', "the server's 'request' event"],
    ]) {
      const steps = rows[m][0][key];
      const at = (j) => med(rows[m].map((r) => r[key]?.[j]?.[1])).toFixed(3);
      if (steps) console.log(`${m} ${key} (medians, ms since the step before, the first since ${from}): ${steps.map(([n], j) => `${n} ${at(j)}`).join(', ')}`);
    }
  }
  const keys = Object.keys(rows[MODES[0]][0]).filter((k) => k !== 'steps' && k !== 'serverSteps' && k !== 'abs');
  const w = (m) => Math.max(9, m.length + 2); // a column wide enough for its mode's name
  console.log(`${'ms (medians)'.padEnd(52)}${MODES.map((m) => m.padStart(w(m))).join('')}`);
  for (const k of keys)
    console.log(
      `${k.padEnd(52)}${MODES.map((m) =>
        med(rows[m].map((r) => r[k]))
          .toFixed(2)
          .padStart(w(m)),
      ).join('')}`,
    );
}

/** One request of `mode` through `f` (plain, the floors, or an OHTTP client from `make`); the echoed text. */
async function echoOf(mode, f, { via, base, first, make, post }) {
  if (mode === 'plain') return (await f(`${via}/plain/echo`, post)).text();
  if (mode === 'floor') return floorFetch(f, `${via}/floor/ohttp`, first.keyConfig, post.body);
  if (mode === 'floor-x25519') return floorFetch(f, `${via}/floor/ohttp-x25519`, first.floorX25519KeyConfig, post.body);
  const client = make[mode]({ mode: 'ohttp', relay: `${via}/.well-known/ohttp-gateway`, keyConfig: first.keyConfig, baseUrl: base, fetch: f });
  return (await client.fetch('/api/echo', post)).text();
}

async function main() {
  const N = Number(process.env.N ?? 15);
  const RTT_MS = Number(process.env.RTT_MS ?? 20);
  // ROOTS: built trees laid out like the repository (as ./request-ab.mjs takes), one OHTTP mode each
  const roots = (process.env.ROOTS ?? '')
    .split(',')
    .filter(Boolean)
    .map((r) => path.resolve(r));
  const clients = { ohttp: () => import('@nen/client') };
  for (const r of roots) clients[`ohttp:${path.basename(r)}`] = () => import(pathToFileURL(path.join(r, 'packages/client/dist/index.js')).href);
  const MODES = roots.length ? ['plain', ...Object.keys(clients).slice(1)] : (process.env.MODES ?? 'plain,ohttp').split(',');
  const make = {};
  for (const m of MODES) if (m !== 'plain' && !m.startsWith('floor')) make[m] = (await clients[m]()).createNenClient;
  const inline = process.env.PROXY === 'inline';
  const pinned = os.availableParallelism() > 1 && taskset(1, process.pid);
  hasTaskset = pinned;
  const me = fileURLToPath(import.meta.url);
  // SERVER_ROOT: a built tree with its own bench/ohttp/server.mjs (e.g. a copy with marks in its dist)
  const serverJs = process.env.SERVER_ROOT ? path.join(path.resolve(process.env.SERVER_ROOT), 'bench/ohttp/server.mjs') : path.join(here, 'server.mjs');
  const srv = await child(['--import', me, serverJs], { COLD_SPLIT_ROLE: 'server' }, pinned ? 0 : null);
  const base = `http://127.0.0.1:${srv.first.port}`;
  // WARM requests per mode from a process of its own first, as the stage does (./warm-server.mjs; 0: none)
  const warm = Number(process.env.WARM ?? 2000);
  if (warm > 0) {
    const w = spawn(
      process.execPath,
      [
        path.join(here, 'warm-server.mjs'),
        JSON.stringify({ direct: base, pin: srv.first.pin, keyConfig: srv.first.keyConfig, floorX25519KeyConfig: srv.first.floorX25519KeyConfig, n: warm }),
      ],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const [code] = await once(w, 'exit');
    if (code !== 0) throw new Error(`warming the server failed (exit ${code})`);
  }
  const cpus = process.env.PROXY_CPUS ?? `0-${os.cpus().length - 1}`;
  const proxy = await (inline ? startInlineDelayProxy : startDelayProxy)(srv.first.port, RTT_MS / 2, { log: true, cpus });
  const via = proxy.url;
  const readLog = proxy.readLog;
  const { Agent } = await import('undici');
  const BODY = JSON.stringify({ data: 'x'.repeat(1000) });
  const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY };
  let cur = {};
  const dc = await import('node:diagnostics_channel');
  dc.subscribe('undici:client:beforeConnect', () => void (cur.beforeConnect ??= nowMs()));
  dc.subscribe('undici:client:connected', () => void (cur.connected ??= nowMs()));
  dc.subscribe('undici:client:sendHeaders', () => void (cur.sendHeaders ??= nowMs()));
  const gen = net.Socket.prototype._writeGeneric;
  net.Socket.prototype._writeGeneric = function (writev, data, enc, cb) {
    if (cur.fetchAt !== undefined) cur.writes = (cur.writes ?? 0) + 1;
    if (cur.fetchAt !== undefined && cur.firstWrite === undefined) {
      cur.firstWrite = nowMs();
      globalThis.__m('1st socket write');
    }
    return gen.call(this, writev, data, enc, cb);
  };
  // marks a copied dist may call (`globalThis.__m?.('step')`, as ../browser/cold-marks.js inserts them)
  globalThis.__m = (name) => (cur.steps ??= []).push([name, nowMs()]);
  const send = async (mode, marks) => {
    cur = marks;
    const a = new Agent();
    const f = (u, init = {}) => {
      marks.fetchAt = nowMs();
      globalThis.__m('fetch');
      return fetch(u, { ...init, dispatcher: a, signal: init.signal ?? AbortSignal.timeout(10_000) }).then((r) => {
        marks.headersAt = nowMs();
        globalThis.__m('fetch resolved');
        return r;
      });
    };
    marks.t0 = nowMs();
    const text = await echoOf(mode, f, { via, base, first: srv.first, make, post });
    marks.end = nowMs();
    globalThis.__m('body read');
    await a.close();
    if (text !== BODY) throw new Error(`${mode}: echo mismatch`);
  };
  try {
    for (const mode of MODES) await send(mode, {}); // warm-up, not counted
    await readLog();
    await fetch(`${base}/marks`).then((r) => r.json());
    const rows = Object.fromEntries(MODES.map((m) => [m, []]));
    for (let i = 0; i < N; i++) {
      for (const mode of MODES) {
        const marks = {};
        await send(mode, marks);
        await new Promise((r) => setTimeout(r, 20));
        const [conn] = await readLog();
        const server = (await fetch(`${base}/marks`).then((r) => r.json())).find((m) => m.url !== '/marks');
        rows[mode].push(splitOf(marks, conn, server));
      }
    }
    console.log(
      `cold split, proxy ${inline ? 'in this thread' : `in a worker thread on CPUs ${cpus}`}, RTT ${RTT_MS} ms, N=${N}, ${process.version}, pinned ${pinned}, load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    printRows(rows, MODES);
    if (process.env.JSON) fs.writeFileSync(process.env.JSON, `${JSON.stringify(rows)}\n`); // every sample's rows
  } finally {
    await proxy.close();
    srv.proc.stdin.end();
    srv.proc.kill('SIGTERM');
  }
}

if (ROLE === 'server') await serverHooks();
else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
