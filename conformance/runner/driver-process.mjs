/**
 * One driver child process (conformance/DRIVER.md): JSON Lines over stdio, one command at a time,
 * each answer awaited with a deadline.
 *
 * Pitfalls: a driver that misses a deadline, exits, or writes a line that is not JSON is killed
 * (its process group is not ours to touch: only the child itself) and reported; the caller
 * restarts it. stderr is kept (last 4 KB) for the failure report, never echoed line by line.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export const STEP_DEADLINE_MS = 20_000;

export class DriverProcess {
  #child;
  #waiting = null;
  #seq = 0;
  #stderr = '';
  #exited = false;

  constructor(spec, root) {
    const [cmd, ...args] = spec.command;
    this.#child = spawn(cmd, args, {
      cwd: new URL(spec.cwd ?? '.', `file://${root}/`).pathname,
      env: { ...process.env, ...(spec.env ?? {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child.stderr.on('data', (d) => {
      this.#stderr = (this.#stderr + d.toString()).slice(-4096);
    });
    this.#child.on('error', (e) => this.#fail(`driver failed to start: ${e.message}`));
    this.#child.on('exit', (code, sig) => {
      this.#exited = true;
      this.#fail(`driver exited (${code ?? sig})`);
    });
    this.#child.stdin.on('error', () => {});
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      const w = this.#waiting;
      if (!w) return;
      this.#waiting = null;
      clearTimeout(w.timer);
      try {
        const answer = JSON.parse(line);
        if (answer.id !== w.id) w.resolve({ ok: false, code: 'DRIVER', message: `answer id ${answer.id} for command ${w.id}` });
        else w.resolve(answer);
      } catch {
        w.resolve({ ok: false, code: 'DRIVER', message: `not a JSON line: ${line.slice(0, 120)}` });
      }
    });
  }

  get stderr() {
    return this.#stderr;
  }

  #fail(message) {
    const w = this.#waiting;
    if (!w) return;
    this.#waiting = null;
    clearTimeout(w.timer);
    w.resolve({ ok: false, code: 'DRIVER', message: `${message}; stderr: ${this.#stderr.slice(-400)}` });
  }

  /** Sends one command; resolves to the answer (never rejects). */
  send(command, deadlineMs = STEP_DEADLINE_MS) {
    if (this.#exited) return Promise.resolve({ ok: false, code: 'DRIVER', message: `driver not running; stderr: ${this.#stderr.slice(-400)}` });
    const id = String(++this.#seq);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting = null;
        resolve({ ok: false, code: 'DRIVER', message: `no answer within ${deadlineMs} ms`, timedOut: true });
        this.kill();
      }, deadlineMs);
      this.#waiting = { id, resolve, timer };
      this.#child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  }

  kill() {
    if (!this.#exited) this.#child.kill('SIGKILL');
  }

  /** Ends input and waits (bounded) for the driver to exit. */
  async close() {
    if (this.#exited) return;
    const done = new Promise((r) => this.#child.once('exit', r));
    this.#child.stdin.end();
    const t = setTimeout(() => this.kill(), 5000);
    await done;
    clearTimeout(t);
  }
}
