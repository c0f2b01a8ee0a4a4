/**
 * CPU pinning for local targets (Linux `taskset`, util-linux): the server processes (every thread,
 * `-a`) to one core and this bench process to another, so the encrypted/plain comparison is not
 * skewed by the load generator competing with the server for the same core. Affinity is changed
 * on the running processes and restored afterwards (`withPinning` restores even on error).
 *
 * Pitfalls: only for loopback targets whose pid the metrics route reported; needs >= 2 cores and
 * taskset; a pinned server gets one core, so its absolute req/s is lower than the shared figure —
 * the point is the ratio and the server CPU per request. Threads a process starts after the call
 * inherit the affinity of the thread that starts them.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

function taskset(args) {
  return execFileSync('taskset', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 });
}

/** Why pinning is not possible here, or null when it is. */
export function pinUnavailable({ pids, cores = os.cpus().length }) {
  if (!pids?.length) return 'target is not local (no server pid)';
  if (cores < 2) return 'fewer than 2 cores';
  try {
    taskset(['-c', '-p', String(process.pid)]);
  } catch {
    return 'taskset is not available';
  }
  return null;
}

/** Current affinity list ("0,1" / "0-3") of a pid. */
export function affinityOf(pid) {
  const out = taskset(['-c', '-p', String(pid)]);
  const m = /list:\s*(\S+)/.exec(out);
  if (!m) throw new Error(`bench: cannot read the affinity of ${pid}: ${out}`);
  return m[1];
}

function setAffinity(pid, list) {
  taskset(['-a', '-c', '-p', list, String(pid)]);
}

/**
 * Run `fn` with the server pids on `serverCore` and this process on `benchCore`, then restore.
 */
export async function withPinning({ pids, serverCore = 0, benchCore = 1 }, fn) {
  const saved = [process.pid, ...pids].map((pid) => ({ pid, list: affinityOf(pid) }));
  try {
    for (const pid of pids) setAffinity(pid, String(serverCore));
    setAffinity(process.pid, String(benchCore));
    return await fn();
  } finally {
    for (const { pid, list } of saved) {
      try {
        setAffinity(pid, list);
      } catch {
        /* the process may have exited; nothing to restore */
      }
    }
  }
}
