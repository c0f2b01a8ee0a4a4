/**
 * Server CPU time, when the target runs on this machine: the metrics route reports its `pid`, and
 * /proc/<pid>/stat gives that process's user + system time (fields 14 and 15, in clock ticks,
 * proc(5)). Sampled at the edges of each interleaved slice, it attributes server CPU to the
 * encrypted and the plain mode separately: CPU milliseconds per request is a far less noisy
 * overhead figure than req/s on a shared 2-core machine.
 *
 * Pitfalls: only for loopback targets (a remote pid means nothing here) and only on Linux; tick
 * resolution is 10 ms (USER_HZ = 100), so per-slice figures are summed, never read one by one;
 * the pid is the process that served the metrics route (Next's `next-server`), which also runs
 * every route handler.
 */
import fs from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux x86-64

export function readProcCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may contain spaces: split after the closing parenthesis
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(rest[11]);
    const stime = Number(rest[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return (utime + stime) * TICK_MS;
  } catch {
    return null;
  }
}

/** A probe summing the CPU ms of the given local pids, or null when none can be read. */
export function createServerCpuProbe(pids) {
  const ok = pids.filter((p) => Number.isInteger(p) && readProcCpuMs(p) !== null);
  if (ok.length === 0) return null;
  const probe = () => ok.reduce((a, p) => a + (readProcCpuMs(p) ?? 0), 0);
  probe.pids = ok;
  return probe;
}

export function isLoopback(base) {
  const h = new URL(base).hostname;
  return h === '127.0.0.1' || h === 'localhost' || h === '[::1]' || h === '::1';
}
