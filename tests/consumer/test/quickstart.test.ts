/**
 * External consumer: Nen as someone outside this workspace gets it.
 *
 *  1. `pnpm pack` @nen/core, @nen/client, @nen/server (workspace:* rewritten to versions) and check
 *     what each tarball holds: LICENSE, a README whose relative links resolve inside the tarball, no
 *     source maps, sources, tests or hazmat code, and a shipped Wasm without `hazmat_*` exports.
 *  2. A fresh app from the real generator, `create-next-app --empty --skip-install` (a devDependency
 *     of this package, so no download), in a temporary directory OUTSIDE the workspace.
 *  3. The README Quick start, taken from README.md by ./readme.ts, is the script: its shell lines
 *     run as written, its code blocks become the app's files. Two offline adaptations, both in
 *     `install()`: `npm install @nen/server @nen/client` installs the packed tarballs (pnpm, from the
 *     local store; @nen/core mapped to its tarball by an override), and next / react / react-dom
 *     are set to the workspace's versions so nothing is downloaded.
 *  4. `next build` with Turbopack and with `--webpack`; each build is started (`npm start`) and
 *     checked: the README's Node script round-trips (pinned from .env.local), Chromium
 *     (/usr/bin/chromium via playwright-core, never downloaded) renders the client component's
 *     results with the session pinned to the key `nen keygen --write` made, no request carries the
 *     plaintext, no unpinned warning; a server started with ANOTHER key on the same build is
 *     refused by the browser and by the Node script (the pin is what the build inlined).
 *     Beyond the Quick start, the app also gets an Edge route handler (`runtime = 'edge'`, withNen
 *     and the session routes from the main entry of @nen/server), round-tripped and replay-checked
 *     with @nen/client from Node under both builds.
 *  5. `require()` of the three packages works on Node 20 (this process) and Node 24
 *     (.tools/node24, installed by scripts/setup.sh): the `engines` range is what is tested.
 * Bounded: every command has a timeout, every server is stopped, the temporary directory removed.
 * Needs the packages built (`pnpm turbo run build --filter=@nen/server... --filter=@nen/client...`).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { createNenClient } from '@nen/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, mustSh, type Server, sh, startServer, stopAll, tarFiles } from './harness.js';
import { readQuickStart } from './readme.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const createNextApp = join(here, '../node_modules/.bin/create-next-app');
const NODE24 = join(repoRoot, '.tools/node24/bin/node');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PACKAGES = ['core', 'client', 'server'] as const;

/** The shell lines of the README Quick start, in order; each is run below exactly as written. */
const README_COMMANDS = [
  'npm install @nen/server @nen/client',
  'npx nen keygen --write',
  'npm run build && npm start',
  'node --env-file=.env.local scripts/notes.mjs',
];

/**
 * Beyond the Quick start: an Edge route handler as a user writes it (`runtime = 'edge'`, the main
 * entry of @nen/server, no bundler configuration). One catch-all serves the session routes and the
 * echo (Edge routes share no memory with each other). Next's Edge adapter appends the catch-all's
 * values to `request.url` as query parameters; @nen/server removes them before authenticating the
 * URL, so the route is written as on Node.
 */
const EDGE_FILES: Record<string, string> = {
  'lib/nen-edge.ts': `import { createNen, memoryStore } from '@nen/server';

export const nenEdge = createNen({ store: memoryStore({ name: 'edge' }) });
`,
  'app/api/edge/[...path]/route.ts': `import { nenEdge } from '@/lib/nen-edge';

export const runtime = 'edge';

const echo = nenEdge.withNen(async (request, _context, body) => ({ runtime: typeof (globalThis as { EdgeRuntime?: string }).EdgeRuntime, url: request.url.slice(request.url.indexOf('/api/')), body }));

export async function POST(request: Request, context: { params: Promise<{ path: string[] }> }) {
  const path = new URL(request.url).pathname;
  if (path.startsWith('/api/edge/nen/')) return nenEdge.routes.POST(request, context);
  if (path === '/api/edge/echo') return echo(request, context);
  return new Response('not found', { status: 404 });
}

export async function GET(request: Request, context: { params: Promise<{ path: string[] }> }) {
  return nenEdge.routes.GET(request, context);
}
`,
};

const quick = readQuickStart(repoRoot);
const work = mkdtempSync(join(tmpdir(), 'nen-consumer-'));
const app = join(work, 'app');
const tarballs = new Map<string, string>();
const servers: Server[] = [];
let browser: Browser | undefined;

