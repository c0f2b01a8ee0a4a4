/**
 * Starting and stopping the runtimes the Workers tests drive (workerd in ./harness.ts, `wrangler
 * dev` in ./wrangler.test.ts): free loopback ports, a child process whose output is kept, a
 * readiness poll with a deadline, and a stop that sends SIGTERM, then SIGKILL after a delay.
 *
 * Pitfalls:
 *  - A free port comes from binding port 0 and closing it: another process may take it in between.
 *  - `group: true` starts the child as the leader of its own process group (detached) and signals
 *    the whole group, for a child that starts processes of its own (wrangler starts workerd); any
 *    straggler left in the group is killed once the leader has exited.
 *  - The output kept (stdout and stderr, interleaved) is capped at 200 000 characters.
 *  - Start-up is bounded by `readyWithinMs`; on failure the process is stopped (its `dir` removed)
 *    and the error carries the end of its output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

import { freePort } from '../free-port.js';

export { freePort };

export interface ProcessOptions {
  /** What the errors call it, e.g. "workerd". */
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** A directory of the run's: removed when start-up fails, and by `stop` unless it is kept. */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  /** Own process group, signalled as a whole (see the module header). */
  group?: boolean;
  /** Between SIGTERM and SIGKILL, ms. */
  killAfterMs: number;
  /** True once the process serves; polled every `pollMs` until `readyWithinMs` have passed. */
  ready(): Promise<boolean>;
  readyWithinMs: number;
  pollMs: number;
}

export interface RunningProcess {
  readonly child: ChildProcess;
  /** stdout and stderr so far. */
  logs(): string;
  /** Stops the process (and its group), then removes `dir` unless `keepDir`; resolves once it has exited. */
  stop(options?: { keepDir?: boolean }): Promise<void>;
}

/** Starts the process and waits until `ready()` (see ProcessOptions); throws when it exits or times out first. */
export async function startProcess(o: ProcessOptions): Promise<RunningProcess> {
  const child = spawn(o.command, o.args, { cwd: o.cwd, env: o.env ?? process.env, detached: o.group === true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer): void => void (out.length < 200_000 && (out += d.toString()));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const signal = (s: NodeJS.Signals): void => {
    if (!o.group) return void child.kill(s);
    try {
      process.kill(-child.pid!, s); // the group: the child and what it started
    } catch {
      // already gone
    }
  };
  const stop = async ({ keepDir = false }: { keepDir?: boolean } = {}): Promise<void> => {
    if (running()) {
      signal('SIGTERM');
      const t = setTimeout(() => signal('SIGKILL'), o.killAfterMs);
      await exited;
      clearTimeout(t);
    }
    if (o.group) signal('SIGKILL'); // any straggler left in the group
    if (o.dir !== undefined && !keepDir) rmSync(o.dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + o.readyWithinMs;
  for (;;) {
    if (!running()) {
      await stop();
      throw new Error(`${o.name} exited (${child.exitCode ?? child.signalCode}):\n${out.slice(-4000)}`);
    }
    if (await o.ready()) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${o.name} did not serve within ${o.readyWithinMs / 1000} s:\n${out.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
  return { child, logs: () => out, stop };
}
