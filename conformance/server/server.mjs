#!/usr/bin/env node
/**
 * The scripted fault server: real HTTP on 127.0.0.1, real @nen/server (one `createNen` per
 * scenario, memory store), every answer passed through the scenario's fault (faults.mjs).
 *
 *   /scenario/<name>/api/nen/<action>   session routes (handshake, rotate, terminate, status, keys)
 *   /scenario/<name>/api/echo           any method: {"method","query","body"} (DELETE/OPTIONS 204)
 *   /scenario/<name>/api/stream?n=3     POST: a response stream of n records "data: i\n\n"
 *   GET  /control/runs?scenario=<name>  {"runs", "bodyBytesSent", "requests"}: handler runs, oversized bytes
 *                                       pulled and /api/echo requests received since the reset
 *   POST /control/reset?scenario=<name> fresh Nen instance, store and counters for the scenario
 *   POST /control/rotate-keys?scenario=<name>  the scenario's keys become [k2] (same store)
 *
 * `node conformance/server/server.mjs [--port 0]` prints `listening <url>` and runs until stdin
 * closes or SIGTERM; `startFaultServer()` does the same in-process.
 * Pitfalls: loopback only; held-open (stalled) answers are destroyed after 10 s and on close, so
 * nothing outlives the server; unknown scenarios are 404 (plain), never a crash.
 */
import { createServer } from 'node:http';
import { createNen, memoryStore } from '@nen/server';
import { sendWebResponse, toWebRequest } from '@nen/server/node';
import { STALL_HEAD, applyFault, applySessionFault, requestFault } from './faults.mjs';
import { serverKeys } from './keys.mjs';
import { SCENARIOS } from './scenarios.mjs';

const STALL_MS = 10_000;
const byName = new Map(SCENARIOS.map((s) => [s.name, s]));

function makeInstance(scenario, kids, store, shared) {
  const st = store ?? memoryStore();
  const nen = createNen({ serverKeys: serverKeys(...kids), store: st, handshakeRateLimit: 0, logger: () => {}, ...(scenario.server ?? {}) });
  const state = shared ?? { runs: 0, answers: 0, stash: null, bodyBytesSent: 0, requests: 0 };
  const echo = nen.withNen(async (req) => {
    state.runs += 1;
    const url = new URL(req.url);
    if (req.method === 'DELETE' || req.method === 'OPTIONS') return new Response(null, { status: 204 });
    const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await req.text();
    return new Response(JSON.stringify({ method: req.method, query: url.search, body }), { headers: { 'content-type': 'application/json' } });
  });
  const stream = nen.withNenStream(async function* (req) {
    state.runs += 1;
    const n = Math.min(100, Number(new URL(req.url).searchParams.get('n') ?? 3) || 3);
    for (let i = 0; i < n; i++) yield `data: ${i}\n\n`;
  });
  return { nen, store: st, state, echo, stream };
}

const json = (status, o) => new Response(JSON.stringify(o), { status, headers: { 'content-type': 'application/json' } });

/** Starts the fault server; resolves to { url, close() }. */
export async function startFaultServer({ port = 0 } = {}) {
  const instances = new Map();
  const instance = (name) => {
    if (!instances.has(name)) instances.set(name, makeInstance(byName.get(name), ['k1', 'm1']));
    return instances.get(name);
  };
  const held = new Set();
  const release = async (name) => {
    const old = instances.get(name);
    instances.delete(name);
    if (old) await old.nen.close();
  };

  async function control(action, name, method) {
    if (!byName.has(name)) return json(404, { error: 'unknown scenario' });
    if (action === 'runs' && method === 'GET') {
      const { runs, bodyBytesSent, requests } = instance(name).state;
      return json(200, { runs, bodyBytesSent, requests });
    }
    if (action === 'reset' && method === 'POST') {
      await release(name);
      instance(name);
      return json(200, { ok: true });
    }
    if (action === 'rotate-keys' && method === 'POST') {
      const old = instance(name);
      instances.set(name, makeInstance(byName.get(name), ['k2'], old.store, old.state));
      await old.nen.close();
      return json(200, { ok: true });
    }
    return json(404, { error: 'unknown control action' });
  }

  async function route(req, res) {
    const request = toWebRequest(req, res);
    const url = new URL(request.url);
    const c = /^\/control\/([a-z-]+)$/.exec(url.pathname);
    if (c) return control(c[1], url.searchParams.get('scenario') ?? '', req.method);
    const m = /^\/scenario\/([a-z0-9-]+)(\/.*)$/.exec(url.pathname);
    if (!m || !byName.has(m[1])) return json(404, { error: 'unknown scenario' });
    const sc = byName.get(m[1]);
    const inst = instance(m[1]);
    const rest = m[2];
    const action = /^\/api\/nen\/([^/]+)$/.exec(rest);
    if (action) {
      const handler = req.method === 'GET' ? inst.nen.routes.GET : inst.nen.routes.POST;
      if (!handler) return json(405, { error: 'method' });
      return applySessionFault(sc.fault, action[1], await handler(request, { params: Promise.resolve({ action: action[1] }) }));
    }
    if (rest === '/api/echo') return applyFault(sc.fault, await inst.echo(await requestFault(sc.fault, request, inst.state), {}), inst.state);
    if (rest === '/api/stream') return applyFault(sc.fault, await inst.stream(request, {}), inst.state);
    return json(404, { error: 'unknown route' });
  }

  const server = createServer((req, res) => {
    route(req, res)
      .then((answer) => {
        if (answer === STALL_HEAD) {
          held.add(res);
          const t = setTimeout(() => res.destroy(), STALL_MS);
          res.on('close', () => {
            clearTimeout(t);
            held.delete(res);
          });
          return;
        }
        const t = setTimeout(() => res.destroy(), STALL_MS);
        res.on('close', () => clearTimeout(t));
        return sendWebResponse(res, answer, req);
      })
      .catch((e) => {
        console.error('fault server:', e);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('fault server error');
        else res.destroy();
      });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    async close() {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      for (const name of [...instances.keys()]) await release(name);
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--port');
  const s = await startFaultServer({ port: i > 0 ? Number(process.argv[i + 1]) : 0 });
  console.log(`listening ${s.url}`);
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop).resume();
}
