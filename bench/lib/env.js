/**
 * The environment every result file carries: hardware, OS, Node, package versions, git commit,
 * targets and the server's session store kind, plus the honest-scope note that says what the
 * numbers are (and are not) evidence of.
 *
 * Pitfall: never include secrets (no env dump: only named, non-secret values).
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const benchDir = path.resolve(here, '..');
export const repoRoot = path.resolve(benchDir, '..');

function readVersion(pkgJsonPath) {
  try {
    return JSON.parse(fs.readFileSync(pkgJsonPath, 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

function git(args) {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return null;
  }
}

export const SCOPE_NOTE =
  'Load generator and server(s) share one machine (and its cores) unless the targets are remote: ' +
  'absolute req/s are lower than on dedicated hardware, and the client-side crypto competes with the ' +
  'server for CPU (the client CPU share is reported per mode). Ratios encrypted/plain come from the ' +
  'same run with interleaved slices. Closed-loop latencies under overload are optimistic (coordinated ' +
  'omission). Short runs (--quick) are smoke tests, not measurements.';

export function collectEnvironment({ targets, storeKind = null, options = {} } = {}) {
  const cpus = os.cpus();
  const versions = {
    node: process.versions.node,
    v8: process.versions.v8,
    '@nen/client': readVersion(path.join(repoRoot, 'packages/client/package.json')),
    '@nen/core': readVersion(path.join(repoRoot, 'packages/core/package.json')),
    '@nen/server': readVersion(path.join(repoRoot, 'packages/server/package.json')),
    next: readVersion(path.join(repoRoot, 'apps/demo/node_modules/next/package.json')),
    undici: readVersion(path.join(benchDir, 'node_modules/undici/package.json')),
    autocannon: readVersion(path.join(benchDir, 'node_modules/autocannon/package.json')),
  };
  const status = git(['status', '--porcelain']);
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    availableParallelism: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    versions,
    git: { commit: git(['rev-parse', 'HEAD']), dirty: status === null ? null : status.length > 0 },
    /** 1/5/15-minute load averages when the run started: other work on the machine skews figures */
    loadAverageAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
    targets,
    storeKind,
    options,
    scope: SCOPE_NOTE,
  };
}
