// formal/run.mjs: runs the ProVerif models of PROTOCOL.md and their mutants, and fails unless
// every real query proves ("is true"), every sanity query Q-reach-* is refuted (its event is
// reachable, so no proof is vacuous) and every mutant's targeted query is refuted with an
// attack ("is false"). Usage: node formal/run.mjs [--only <model.pv|mutant name>] [--jobs N]
// Pitfalls: a query's name is the "(* Q-name:" comment above it, matched to ProVerif's RESULT
// lines by order, so each model must print exactly one RESULT per named query; mutants patch
// copies in a temporary directory (formal/mutants.json), never the models themselves.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const proverif = join(here, '..', '.tools', 'proverif', 'proverif');
const MODELS = [
  'handshake.pv',
  'records.pv',
  'sessions.pv',
  'hybrid-x25519.pv',
  'hybrid-mlkem.pv',
  'ohttp.pv',
  'streams.pv',
  'lifecycle.pv',
  'ohttp-chunked.pv',
];
const TIMEOUT_MS = 300_000;

function queryNames(text) {
  return [...text.matchAll(/^\(\* (Q-[a-z0-9-]+):/gm)].map((m) => m[1]);
}

function runProverif(dir, model) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(proverif, ['-lib', join(dir, 'nen'), join(dir, model)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const results = [...out.matchAll(/^RESULT (.*)$/gm)].map((m) => m[1]);
      resolve({ code, out, results, seconds: (Date.now() - started) / 1000 });
    });
  });
}

function verdict(line) {
  if (line === undefined) return 'missing';
  if (line.endsWith(' is true.')) return 'true';
  if (line.includes(' is false.')) return 'false';
  return 'unproved';
}

// Copies the library and the model into a fresh directory, applying the mutant's patches.
function stage(mutant) {
  const dir = mkdtempSync(join(tmpdir(), 'nen-formal-'));
  const files = { 'nen.pvl': readFileSync(join(here, 'nen.pvl'), 'utf8') };
  for (const m of MODELS) files[m] = readFileSync(join(here, m), 'utf8');
  for (const p of mutant?.patches ?? []) {
    if (!files[p.file].includes(p.from)) {
      throw new Error(`mutant ${mutant.name}: text not found in ${p.file}: ${JSON.stringify(p.from)}`);
    }
    files[p.file] = files[p.file].replace(p.from, p.to);
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, names: Object.fromEntries(MODELS.map((m) => [m, queryNames(files[m])])) };
}

function jobsFor(only) {
  const { mutants } = JSON.parse(readFileSync(join(here, 'mutants.json'), 'utf8'));
  const jobs = [
    ...MODELS.map((model) => ({ kind: 'model', name: model, model })),
    ...mutants.map((m) => ({ kind: 'mutant', name: m.name, model: m.model, mutant: m })),
  ];
  return only ? jobs.filter((j) => j.name === only) : jobs;
}

async function runJob(job) {
  const { dir, names } = stage(job.mutant);
  try {
    const run = await runProverif(dir, job.model);
    const queries = names[job.model];
    const rows = [];
    if (job.kind === 'model') {
      queries.forEach((q, i) => {
        const v = verdict(run.results[i]);
        // Q-reach-* are sanity queries: the event must be reachable (refuted "not reachable")
        const expect = q.startsWith('Q-reach-') ? 'false' : 'true';
        rows.push({ job: job.model, query: q, expect, got: v, ok: v === expect });
      });
      if (run.results.length !== queries.length) {
        rows.push({ job: job.model, query: '(count)', expect: `${queries.length}`, got: `${run.results.length}`, ok: false });
      }
    } else {
      const i = queries.indexOf(job.mutant.query);
      const v = verdict(run.results[i]);
      rows.push({ job: `mutant ${job.name}`, query: job.mutant.query, expect: 'false', got: v, ok: v === 'false' });
    }
    const failed = rows.some((r) => !r.ok);
    if (failed) process.stderr.write(`--- ${job.name} (exit ${run.code}) ---\n${run.out.slice(-4000)}\n`);
    return rows.map((r) => ({ ...r, seconds: run.seconds }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const width = args.includes('--jobs') ? Number(args[args.indexOf('--jobs') + 1]) : 2;
  if (!existsSync(proverif)) {
    console.error(`formal: ${proverif} is missing; run bash formal/setup.sh`);
    process.exit(1);
  }
  const jobs = jobsFor(only);
  if (jobs.length === 0) {
    console.error(`formal: no model or mutant named ${only}`);
    process.exit(1);
  }
  const rows = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) rows.push(...(await runJob(jobs[next++])));
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
  const order = new Map(jobs.map((j, i) => [j.kind === 'model' ? j.model : `mutant ${j.name}`, i]));
  rows.sort((a, b) => order.get(a.job) - order.get(b.job));
  console.log('     job                                query                      expect  got       time');
  for (const r of rows) {
    const mark = r.ok ? 'ok  ' : 'FAIL';
    console.log(`${mark} ${r.job.padEnd(34)} ${r.query.padEnd(26)} ${r.expect.padEnd(7)} ${r.got.padEnd(9)} ${r.seconds.toFixed(1)}s`);
  }
  const bad = rows.filter((r) => !r.ok).length;
  console.log(`formal: ${rows.length - bad}/${rows.length} as expected`);
  process.exit(bad === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(`formal: ${e.message}`);
  process.exit(1);
});
