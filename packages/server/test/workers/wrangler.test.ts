/**
 * The documented Cloudflare Workers setup, run as a user runs it: `wrangler dev` (npm `wrangler`,
 * local mode) on the Worker entry, the wrangler.toml and the commands that docs/runtimes.md shows
 * (section "Durable Object"), taken from the docs by `documentedSetup` below, so docs and test
 * cannot drift. The project is written to a temporary directory whose `node_modules/@nen/server`
 * links to this package: wrangler bundles the Worker with its own esbuild from the built `dist/`,
 * through the package's exports (as from npm), and keeps the Durable Objects under `.wrangler/state`
 * there. The secrets come from the docs' `nen keygen --write=.dev.vars` (this package's bin).
 * The built @nen/client then talks to it over loopback HTTP:
 *  - pinned handshake and encrypted request (withNen, sessions in the NenSessionObject Durable Object);
 *  - replay of a captured sealed request refused (409 NEN_REPLAY);
 *  - tamper refused (401 NEN_AUTH_FAILED) and the session unharmed;
 *  - terminate authenticated: a sealed request re-aimed at /api/nen/terminate is 401 and changes
 *    nothing; the client's terminate ends the session (the captured request is then 401 unknown);
 *  - a compressed request is inflated, a decompression bomb stopped at the body limit.
 * Twice: as documented, and dated before 2026-08-04 (workerd's node:zlib vs fflate, see VARIANTS).
 * Offline and without an account: CLOUDFLARE_API_TOKEN and friends removed, WRANGLER_SEND_METRICS=false,
 * CLOUDFLARE_CF_FETCH_ENABLED=false (else wrangler fetches the `Request.cf` placeholder from the
 * network and warns when it cannot), XDG_CONFIG_HOME in the temporary directory, free loopback
 * ports for the server and the inspector, no interactive session.
 * Node: wrangler 4 refuses Node < 22.12 in its `bin/wrangler.js`. Under an older Node (this
 * repository supports Node 20.19) the test runs it with the Node 24 that scripts/setup.sh installs
 * (.tools/node24); without that, wrangler's own `wrangler-dist/cli.js` (what its bin starts) on the
 * current Node, which wrangler tolerates with a warning.
 * Bounded: start-up waits at most 45 s; wrangler and its workerd run in their own process group,
 * stopped with SIGTERM and, after 5 s, SIGKILL; the temporary directory is removed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNenClient, type NenClient } from '@nen/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, last, recordingFetch, resend, type Sent } from './capture.js';
import { freePort, startProcess } from './process.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = join(here, '..', '..');
const repoRoot = join(pkgRoot, '..', '..');
const require = createRequire(import.meta.url);

/** The commands of the docs' block, in order: each is run below as written (npx mapped to the local bins). */
const DOC_COMMANDS = ['npx nen keygen --write=.dev.vars', 'npx wrangler dev'];

interface DocumentedSetup {
  worker: string;
  wranglerToml: string;
  commands: string[];
}

/** The Worker entry, wrangler.toml and commands of docs/runtimes.md's "Durable Object" section. */
function documentedSetup(): DocumentedSetup {
  const md = readFileSync(join(repoRoot, 'docs', 'runtimes.md'), 'utf8');
  const start = md.indexOf('### Durable Object');
  const section = md.slice(start, md.indexOf('\n### ', start + 1));
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
  const find = (lang: string, first: string): string => {
    const b = blocks.find((x) => x.lang === lang && x.body.startsWith(first));
    if (!b) throw new Error(`docs/runtimes.md: no \`\`\`${lang} block starting with "${first}" in the Durable Object section`);
    return b.body;
  };
  const sh = blocks.find((x) => x.lang === 'sh' && /wrangler dev/.test(x.body));
  if (!sh) throw new Error('docs/runtimes.md: no ```sh block with `wrangler dev` in the Durable Object section');
  const commands = sh.body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  return { worker: find('ts', '// src/worker.ts\n'), wranglerToml: find('toml', '# wrangler.toml\n'), commands };
}

/** How to start wrangler: its bin on a Node it accepts (>= 22.12), else its cli.js on this Node. */
function wranglerCommand(): { node: string; script: string; note: string } {
  const root = dirname(require.resolve('wrangler/package.json'));
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const supported = major > 22 || (major === 22 && minor >= 12);
  if (supported) return { node: process.execPath, script: join(root, 'bin', 'wrangler.js'), note: `Node ${process.version}` };
  const node24 = join(repoRoot, '.tools', 'node24', 'bin', 'node');
  if (existsSync(node24)) return { node: node24, script: join(root, 'bin', 'wrangler.js'), note: 'Node 24 from .tools/node24' };
  return { node: process.execPath, script: join(root, 'wrangler-dist', 'cli.js'), note: `Node ${process.version}, wrangler-dist/cli.js` };
}

/** The environment of a user with no Cloudflare account and no network. */
function offlineEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (/^(CLOUDFLARE_|CF_API|WRANGLER_)/.test(k)) delete env[k];
  return {
    ...env,
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    XDG_CONFIG_HOME: join(dir, 'xdg'),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
}