/** The environment of a user's shell: no vitest / NODE_ENV=test, no Nen variables from outside. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false' };
  for (const k of Object.keys(env))
    if (k === 'NODE_ENV' || k === 'TEST' || k.startsWith('VITEST') || k.startsWith('NEN_') || k.startsWith('NEXT_PUBLIC_') || k === 'NODE_OPTIONS')
      delete env[k];
  return { ...env, ...extra };
}

function envLocal(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of readFileSync(join(app, '.env.local'), 'utf8').matchAll(/^([A-Z_]+)=(.*)$/gm)) out[m[1] as string] = m[2] as string;
  return out;
}

/** `npm install @nen/server @nen/client`, offline: the packed tarballs, with pnpm from the local store. */
function install(): void {
  const pkgPath = join(app, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { dependencies: Record<string, string> };
  const demo = JSON.parse(readFileSync(join(repoRoot, 'apps/demo/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of ['next', 'react', 'react-dom']) pkg.dependencies[dep] = demo.dependencies[dep] as string;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  // create-next-app --use-pnpm writes a pnpm-workspace.yaml (settings only); the override maps the
  // packages' own dependency on @nen/core to its tarball instead of the registry.
  const ws = join(app, 'pnpm-workspace.yaml');
  writeFileSync(ws, `${existsSync(ws) ? readFileSync(ws, 'utf8') : ''}\noverrides:\n  '@nen/core': 'file:${tarballs.get('core')}'\n`);
  mustSh(`pnpm add --prefer-offline '${tarballs.get('server')}' '${tarballs.get('client')}'`, app, userEnv(), 240_000);
}

async function start(extra: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // `npm start` of the README, on a free loopback port.
  const s = await startServer(`npm start -- -H 127.0.0.1 -p ${port}`, app, userEnv(extra), url);
  servers.push(s);
  return s;
}

async function stop(s: Server): Promise<void> {
  await s.stop();
  servers.splice(servers.indexOf(s), 1);
}

/** The README's Node script against `url`: its exit status and output. */
function nodeScript(url: string) {
  return sh('node --env-file=.env.local scripts/notes.mjs', app, userEnv({ APP_URL: url }), 60_000);
}

/** Loads the page and returns the client component's text once it finished (or failed), plus what left the browser. */
async function browse(url: string) {
  if (!browser) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  const sent: string[] = [];
  const received: string[] = [];
  const consoleLines: string[] = [];
  page.on('request', (r) => sent.push(`${r.url()}\n${r.postData() ?? ''}`));
  page.on('response', (r) => {
    if (r.url().includes('/api/')) received.push(r.url());
  });
  page.on('console', (m) => consoleLines.push(m.text()));
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForFunction(() => /stream |error /.test(document.querySelector('#nen')?.textContent ?? ''), undefined, { timeout: 30_000 });
    return { text: (await page.textContent('#nen')) ?? '', sent, received, consoleLines };
  } finally {
    await page.close();
  }
}

beforeAll(async () => {
  // 1. pack
  const tarDir = join(work, 'tarballs');
  mkdirSync(tarDir);
  for (const p of PACKAGES) {
    const dir = join(repoRoot, 'packages', p);
    expect(existsSync(join(dir, 'dist/index.js')), `build @nen/${p} first (pnpm turbo run build)`).toBe(true);
    mustSh(`pnpm pack --pack-destination '${tarDir}'`, dir, userEnv(), 120_000);
    const file = readdirSync(tarDir).find((f) => f.startsWith(`nen-${p}-`) && f.endsWith('.tgz'));
    if (!file) throw new Error(`pnpm pack made no tarball for @nen/${p}`);
    tarballs.set(p, join(tarDir, file));
  }
  // 2. a fresh app, outside the workspace
  mustSh(
    `'${createNextApp}' app --ts --app --no-tailwind --no-eslint --no-biome --no-src-dir --no-react-compiler --import-alias '@/*' --use-pnpm --skip-install --disable-git --no-agents-md --empty --yes`,
    work,
    userEnv(),
    120_000,
  );
  // 3. the Quick start, step by step
  expect(quick.commands).toEqual(README_COMMANDS);
  install();
  mustSh('npx nen keygen --write', app, userEnv(), 60_000);
  for (const [path, content] of quick.files) {
    mkdirSync(dirname(join(app, path)), { recursive: true });
    writeFileSync(join(app, path), content);
  }
  writeEdgeRoute();
}, 420_000);

/**
 * Adds the Edge route. create-next-app 16 turns on `cacheComponents` (and `partialPrefetching`,
 * which requires it); Next refuses `cacheComponents` together with any `runtime` segment config
 * ("Route segment config "runtime" is not compatible with `nextConfig.cacheComponents`"), so an
 * app with an Edge route turns both off, as a user must.
 */
function writeEdgeRoute(): void {
  const config = join(app, 'next.config.ts');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').replace('cacheComponents: true', 'cacheComponents: false').replace('partialPrefetching: true', 'partialPrefetching: false'),
  );
  for (const [path, content] of Object.entries(EDGE_FILES)) {
    mkdirSync(dirname(join(app, path)), { recursive: true });
    writeFileSync(join(app, path), content);
  }
}

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  for (const s of [...servers]) await s.stop();
  await stopAll();
  rmSync(work, { recursive: true, force: true });
});

