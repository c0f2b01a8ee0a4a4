/**
 * Result files: one JSON per stage plus summary.json and report.html in
 * bench/results/<timestamp>/, mirrored to bench/results/latest/ (both gitignored).
 *
 * Every stage file has the same envelope (RESULT_SCHEMA_VERSION, stage, ok, timing, environment,
 * scope note, data) so tools can read any of them; `validateStageResult` checks that envelope and
 * is what the tests hold the files to.
 */
import fs from 'node:fs';
import path from 'node:path';

export const RESULT_SCHEMA_VERSION = 1;

export function timestampDirName(date = new Date()) {
  return date.toISOString().replace(/[:.]/g, '-');
}

export function createResultsDir(root, date = new Date()) {
  const dir = path.join(root, timestampDirName(date));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function stageEnvelope({ stage, ok, startedAt, finishedAt, environment, data, error }) {
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    stage,
    ok,
    startedAt,
    finishedAt,
    durationSeconds: Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 100) / 10,
    environment,
    scope: environment?.scope ?? null,
    ...(error ? { error } : {}),
    data,
  };
}

/** Throws a descriptive Error when `r` is not a valid stage result; returns r otherwise. */
export function validateStageResult(r) {
  const fail = (m) => {
    throw new Error(`bench: invalid stage result: ${m}`);
  };
  if (!r || typeof r !== 'object') fail('not an object');
  if (r.schemaVersion !== RESULT_SCHEMA_VERSION) fail('schemaVersion');
  if (typeof r.stage !== 'string' || !r.stage) fail('stage');
  if (typeof r.ok !== 'boolean') fail('ok');
  for (const k of ['startedAt', 'finishedAt']) if (Number.isNaN(Date.parse(r[k]))) fail(k);
  const e = r.environment;
  if (!e || typeof e !== 'object') fail('environment');
  for (const k of ['cpuModel', 'os', 'node', 'scope']) if (typeof e[k] !== 'string') fail(`environment.${k}`);
  if (!(e.cores >= 1)) fail('environment.cores');
  if (!Array.isArray(e.targets) || e.targets.length === 0) fail('environment.targets');
  if (!e.git || !('commit' in e.git)) fail('environment.git');
  if (!e.versions || typeof e.versions.node !== 'string') fail('environment.versions');
  if (!('data' in r)) fail('data');
  return r;
}

export function writeJson(dir, name, value) {
  fs.writeFileSync(path.join(dir, name), JSON.stringify(value, null, 2) + '\n');
}

/** Replace bench/results/latest with a copy of the run directory. */
export function mirrorLatest(runDir) {
  const latest = path.join(path.dirname(runDir), 'latest');
  fs.rmSync(latest, { recursive: true, force: true });
  fs.cpSync(runDir, latest, { recursive: true });
  return latest;
}
