#!/usr/bin/env node
/**
 * A/B of the server's per-request and per-handshake cost, in ONE process: this package's build
 * (dist/) against a baseline build of @nen/server (with its own @nen/core), batches interleaved in
 * alternating order so drift and JIT warm-up hit both sides alike.
 *
 * Measured, in-process on real Request objects with the memory store and the 'auto' backend:
 *  - withNen around a JSON echo handler, 1 KB and 100 KB, vs the same handler unwrapped;
 *  - the handshake route (pinned X-Wing): Request → ServerHello Response.
 *
 * Usage: node bench/ab.mjs --baseline <dir of a built @nen/server> [--quick] [--rounds 21]
 *   [--only withNen|handshake] [--sizes 1024,102400] [--handler demo] [--json out.json]
 * (--handler demo: the handler reads request.headers.get('content-type') and returns the parsed
 * body as a value, as the demo's echo route does; default: `Response.json(body)`.)
 * --next: as under `next start`: each request carries its Content-Length (Next's Request has the
 * incoming headers) and the withNen batches run inside an AsyncLocalStorage.run context (Next
 * enables it, so every promise also runs the async_hooks promise hooks).
 * Each figure is given by wall time and by this process's CPU time (process.cpuUsage).
 * (build a baseline: `git archive <rev> packages/core packages/server | tar -x -C /tmp/base`, run
 * tsc -p tsconfig.build.json in both, link base/packages/server/node_modules/@nen/core to base's core).
 * Figures are medians of batches; compare within one run only.
 * Pitfall: whichever build shares code with the load generator is skewed, so each side seals its
 * requests with its own @nen/core (see `cores`). Before that, the handshake line favoured 'current'
 * (A/A: 502 vs 397 µs) and the 1 KB line disfavoured it (A/A: 10-40 µs). For a small difference,
 * still run it with the roles swapped too (copy this file next to the baseline, pass this package
 * as --baseline) and take the median of the signed differences.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const quick = process.argv.includes('--quick');
const rounds = Number(arg('--rounds') ?? 21);
const only = arg('--only'); // 'withNen' or 'handshake'
const demoHandler = arg('--handler') === 'demo';
const asNext = process.argv.includes('--next');
const cl = (body) => (asNext ? { 'content-length': String(body.length) } : {});
const sizes = (arg('--sizes') ?? '1024,102400').split(',').map(Number);
const baseDir = arg('--baseline');
if (!baseDir) throw new Error('usage: node bench/ab.mjs --baseline <dir of a built @nen/server>');
const load = (dir, file) => import(pathToFileURL(join(dir, file)).href);
const sides = {
  baseline: await load(resolve(baseDir), 'dist/index.js'),
  current: await load(resolve(import.meta.dirname, '..'), 'dist/index.js'),
};
// Each side's requests are sealed (and handshakes started) with that side's own @nen/core, never
// one shared copy: code the load generator shares with only one side skews the comparison (an A/A
// run of two copies of one build differed by 10-40 µs per 1 KB request when 'current' shared it).
const cores = {
  baseline: await load(resolve(baseDir), 'node_modules/@nen/core/dist/index.js'),
  current: await load(resolve(import.meta.dirname, '..'), 'node_modules/@nen/core/dist/index.js'),
};
const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const SEED = `k1:${cores.current.toBase64Url(new Uint8Array(32).fill(5))}`;

/**
 * Median µs per call for each named case, by wall time and by this process's CPU time
 * (process.cpuUsage, user + system: less sensitive to other processes on a shared machine);
 * batches interleaved in alternating order.
 */
async function interleaved(cases, { batches = quick ? 7 : rounds, perBatch }) {
  const names = Object.keys(cases);
  const per = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) {
    await cases[n].setup(perBatch);
    for (let i = 0; i < perBatch; i++) await cases[n].run(i); // warm-up
  }
  for (let b = 0; b < batches; b++) {
    for (const n of b % 2 ? [...names].reverse() : names) {
      await cases[n].setup(perBatch);
      const c0 = process.cpuUsage();
      const t0 = now();
      for (let i = 0; i < perBatch; i++) await cases[n].run(i);
      per[n].push(((now() - t0) * 1000) / perBatch);
      const c = process.cpuUsage(c0);
      cpu[n].push((c.user + c.system) / perBatch);
    }
  }
  const out = Object.fromEntries(names.map((n) => [n, median(per[n])]));
  out.cpu = Object.fromEntries(names.map((n) => [n, median(cpu[n])]));
  return out;
}

const results = { env: { node: process.version, cpu: os.cpus()[0]?.model, cores: os.cpus().length, date: new Date().toISOString() } };

