/**
 * Redis commands per request: INFO parsing, the read-overhead correction, and the probe against a
 * real redis-server on a free loopback port (started and stopped here; scripts/setup.sh installs
 * redis-server, and its absence fails the test rather than skipping it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInfo, commandsBetween, callsBetween, usecBetween, createRedisProbe } from '../lib/redisinfo.js';

describe('INFO parsing', () => {
  it('reads numbers and strings, skips sections', () => {
    const i = parseInfo('# Stats\r\ntotal_commands_processed:42\r\nused_memory:1024\r\ndb0:keys=3,expires=3,avg_ttl=0\r\nrole:master\r\n');
    expect(i).toEqual({ total_commands_processed: 42, used_memory: 1024, db0: 'keys=3,expires=3,avg_ttl=0', role: 'master' });
  });
  it('removes the INFO reads themselves from the count', () => {
    expect(commandsBetween({ commands: 10, reads: 1 }, { commands: 20, reads: 2 })).toBe(9);
    expect(commandsBetween(null, { commands: 1, reads: 1 })).toBeNull();
  });
});

describe('against redis-server', () => {
  let child: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is not installed: run scripts/setup.sh');
    port = await new Promise<number>((r) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => r(p));
      });
    });
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (
        spawnSync('redis-cli', ['-p', String(port), 'ping'])
          .stdout?.toString()
          .includes('PONG')
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 20_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });
  it('counts exactly the commands sent in between, and the keys added', async () => {
    const probe = (await createRedisProbe([`127.0.0.1:${port}`]))!;
    const a = await probe.read();
    for (let i = 0; i < 5; i++) spawnSync('redis-cli', ['-p', String(port), 'set', `k${i}`, 'v']);
    const b = await probe.read();
    expect(commandsBetween(a, b)).toBe(5);
    expect(callsBetween(a, b, 'set')).toBe(5);
    expect(callsBetween(a, b, 'evalsha')).toBe(0);
    expect(usecBetween(a, b, 'set')).toBeGreaterThanOrEqual(0);
    expect(b.cpuUs).toBeGreaterThanOrEqual(a.cpuUs);
    expect(b.keys - a.keys).toBe(5);
    expect(b.usedMemory).toBeGreaterThan(0);
    const c = await probe.read();
    expect(commandsBetween(b, c)).toBe(0);
    probe.close();
  });
});
