/**
 * Runs ./worker.ts and ./client-worker.ts on real workerd (npm `workerd`, Cloudflare's runtime
 * binary, no download at run time): bundles them with esbuild under wrangler's export conditions
 * (workerd, worker, browser) and, like wrangler, `.wasm` imports as Wasm modules of the Worker,
 * writes a workerd config with THREE Workers on three loopback ports:
 *  - `a` and `b`: two isolates serving Nen, bound to ONE Durable Object namespace
 *    (NenSessionObject, SQLite-backed: `enableSql`), stored on disk (`localDisk` over a writable
 *    disk service in the temporary directory, `do/`), so a restart on the same directory keeps it;
 *  - `c`: a Worker that uses @nen/client (its built package) to call `a` over a service binding.
 * NEN_STORE_KEY, when given, is bound to `a` (the Worker that defines the object: its env);
 * NEN_OHTTP_KEYS, when given, to `a` and `b` (both then serve the OHTTP gateway).
 * Starts `workerd serve` and stops it (SIGTERM, then SIGKILL: ./process.ts, shared with wrangler.test.ts).
 * Bounded: start-up waits at most 20 s; the temporary directory is removed on stop unless kept.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { freePort, startProcess } from './process.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export interface Workerd {
  /** Base URLs of the two Nen Workers (separate isolates sharing the Durable Object namespace). */
  readonly urls: readonly [string, string];
  /** Base URL of the Worker running @nen/client against `a` (service binding). */
  readonly clientUrl: string;
  /** The bundled Nen Worker source (to check what it imports). */
  readonly bundle: string;
  /** The bundled client Worker source. */
  readonly clientBundle: string;
  /** Every source file esbuild bundled (paths relative to the package), e.g. to see which @nen/client entry. */
  readonly inputs: readonly string[];
  /** The temporary directory; the Durable Objects' files are under `do/`. */
  readonly dir: string;
  /** workerd's stderr so far. */
  logs(): string;
  /** Stops workerd; removes the directory unless `keepDir` (to start again on it). */
  stop(options?: { keepDir?: boolean }): Promise<void>;
}

export interface WorkerdOptions {
  /** Reuse this directory (and the Durable Objects stored in it) instead of a new one. */
  dir?: string;
  /** NEN_STORE_KEY for the Worker that defines the Durable Object. */
  storeKey?: string;
  /** Pin of the server key, for the client Worker. */
  pin?: string;
  /** NEN_OHTTP_KEYS for both Nen Workers: they then serve the OHTTP gateway (./worker.ts). */
  ohttpKeys?: string;
}

/** The real workerd binary of the `workerd` npm package (its platform package), not the Node shim: signals reach it. */
function workerdBinary(): string {
  const fromWorkerd = createRequire(require.resolve('workerd/package.json'));
  const arch = process.arch === 'x64' ? '64' : process.arch;
  return fromWorkerd.resolve(`@cloudflare/workerd-${process.platform}-${arch}/bin/workerd`);
}

interface ConfigInput {
  ports: [number, number, number];
  keys: string;
  wasm: string[];
  dir: string;
  storeKey?: string;
  pin: string;
  ohttpKeys?: string;
}