// ---------------------------------------------------------------- withNen
const instances = {};
for (const [side, mod] of Object.entries(sides)) {
  const { SessionKeys, clientHandshakeStart, formatRequestHeader, loadBackend, parseServerKeyPin, requestAad, sealMessage } = cores[side];
  const backend = await loadBackend('auto');
  const nen = mod.createNen({
    backend: 'auto',
    store: mod.memoryStore({ shared: false }),
    serverKeys: SEED,
    logger: () => {},
    handshakeRateLimit: 0,
    handshakesPerSecond: 0,
  });
  const pin = (await nen.publicKeys())[0].pin;
  const c = clientHandshakeStart(backend, { pin: parseServerKeyPin(pin) });
  const hs = await nen.routes.POST(
    new Request('http://127.0.0.1/api/nen/handshake', { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: c.hello }),
  );
  const r = c.finish(new Uint8Array(await hs.arrayBuffer()));
  instances[side] = {
    nen,
    pin,
    r,
    keys: new SessionKeys(backend, r.secret, 0),
    client: { backend, clientHandshakeStart, formatRequestHeader, parseServerKeyPin, requestAad, sealMessage },
    seq: 1n,
    // --handler demo: the demo's echo (apps/demo/lib/echo.ts echoNen): reads the content type, returns the body as a value
    wrapped: nen.withNen(
      demoHandler
        ? async (req, _ctx, body) => (req.headers.get('content-type') === 'application/json' ? body : null)
        : async (_req, _ctx, body) => Response.json(body),
    ),
  };
}
const plainHandler = async (req) => {
  if (demoHandler && !req.headers.get('content-type')?.startsWith('application/json')) return new Response(null, { status: 415 });
  return Response.json(JSON.parse(new TextDecoder().decode(new Uint8Array(await req.arrayBuffer()))));
};
for (const size of only === 'handshake' ? [] : sizes) {
  const json = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(size - 12) }));
  const cases = {};
  let plainReqs = [];
  cases.plain = {
    setup: (n) => {
      plainReqs = Array.from(
        { length: n },
        () => new Request('http://127.0.0.1/api/echo', { method: 'POST', headers: { 'content-type': 'application/json', ...cl(json) }, body: json }),
      );
    },
    run: async (i) => {
      await (await plainHandler(plainReqs[i])).arrayBuffer();
    },
  };
  for (const [side, x] of Object.entries(instances)) {
    let reqs = [];
    cases[side] = {
      setup: (n) => {
        const { formatRequestHeader, requestAad, sealMessage } = x.client;
        reqs = Array.from({ length: n }, () => {
          const meta = { sessionId: x.r.sessionId, epoch: 0, seq: x.seq++, timestamp: Date.now(), flags: 0 };
          const sealed = sealMessage(x.keys.c2s, x.keys.c2sIv, meta.seq, requestAad(meta, 'POST', '/api/echo', 'application/json'), json);
          return new Request('http://127.0.0.1/api/echo', {
            method: 'POST',
            headers: { nen: formatRequestHeader(meta), 'nen-type': 'application/json', 'content-type': 'application/nen', ...cl(sealed) },
            body: sealed,
          });
        });
      },
      run: async (i) => {
        const res = await x.wrapped(reqs[i], {});
        if (res.status !== 200) throw new Error(`${side}: status ${res.status} ${res.headers.get('nen-error')}`);
        await res.arrayBuffer();
      },
    };
  }
  const perBatch = size > 10_000 ? 64 : 256;
  const us = asNext ? await new AsyncLocalStorage().run({}, () => interleaved(cases, { perBatch })) : await interleaved(cases, { perBatch });
  results[`withNen/${size}`] = {
    plainUs: us.plain,
    baselineUs: us.baseline,
    currentUs: us.current,
    baselineAddedUs: us.baseline - us.plain,
    currentAddedUs: us.current - us.plain,
    cpu: us.cpu,
  };
  console.log(
    `withNen ${String(size).padStart(6)} B wall: plain ${fmt(us.plain)} µs | baseline ${fmt(us.baseline)} µs (+${fmt(us.baseline - us.plain)}) | current ${fmt(us.current)} µs (+${fmt(us.current - us.plain)})`,
  );
  const c = us.cpu;
  console.log(
    `withNen ${String(size).padStart(6)} B CPU:  plain ${fmt(c.plain)} µs | baseline ${fmt(c.baseline)} µs (+${fmt(c.baseline - c.plain)}) | current ${fmt(c.current)} µs (+${fmt(c.current - c.plain)})`,
  );
}

// ---------------------------------------------------------------- handshake route
if (only !== 'withNen') {
  // each side's hellos from its own core (see `cores`); both sides hold the same static key (SEED)
  const hellos = Object.fromEntries(
    Object.entries(instances).map(([side, { client: c, pin }]) => [
      side,
      Array.from({ length: 400 }, () => c.clientHandshakeStart(c.backend, { pin: c.parseServerKeyPin(pin) }).hello),
    ]),
  );
  const cases = {};
  for (const [side, x] of Object.entries(instances)) {
    let reqs = [];
    let k = 0;
    cases[side] = {
      setup: (n) => {
        reqs = Array.from(
          { length: n },
          () =>
            new Request('http://127.0.0.1/api/nen/handshake', {
              method: 'POST',
              headers: { 'content-type': 'application/nen-handshake' },
              body: hellos[side][k++ % hellos[side].length],
            }),
        );
      },
      run: async (i) => {
        const res = await x.nen.routes.POST(reqs[i]);
        if (res.status !== 200) throw new Error(`${side}: handshake ${res.status}`);
        await res.arrayBuffer();
      },
    };
  }
  const us = await interleaved(cases, { perBatch: 40, batches: quick ? 5 : 11 });
  results['handshake/xwing/pinned'] = { baselineUs: us.baseline, currentUs: us.current, cpu: us.cpu };
  console.log(
    `handshake route (X-Wing, pinned): baseline ${fmt(us.baseline)} µs | current ${fmt(us.current)} µs (CPU ${fmt(us.cpu.baseline)} | ${fmt(us.cpu.current)} µs)`,
  );
}

for (const x of Object.values(instances)) {
  x.keys.dispose();
  await x.nen.close();
}
const out = arg('--json');
if (out) writeFileSync(out, JSON.stringify(results, null, 2));
console.log(`\n${results.env.cpu}, ${results.env.cores} cores, Node ${results.env.node}. Medians of interleaved batches.`);
