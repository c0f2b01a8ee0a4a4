/**
 * Micro-benchmark (issue 23): @nen/core's OHTTP pieces the gateway runs per request, A/B over two
 * or more builds in one run, interleaved per block (medians of 400 blocks of 50 calls): Binary
 * HTTP decode of a 1 KB inner request, its encode, a 1 KB response's encode, the replay id
 * (SHA-256 + hex of a 1,120-byte X-Wing enc) and decapsulation + response sealing (X-Wing,
 * ChaCha20-Poly1305: the KEM in Wasm plus the key schedule's JS glue).
 *
 * Run: `node bench/ohttp/core-ab.mjs ROOT [ROOT...]`, ROOT laid out as for ./request-ab.mjs
 * (`ROOT/packages/core/dist` with its node_modules resolvable). Bounded: fixed counts, no network,
 * no timers. Each build's keys and request are its own (a build's objects never cross builds).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const roots = process.argv.slice(2).map((r) => path.resolve(r));
if (roots.length === 0) throw new Error('usage: node bench/ohttp/core-ab.mjs ROOT [ROOT...]');
const ROUNDS = 400;
const BLOCK = 50;
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

async function setup(root) {
  const c = await import(pathToFileURL(path.join(root, 'packages/core/dist/index.js')).href);
  await c.loadBackend();
  const body = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(1000) }));
  const headers = [
    ['content-type', 'application/json'],
    ['date', new Date().toUTCString()],
  ];
  const inner = { method: 'POST', scheme: 'https', authority: 'x', path: '/api/value', headers, content: body, trailers: [] };
  const resp = { informational: [], status: 200, headers: [['content-type', 'application/json']], content: body, trailers: [] };
  const bhttp = c.encodeBhttpRequest(inner);
  const resBytes = c.encodeBhttpResponse(resp);
  const keys = c.OhttpGatewayKeys.parse(c.generateOhttpKey(1, c.OHTTP_KEM.XWING));
  const encReq = c.encapsulateRequest(keys.configs()[0], bhttp).encapsulatedRequest;
  const enc = Uint8Array.from({ length: 1120 }, (_, i) => i & 0xff);
  return {
    'decode request': () => c.decodeBhttpRequest(bhttp),
    'encode request': () => c.encodeBhttpRequest(inner),
    'encode response': () => c.encodeBhttpResponse(resp),
    'replay id': () => c.ohttpReplayId(enc),
    'decap + seal': () => c.decapsulateRequest(keys, encReq).sealResponse(resBytes),
  };
}

const builds = [];
for (const r of roots) builds.push(await setup(r));
const times = builds.map((b) => Object.fromEntries(Object.keys(b).map((k) => [k, []])));
for (let round = 0; round < ROUNDS; round++)
  builds.forEach((b, j) => {
    for (const [k, f] of Object.entries(b)) {
      const t = performance.now();
      for (let i = 0; i < BLOCK; i++) f();
      times[j][k].push(((performance.now() - t) / BLOCK) * 1000);
    }
  });
roots.forEach((r, j) => {
  console.log(r);
  console.log(
    `  ${Object.entries(times[j])
      .map(([k, a]) => `${k} ${med(a).toFixed(2)}`)
      .join('  ')} us (medians of ${ROUNDS} x ${BLOCK})`,
  );
});