describe('packed tarballs', () => {
  it.each(PACKAGES)('@nen/%s: LICENSE, README with resolvable links, no maps / sources / tests / hazmat, versions not workspace:', (p) => {
    const tgz = tarballs.get(p) as string;
    const files = tarFiles(tgz);
    for (const f of ['LICENSE', 'README.md', 'package.json']) expect(files, f).toContain(f);
    expect(files.filter((f) => /\.map$|^src\/|^test\/|\.test\.|hazmat/.test(f))).toEqual([]);
    const readme = mustSh(`tar -xzOf '${tgz}' package/README.md`, work);
    for (const m of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = (m[1] as string).split('#')[0] as string;
      if (/^https?:\/\//.test(target) || target === '') continue;
      expect(files, `README link ${target}`).toContain(target.replace(/^\.\//, ''));
    }
    const manifest = mustSh(`tar -xzOf '${tgz}' package/package.json`, work);
    expect(manifest).not.toContain('workspace:');
    expect(JSON.parse(manifest).license).toBe('MIT');
  });

  it('@nen/core ships a Wasm build without the hazmat (deterministic) entry points', () => {
    const files = tarFiles(tarballs.get('core') as string);
    expect(files).toContain('wasm/nen_core_bg.wasm');
    const wasm = join(work, 'shipped.wasm');
    mustSh(`tar -xzOf '${tarballs.get('core')}' package/wasm/nen_core_bg.wasm > '${wasm}'`, work);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(wasm))).map((e) => e.name);
    expect(names).toContain('setup_base_s_export');
    expect(names.filter((n) => n.includes('hazmat'))).toEqual([]);
    // (a doc comment of the crate mentions `hazmat_mlkem768_*`; no function of that name may exist)
    expect(mustSh(`tar -xzOf '${tarballs.get('core')}' package/wasm/nen_core.js`, work)).not.toMatch(/hazmat_\w+\s*\(/);
  });
});

describe('Quick start files', () => {
  it('every app file the README shows was written, and keygen wrote the pair and the store key', () => {
    expect([...quick.files.keys()].sort()).toEqual(
      [
        'app/api/nen/[action]/route.ts',
        'app/api/notes/route.ts',
        'app/api/stream/route.ts',
        'app/notes.tsx',
        'app/page.tsx',
        'lib/nen.ts',
        'scripts/notes.mjs',
      ].sort(),
    );
    const env = envLocal();
    expect(Object.keys(env).sort()).toEqual(['NEN_SERVER_KEYS', 'NEN_STORE_KEY', 'NEXT_PUBLIC_NEN_SERVER_KEY']);
    expect(env.NEXT_PUBLIC_NEN_SERVER_KEY?.split(':')[0]).toBe(env.NEN_SERVER_KEYS?.split(':')[0]);
  });

  it("Node: the README's default-client claims (relative URL needs baseUrl, no pin refuses, unpinned: true warns once)", () => {
    const pin = envLocal().NEXT_PUBLIC_NEN_SERVER_KEY as string;
    const run = (code: string, extra: Record<string, string>) => sh(`node --input-type=module -e "${code.replace(/"/g, '\\"')}"`, app, userEnv(extra), 30_000);
    const show = "const show = (e) => console.log('caught', e.code, e.message);";
    // A relative URL in Node without baseUrl: a typed error that names the fix.
    const relative = run(`import { nenFetch } from '@nen/client'; ${show} await nenFetch('/api/notes').then(() => console.log('no error'), show);`, {
      NEXT_PUBLIC_NEN_SERVER_KEY: pin,
    });
    expect(relative.stdout).toMatch(/^caught NEN_BAD_INPUT .*baseUrl/m);
    // No pin anywhere: the default client refuses to start.
    const unpinned = run(
      `import { nenFetch, defaultNenClient } from '@nen/client'; ${show}
      try { defaultNenClient({ baseUrl: 'http://127.0.0.1:9' }); console.log('no error'); } catch (e) { show(e); }`,
      {},
    );
    expect(unpinned.stdout).toMatch(/^caught NEN_BAD_SERVER_KEY /m);
    // unpinned: true on purpose: it runs (here against a closed loopback port) and warns exactly once.
    const optIn = run(
      `import { nenFetch, defaultNenClient } from '@nen/client'; ${show}
      defaultNenClient({ baseUrl: 'http://127.0.0.1:9', unpinned: true });
      for (let i = 0; i < 2; i++) await nenFetch('/api/notes').then(() => console.log('no error'), show);`,
      {},
    );
    expect(optIn.stdout).not.toContain('no error');
    expect(optIn.stderr.match(/^nen: /gm)?.length, optIn.stderr).toBe(1);
  });

  it('require() of every package works on Node 20 and Node 24 (engines: ^20.19 || >=22.12)', () => {
    expect(existsSync(NODE24), 'Node 24 missing: run scripts/setup.sh').toBe(true);
    const probe = `const s = require('@nen/server'), c = require('@nen/client');
      const k = require(require.resolve('@nen/core', { paths: [require('node:path').dirname(require.resolve('@nen/server'))] }));
      if (typeof s.createNen !== 'function' || typeof c.nenFetch !== 'function' || typeof k.loadBackend !== 'function') process.exit(3);
      console.log('ok', process.version)`;
    for (const node of [process.execPath, NODE24]) {
      // @nen/core is a dependency of the two installed packages (not of the app): resolved from @nen/server.
      const r = sh(`'${node}' -e "${probe.replace(/"/g, '\\"')}"`, app, userEnv(), 30_000);
      expect(r.status, `${node}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^ok v(20|24)\./);
    }
  });
});

for (const bundler of ['turbopack', 'webpack'] as const) {
  describe(`next build (${bundler}) + next start`, () => {
    let server: Server;
    let kid = '';

    beforeAll(async () => {
      const cmd = bundler === 'webpack' ? 'npm run build -- --webpack' : 'npm run build';
      const r = sh(cmd, app, userEnv(), 300_000);
      if (r.status !== 0) throw new Error(`next build (${bundler}) failed:\n${r.stdout.slice(-6000)}\n${r.stderr.slice(-6000)}`);
      kid = envLocal().NEN_SERVER_KEYS?.split(':')[0] ?? '';
      server = await start();
    }, 360_000);

    afterAll(async () => {
      if (server) await stop(server);
    });

    it('the README Node script round-trips, pinned from .env.local', () => {
      const r = nodeScript(server.url);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^200 \{"saved":"from node","count":\d+\}/m);
    });

    it("Edge route (runtime = 'edge') with withNen: round trip and replay refused", async () => {
      const sent: { url: string; init: RequestInit }[] = [];
      const client = createNenClient({
        baseUrl: server.url,
        sessionPath: '/api/edge/nen',
        serverKey: envLocal().NEXT_PUBLIC_NEN_SERVER_KEY as string,
        fetch: (input, init = {}) => {
          sent.push({ url: String(input), init: { ...init, headers: new Headers(init.headers) } });
          return fetch(input, init);
        },
      });
      const r = await client.fetch('/api/edge/echo?x=1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"from":"edge"}' });
      expect([r.status, await r.json()]).toEqual([200, { runtime: 'string', url: '/api/edge/echo?x=1', body: { from: 'edge' } }]);
      expect((await client.rotate()).epoch).toBe(1); // a sealed session call through the dynamic Edge route
      const last = sent[sent.length - 1]!;
      const replay = await fetch(last.url, last.init);
      expect([replay.status, replay.headers.get('nen-error')]).toEqual([409, 'NEN_REPLAY']);
      await replay.arrayBuffer();
    });

    it('Chromium: the client component gets every answer, pinned to the key from nen keygen; no plaintext on the wire', async () => {
      const { text, sent, received, consoleLines } = await browse(server.url);
      expect(text).not.toMatch(/error /);
      expect(text).toContain(`pinned to server key ${kid}`);
      expect(text).toMatch(/POST 200 \{"saved":"hello","count":\d+\}/);
      expect(text).toMatch(/GET 200 \{"notes":\[.*\{"title":"hello"\}.*\]\}/);
      expect(text).toContain('stream "data: post\\n\\ndata: quantum\\n\\ndata: hello\\n\\n"');
      expect(received.some((u) => u.includes('/api/nen/'))).toBe(true);
      expect(sent.filter((s) => s.includes('/api/') && s.includes('hello'))).toEqual([]);
      expect(consoleLines.filter((l) => /unpinned/i.test(l))).toEqual([]);
    });

    it('a server with another key, same build: the browser and the Node script refuse it (the pin holds)', async () => {
      const other = /^NEN_SERVER_KEYS=(\S+)$/m.exec(mustSh('npx nen keygen', app, userEnv(), 60_000))?.[1];
      expect(other).toBeDefined();
      const impostor = await start({ NEN_SERVER_KEYS: other as string });
      try {
        const { text } = await browse(impostor.url);
        expect(text).toMatch(/error NEN_/);
        expect(text).not.toContain('POST 200');
        const r = nodeScript(impostor.url);
        expect(r.status).not.toBe(0);
        expect(r.stdout).not.toMatch(/^200 /m);
      } finally {
        await stop(impostor);
      }
    });
  });
}
