#!/usr/bin/env node
/**
 * The suite's vitest stages (scripts/test.sh): `vitest run` in each package directory given, one at
 * a time (the suites start servers and browsers on a 2-core machine), then a summary that names
 * every failed test with the first lines of its error, so the tail of a CI log says what failed.
 *
 * A failed test file runs once more on its own. If it passes then, the stage passes and the summary
 * lists the first failure as FLAKY (a timing-sensitive test to fix, never silently absorbed); a file
 * that fails twice fails the stage. A deterministic break therefore still fails the suite.
 *
 * Pitfalls: the failed files come from vitest's JSON report; a run that wrote none (killed, crashed
 * before reporting) fails with no rerun. A run whose tests all passed but which exited non-zero
 * (an unhandled error between tests) reruns the whole package once.
 *
 *   node scripts/vitest-stage.mjs packages/core packages/client ...
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'nen-vitest-'));
// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
const ANSI = /\u001b\[[0-9;]*m/g;

/** `vitest run [files]` in `dir`, output to the terminal and a JSON report to `report`; its exit status. */
function vitest(dir, files, report) {
  const args = ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...files];
  const run = spawnSync('pnpm', args, { cwd: join(root, dir), stdio: 'inherit' });
  return run.status ?? 1;
}

/** The failed files of a JSON report, each with its failed tests and their first error lines. */
function failuresOf(report, dir) {
  const data = JSON.parse(readFileSync(report, 'utf8'));
  const failed = [];
  for (const file of data.testResults ?? []) {
    if (file.status !== 'failed') continue;
    const tests = (file.assertionResults ?? [])
      .filter((t) => t.status === 'failed')
      .map((t) => ({ name: t.fullName ?? t.title, error: firstLines(t.failureMessages?.[0]) }));
    if (tests.length === 0) tests.push({ name: '(the file itself)', error: firstLines(file.message) });
    failed.push({ file: relative(join(root, dir), file.name), tests });
  }
  return failed;
}

/** The message lines of an error (at most two) and its first stack frame outside node_modules. */
function firstLines(text) {
  const lines = String(text ?? '')
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const message = lines.filter((l) => !l.startsWith('at ')).slice(0, 2);
  const frame = lines.find((l) => l.startsWith('at ') && !l.includes('node_modules'));
  return [...message, ...(frame ? [frame] : [])].join(' | ').slice(0, 400);
}

/** Runs one package: 'ok', or { flaky | failed: [...] } with the failures to report. */
function runPackage(dir, n) {
  const first = join(work, `${n}-1.json`);
  const status = vitest(dir, [], first);
  if (status === 0) return { verdict: 'ok', failed: [] };
  if (!existsSync(first)) return { verdict: 'failed', failed: [{ file: `(no report: vitest exited ${status})`, tests: [] }] };
  const failed = failuresOf(first, dir);
  const files = failed.map((f) => f.file);
  console.log(`\n[vitest-stage] ${dir}: ${files.length ? files.join(', ') : 'exit without a failed test'}: running again once`);
  const second = join(work, `${n}-2.json`);
  if (vitest(dir, files, second) === 0) {
    const reported = failed.length ? failed : [{ file: `(exit ${status} with every test passing)`, tests: [] }];
    return { verdict: 'flaky', failed: reported };
  }
  const again = existsSync(second) ? failuresOf(second, dir) : [];
  return { verdict: 'failed', failed: again.length ? again : failed };
}

function printSummary(results) {
  console.log(`\n[vitest-stage] summary, Node ${process.version}:`);
  for (const { dir, verdict, failed } of results) {
    console.log(`  ${dir}: ${verdict === 'ok' ? 'ok' : verdict === 'flaky' ? 'passed on the rerun of its failed files' : 'FAILED'}`);
    const tag = verdict === 'flaky' ? 'FLAKY' : 'FAILED';
    for (const f of failed) {
      if (f.tests.length === 0) console.log(`${tag} ${dir}/${f.file}`);
      for (const t of f.tests) console.log(`${tag} ${dir}/${f.file} > ${t.name}\n      ${t.error}`);
    }
  }
}

const results = [];
try {
  process.argv.slice(2).forEach((dir, n) => {
    console.log(`\n[vitest-stage] ${dir}`);
    results.push({ dir, ...runPackage(dir, n) });
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
printSummary(results);
process.exitCode = results.every((r) => r.verdict !== 'failed') ? 0 : 1;
