/**
 * The server of the OHTTP bench (../stages/ohttp.js), one node:http process on 127.0.0.1:
 *   POST /plain/echo           the body back (plain);
 *   /api/nen/*, POST /api/echo session mode (@nen/server createNen + withNen echo: a JSON body's
 *                              value back, as the demo's echo; other bodies as their bytes);
 *   GET|POST /.well-known/ohttp-gateway  the OHTTP gateway: @nen/server's `nen.ohttpGateway()`
 *                              when the build has it (Date window, replay claim in the memory
 *                              store, dispatch to the same withNen echo), else a gateway written
 *                              from @nen/core's codec (no replay / Date checks: `gateway` in the
 *                              ready line says which);
 *   POST /floor/ohttp          RFC 9458's cryptography alone around the plain echo: the body is an
 *                              encapsulated request whose plaintext is the echo's body (no Binary
 *                              HTTP), opened with @nen/core's `decapsulateRequest` and answered
 *                              with `sealResponse` of the same bytes; no Date window, replay claim,
 *                              dispatch or web Response. What any gateway on these primitives pays
 *                              (../stages/ohttp.js `floor`: the cold figure's floor; bench/README.md,
 *                              OHTTP fifteenth pass). POST /floor/ohttp-x25519: the same with a
 *                              DHKEM(X25519) key (ready line `floorX25519KeyConfig`).
 *   GET /cpu                   process.cpuUsage() (`us` = user + system µs, and each) and the
 *                              context switches (voluntary, involuntary) for CPU per request;
 *   POST /api/ticks (through the gateway only, a withNenStream handler): yields "tick 1", then
 *                              waits (at most 10 s) until POST /ticks/release, then "tick 2",
 *                              "tick 3": proof that a client read the first piece before the
 *                              answer ended (clients/go ohttp_chunked_test.go).
 * Prints one JSON line on stdout when listening: { port, pin, keyConfig, gateway }.
 * Pitfall: keys are generated per run (nothing persisted); loopback only.
 */
import { createServer } from 'node:http';
import { loadBackend, KEM_ID, toBase64Url } from '@nen/core';
import {
  OHTTP_KEM,
  OhttpGatewayKeys,
  decapsulateRequest,
  decodeBhttpRequest,
  encodeBhttpResponse,
  encodeKeyConfig,
  encodeKeyConfigs,
  generateOhttpKey,
} from '@nen/core/ohttp';

const backend = await loadBackend();
const kp = backend.generateKeyPair(KEM_ID.XWING);
process.env.NEN_SERVER_KEYS = `k1:${toBase64Url(kp.privateKey)}`;
const pin = `k1:${toBase64Url(kp.publicKey)}`;
const { createNen } = await import('@nen/server');
const { toNodeHandler, nodeSessionRoutes } = await import('@nen/server/node');
const nen = createNen({});
const keys = OhttpGatewayKeys.parse(generateOhttpKey(1, OHTTP_KEM.XWING));
/** POST /floor/ohttp-x25519's key: DHKEM(X25519), what the floor costs without the post-quantum half. */
const x25519Keys = OhttpGatewayKeys.parse(generateOhttpKey(2, OHTTP_KEM.X25519));

/**
 * The withNen echo, written as the README's quick start and the demo's `echoNen` write a handler:
 * a JSON body's value is returned (withNen answers it as application/json, the same compact text
 * for the bench's bodies), any other body as a Response of its bytes. Issue 23: returning a
 * Response of `req.bytes()` for JSON too made an undici Response and stream per request that the
 * gateway read back (bench/README.md, OHTTP twelfth pass).
 */
const echoHandler = nen.withNen(async (req, _context, body) => {
  const type = req.headers.get('content-type');
  if (type === 'application/json' && body !== undefined && body !== null && !(body instanceof Uint8Array)) return body;
  const bytes = await req.bytes();
  return new Response(bytes, { headers: { 'content-type': type ?? 'application/octet-stream' } });
});
const sealedEcho = toNodeHandler(echoHandler);
const sessions = nodeSessionRoutes(nen);
/** Resolves the waiting /api/ticks streams (bounded: each waits 10 s at most). */
let release = () => {};
const ticks = nen.withNenStream(async function* () {
  yield 'tick 1\n';
  const released = await new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), 10_000);
    release = () => {
      clearTimeout(t);
      resolve(true);
    };
  });
  yield released ? 'tick 2\n' : 'timeout\n';
  yield 'tick 3\n';
});

let gatewayKind = 'core-codec';
let gateway;
if (typeof nen.ohttpGateway === 'function') {
  gatewayKind = '@nen/server ohttpGateway';
  const g = nen.ohttpGateway({ keys, routes: { '/api/echo': { POST: echoHandler }, '/api/ticks': { POST: ticks } } });
  // mounted as it is, as docs/adapters.md shows: its parts entry (the outer answer written with
  // writeHead + end) is on g.fetch itself, a function around it would hand back the Response
  gateway = toNodeHandler(g.fetch);
} else {
  const configs = encodeKeyConfigs(keys.configs());
  gateway = toNodeHandler(async (request) => {
    if (request.method === 'GET') return new Response(configs, { headers: { 'content-type': 'application/ohttp-keys' } });
    const d = decapsulateRequest(keys, new Uint8Array(await request.arrayBuffer()));
    const inner = decodeBhttpRequest(d.request);
    const ct = inner.headers.find(([n]) => n === 'content-type')?.[1] ?? 'application/octet-stream';
    const answer = encodeBhttpResponse({ informational: [], status: 200, headers: [['content-type', ct]], content: inner.content, trailers: [] });
    return new Response(d.sealResponse(answer), { headers: { 'content-type': 'message/ohttp-res' } });
  });
}

function plainEcho(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/octet-stream', 'content-length': body.length }).end(body);
  });
}

/** POST /floor/ohttp (see the header); a body that does not open is a 400, as the gateway's. */
function floorEcho(req, res, keySet) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let out;
    try {
      const d = decapsulateRequest(keySet, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      out = d.sealResponse(d.request);
    } catch {
      return void res.writeHead(400).end();
    }
    res.writeHead(200, { 'content-type': 'message/ohttp-res', 'content-length': out.length }).end(out);
  });
}

const server = createServer((req, res) => {
  const p = (req.url ?? '/').split('?')[0];
  if (p === '/plain/echo') return plainEcho(req, res);
  if (p === '/floor/ohttp') return floorEcho(req, res, keys);
  if (p === '/floor/ohttp-x25519') return floorEcho(req, res, x25519Keys);
  if (p.startsWith('/api/nen/')) return void sessions(req, res);
  if (p === '/api/echo') return void sealedEcho(req, res);
  if (p === '/.well-known/ohttp-gateway') return void gateway(req, res);
  if (p === '/ticks/release') {
    release();
    return void res.writeHead(204).end();
  }
  if (p === '/cpu') {
    const u = process.cpuUsage();
    const r = process.resourceUsage();
    const body = { us: u.user + u.system, user: u.user, system: u.system, voluntary: r.voluntaryContextSwitches, involuntary: r.involuntaryContextSwitches };
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
  res.writeHead(404).end();
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const keyConfig = toBase64Url(encodeKeyConfig(keys.configs()[0]));
  const floorX25519KeyConfig = toBase64Url(encodeKeyConfig(x25519Keys.configs()[0]));
  console.log(JSON.stringify({ port: server.address().port, pin, keyConfig, floorX25519KeyConfig, gateway: gatewayKind }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.stdin.on('end', () => process.exit(0)); // the parent went away
process.stdin.resume();
