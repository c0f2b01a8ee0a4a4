/**
 * Test harness: real Debian `redis-server` processes on free 127.0.0.1 ports, in temp dirs, with
 * no persistence (`--save "" --appendonly no`). Standalone servers can be killed and restarted on
 * the same port (fault tests); a cluster helper creates N masters (+ optional replicas) with
 * `redis-cli --cluster create` and a short node timeout so a killed master fails over in seconds.
 *
 * Pitfalls:
 *  - Every server started here must be stopped by the test that started it (afterAll): the
 *    helpers track their processes and `stop()` kills and reaps them, then removes the temp dir.
 *  - Free ports come from binding port 0 and closing it: another process may take the port in
 *    between; start-up retries a few other ports when that happens.
 *  - All waits are bounded (deadline loops), so a broken redis-server fails the test instead of
 *    hanging it.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);
const HOST = '127.0.0.1';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

import { freePort } from '../free-port.js';

export { freePort };

/** Sends one inline command over a raw socket; resolves with the raw reply text (bounded). */
export function rawCommand(port: number, command: string, timeoutMs = 1000): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = new Socket();
    let data = '';
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`redis on ${port}: no answer to ${command.split(' ')[0]} within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    sock.on('error', (err) => {
      clearTimeout(timer);
      sock.destroy();
      reject(err);
    });
    sock.on('data', (d) => {
      data += d.toString('latin1');
      if (data.endsWith('\r\n')) {
        clearTimeout(timer);
        sock.destroy();
        resolve(data);
      }
    });
    sock.connect(port, HOST, () => sock.write(`${command}\r\n`));
  });
}

async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await sleep(50);
  }
  throw new Error(`harness: timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? ` (${last.message})` : ''}`);
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** SIGKILL (a crash): the port stops answering at once. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty data set, no persistence). */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: the server hangs without closing connections. */
  pause(): void;
  resume(): void;
  /** Kills the process and removes its temp dir. Idempotent. */
  stop(): Promise<void>;
}

function spawnRedis(port: number, dir: string, extra: string[]): ChildProcess {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning', ...extra],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.resume();
  return child;
}

async function killChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGCONT');
  child.kill('SIGKILL');
  await Promise.race([exited, sleep(5000)]);
}

/** Starts one standalone redis-server; resolves once PING answers. */
export async function startRedis(extra: string[] = []): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'nen-redis-'));
  let child: ChildProcess | undefined;
  let port = 0;
  const launch = async () => {
    child = spawnRedis(port, dir, extra);
    const c = child;
    await waitFor(`redis-server on port ${port}`, 10_000, async () => {
      if (c.exitCode !== null) throw new Error(`redis-server exited with ${c.exitCode}`);
      return (await rawCommand(port, 'PING', 300)).startsWith('+PONG');
    });
  };
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (err) {
      await killChild(child);
      if (attempt >= 3) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  let stopped = false;
  return {
    port,
    url: `redis://${HOST}:${port}`,
    kill: () => killChild(child),
    restart: async () => {
      await killChild(child);
      await launch();
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await killChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ClusterNodeProcess {
  readonly port: number;
  readonly url: string;
  kill(): Promise<void>;
}

export interface RedisCluster {
  readonly nodes: readonly ClusterNodeProcess[];
  /** `redis://127.0.0.1:port` of every node (seed list for ioredis Cluster). */
  readonly urls: readonly string[];
  /** Current role of the node on `port` ("master" / "slave"), from ROLE. */
  role(port: number): Promise<string>;
  /** Port of the master serving `key`'s slot, from CLUSTER NODES on a live node. */
  masterFor(key: string): Promise<number>;
  /** Port of a replica of the master on `port`. */
  replicaOf(port: number): Promise<number>;
  /** Graceful manual failover: CLUSTER FAILOVER on the replica, waits until it is a master. */
  failover(replicaPort: number): Promise<void>;
  /** Waits until every live node reports cluster_state:ok. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Waits until every live master's replicas have acknowledged its whole replication stream. */
  waitReplicated(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `masters` cluster-enabled servers (+ `replicasPerMaster` replicas each) and joins them
 * with `redis-cli --cluster create`. Node timeout 1000 ms: a killed master is replaced by its
 * replica within a few seconds.
 */
export async function startCluster(masters = 3, replicasPerMaster = 0): Promise<RedisCluster> {
  // One retry: a free port can be taken by another process before redis-server binds it.
  try {
    return await startClusterOnce(masters, replicasPerMaster);
  } catch {
    return startClusterOnce(masters, replicasPerMaster);
  }
}

async function startClusterOnce(masters: number, replicasPerMaster: number): Promise<RedisCluster> {
  const total = masters * (1 + replicasPerMaster);
  const procs: { port: number; child: ChildProcess; dir: string }[] = [];
  const stop = async () => {
    for (const p of procs) {
      await killChild(p.child);
      rmSync(p.dir, { recursive: true, force: true });
    }
    procs.length = 0;
  };
  try {
    for (let n = 0; n < total; n++) {
      const port = await freePort();
      // the bus port defaults to port + 10000, which may be taken or above 65535: pick one
      const busPort = await freePort();
      const dir = mkdtempSync(join(tmpdir(), 'nen-redis-cluster-'));
      const child = spawnRedis(port, dir, [
        '--cluster-enabled',
        'yes',
        '--cluster-port',
        String(busPort),
        '--cluster-config-file',
        join(dir, 'nodes.conf'),
        '--cluster-node-timeout',
        '1000',
        '--cluster-replica-validity-factor',
        '0',
        // slots of a dead master fail alone; the others keep serving
        '--cluster-require-full-coverage',
        'no',
      ]);
      procs.push({ port, child, dir });
    }
    for (const p of procs) {
      await waitFor(`cluster node ${p.port}`, 10_000, async () => (await rawCommand(p.port, 'PING', 300)).startsWith('+PONG'));
    }
    await execFileP(
      'redis-cli',
      ['--cluster', 'create', ...procs.map((p) => `${HOST}:${p.port}`), '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'],
      { timeout: 30_000 },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const alive = (p: { child: ChildProcess }) => p.child.exitCode === null && p.child.signalCode === null;
  const cli = async (port: number, ...args: string[]) => (await execFileP('redis-cli', ['-h', HOST, '-p', String(port), ...args], { timeout: 5000 })).stdout;
  const cluster: RedisCluster = {
    nodes: procs.map((p) => ({ port: p.port, url: `redis://${HOST}:${p.port}`, kill: () => killChild(p.child) })),
    urls: procs.map((p) => `redis://${HOST}:${p.port}`),
    role: async (port) => (await cli(port, 'ROLE')).split('\n')[0]?.trim() ?? '',
    masterFor: async (key) => {
      // Right after a failover a node's CLUSTER NODES view can briefly show no live master for a
      // slot (old master flagged fail, replica not yet promoted in that node's gossip): re-read
      // until the view converges, bounded.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const live = procs.find(alive);
        if (!live) throw new Error('harness: no live cluster node');
        const slot = Number((await cli(live.port, 'CLUSTER', 'KEYSLOT', key)).trim());
        const lines = (await cli(live.port, 'CLUSTER', 'NODES')).split('\n');
        for (const line of lines) {
          const parts = line.trim().split(' ');
          if (!parts[2]?.includes('master') || parts[2].includes('fail')) continue;
          for (const range of parts.slice(8)) {
            const [a, b] = range.split('-').map(Number);
            if (a !== undefined && slot >= a && slot <= (b ?? a)) return Number(parts[1]?.split(':')[1]?.split('@')[0]);
          }
        }
        if (Date.now() > deadline) throw new Error(`harness: no master serves slot ${slot}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    replicaOf: async (port) => {
      const info = await cli(port, 'INFO', 'replication');
      const m = /slave\d+:ip=[^,]+,port=(\d+)/.exec(info);
      if (!m) throw new Error(`harness: master ${port} has no replica`);
      return Number(m[1]);
    },
    failover: async (replicaPort) => {
      await cli(replicaPort, 'CLUSTER', 'FAILOVER');
      await waitFor(`replica ${replicaPort} promoted`, 15_000, async () => (await cli(replicaPort, 'ROLE')).startsWith('master'));
    },
    waitHealthy: (timeoutMs = 20_000) =>
      waitFor('cluster_state:ok on every live node', timeoutMs, async () => {
        for (const p of procs.filter(alive)) {
          if (!(await cli(p.port, 'CLUSTER', 'INFO')).includes('cluster_state:ok')) return false;
        }
        return true;
      }),
    waitReplicated: (timeoutMs = 10_000) =>
      waitFor('replicas caught up', timeoutMs, async () => {
        for (const p of procs.filter(alive)) {
          const info = await cli(p.port, 'INFO', 'replication');
          if (!info.includes('role:master')) continue;
          const offset = /master_repl_offset:(\d+)/.exec(info)?.[1];
          const replicas = [...info.matchAll(/slave\d+:.*offset=(\d+)/g)].map((m) => m[1]);
          if (replicas.some((o) => o !== offset)) return false;
        }
        return true;
      }),
    stop,
  };
  await cluster.waitHealthy();
  return cluster;
}

/**
 * Makes the package's TypeScript sources runnable by a plain `node` child process (which cannot
 * load .ts): every .ts file under `src/` except tests is transpiled with
 * TypeScript's transpileModule into a temp dir inside this package's node_modules, so `ioredis`
 * and `@nen/core` resolve as they do for the package. Returns the directory (mirroring `src/`,
 * e.g. `stores/redis.js`, `index.js`) and a cleanup function.
 */
export async function transpileStoreForChild(): Promise<{ dir: string; cleanup: () => void }> {
  const ts = (await import('typescript')).default;
  const { readFileSync, writeFileSync, mkdirSync, readdirSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const srcDir = fileURLToPath(new URL('../../src/', import.meta.url));
  const base = fileURLToPath(new URL('../../node_modules/', import.meta.url));
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, '.nen-test-child-'));
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
  for (const f of files) {
    const out = ts.transpileModule(readFileSync(join(srcDir, f), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const dest = join(dir, f.replace(/\.ts$/, '.js'));
    mkdirSync(join(dest, '..'), { recursive: true });
    writeFileSync(dest, out.outputText);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
