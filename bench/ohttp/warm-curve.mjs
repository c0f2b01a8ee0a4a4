/**
 * Micro-benchmark (issue 23, OHTTP eleventh pass): a fresh process's OHTTP gateway, request by
 * request, in process: `nen.ohttpGateway().fetch` of a 1 KB X-Wing request (Date window, replay
 * claim in the memory store, dispatch to a `withNen` handler returning the parsed JSON, as the
 * demo's echo), one at a time, the median µs per block of requests. Shows how many requests V8
 * needs before the gateway's path is optimised (the load stage's warm-up, stages/load-ohttp.js).
 *
 * Run: `node bench/ohttp/warm-curve.mjs [ROOT]` (ROOT laid out as for ./request-ab.mjs, default
 * `.`). Env N (8000), BLOCKS (block ends, comma-separated), MARK (every MARK requests print
 * `@@MARK n` first: run with `node --trace-opt --trace-deopt` and the V8 lines fall between the
 * marks, so each optimisation or deopt is placed by request count).
 * Pitfall: the client's encapsulation runs in the same process (not timed), so client functions
 * appear in a trace too; filter by name. Bounded: fixed counts, no network, no timers.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? '.');
const imp = (p) => import(pathToFileURL(path.join(root, p)).href);
const core = await imp('packages/core/dist/index.js');
const { createNen } = await imp('packages/server/dist/index.js');
const backend = await core.loadBackend();
process.env.NEN_SERVER_KEYS = `k1:${core.toBase64Url(backend.generateKeyPair(core.KEM_ID.XWING).privateKey)}`;
const nen = createNen({});
const keys = core.OhttpGatewayKeys.parse(core.generateOhttpKey(1, core.OHTTP_KEM.XWING));
const config = keys.configs()[0];
const value = nen.withNen(async (_req, _ctx, json) => json);
const gateway = nen.ohttpGateway({ keys, routes: { '/api/echo': { POST: value } } });
const body = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(1000) }));
const N = Number(process.env.N ?? 8000);
const BLOCKS = (process.env.BLOCKS ?? '100,300,1000,2000,3000,4000,6000,8000')
  .split(',')
  .map(Number)
  .filter((b) => b <= N);
const MARK = Number(process.env.MARK ?? 0);

function encapsulated() {
  const inner = {
    method: 'POST',
    scheme: 'https',
    authority: 'x',
    path: '/api/echo',
    headers: [
      ['content-type', 'application/json'],
      ['date', new Date().toUTCString()],
    ],
    content: body,
    trailers: [],
  };
  return core.encapsulateRequest(config, core.encodeBhttpRequest(inner));
}

const us = [];
for (let i = 0; i < N; i++) {
  if (MARK && i % MARK === 0) console.log(`@@MARK ${i}`);
  const e = encapsulated();
  const headers = { 'content-type': 'message/ohttp-req', 'content-length': String(e.encapsulatedRequest.length) };
  const outer = new Request('http://127.0.0.1/.well-known/ohttp-gateway', { method: 'POST', headers, body: e.encapsulatedRequest });
  const t = performance.now();
  const res = await gateway.fetch(outer);
  const raw = new Uint8Array(await res.arrayBuffer());
  us.push((performance.now() - t) * 1000);
  if (core.decodeBhttpResponse(e.openResponse(raw)).content.length !== body.length) throw new Error(`echo mismatch (status ${res.status})`);
}
let from = 0;
const rows = BLOCKS.map((end) => {
  const s = us.slice(from, end).sort((a, b) => a - b);
  const row = `${from + 1}-${end}: ${s[s.length >> 1]?.toFixed(0)}`;
  from = end;
  return row;
});
console.log(`${process.version} gateway.fetch µs per request (median per block): ${rows.join(' | ')}`);
