/**
 * A line-by-line conversation with an interop driver process (crates/ohttp-interop,
 * conformance/ohttp-go): the test writes hex lines to its stdin and reads its answers; every read
 * is bounded in time (10 s), so a driver that dies or hangs fails the test instead of hanging it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
export const unhex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));

/** The driver as a line-by-line conversation, every read bounded in time. */
export function driver(bin: string, args: string[]): { child: ChildProcess; line: () => Promise<string>; send: (s: string) => void } {
  const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: ((s: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => {
    const w = waiters.shift();
    if (w) w(l);
    else lines.push(l);
  });
  return {
    child,
    send: (s) => child.stdin!.write(`${s}\n`),
    line: () =>
      new Promise((resolve, reject) => {
        const l = lines.shift();
        if (l !== undefined) return resolve(l);
        const t = setTimeout(() => reject(new Error(`${bin} ${args[0]}: no line within 10 s`)), 10_000);
        waiters.push((s) => {
          clearTimeout(t);
          resolve(s);
        });
      }),
  };
}
