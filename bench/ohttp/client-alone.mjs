/**
 * The OHTTP client alone, in process (issue 23): `createNenClient({ mode: 'ohttp' })` of ROOT with
 * a `fetch` that hands the outer request straight to ROOT's gateway (`nen.ohttpGateway().fetch`,
 * a `withNen` handler returning the parsed body, as the demo's echo does) and times it, so the
 * client's own time per request is the whole `client.fetch` + `text()` minus the gateway's part
 * (everything runs on this thread, no I/O). Per-request medians after a warm-up; `ROUNDS` blocks,
 * each block's median printed, so spikes of a shared machine show as outliers.
 *
 * Run: `node bench/ohttp/client-alone.mjs ROOT` (ROOT as in ./request-ab.mjs: `.` or a built
 * tree); for an A/B run it per build in alternated processes (two builds in one process share
 * undici's call sites). Env N requests per block (1000), ROUNDS (5). `--cpu-prof` of this process
 * shows the client's functions. Bounded: fixed counts, no network.
 *
 * `COLD=1`: the stage's cold pattern for the client (bench/stages/ohttp.js): one warm-up request,
 * then N requests (default 40) each from a *fresh* client after IDLE_MS (20) of sleep, so the
 * client's code runs barely JIT-compiled on cooled caches; per request the client's time before
 * its outer fetch (options, key config, Binary HTTP, encapsulation) and after the gateway's
 * answer (open, decode, Response, text()), medians per block.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? '.');
const N = Number(process.env.N ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const url = (p) => pathToFileURL(path.join(root, p)).href;
const core = await import(url('packages/core/dist/index.js'));
const { createNen } = await import(url('packages/server/dist/index.js'));
const { createNenClient } = await import(url('packages/client/dist/index.js'));
const backend = await core.loadBackend();
process.env.NEN_SERVER_KEYS = `k1:${core.toBase64Url(backend.generateKeyPair(core.KEM_ID.XWING).privateKey)}`;
const nen = createNen({});
const keys = core.OhttpGatewayKeys.parse(core.generateOhttpKey(1, core.OHTTP_KEM.XWING));
const gateway = nen.ohttpGateway({ keys, routes: { '/api/echo': { POST: nen.withNen(async (_req, _ctx, json) => json) } } });
let gatewayMs = 0;
let sentAt = 0;
let answeredAt = 0;
const fetch = async (input, init) => {
  const t = performance.now();
  sentAt = t;
  const res = await gateway.fetch(new Request(input, init));
  answeredAt = performance.now();
  gatewayMs += answeredAt - t;
  return res;
};
const base = 'http://127.0.0.1:1';
const client = createNenClient({
  mode: 'ohttp',
  relay: `${base}/.well-known/ohttp-gateway`,
  keyConfig: core.encodeKeyConfig(keys.configs()[0]),
  baseUrl: base,
  fetch,
});
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
/** COLD=1: a fresh client per request after IDLE_MS idle; prints before / after / gateway medians and exits. */
async function cold() {
  const n = Number(process.env.N ?? 40);
  const idle = Number(process.env.IDLE_MS ?? 20);
  const keyConfig = core.toBase64Url(core.encodeKeyConfig(keys.configs()[0])); // as the stage passes it (srv.keyConfig)
  const fresh = () => createNenClient({ mode: 'ohttp', relay: `${base}/.well-known/ohttp-gateway`, keyConfig, baseUrl: base, fetch });
  const oneCold = async (c) => {
    const t = performance.now();
    const res = await c.fetch('/api/echo', init);
    const text = await res.text();
    const end = performance.now();
    if (res.status !== 200 || text !== body) throw new Error(`echo mismatch (${res.status})`);
    return [(sentAt - t) * 1000, (end - answeredAt) * 1000, (answeredAt - sentAt) * 1000];
  };
  await oneCold(fresh());
  const from = process.hrtime.bigint() / 1000n; // the --cpu-prof clock (µs), for a windowed summary
  const out = [];
  for (let r = 0; r < ROUNDS; r++) {
    const rows = [];
    for (let i = 0; i < n; i++) {
      await new Promise((ok) => setTimeout(ok, idle));
      rows.push(await oneCold(fresh()));
    }
    out.push([0, 1, 2].map((k) => med(rows.map((x) => x[k]))));
  }
  const f = (k) => out.map((b) => b[k].toFixed(0)).join(' ');
  console.log(
    `${root} (${process.version}) cold, fresh client after ${idle} ms idle: client before its fetch ${f(0)} us, after the answer ${f(1)} us, gateway ${f(2)} us (medians of ${n}, ${ROUNDS} blocks); window ${from} ${process.hrtime.bigint() / 1000n}`,
  );
  process.exit(0);
}
const body = JSON.stringify({ data: 'x'.repeat(1000) });
const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
const one = async () => {
  gatewayMs = 0;
  const t = performance.now();
  const res = await client.fetch('/api/echo', init);
  const text = await res.text();
  const total = performance.now() - t;
  if (res.status !== 200 || text !== body) throw new Error(`echo mismatch (${res.status})`);
  return [(total - gatewayMs) * 1000, gatewayMs * 1000];
};
if (process.env.COLD === '1') await cold();
for (let i = 0; i < 500; i++) await one();
const blocks = [];
for (let r = 0; r < ROUNDS; r++) {
  const c = [];
  const g = [];
  for (let i = 0; i < N; i++) {
    const [x, y] = await one();
    c.push(x);
    g.push(y);
  }
  blocks.push([med(c), med(g)]);
}
const f = (x) => x.toFixed(1);
console.log(
  `${root} (${process.version}): client alone ${blocks.map((b) => f(b[0])).join(' ')} us, gateway ${blocks.map((b) => f(b[1])).join(' ')} us (per-request medians of ${N}, ${ROUNDS} blocks)`,
);
process.exit(0);
