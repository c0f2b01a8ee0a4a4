/**
 * Runs the real `nen fetch` bin (bin/nen.js) as a user would, for the CLI tests: in `cwd`, with no
 * pinned server key in the environment unless `env` sets one; stdout, stderr and the exit status.
 * Pitfall: bounded, the child is killed after 20 s (a hang reads as status null, never a stuck test).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '../bin/nen.js');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runNenFetch(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, 'fetch', ...args], { cwd, env: { ...process.env, NEXT_PUBLIC_NEN_SERVER_KEY: '', ...env } });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => (stderr += d));
    const t = setTimeout(() => c.kill('SIGKILL'), 20_000);
    c.on('close', (status) => {
      clearTimeout(t);
      resolve({ status, stdout, stderr });
    });
  });
}
