/**
 * The server CPU probe (lib/servercpu.js): /proc/<pid>/stat utime+stime of a live process grows,
 * an unknown pid gives null, and only loopback targets count as local.
 * Pitfall: Linux only (skipped elsewhere); the CPU burn is measured by process.cpuUsage, not wall
 * time, so a busy machine only makes it slower.
 */
import { describe, expect, it } from 'vitest';
import { readProcCpuMs, createServerCpuProbe, isLoopback } from '../lib/servercpu.js';

describe('server CPU probe (/proc/<pid>/stat)', () => {
  it.skipIf(process.platform !== 'linux')('reads a growing CPU time for a live pid', () => {
    const before = readProcCpuMs(process.pid);
    expect(before).not.toBeNull();
    // burn 200 ms of CPU as process.cpuUsage counts it (wall time varies on a busy machine)
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let x = 0;
    const used = () => {
      const d = process.cpuUsage(cpu0);
      return (d.user + d.system) / 1000;
    };
    while (used() < 200 && performance.now() - t0 < 10_000) for (let i = 0; i < 1e5; i++) x += Math.sqrt(x + i);
    const after = readProcCpuMs(process.pid)!;
    // /proc counts in 10 ms ticks and includes other threads (GC): close to, not equal to, cpuUsage
    expect(after - before!).toBeGreaterThanOrEqual(150);
    expect(x).toBeGreaterThan(0);
    const probe = createServerCpuProbe([process.pid, 999_999_999])!;
    expect(probe.pids).toEqual([process.pid]);
    expect(probe()).toBeGreaterThanOrEqual(after);
  });
  it('gives null for unknown pids and recognises loopback targets only', () => {
    expect(readProcCpuMs(999_999_999)).toBeNull();
    expect(createServerCpuProbe([999_999_999])).toBeNull();
    expect(isLoopback('http://127.0.0.1:3000')).toBe(true);
    expect(isLoopback('http://localhost:3000')).toBe(true);
    expect(isLoopback('https://example.com')).toBe(false);
  });
});
