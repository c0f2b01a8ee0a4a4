#!/usr/bin/env node
/**
 * `node bench/browser/handshake-async-ab.js [--rounds 10] [--cpu 4] <core dist> <core dist> ...`:
 * the client's crypto of a page's cold first handshake as the browser client runs it (issue 21):
 * `loadBackend('auto', { syncKem: false })` of the browser entry (as @nen/client loads it; builds
 * before the option ignore it), `clientHandshakeStartAsync` pinned to an X-Wing key
 * (time to the ClientHello, and from navigation start: the page's module loading and evaluation
 * included), then, after a 60 ms pause standing in for the round trip (the
 * ServerHello is made in Node by `serverHandshake` on @noble, so the page runs only client code),
 * `finish` (time from the ServerHello to S_0), then the session keys and the first 1 KB
 * ChaCha20-Poly1305 seal (S_0 -> 1 KB sealed: what the first request pays before it is sent; on
 * WebCrypto, `SessionKeys.create` and `sealAsync`, where the build has them, as the client runs them). Each build's dist is served unbundled (ES modules,
 * @noble/* from packages/core's node_modules through an import map); a fresh context per build
 * and round, interleaved in rotating order, CPU throttled via CDP. Prints medians per build.
 * A build without `protocol/handshake-async.js` cannot be measured (it predates the async path).
 *
 * Pitfalls: a benchmark, nothing asserted; compare builds of one invocation only (the machine's
 * load moves absolute figures). Loopback only; the browser and the server stop at the end.
 */
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchDir } from '../lib/env.js';
import { launchChromium } from './chromium.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '10' }, cpu: { type: 'string', default: '4' } },
});
if (positionals.length === 0) throw new Error('usage: handshake-async-ab.js [--rounds N] [--cpu R] <core dist> ...');
const CORE = path.resolve(benchDir, '../packages/core');
const NOBLE = ['hashes', 'curves', 'ciphers', 'post-quantum'];
const roots = Object.fromEntries(positionals.map((d, i) => [`d${i}`, path.resolve(d)]));
for (const p of NOBLE) roots[`noble-${p}`] = realpathSync(path.join(CORE, 'node_modules/@noble', p));

const page = (i) => `<!doctype html><script type="importmap">${JSON.stringify({
  imports: Object.fromEntries(NOBLE.map((p) => [`@noble/${p}/`, `/noble-${p}/`])),
})}</script><script type="module">
const [{ loadBackend }, hsa, hs, { SessionKeys }] = await Promise.all(['backend/index.browser.js', 'protocol/handshake-async.js', 'protocol/handshake.js', 'protocol/keys.js'].map((p) => import('/d${i}/' + p)));
const hex = (s) => Uint8Array.from(s.match(/../g), (h) => parseInt(h, 16));
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const t0 = performance.now();
const be = await loadBackend('auto', { syncKem: false });
const st = await hsa.clientHandshakeStartAsync(be, { pin: hs.parseServerKeyPin(window.NEN_PIN) });
const t1 = performance.now();
const reply = window.nenServerHello(toHex(st.hello));
await new Promise((r) => setTimeout(r, 60));
const sh = hex(await reply);
const t2 = performance.now();
const r = await st.finish(sh);
const t3 = performance.now();
// as the client runs them: the epoch keys on the backend's async HKDF and the seal on WebCrypto where the build has them
const keys = SessionKeys.create ? await SessionKeys.create(be, r.secret, 0) : new SessionKeys(be, r.secret, 0);
const sealed = keys.c2s.sealAsync ? await keys.c2s.sealAsync(keys.c2sIv, new Uint8Array(16), new Uint8Array(1024)) : keys.c2s.seal(keys.c2sIv, new Uint8Array(16), new Uint8Array(1024));
window.NEN_T = { nav: t1, hello: t1 - t0, finish: t3 - t2, seal: performance.now() - t3, ok: r.secret.length === 32 && sealed.length === 1040 };
</script>`;

const server = createServer((req, res) => {
  const [, root = '', ...rest] = new URL(req.url ?? '/', 'http://x').pathname.split('/');
  if (/^page\d+$/.test(root)) return res.writeHead(200, { 'content-type': 'text/html' }).end(page(Number(root.slice(4))));
  const base = roots[root];
  const file = base ? path.normalize(path.join(base, ...rest)) : '';
  if (base && file.startsWith(base) && existsSync(file) && statSync(file).isFile()) {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    return createReadStream(file).pipe(res);
  }
  res.writeHead(404).end();
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await launchChromium();
try {
  const noble = (await import(path.join(CORE, 'dist/backend/noble.js'))).createNobleBackend();
  const { serverHandshake } = await import(path.join(CORE, 'dist/protocol/handshake.js'));
  const kp = noble.generateKeyPair(0x647a);
  const keys = new Map([['k1', noble.createRecipientKey(0x647a, kp.privateKey)]]);
  const pin = `k1:${Buffer.from(kp.publicKey).toString('base64url')}`;
  const params = { keys, sessionId: new Uint8Array(16), maxLifetime: 600, idleTimeout: 60 };
  const rows = positionals.map(() => []);
  for (let i = 0; i < Number(values.rounds); i++) {
    for (let k = 0; k < positionals.length; k++) {
      const j = (k + i) % positionals.length;
      const context = await browser.newContext();
      try {
        const p = await context.newPage();
        await (await context.newCDPSession(p)).send('Emulation.setCPUThrottlingRate', { rate: Number(values.cpu) });
        await p.exposeFunction('nenServerHello', (h) =>
          Buffer.from(serverHandshake(noble, Buffer.from(h, 'hex'), { ...params, now: Date.now() }).response).toString('hex'),
        );
        await p.addInitScript(`window.NEN_PIN=${JSON.stringify(pin)}`);
        await p.goto(`http://127.0.0.1:${server.address().port}/page${j}`);
        await p.waitForFunction(() => window.NEN_T, null, { timeout: 60_000 });
        rows[j].push(await p.evaluate(() => window.NEN_T));
      } finally {
        await context.close();
      }
    }
  }
  const med = (xs) => xs.sort((a, b) => a - b)[(xs.length - 1) >> 1].toFixed(1);
  console.log(`cold client handshake crypto, ${values.cpu}x CPU, medians of ${values.rounds} fresh pages per build (ms)`);
  positionals.forEach((d, j) => {
    const r = rows[j];
    console.log(
      `  ${d.padEnd(34)} navigation -> ClientHello ${med(r.map((x) => x.nav)).padStart(6)}  to ClientHello ${med(r.map((x) => x.hello)).padStart(6)}  ServerHello -> S_0 ${med(r.map((x) => x.finish)).padStart(5)}  S_0 -> 1 KB sealed ${med(r.map((x) => x.seal)).padStart(5)}  sum ${med(r.map((x) => x.hello + x.finish + x.seal)).padStart(6)}  ok ${r.every((x) => x.ok)}`,
    );
  });
} finally {
  await browser.close();
  server.close();
}
