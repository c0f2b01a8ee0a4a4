/**
 * Loading proof under Next.js 16: the fixture app in ./fixtures/next-app (a workspace package
 * depending on @nen/core, no next.config at all) is built with Turbopack (`next build`, the
 * default) and with webpack (`next build --webpack`), started with `next start` on a free
 * loopback port, and checked:
 *  - /api/node (Node runtime): loadBackend() is the node backend and the Wasm backend computes
 *    the known answers (SHA-256 "abc", RFC 8439 §2.8.2 tag, X-Wing HPKE round trip);
 *  - /api/edge (Edge runtime, Turbopack build only): the `edge-light` condition gives the
 *    embedded-bytes Wasm. Next 16.4.6's webpack build fails on ANY edge route handler
 *    (ENOENT route_client-reference-manifest.js, reproduced with a route that imports nothing),
 *    so the route is written from edge-route.template.js for the Turbopack build only;
 *  - /client (client component): Chromium (Debian /usr/bin/chromium via playwright-core, never
 *    downloaded): loadBackend('auto') is @noble (the browser default: no .wasm download), and
 *    loadBackend('wasm') runs the Wasm backend, proving the bundler emitted the .wasm asset.
 * Needs the built package (dist/ and wasm/): run `pnpm --filter @nen/core build` first (without it
 * the cases fail; none is skipped).
 * Every server started here is stopped here (process group kill in afterAll / finally).
 * Pitfall: two builds in one directory share its `.next` (and app/api/edge), so a second variant,
 * or a concurrent run of this file, made the other's build fail under load. Each build runs in
 * its own copy of the fixture beside it (fixtures/.next-app-<variant>-<pid>, same depth, so the
 * node_modules links resolve as in next-app; git-ignored), removed afterwards; next-app itself is
 * never written to.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'fixtures');
const app = join(fixtures, 'next-app');
const nextBin = join(app, 'node_modules/next/dist/bin/next');
/** What a copy leaves out: build output and the files a build or this test writes. */
const notCopied = new Set(['.next', 'next-env.d.ts', 'app/api/edge'].map((p) => join(app, p)));

const EXPECTED = {
  sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  tag: '1ae10b594f09e26a7e902ecbd0600691',
  hpkeRoundTrip: true,
};

const children = new Set<ChildProcess>();
let browser: Browser | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      resolve();
      return;
    }
    const t = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    t.unref();
    child.once('exit', () => {
      clearTimeout(t);
      children.delete(child);
      resolve();
    });
    try {
      process.kill(-(child.pid as number), 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/**
 * A private copy of the fixture app for one build (sources, and node_modules with its relative
 * links kept verbatim), with the Edge route written in when asked; the caller removes it.
 */
function copyApp(label: string, edge: boolean): string {
  const dir = join(fixtures, `.next-app-${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(app, dir, { recursive: true, verbatimSymlinks: true, filter: (src) => !notCopied.has(src) });
  if (edge) {
    mkdirSync(join(dir, 'app/api/edge'), { recursive: true });
    copyFileSync(join(app, 'edge-route.template.js'), join(dir, 'app/api/edge/route.js'));
  }
  return dir;
}

/** `next <args>` in the app copy `cwd`, in its own process group (tracked for afterAll), keeping the last 20 kB of output. */
function spawnNext(cwd: string, args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [nextBin, ...args], {
    cwd,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  child.stdout?.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (out = (out + d).slice(-20_000)));
  return { child, output: () => out };
}

function run(cwd: string, args: string[], opts: { env?: Record<string, string>; timeoutMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const { child, output } = spawnNext(cwd, args, opts.env);
    const t = setTimeout(() => {
      void stop(child);
      reject(new Error(`next ${args.join(' ')} timed out:\n${output()}`));
    }, opts.timeoutMs);
    t.unref();
    child.once('exit', (code) => {
      clearTimeout(t);
      children.delete(child);
      if (code === 0) resolve(output());
      else reject(new Error(`next ${args.join(' ')} exited ${code}:\n${output()}`));
    });
  });
}

async function start(cwd: string, port: number): Promise<ChildProcess> {
  const { child, output } = spawnNext(cwd, ['start', '-p', String(port), '-H', '127.0.0.1']);
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}:\n${output()}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      if (r.ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop(child);
  throw new Error(`next start did not come up:\n${output()}`);
}

async function checkDeployment(port: number, label: string, edgeRoute: boolean): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  const node = (await (await fetch(`${base}/api/node`)).json()) as Record<string, unknown>;
  expect(node, `${label} /api/node`).toMatchObject({ auto: 'node', backend: 'wasm', ...EXPECTED });
  expect(node.node, `${label} /api/node auto`).toMatchObject({ backend: 'node', ...EXPECTED, xwingPublicKeyPrefix: node.xwingPublicKeyPrefix });
  if (edgeRoute) {
    const edge = (await (await fetch(`${base}/api/edge`)).json()) as Record<string, unknown>;
    expect(edge, `${label} /api/edge`).toMatchObject({ auto: 'wasm', backend: 'wasm', ...EXPECTED, xwingPublicKeyPrefix: node.xwingPublicKeyPrefix });
  }

  browser ??= await chromium.launch(chromiumLaunchOptions());
  const page = await browser.newPage();
  try {
    const wasmRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.wasm')) wasmRequests.push(r.url());
    });
    const warnings: string[] = [];
    page.on('console', (m) => warnings.push(m.text()));
    await page.goto(`${base}/client`);
    await page.waitForFunction(() => document.querySelector('#result')?.textContent !== 'pending', undefined, { timeout: 30_000 });
    const client = JSON.parse((await page.textContent('#result')) ?? '{}') as Record<string, unknown>;
    expect(client, `${label} /client (console: ${warnings.join(' | ')})`).toMatchObject({
      auto: 'noble',
      backend: 'wasm',
      ...EXPECTED,
      xwingPublicKeyPrefix: node.xwingPublicKeyPrefix,
    });
    expect(wasmRequests.length, `${label}: the browser fetched the .wasm asset`).toBeGreaterThan(0);
    expect(warnings.join('\n')).not.toMatch(/using the slower pure-JS/);
  } finally {
    await page.close();
  }
}

const ready = existsSync(join(here, '../dist/index.js')) && existsSync(join(here, '../wasm/nen_core_bg.wasm'));

describe('Next.js 16 fixture app (Turbopack and webpack builds, Node + Edge routes, Chromium)', () => {
  afterAll(async () => {
    await browser?.close();
    await Promise.all([...children].map(stop));
  });

  it('the package is built (dist/ and wasm/)', () => {
    expect(ready, 'run `pnpm --filter @nen/core build` before this test').toBe(true);
    expect(existsSync(CHROMIUM), `${CHROMIUM} is required (apt install chromium)`).toBe(true);
  });

  for (const [label, args, edge] of [
    ['turbopack', ['build'], true],
    ['webpack', ['build', '--webpack'], false],
  ] as const) {
    it(`next ${args.join(' ')} → next start → routes + browser on Wasm`, async () => {
      expect(ready, 'run `pnpm --filter @nen/core build` before this test').toBe(true);
      const dir = copyApp(label, edge); // builds must not share output or sources
      try {
        await run(dir, [...args], { timeoutMs: 240_000 });
        const port = await freePort();
        const server = await start(dir, port);
        try {
          await checkDeployment(port, label, edge);
        } finally {
          await stop(server);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 300_000);
  }
});
