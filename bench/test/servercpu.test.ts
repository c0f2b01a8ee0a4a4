import { describe, expect, it } from 'vitest';
import { readProcCpuMs, createServerCpuProbe, isLoopback } from '../lib/servercpu.js';

describe('server CPU probe (/proc/<pid>/stat)', () => {
  it.skipIf(process.platform !== 'linux')('reads a growing CPU time for a live pid', () => {
    const before = readProcCpuMs(process.pid);
    expect(before).not.toBeNull();
    const t0 = performance.now();
    let x = 0;
    while (performance.now() - t0 < 120) x += Math.sqrt(x + 1);
    const after = readProcCpuMs(process.pid)!;
    expect(after - before!).toBeGreaterThanOrEqual(50);
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
