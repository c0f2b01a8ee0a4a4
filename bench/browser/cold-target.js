/**
 * Shared pieces of the cold-page tools (cold-profile.js, cold-ab.js, the cold-browser stage): a
 * Hono bench target on a free loopback port, the page entry that sends one 1 KB POST through the
 * default @nen/client (pinned; or in OHTTP mode when the page's config carries a keyConfig), the
 * same through `@nen/client/ohttp` (OHTTP_ENTRY: the OHTTP code in the page's chunk), its HTML
 * (with the bundle's chunks modulepreloaded: preloadList), the target's pin, and the gateway's Key
 * Config for OHTTP pages (pinned by value: nothing fetched first).
 *
 * Pitfalls: the target is a child process; callers `stop()` it in `finally`. `--server-dist`
 * must sit inside packages/server (its imports resolve from there), as for bench/targets/hono.mjs.
 * The Hono target serves no OHTTP gateway: OHTTP pages need the demo (or an app with its
 * /.well-known/ohttp-gateway) as the target.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { benchDir } from '../lib/env.js';

export const OHTTP_GATEWAY = '/.well-known/ohttp-gateway';

/** The page: createNenClient pinned to cfg.pin (or OHTTP mode to cfg.keyConfig via cfg.relay), one POST of cfg.body; NEN_DONE reports. */
export const COLD_ENTRY = `
import { createNenClient } from '@nen/client';
const evaluated = performance.now();
const cfg = globalThis.NEN_COLD;
const timeline = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/') || e.name.includes('${OHTTP_GATEWAY}')).map((e) => [new URL(e.name).pathname, Math.round(e.startTime), Math.round(e.responseEnd)]);
(async () => {
  try {
    const client = createNenClient(cfg.keyConfig ? { mode: 'ohttp', relay: cfg.relay, keyConfig: cfg.keyConfig } : { serverKey: cfg.pin });
    const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: cfg.body });
    const text = await res.text();
    globalThis.NEN_DONE = { ms: performance.now(), evaluated, timeline: timeline(), ok: res.status === 200 && text === cfg.body };
  } catch (e) {
    globalThis.NEN_DONE = { error: String(e && e.code ? e.code + ': ' + e.message : e) };
  }
})();
`;

/** The OHTTP page of an app that picks OHTTP mode: `@nen/client/ohttp` (the OHTTP code in the page's chunk, issue 23). */
export const OHTTP_ENTRY = COLD_ENTRY.replace(
  "import { createNenClient } from '@nen/client';",
  "import { createOhttpClient } from '@nen/client/ohttp';",
).replace(
  "createNenClient(cfg.keyConfig ? { mode: 'ohttp', relay: cfg.relay, keyConfig: cfg.keyConfig } : { serverKey: cfg.pin })",
  'createOhttpClient({ relay: cfg.relay, keyConfig: cfg.keyConfig })',
);

export const BODY_1K = JSON.stringify({ data: 'x'.repeat(1000) });

/** The page's HTML: the bundle's static chunks modulepreloaded (as a framework lists them). */
export const coldHtml = (cfg, entry, preload = []) =>
  `<!doctype html><html><head>${preload.map((f) => `<link rel="modulepreload" href="/${f}">`).join('')}<script>globalThis.NEN_COLD=${JSON.stringify(cfg).replace(/</g, '\\u003c')}</script><script type="module" src="/${entry}"></script></head></html>`;

/** What a page modulepreloads: the bundle's initial chunks but its entry, as `prefix` + name. */
export const preloadList = (bundle, prefix = '') =>
  bundle.files.filter((f) => f.initial && f.name !== 'entry.js' && f.name.endsWith('.js')).map((f) => `${prefix}${f.name}`);

/** The target's pin: the one startHonoTarget read, else the first key of its GET /api/nen/keys. */
export async function targetPin(target) {
  return target.pin ?? (await (await fetch(`${target.url}/api/nen/keys`)).json()).keys[0].pin;
}

/** The target's first (current) OHTTP Key Config as base64url, from GET /.well-known/ohttp-gateway; null when it serves none. */
export async function gatewayKeyConfig(target) {
  try {
    const res = await fetch(new URL(OHTTP_GATEWAY, target), { signal: AbortSignal.timeout(10_000) });
    const list = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200 || res.headers.get('content-type') !== 'application/ohttp-keys' || list.length < 2) return null;
    return Buffer.from(list.subarray(2, 2 + ((list[0] << 8) | list[1]))).toString('base64url');
  } catch {
    return null;
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Starts bench/targets/hono.mjs (handshake rate limit off); resolves to { url, pin, stop }. */
export async function startHonoTarget({ serverDist } = {}) {
  const port = await freePort();
  const dist = serverDist ? ['--server-dist', serverDist] : [];
  const child = spawn(process.execPath, [path.join(benchDir, 'targets/hono.mjs'), '--port', String(port), ...dist], {
    env: { ...process.env, NEN_HANDSHAKE_RATE: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => child.kill('SIGTERM');
  for (let i = 0; i < 150; i++) {
    try {
      const r = await fetch(`${url}/api/nen/keys`);
      if (r.ok) return { url, pin: (await r.json()).keys[0].pin, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error('hono target did not start');
}
