/**
 * The real-traffic suite (`run.mjs --real`): the demo under `next start` (apps/demo, built by the
 * suite's build stage; built here only when missing or stale) and the Hono target
 * (bench/targets/hono.mjs), each on a free 127.0.0.1 port with the kit's key k1 and a 2 s idle
 * timeout. Through the driver: a pinned handshake, each method, a stream, then an idle expiry
 * (401 NEN_SESSION_EXPIRED: the client re-handshakes and retries) and a fresh handshake.
 *
 * Pitfalls: the targets are started once per runner (shared by every client) and always stopped
 * (SIGTERM, SIGKILL after 5 s); readiness is polled on the plain `keys` route with a deadline.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { freePort } from '../../tests/support/free-port.mjs';
import { join } from 'node:path';
import { pins as loadPins, serverKeys } from '../server/keys.mjs';
import { runSteps } from './scenario-run.mjs';

const IDLE_S = 2;
const tokens = (n) => `${Array.from({ length: n }, (_, i) => `data: ${JSON.stringify({ i, token: `token-${i} ` })}\n\n`).join('')}data: [DONE]\n\n`;
const f = (method, path, text, contentType, expect, extra = {}) => ({ op: 'fetch', client: 'c1', method, path, text, contentType, expect, ...extra });

export const REAL_STEPS = [
  { op: 'client', name: 'c1', pins: ['k1'], timeoutMs: 15000 },
  { op: 'handshake', client: 'c1', expect: { keyId: 'k1', kem: 'xwing', pinned: true } },
  f('GET', '/api/echo?a=1', undefined, undefined, { status: 200, body: '{"method":"GET","path":"/api/echo","query":{"a":"1"}}' }),
  f('HEAD', '/api/echo', undefined, undefined, { status: 200, body: '' }),
  f('POST', '/api/echo', 'hello', 'text/plain', { status: 200, body: 'hello' }),
  f('PUT', '/api/echo', '{"a":1}', 'application/json', { status: 200, body: '{"a":1}' }),
  f('PATCH', '/api/echo', 'patch', 'text/plain', { status: 200, body: 'patch' }),
  f('DELETE', '/api/echo', undefined, undefined, { status: 204, body: '' }),
  f('OPTIONS', '/api/echo', undefined, undefined, { status: 204, body: '' }),
  f('POST', '/api/stream?n=3', undefined, undefined, { status: 200, body: tokens(3) }, { stream: true }),
  { op: 'sleep', ms: IDLE_S * 1000 + 600 },
  f('POST', '/api/echo', 'after idle expiry', 'text/plain', { status: 200, body: 'after idle expiry' }),
  { op: 'handshake', client: 'c1', expect: { keyId: 'k1', kem: 'xwing', pinned: true } },
  f('POST', '/api/echo', 'new session', 'text/plain', { status: 200, body: 'new session' }),
];

function newest(path, depth = 0) {
  if (!existsSync(path) || depth > 8) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let n = 0;
  for (const e of readdirSync(path)) if (e !== 'node_modules' && !e.startsWith('.next')) n = Math.max(n, newest(join(path, e), depth + 1));
  return n;
}

/** Builds the demo into .next unless its BUILD_ID is newer than the app and the SDK builds. */
function ensureDemoBuilt(root) {
  const app = join(root, 'apps/demo');
  const id = join(app, '.next/BUILD_ID');
  const inputs = ['app', 'lib', 'components', 'next.config.ts'].map((p) => join(app, p));
  inputs.push(...['client', 'server', 'core'].map((p) => join(root, 'packages', p, 'dist')));
  const fresh = () => existsSync(id) && inputs.every((p) => newest(p) < statSync(id).mtimeMs);
  // Another suite may hold Next's build lock on the same app: wait for it (bounded) and use its output.
  for (let attempt = 0; attempt < 30; attempt++) {
    if (fresh()) return;
    const b = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
      cwd: app,
      encoding: 'utf8',
      timeout: 600_000,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (b.status === 0) return;
    if (!/Another next build process is already running/.test(`${b.stdout}${b.stderr}`))
      throw new Error(`next build failed: ${(b.stderr || b.stdout).slice(-800)}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  }
  throw new Error('next build: another build kept the lock for 5 minutes');
}

async function start(name, argv, cwd, port, env) {
  const e = { ...process.env, ...env };
  delete e.REDIS_URL; // the memory store: REDIS_URL without a store passed is NEN_CONFIG
  const child = spawn(process.execPath, argv, { cwd, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d) => {
    log = (log + d.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(t);
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited early: ${log.slice(-800)}`);
    const ok = await fetch(`${url}/api/nen/keys`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { name, url, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`${name} not ready within 60 s: ${log.slice(-800)}`);
}

/** Starts both targets; resolves to [{ name, url, stop }]. */
export async function startTargets(root) {
  ensureDemoBuilt(root);
  const env = { NEN_SERVER_KEYS: serverKeys('k1'), NEN_IDLE_TIMEOUT: String(IDLE_S), NEN_HANDSHAKE_RATE: '0', NEN_LOG: 'silent', NEXT_TELEMETRY_DISABLED: '1' };
  const targets = [];
  try {
    const p1 = await freePort();
    targets.push(
      await start(
        'next start (apps/demo)',
        ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(p1)],
        join(root, 'apps/demo'),
        p1,
        env,
      ),
    );
    const p2 = await freePort();
    targets.push(await start('hono (bench/targets/hono.mjs)', ['targets/hono.mjs', '--port', String(p2)], join(root, 'bench'), p2, env));
  } catch (e) {
    for (const t of targets) await t.stop();
    throw e;
  }
  return targets;
}

/** Runs REAL_STEPS against each target; one result per target. */
export async function runReal(driver, targets) {
  const pins = await loadPins();
  const out = [];
  for (const t of targets) {
    const ctx = { base: t.url, sessionPath: '/api/nen', pins, control: async () => {} };
    const failed = await runSteps(REAL_STEPS, driver, ctx);
    out.push({ name: t.name, ok: !failed, ...(failed ? { detail: failed.detail } : {}) });
  }
  return out;
}