const config = ({ ports, keys, wasm, dir, storeKey, pin, ohttpKeys }: ConfigInput) => {
  const modules = (main: string) => [`(name = "${main}", esModule = embed "${main}")`, ...wasm.map((w) => `(name = "${w}", wasm = embed "${w}")`)].join(', ');
  const storeKeyBinding = storeKey === undefined ? '' : `(name = "NEN_STORE_KEY", text = ${JSON.stringify(storeKey)}),`;
  const ohttpBinding = ohttpKeys === undefined ? '' : `(name = "NEN_OHTTP_KEYS", text = ${JSON.stringify(ohttpKeys)}),`;
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "a", worker = .a), (name = "b", worker = .b), (name = "c", worker = .c),
    (name = "do-disk", disk = (path = ${JSON.stringify(join(dir, 'do'))}, writable = true)),
  ],
  sockets = [
    ( name = "a", address = "127.0.0.1:${ports[0]}", http = (), service = "a" ),
    ( name = "b", address = "127.0.0.1:${ports[1]}", http = (), service = "b" ),
    ( name = "c", address = "127.0.0.1:${ports[2]}", http = (), service = "c" ),
  ],
);
const a :Workerd.Worker = (
  modules = [ ${modules('worker.js')} ],
  compatibilityDate = "2025-09-01",
  durableObjectNamespaces = [ (className = "NenSessionObject", uniqueKey = "nen-test-sessions", enableSql = true) ],
  durableObjectStorage = (localDisk = "do-disk"),
  bindings = [
    (name = "NEN_SESSIONS", durableObjectNamespace = (className = "NenSessionObject")),
    (name = "NEN_SERVER_KEYS", text = ${JSON.stringify(keys)}),
    ${storeKeyBinding}
    ${ohttpBinding}
    (name = "INSTANCE", text = "a"),
  ],
);
const b :Workerd.Worker = (
  modules = [ ${modules('worker.js')} ],
  compatibilityDate = "2025-09-01",
  bindings = [
    (name = "NEN_SESSIONS", durableObjectNamespace = (className = "NenSessionObject", serviceName = "a")),
    (name = "NEN_SERVER_KEYS", text = ${JSON.stringify(keys)}),
    ${ohttpBinding}
    (name = "INSTANCE", text = "b"),
  ],
);
const c :Workerd.Worker = (
  modules = [ ${modules('client.js')} ],
  compatibilityDate = "2025-09-01",
  bindings = [
    (name = "NEN_SERVER", service = "a"),
    (name = "PIN", text = ${JSON.stringify(pin)}),
  ],
);
`;
};

export async function startWorkerd(serverKeys: string, options: WorkerdOptions = {}): Promise<Workerd> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'nen-workerd-'));
  mkdirSync(join(dir, 'do'), { recursive: true });
  const wasmFiles = new Map<string, string>();
  const out = await build({
    entryPoints: { worker: join(here, 'worker.ts'), client: join(here, 'client-worker.ts') },
    outdir: dir,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2022',
    write: false,
    metafile: true,
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
  for (const f of out.outputFiles) writeFileSync(f.path, f.contents);
  const bundle = out.outputFiles.find((f) => basename(f.path) === 'worker.js')!.text;
  const clientBundle = out.outputFiles.find((f) => basename(f.path) === 'client.js')!.text;
  const ports: [number, number, number] = [await freePort(), await freePort(), await freePort()];
  const input: ConfigInput = { ports, keys: serverKeys, wasm: [...wasmFiles.keys()], dir, pin: options.pin ?? '' };
  if (options.storeKey !== undefined) input.storeKey = options.storeKey;
  if (options.ohttpKeys !== undefined) input.ohttpKeys = options.ohttpKeys;
  writeFileSync(join(dir, 'config.capnp'), config(input));
  const urls: [string, string] = [`http://127.0.0.1:${ports[0]}`, `http://127.0.0.1:${ports[1]}`];
  const clientUrl = `http://127.0.0.1:${ports[2]}`;
  const up = async (): Promise<boolean> => {
    const health = (u: string) =>
      fetch(`${u}/health`).then(
        (r) => r.arrayBuffer().then(() => true),
        () => false,
      );
    return (await Promise.all([...urls, clientUrl].map(health))).every(Boolean);
  };
  const args = ['serve', 'config.capnp', '--verbose'];
  const p = await startProcess({
    name: 'workerd',
    command: workerdBinary(),
    args,
    cwd: dir,
    dir,
    killAfterMs: 3000,
    ready: up,
    readyWithinMs: 20_000,
    pollMs: 100,
  });
  return { urls, clientUrl, bundle, clientBundle, inputs: Object.keys(out.metafile.inputs), dir, logs: p.logs, stop: p.stop };
}
