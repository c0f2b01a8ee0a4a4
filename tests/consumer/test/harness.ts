/**
 * Process and file helpers for the consumer test: commands with a hard timeout, long-running
 * servers in their own process group (npm → next → next-server), free loopback ports, and the
 * file list of a packed tarball.
 *
 * Pitfalls:
 *  - `npm start` forks `next start`, which forks `next-server`: a SIGTERM to npm alone leaves the
 *    server running, so every server is spawned detached and stopped by signalling its group
 *    (SIGTERM, then SIGKILL after 5 s), always awaited.
 *  - Every wait is a deadline loop; nothing here keeps the process alive (timers unref'd).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

export { freePort } from '../../support/free-port.mjs';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cmd` through `sh -c` (README lines are shell lines) in `cwd`; never throws. */
export function sh(cmd: string, cwd: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = 300_000): RunResult {
  const r = spawnSync('sh', ['-c', cmd], { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 2 ** 20 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}` };
}

/** Like sh, but throws with the output when the command fails. */
export function mustSh(cmd: string, cwd: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = 300_000): string {
  const r = sh(cmd, cwd, env, timeoutMs);
  if (r.status !== 0) throw new Error(`\`${cmd}\` in ${cwd} exited ${r.status}:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
  return r.stdout;
}

export interface Server {
  readonly url: string;
  log(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Starts `cmd` (a shell line) in its own process group and waits until `url` answers (< 500). */
export async function startServer(cmd: string, cwd: string, env: NodeJS.ProcessEnv, url: string, readyMs = 60_000): Promise<Server> {
  const child = spawn('sh', ['-c', cmd], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-40_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5000);
      timer.unref();
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
  };
  const deadline = Date.now() + readyMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`\`${cmd}\` exited early:\n${text}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status < 500) return { url, log: () => text, stop };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`\`${cmd}\` did not answer ${url} within ${readyMs} ms:\n${text}`);
}

/** Last resort in afterAll: stops every server still running. */
export async function stopAll(): Promise<void> {
  for (const c of [...running]) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    running.delete(c);
  }
}

/** The paths inside a .tgz made by `pnpm pack` (`package/` prefix removed). */
export function tarFiles(tgz: string): string[] {
  return mustSh(`tar -tzf '${tgz}'`, '/')
    .split('\n')
    .filter((l) => l !== '' && !l.endsWith('/'))
    .map((l) => l.replace(/^package\//, ''));
}
