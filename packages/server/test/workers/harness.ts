/**
 * Runs ./worker.ts on real workerd (npm `workerd`, Cloudflare's runtime binary, no download at
 * run time): bundles it with esbuild under wrangler's export conditions (workerd, worker, browser)
 * and, like wrangler, `.wasm` imports as Wasm modules of the Worker,
 * writes a workerd config with TWO Workers (two isolates, two loopback ports) bound to ONE
 * Durable Object namespace, starts `workerd serve`, and stops it (SIGTERM, then SIGKILL).
 * Bounded: start-up waits at most 20 s; the temporary directory is removed on stop.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export interface Workerd {
  /** Base URLs of the two Workers (separate isolates sharing the Durable Object namespace). */
  readonly urls: readonly [string, string];
  /** The bundled Worker source (to check what it imports). */
  readonly bundle: string;
  /** workerd's stderr so far. */
  logs(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The real workerd binary of the `workerd` npm package (its platform package), not the Node shim: signals reach it. */
function workerdBinary(): string {
  const fromWorkerd = createRequire(require.resolve('workerd/package.json'));
  const arch = process.arch === 'x64' ? '64' : process.arch;
  return fromWorkerd.resolve(`@cloudflare/workerd-${process.platform}-${arch}/bin/workerd`);
}

const config = (ports: [number, number], keys: string, wasm: string[]) => {
  const modules = ['(name = "worker.js", esModule = embed "worker.js")', ...wasm.map((w) => `(name = "${w}", wasm = embed "${w}")`)].join(', ');
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "a", worker = .a), (name = "b", worker = .b) ],
  sockets = [
    ( name = "a", address = "127.0.0.1:${ports[0]}", http = (), service = "a" ),
    ( name = "b", address = "127.0.0.1:${ports[1]}", http = (), service = "b" ),
  ],
);
const a :Workerd.Worker = (
  modules = [ ${modules} ],
  compatibilityDate = "2025-09-01",
  durableObjectNamespaces = [ (className = "NenSessionObject", uniqueKey = "nen-test-sessions") ],
  durableObjectStorage = (inMemory = void),
  bindings = [
    (name = "NEN_SESSIONS", durableObjectNamespace = (className = "NenSessionObject")),
    (name = "NEN_SERVER_KEYS", text = ${JSON.stringify(keys)}),
    (name = "INSTANCE", text = "a"),
  ],
);
const b :Workerd.Worker = (
  modules = [ ${modules} ],
  compatibilityDate = "2025-09-01",
  bindings = [
    (name = "NEN_SESSIONS", durableObjectNamespace = (className = "NenSessionObject", serviceName = "a")),
    (name = "NEN_SERVER_KEYS", text = ${JSON.stringify(keys)}),
    (name = "INSTANCE", text = "b"),
  ],
);
`;
};

export async function startWorkerd(serverKeys: string): Promise<Workerd> {
  const dir = mkdtempSync(join(tmpdir(), 'nen-workerd-'));
  const wasmFiles = new Map<string, string>();
  const out = await build({
    entryPoints: [join(here, 'worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    // As wrangler does: a `.wasm` import is a Wasm module of the Worker (compiled by workerd, which
    // forbids compiling Wasm from bytes at run time), not bundled code.
    plugins: [
      {
        name: 'wasm-modules',
        setup(b) {
          b.onResolve({ filter: /\.wasm$/ }, (args) => {
            const file = join(args.resolveDir, args.path);
            wasmFiles.set(basename(file), file);
            return { path: basename(file), external: true };
          });
        },
      },
    ],
  });
  for (const [name, file] of wasmFiles) copyFileSync(file, join(dir, name));
  const bundle = out.outputFiles[0]!.text;
  writeFileSync(join(dir, 'worker.js'), bundle);
  const ports: [number, number] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'config.capnp'), config(ports, serverKeys, [...wasmFiles.keys()]));
  let stderr = '';
  const child: ChildProcess = spawn(workerdBinary(), ['serve', 'config.capnp', '--verbose'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => void (stderr.length < 200_000 && (stderr += d.toString())));
  child.stderr!.on('data', (d: Buffer) => void (stderr.length < 200_000 && (stderr += d.toString())));
  const urls: [string, string] = [`http://127.0.0.1:${ports[0]}`, `http://127.0.0.1:${ports[1]}`];
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`workerd exited with ${child.exitCode}:\n${stderr.slice(-4000)}`);
    }
    const up = await Promise.all(
      urls.map((u) =>
        fetch(`${u}/health`).then(
          (r) => r.arrayBuffer().then(() => true),
          () => false,
        ),
      ),
    );
    if (up.every(Boolean)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`workerd did not listen within 20 s:\n${stderr.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { urls, bundle, logs: () => stderr, stop };
}
