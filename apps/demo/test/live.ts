/**
 * Shared harness for the demo's live suites (e2e, hostile, fault, soak) and the bench's quick test:
 * builds the demo once per distDir (skipped when `<distDir>/BUILD_ID` is newer than the sources),
 * generates a server key with the real `nen keygen` CLI, and runs `next start` on a free
 * 127.0.0.1 port with a given environment.
 * Also a raw HTTP/1.1 client over node:net, so tests can send what `fetch` refuses to send
 * (duplicated or non-ASCII headers, lying Content-Length, trickled bodies).
 *
 * Pitfalls:
 *  - Every process started here is tracked; `stop()` sends SIGTERM, then SIGKILL after 5 s, and
 *    waits for the exit. Tests call it in afterAll (and `stopAll()` is a last resort).
 *  - All waits are deadline loops; the raw client has a hard timeout and always destroys its socket.
 *  - The free port comes from tests/support/free-port.mjs (bind port 0, close); a restart reuses the same port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../tests/support/free-port.mjs';

// Re-exported for the demo's other live suites (e2e-processes, e2e-redis, notes-redis).
export { freePort };

export const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(appDir, '../..');
const nextBin = join(appDir, 'node_modules/next/dist/bin/next');

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Newest modification time below `path` (bounded depth), skipping dependencies and build outputs. */
export function newestMtime(path: string, depth = 0): number {
  if (!existsSync(path) || depth > 8) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.next') || name === 'test-results') continue;
    newest = Math.max(newest, newestMtime(join(path, name), depth + 1));
  }
  return newest;
}

/**
 * The build directory for a suite that keeps its own (`own`, e.g. `.next-e2e`) so that another
 * `next build` in the same checkout can never rewrite what it serves. Under CI or the whole suite
 * (scripts/test.sh sets NEN_TEST_SHARED_BUILD: one package at a time, after the build stage) it is
 * `.next`, which the build stage has just produced, instead of building the demo again.
 */
export function suiteDistDir(own: string): string {
  return process.env.CI || process.env.NEN_TEST_SHARED_BUILD ? '.next' : own;
}

/** True when `<distDir>/BUILD_ID` is newer than the app's sources, the SDK packages' builds and the Wasm. */
export function buildIsFresh(distDir = '.next'): boolean {
  const id = join(appDir, distDir, 'BUILD_ID');
  if (!existsSync(id)) return false;
  const built = statSync(id).mtimeMs;
  const inputs = ['app', 'components', 'lib', 'next.config.ts', 'package.json'].map((p) => join(appDir, p));
  inputs.push(...['client', 'server', 'core'].map((p) => join(repoRoot, 'packages', p, 'dist')), join(repoRoot, 'packages/core/wasm'));
  return inputs.every((p) => newestMtime(p) < built);
}

/**
 * `next build` into `distDir` (the demo's next.config honours NEXT_DIST_DIR; other suites keep
 * their own so concurrent builds in one checkout cannot rewrite what they serve) unless the
 * existing build is newer than every input. `webpack` builds with `next build --webpack`.
 */
