/**
 * The processes the demo's e2e suites start: `next start` of the e2e build (`.next-e2e`, or `.next`
 * under CI, `.next-e2e-webpack` with DEMO_E2E_WEBPACK=1) on a free 127.0.0.1 port with a pinned key,
 * and helpers such as redis-server, each in its own process group, stopped by `stop` / `stopAll`.
 *
 * Pitfalls:
 *  - `next start` forks a `next-server` child that outlives a SIGTERM to the CLI alone: signals go to
 *    the whole group, SIGKILL after 5 s, and the wait is bounded.
 *  - REDIS_URL from the caller's environment is dropped unless passed in `extra`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { appDir, freePort, suiteDistDir } from './live';

const nextBin = join(appDir, 'node_modules/next/dist/bin/next');
/** Build directory: `.next-e2e` locally, `.next` under CI and the whole suite (live.ts suiteDistDir). */
export const WEBPACK = process.env.DEMO_E2E_WEBPACK === '1'; // `next build --webpack` instead of Turbopack
export const DIST_DIR = WEBPACK ? '.next-e2e-webpack' : suiteDistDir('.next-e2e');

/** A process this suite started (its own process group), stopped in afterAll. */
export interface Instance {
  readonly url: string;
  readonly child: ChildProcess;
  log: string;
}
const instances: Instance[] = [];

async function waitForServer(inst: Instance, path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (inst.child.exitCode !== null) throw new Error(`next start exited early:\n${inst.log}`);
    try {
      const res = await fetch(inst.url + path, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`next start did not answer within ${timeoutMs} ms:\n${inst.log}`);
}

/** Spawns a process in its own group (`next start` forks a `next-server` child that outlives a SIGTERM to the CLI alone). */
export function launch(cmd: string, args: string[], env: NodeJS.ProcessEnv, url: string): Instance {
  const child = spawn(cmd, args, { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const inst: Instance = { url, child, log: '' };
  const keep = (chunk: Buffer) => {
    inst.log = (inst.log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  instances.push(inst);
  return inst;
}

/** `next start` of the e2e build on a free loopback port, with a pinned key and the given extra env. */
export async function startNext(keys: { env: string; pin: string }, extra: NodeJS.ProcessEnv): Promise<Instance> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DIST_DIR: DIST_DIR,
    NEN_SERVER_KEYS: keys.env,
    NEN_SERVER_PIN: keys.pin,
    NEN_BENCH_METRICS: '1',
  };
  delete env.REDIS_URL;
  const inst = launch(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], { ...env, ...extra }, `http://127.0.0.1:${port}`);
  await waitForServer(inst, '/api/bench/metrics', 60_000);
  return inst;
}

function signalGroup(inst: Instance, signal: NodeJS.Signals): void {
  if (inst.child.pid === undefined) return;
  try {
    process.kill(-inst.child.pid, signal);
  } catch {
    // the group is gone already
  }
}

/** SIGTERM to the group, SIGKILL after 5 s, then waits (bounded) until the leader has exited. */
export async function stop(inst: Instance): Promise<void> {
  const i = instances.indexOf(inst);
  if (i >= 0) instances.splice(i, 1);
  signalGroup(inst, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  let killed = false;
  while (Date.now() < deadline && inst.child.exitCode === null && inst.child.signalCode === null) {
    if (!killed && Date.now() > deadline - 5_000) {
      signalGroup(inst, 'SIGKILL');
      killed = true;
    }
    await sleep(100);
  }
  signalGroup(inst, 'SIGKILL'); // whatever is left of the group (the forked next-server)
}

/** Stops every instance still running (afterAll). */
export async function stopAll(): Promise<void> {
  for (const inst of [...instances]) await stop(inst);
}
