/**
 * Micro-benchmark (issue 23): one OHTTP request in process, A/B over two or more builds in one
 * run, interleaved per request (per-request medians: robust to the shared machine's load spikes).
 * Per build: the KEM alone (X-Wing and ML-KEM-768 Encap / Decap / SetupBaseS / SetupBaseR, blocks
 * of 5) and the whole 1 KB request: client encapsulation (Binary HTTP + HPKE), the gateway
 * (`nen.ohttpGateway().fetch`: decapsulation, Date and replay claim in the memory store, dispatch
 * to a `withNen` echo, response sealing) and the client's open.
 *
 * ROUTE=value: the inner handler returns the parsed JSON body as a value (as the demo's echo does)
 * instead of a Response it built. ALS=n: each gateway call runs inside n nested AsyncLocalStorage
 * stores, as a route under `next start` does (Next keeps several; every promise then pays their
 * hooks), so a change in the number of promises per request shows.
 *
 * Run: `node bench/ohttp/request-ab.mjs ROOT [ROOT...]` where ROOT is a built tree laid out like
 * the repository (`ROOT/packages/core/dist`, `ROOT/packages/server/dist`, their node_modules
 * resolvable: `.` for this checkout, a `git worktree` of another commit after `pnpm install
 * --offline && pnpm turbo run build` for the other side). Env N = requests per build (1500).
 * Bounded: fixed counts, no network, no timers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const roots = process.argv.slice(2).map((r) => path.resolve(r));
if (roots.length === 0) throw new Error('usage: node bench/ohttp/request-ab.mjs ROOT [ROOT...]');
const N = Number(process.env.N ?? 1500);
const ROUTE = process.env.ROUTE === 'value' ? '/api/value' : '/api/echo';
const KEM_ROUNDS = 200;
const stores = Array.from({ length: Number(process.env.ALS ?? 0) }, () => new AsyncLocalStorage());
/** f() inside every store of `stores` (none: f() as is). */
const inStores = (f) => stores.reduce((g, s, i) => () => s.run({ i }, g), f)();
const url = (r, p) => pathToFileURL(path.join(r, p)).href;
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

async function setup(root) {
  const core = await import(url(root, 'packages/core/dist/index.js'));
  const { createNen } = await import(url(root, 'packages/server/dist/index.js'));
  const backend = await core.loadBackend();
  process.env.NEN_SERVER_KEYS = `k1:${core.toBase64Url(backend.generateKeyPair(core.KEM_ID.XWING).privateKey)}`;
  const nen = createNen({});
  const keys = core.OhttpGatewayKeys.parse(core.generateOhttpKey(1, core.OHTTP_KEM.XWING));
  const config = keys.configs()[0];
  const echo = nen.withNen(
    async (req) => new Response(await req.bytes(), { headers: { 'content-type': req.headers.get('content-type') ?? 'application/octet-stream' } }),
  );
  const value = nen.withNen(async (_req, _ctx, json) => json);
  const gateway = nen.ohttpGateway({ keys, routes: { '/api/echo': { POST: echo }, '/api/value': { POST: value } } });
  const body = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(1000) }));
  const request = async () => {
    let t = performance.now();
    const inner = {
      method: 'POST',
      scheme: 'https',
      authority: 'x',
      path: ROUTE,
      headers: [
        ['content-type', 'application/json'],
        ['date', new Date().toUTCString()],
      ],
      content: body,
      trailers: [],
    };
    const e = core.encapsulateRequest(config, core.encodeBhttpRequest(inner));
    const encapsulate = performance.now() - t;
    const outer = new Request('http://127.0.0.1/.well-known/ohttp-gateway', {
      method: 'POST',
      headers: { 'content-type': 'message/ohttp-req' },
      body: e.encapsulatedRequest,
    });
    t = performance.now();
    const raw = await inStores(async () => new Uint8Array(await (await gateway.fetch(outer)).arrayBuffer()));
    const gatewayUs = performance.now() - t;
    t = performance.now();
    const answer = core.decodeBhttpResponse(e.openResponse(raw));
    const open = performance.now() - t;
    if (answer.content.length !== body.length) throw new Error(`${root}: echo mismatch (status ${answer.status})`);
    return [encapsulate, gatewayUs, open].map((x) => x * 1000);
  };
  const hpke = await import(url(root, 'packages/core/dist/ohttp/hpke.js'));
  const kems = [hpke.OHTTP_KEM.XWING, hpke.OHTTP_KEM.MLKEM768].map((kem) => ({ kem, sk: new hpke.OhttpPrivateKey(kem, hpke.generateOhttpPrivateKey(kem)) }));
  const kemBlock = () =>
    kems.map(({ kem, sk }) => {
      const info = new Uint8Array(40);
      const time = (f) => {
        const t = performance.now();
        const out = Array.from({ length: 5 }, f);
        return [out, ((performance.now() - t) / 5) * 1000];
      };
      const [encs, e] = time(() => hpke.encap(kem, sk.publicKey).enc);
      let i = 0;
      const [, d] = time(() => sk.decap(encs[i++]));
      const [senders, s] = time(() => hpke.setupBaseS(kem, 3, sk.publicKey, info));
      i = 0;
      const [, r] = time(() => hpke.setupBaseR(sk, 3, senders[i++].enc, info));
      return [e, d, s, r];
    });
  return { request, kemBlock };
}

const builds = [];
for (const r of roots) builds.push(await setup(r));
const kem = builds.map(() => [0, 1].map(() => [[], [], [], []]));
for (let round = 0; round < KEM_ROUNDS; round++)
  builds.forEach((b, j) =>
    b.kemBlock().forEach((v, k) => {
      v.forEach((x, m) => kem[j][k][m].push(x));
    }),
  );
const req = builds.map(() => [[], [], []]);
for (let i = 0; i < 200; i++) for (const b of builds) await b.request(); // warm-up
for (let i = 0; i < N; i++)
  for (let j = 0; j < builds.length; j++) {
    const v = await builds[j].request();
    v.forEach((x, k) => req[j][k].push(x));
  }
const f = (a) => med(a).toFixed(0);
roots.forEach((r, j) => {
  console.log(`${r}`);
  ['X-Wing', 'ML-KEM-768'].forEach((name, k) => {
    const [e, d, s, rr] = kem[j][k];
    console.log(`  ${name.padEnd(10)} encap ${f(e)}  decap ${f(d)}  setupBaseS ${f(s)}  setupBaseR ${f(rr)} us`);
  });
  const [e, g, o] = req[j];
  console.log(
    `  1 KB request (${ROUTE}${stores.length ? `, ${stores.length} AsyncLocalStorage` : ''}): client encapsulate ${f(e)}  gateway ${f(g)}  client open ${f(o)} us (medians of ${N})`,
  );
});
process.exit(0);