export function ensureBuilt(options: { distDir?: string; webpack?: boolean } = {}): void {
  const distDir = options.distDir ?? '.next';
  const args = [nextBin, 'build', ...(options.webpack ? ['--webpack'] : [])];
  // Other suites (e2e, bench) build the same app: when their build holds Next's lock, wait for it
  // (bounded: 30 tries × 10 s) and use its output if it is fresh.
  for (let attempt = 0; attempt < 30; attempt++) {
    if (buildIsFresh(distDir)) return;
    const build = spawnSync(process.execPath, args, {
      cwd: appDir,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: distDir },
    });
    if (build.status === 0) return;
    if (!/Another next build process is already running/.test(`${build.stdout}${build.stderr}`))
      throw new Error(`next build failed:\n${build.stdout}\n${build.stderr}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  }
  throw new Error('next build: another build kept the lock for 5 minutes');
}

/** A fresh server key from the real CLI: the NEN_SERVER_KEYS value and the client pin. */
export function keygen(): { env: string; pin: string } {
  const cli = join(repoRoot, 'packages/server/dist/cli.js');
  const out = spawnSync(process.execPath, [cli, 'keygen'], { encoding: 'utf8', timeout: 30_000 });
  if (out.status !== 0) throw new Error(`nen keygen failed: ${out.stderr}`);
  const text = `${out.stdout}\n${out.stderr}`;
  const env = /NEN_SERVER_KEYS=(\S+)/.exec(text)?.[1];
  const pin = /NEXT_PUBLIC_NEN_SERVER_KEY=(\S+)/.exec(text)?.[1] ?? /NEN_SERVER_PIN=(\S+)/.exec(text)?.[1] ?? /NEN_SERVER_KEY=(\S+)/.exec(text)?.[1];
  if (!env || !pin) throw new Error(`cannot parse nen keygen output:\n${text.replace(/NEN_SERVER_KEYS=\S+/, 'NEN_SERVER_KEYS=<redacted>')}`);
  return { env: env.replace(/^['"]|['"]$/g, ''), pin: pin.replace(/^['"]|['"]$/g, '') };
}

export interface LiveServer {
  readonly url: string;
  readonly port: number;
  /** The client pin of the server key; '' when started with `keys: null`. */
  readonly pin: string;
  readonly env: NodeJS.ProcessEnv;
  /** The last 40 kB of the server's stdout + stderr. */
  log(): string;
  pid(): number | undefined;
  alive(): boolean;
  /** SIGTERM (SIGKILL after 5 s) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stop, then start again on the same port with the same environment. */
  restart(): Promise<void>;
  metrics(): Promise<BenchMetrics>;
}

export interface BenchMetrics {
  rss: number;
  heapUsed: number;
  external: number;
  sessions: number | null;
  counters: Record<string, number>;
  storeKind: string;
}

const live = new Set<ChildProcess>();

export interface StartOptions {
  /** Extra environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** The server key; default a fresh one from `nen keygen`; `null` sets none (the app generates its own at start). */
  keys?: { env: string; pin: string } | null;
  port?: number;
  /** Build directory (NEXT_DIST_DIR), built by ensureBuilt when stale; default `.next`. */
  distDir?: string;
  /** How long to wait for /api/bench/metrics to answer 200; default 60 s. */
  readyTimeoutMs?: number;
}

export async function startNext(options: StartOptions = {}): Promise<LiveServer> {
  const distDir = options.distDir ?? '.next';
  ensureBuilt({ distDir });
  const keys = options.keys === null ? null : (options.keys ?? keygen());
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const readyMs = options.readyTimeoutMs ?? 60_000;
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: distDir, NEN_BENCH_METRICS: '1' };
  delete env.REDIS_URL;
  if (keys) {
    env.NEN_SERVER_KEYS = keys.env;
    env.NEN_SERVER_PIN = keys.pin;
  }
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  let child: ChildProcess | undefined;
  let text = '';
  const launch = async () => {
    const c = spawn(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    live.add(c);
    c.once('exit', () => live.delete(c));
    const keep = (chunk: Buffer) => {
      text = (text + chunk.toString()).slice(-40_000);
    };
    c.stdout?.on('data', keep);
    c.stderr?.on('data', keep);
    const deadline = Date.now() + readyMs;
    while (Date.now() < deadline) {
      if (c.exitCode !== null) throw new Error(`next start exited early:\n${text}`);
      try {
        const res = await fetch(`${url}/api/bench/metrics`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error(`next start did not answer within ${readyMs} ms:\n${text}`);
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
    timer.unref();
    await exited;
    clearTimeout(timer);
  };
  await launch();
  return {
    url,
    port,
    pin: keys?.pin ?? '',
    env,
    log: () => text,
    pid: () => child?.pid,
    alive: () => !!child && child.exitCode === null && child.signalCode === null,
    stop,
    async restart() {
      await stop();
      await launch();
    },
    async metrics() {
      const res = await fetch(`${url}/api/bench/metrics`, { signal: AbortSignal.timeout(5000) });
      return (await res.json()) as BenchMetrics;
    },
  };
}

/** Last resort for afterAll: stops every process this module started that is still running. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...live].map(async (c) => {
      if (c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    }),
  );
}

// ------------------------------------------------------------------ raw HTTP/1.1

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Milliseconds from connect to the end of the response. */
  ms: number;
}

export interface RawRequest {
  method: string;
  path: string;
  /** Header lines in order; a name may repeat. Values are written as latin1 bytes (non-ASCII allowed). */
  headers?: Array<[string, string]>;
  body?: Uint8Array | string;
  /** Adds `content-length` for the body unless a header already sets it or `chunked` is set. */
  autoLength?: boolean;
  /** Send the body with Transfer-Encoding: chunked (one chunk per `chunks` entry). */
  chunked?: boolean;
  /** Trickle the body: pieces of `bytes` every `everyMs`. */
  trickle?: { bytes: number; everyMs: number };
  /** Close the socket after writing this many body bytes (an abandoned upload). */
  abandonAfter?: number;
}

function decodeChunked(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let o = 0;
  for (let guard = 0; guard < 100_000 && o < b.length; guard++) {
    const eol = b.indexOf('\r\n', o);
    if (eol < 0) break;
    const n = parseInt(b.subarray(o, eol).toString('latin1'), 16);
    if (!Number.isFinite(n) || n === 0) break;
    out.push(b.subarray(eol + 2, eol + 2 + n));
    o = eol + 2 + n + 2;
  }
  return Buffer.concat(out);
}

/** One request on its own connection (`connection: close`); resolves with the parsed response. */
export function rawRequest(baseUrl: string, req: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const u = new URL(baseUrl);
  const t0 = Date.now();
  return new Promise((resolveRes, reject) => {
    const sock = new Socket();
    const chunks: Buffer[] = [];
    let timerTrickle: ReturnType<typeof setInterval> | undefined;
    const done = (err: Error | null) => {
      clearTimeout(timer);
      if (timerTrickle) clearInterval(timerTrickle);
      sock.destroy();
      if (err) return reject(err);
      const all = Buffer.concat(chunks);
      const head = all.indexOf('\r\n\r\n');
      if (head < 0) return reject(new Error(`no HTTP response head (${all.length} bytes)`));
      const lines = all.subarray(0, head).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let body: Buffer = all.subarray(head + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = decodeChunked(body);
      resolveRes({ status, headers, body, ms: Date.now() - t0 });
    };
    const timer = setTimeout(() => done(new Error(`raw request ${req.method} ${req.path}: no response within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    sock.on('data', (d) => chunks.push(d));
    sock.on('end', () => done(null));
    sock.on('error', (e) => (chunks.length ? done(null) : done(e)));
    sock.connect(Number(u.port), u.hostname, () => {
      const body = req.body === undefined ? Buffer.alloc(0) : Buffer.from(req.body);
      const hdrs: Array<[string, string]> = [['host', u.host], ...(req.headers ?? []), ['connection', 'close']];
      const has = (n: string) => hdrs.some(([k]) => k.toLowerCase() === n);
      if (req.chunked) hdrs.push(['transfer-encoding', 'chunked']);
      else if ((req.autoLength ?? true) && !has('content-length') && (req.body !== undefined || req.method === 'POST'))
        hdrs.push(['content-length', String(body.length)]);
      const head = `${req.method} ${req.path} HTTP/1.1\r\n${hdrs.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
      sock.write(Buffer.from(head, 'latin1'));
      const frame = (b: Buffer) => (req.chunked ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]) : b);
      const end = () => {
        if (req.chunked) sock.write('0\r\n\r\n');
      };
      if (req.abandonAfter !== undefined) {
        sock.write(frame(body.subarray(0, req.abandonAfter)), () => setTimeout(() => done(new Error('abandoned')), 200).unref());
        return;
      }
      if (req.trickle && body.length) {
        let o = 0;
        const t = req.trickle;
        timerTrickle = setInterval(() => {
          if (o >= body.length) {
            clearInterval(timerTrickle);
            timerTrickle = undefined;
            end();
            return;
          }
          sock.write(frame(body.subarray(o, o + t.bytes)));
          o += t.bytes;
        }, t.everyMs);
        return;
      }
      if (body.length) sock.write(frame(body));
      end();
    });
  });
}