interface Dev {
  url: string;
  dir: string;
  pin: string;
  note: string;
  logs(): string;
  stop(): Promise<void>;
}

async function startWranglerDev(setup: DocumentedSetup): Promise<Dev> {
  const dir = mkdtempSync(join(tmpdir(), 'nen-wrangler-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'xdg'));
  mkdirSync(join(dir, 'node_modules', '@nen'), { recursive: true });
  symlinkSync(pkgRoot, join(dir, 'node_modules', '@nen', 'server'), 'dir');
  writeFileSync(join(dir, 'src', 'worker.ts'), setup.worker);
  writeFileSync(join(dir, 'wrangler.toml'), setup.wranglerToml);
  const env = offlineEnv(dir);
  // `npx nen keygen --write=.dev.vars`: this package's bin.
  const keygen = spawnSync(process.execPath, [join(pkgRoot, 'bin', 'nen.js'), 'keygen', '--write=.dev.vars'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (keygen.status !== 0) throw new Error(`nen keygen failed: ${keygen.stderr}`);
  const vars = readFileSync(join(dir, '.dev.vars'), 'utf8');
  const pin = /^NEXT_PUBLIC_NEN_SERVER_KEY=(.+)$/m.exec(vars)?.[1];
  if (!pin) throw new Error(`.dev.vars has no pin:\n${vars}`);
  // `npx wrangler dev`, local, on free loopback ports.
  const [port, inspector] = [await freePort(), await freePort()];
  const w = wranglerCommand();
  const args = [w.script, 'dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector), '--show-interactive-dev-session=false'];
  const url = `http://127.0.0.1:${port}`;
  // Ready when the Worker itself answers: GET on a session route is Nen's 405.
  const serves = async (): Promise<boolean> => {
    const r = await fetch(`${url}/api/nen/handshake`, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
    if (r) await r.arrayBuffer().catch(() => undefined);
    return r?.headers.get('nen-error') === 'NEN_METHOD_NOT_ALLOWED';
  };
  // Its own process group: wrangler and the workerd it starts are stopped together.
  const p = await startProcess({
    name: 'wrangler dev',
    command: w.node,
    args,
    cwd: dir,
    dir,
    env,
    group: true,
    killAfterMs: 5000,
    ready: serves,
    readyWithinMs: 45_000,
    pollMs: 250,
  });
  return { url, dir, pin, note: w.note, logs: p.logs, stop: () => p.stop() };
}

interface Variant {
  /** What the variant changes in the documented wrangler.toml. */
  toml(documented: string): string;
  /** What the server answers a decompression bomb (see the test). */
  bomb: [number, string];
}

/**
 * The documented setup, and the same with a compatibility date before 2026-08-04. From that date
 * on, workerd turns `nodejs_compat` on by default: `process.getBuiltinModule('node:zlib')` exists,
 * and @nen/core's compression (packages/core/src/protocol/compression.ts) picks workerd's node:zlib;
 * before it (and in workerd.test.ts, dated 2025-09-01) the server inflates with fflate.
 */
const VARIANTS: [string, Variant][] = [
  // workerd's inflateRawSync stops at maxOutputLength with a RangeError ("Memory limit exceeded",
  // no ERR_BUFFER_TOO_LARGE code): core maps it to 413 NEN_TOO_LARGE as on Node.
  ['as documented (workerd node:zlib)', { toml: (t) => t, bomb: [413, 'NEN_TOO_LARGE'] }],
  [
    'with compatibility_date = "2026-08-01" (fflate)',
    {
      toml: (t) => {
        const changed = t.replace(/^compatibility_date = .*$/m, 'compatibility_date = "2026-08-01"');
        if (changed === t) throw new Error('docs/runtimes.md: the wrangler.toml block has no compatibility_date line');
        return changed;
      },
      bomb: [413, 'NEN_TOO_LARGE'],
    },
  ],
];

/** A client of the dev server; every request it sends is recorded with its body bytes. */
function client(dev: Dev, options: { compress?: boolean } = {}): { c: NenClient; sent: Sent[] } {
  const sent: Sent[] = [];
  return { c: createNenClient({ baseUrl: dev.url, serverKey: dev.pin, fetch: recordingFetch(sent), ...options }), sent };
}

/** Sends a recorded request again (see capture.ts): its status and Nen error code. */
const again = (s: Sent, options: { path?: string; body?: Uint8Array } = {}): Promise<[number, string | null]> => answer(resend(s, options));

const echo = async (c: NenClient, value: unknown): Promise<Response> =>
  c.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });

describe.each(VARIANTS)('the documented Workers setup under wrangler dev (docs/runtimes.md), %s', (_name, variant) => {
  let setup: DocumentedSetup;
  let dev: Dev;

  beforeAll(async () => {
    const documented = documentedSetup();
    setup = { ...documented, wranglerToml: variant.toml(documented.wranglerToml) };
    dev = await startWranglerDev(setup);
  }, 60_000);

  afterAll(async () => {
    await dev?.stop();
  });

  it('runs the commands the docs show, and wrangler dev serves the documented Worker locally, offline', () => {
    expect(setup.commands).toEqual(DOC_COMMANDS);
    expect(setup.wranglerToml).toMatch(/new_sqlite_classes = \["NenSessionObject"\]/);
    const logs = dev.logs();
    expect(logs, dev.note).toMatch(/Ready on http:\/\/127\.0\.0\.1:/);
    expect(logs).toMatch(/env\.NEN_SESSIONS \(NenSessionObject\)\s+Durable Object\s+local/);
    expect(logs).not.toMatch(/Request\.cf|Wasm unavailable|@noble/);
  });

  it('pinned handshake and encrypted request; the session lives in the Durable Object, persisted under .wrangler/state', async () => {
    const { c, sent } = client(dev);
    const r = await echo(c, { hello: 'wrangler' });
    expect([r.status, await r.json()]).toEqual([200, { received: { hello: 'wrangler' } }]);
    expect(sent.map((s) => new URL(s.url).pathname)).toEqual(['/api/nen/handshake', '/api/echo']);
    // What went over the wire is sealed: the plaintext is not in it.
    expect(Buffer.from(sent[1]!.body!).toString('latin1')).not.toContain('wrangler');
    const doDir = join(dev.dir, '.wrangler', 'state', 'v3', 'do');
    const files = existsSync(doDir) ? readdirSync(doDir, { recursive: true }).map(String) : [];
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    // A wrong pin is refused by the client before any request is sealed.
    const wrong = createNenClient({ baseUrl: dev.url, serverKey: `${dev.pin.split(':')[0]}:${'A'.repeat(dev.pin.split(':')[1]!.length)}` });
    await expect(echo(wrong, 1)).rejects.toThrow();
  });

  it('replay of a captured sealed request is refused: 409 NEN_REPLAY', async () => {
    const { c, sent } = client(dev);
    await (await echo(c, 'once')).arrayBuffer();
    const captured = last(sent);
    expect(await again(captured)).toEqual([409, 'NEN_REPLAY']);
    expect(await again(captured)).toEqual([409, 'NEN_REPLAY']);
  });

  it('tamper is refused: one flipped ciphertext byte is 401 NEN_AUTH_FAILED; the session goes on', async () => {
    const { c, sent } = client(dev);
    await (await echo(c, 'original')).arrayBuffer();
    const captured = last(sent);
    const bad = captured.body!.slice();
    bad[bad.length - 1]! ^= 1;
    expect(await again(captured, { body: bad })).toEqual([401, 'NEN_AUTH_FAILED']);
    expect(await (await echo(c, 7)).json()).toEqual({ received: 7 });
  });

  it('terminate is authenticated: a forged terminate is refused and changes nothing; the real one ends the session', async () => {
    const { c, sent } = client(dev);
    await (await echo(c, 'x')).arrayBuffer();
    const captured = last(sent);
    // A genuine sealed request re-aimed at the terminate action: the path is sealed, so 401.
    expect(await again(captured, { path: '/api/nen/terminate' })).toEqual([401, 'NEN_AUTH_FAILED']);
    const unsealed = fetch(`${dev.url}/api/nen/terminate`, { method: 'POST', body: 'terminate' });
    expect(await answer(unsealed)).toEqual([400, 'NEN_NOT_ENCRYPTED']);
    expect(await (await echo(c, 'alive')).json()).toEqual({ received: 'alive' });
    await c.terminate();
    const [status, code] = await again(captured);
    expect(status).toBe(401);
    expect(['NEN_SESSION_UNKNOWN', 'NEN_SESSION_EXPIRED']).toContain(code);
    // The client makes a new session on its next request.
    const before = sent.length;
    expect(await (await echo(c, 'again')).json()).toEqual({ received: 'again' });
    expect(sent.slice(before).map((s) => new URL(s.url).pathname)).toEqual(['/api/nen/handshake', '/api/echo']);
  });

  it(`a compressed request is inflated; a decompression bomb is stopped at the limit (${variant.bomb.join(' ')}), never a 5xx`, async () => {
    const { c, sent } = client(dev, { compress: true });
    const big = 'compressible '.repeat(20_000);
    expect(await (await echo(c, big)).json()).toEqual({ received: big });
    expect(last(sent).body!.length).toBeLessThan(big.length / 20);
    // 5 MiB of one byte, a few KiB sealed: past the server's 4 MiB body limit once inflated.
    const status = await echo(c, 'x'.repeat(5 * 1024 * 1024)).then(
      async (r) => [r.status, r.headers.get('nen-error'), await r.arrayBuffer().then(() => '')],
      (e: { status?: number; code?: string }) => [e.status, e.code, 'thrown'],
    );
    expect(status.slice(0, 2)).toEqual(variant.bomb);
    expect(last(sent).body!.length).toBeLessThan(64 * 1024);
  });
});
