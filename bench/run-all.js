#!/usr/bin/env node
/**
 * `TARGET_URL=http://host:port[,http://host2:port] node bench/run-all.js [--quick] [--levels ..]
 *  [--duration s] [--only stage,..]`: the Nen bench against any deployment of the demo routes.
 *
 * Stages, in order, stopping at the first that fails: regression (every observable security
 * property), load (encrypted vs plain echo at each concurrency, interleaved), payload (sizes, wire
 * bytes), scenarios (handshakes, rotation, long session, CRUD burst, churn, streaming), and on
 * request saturation (ramp to the p99 budget; the grid's per-cell stage) and soak. Server memory
 * is sampled in the background throughout. Results: one JSON per stage, memory.json,
 * summary.json and report.html in bench/results/<timestamp>/, mirrored to bench/results/latest/;
 * a one-line history record in bench/results/history/ (full runs only: not --quick, not an --only
 * that leaves out a default stage, unless --history forces it). The key figures are checked
 * against bench/budgets.json and, with --baseline FILE, against an earlier run.
 * Exit code 0 when every stage passed (and, with --baseline, no budget was broken), 1 otherwise,
 * 2 on bad usage / unreachable target.
 *
 * Pitfall: this process is a client only: it imports the built @nen/client and never the server.
 */
import os from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { parseOptions, HELP } from './lib/options.js';
import { parseTargets, createAgent } from './lib/transport.js';
import { createProgress } from './lib/progress.js';
import { collectEnvironment, benchDir } from './lib/env.js';
import { createResultsDir, stageEnvelope, writeJson, mirrorLatest } from './lib/results.js';
import { createMemorySampler, fetchMetrics } from './lib/memory.js';
import { renderReport } from './lib/report.js';
import { readMemoryAttribution } from './lib/memoryreport.js';
import { createContext, loadClientModule } from './lib/context.js';
import { createServerCpuProbe, isLoopback } from './lib/servercpu.js';
import { buildSummary, formatSummaryTable } from './lib/summary.js';
import * as regression from './stages/regression.js';
import * as load from './stages/load.js';
import * as payload from './stages/payload.js';
import * as scenarios from './stages/scenarios.js';
import * as soak from './stages/soak.js';
import * as saturation from './stages/saturation.js';
import * as aiStream from './stages/ai-stream.js';
import * as flood from './stages/flood.js';
import * as coldBrowser from './stages/cold-browser.js';
import * as ohttp from './stages/ohttp.js';
import { createRedisProbe } from './lib/redisinfo.js';
import { loadBudgets, checkLimits, compareBaseline, readBaselineFigures, DEFAULT_BUDGETS_FILE } from './lib/budgets.js';
import { historyRecord, writeHistory, readHistory } from './lib/history.js';
import fs from 'node:fs';

const STAGE_MODULES = { regression, load, payload, scenarios, 'cold-browser': coldBrowser, saturation, soak, 'ai-stream': aiStream, flood, ohttp };

async function probe(targets, dispatcher) {
  let storeKind = null;
  const pids = [];
  for (const base of targets) {
    let res;
    try {
      res = await fetchMetrics(base, dispatcher);
    } catch (e) {
      throw new Error(`bench: target ${base} is not reachable (${e?.code ?? e?.message}); is the app running?`);
    }
    if (res.ok) {
      storeKind ??= res.metrics.storeKind ?? null;
      if (isLoopback(base) && Number.isInteger(res.metrics.pid)) pids.push(res.metrics.pid);
    }
  }
  return { storeKind, pids };
}

export async function main(argv = process.argv.slice(2)) {
  const cli = parseCommandLine(argv);
  if (cli.exitCode !== undefined) return cli.exitCode;
  const { options, targets } = cli;
  const run = await openRun(options, targets);
  if (!run) return 2;
  const { agent, metricsAgent, progress, redis } = run;
  const environment = collectEnvironment({ targets, storeKind: run.storeKind, options: environmentOptions(options) });
  const outRoot = path.resolve(options.out ?? path.join(benchDir, 'results'));
  const runDir = createResultsDir(outRoot);
  const serverCpu = createServerCpuProbe(run.serverPids);
  environment.serverCpuMeasured = serverCpu ? { pids: serverCpu.pids, source: '/proc/<pid>/stat utime+stime' } : null;
  const ctx = createContext({ targets, options, agent, progress, cores: os.cpus().length, serverCpu });
  ctx.metricsAgent = metricsAgent;
  ctx.redis = redis;
  const current = { stage: null };
  const sampler = createMemorySampler({
    targets,
    dispatcher: metricsAgent,
    requestCount: () => ctx.requests,
    stageName: () => (ctx.phase ? `${current.stage}:${ctx.phase}` : current.stage),
  });
  ctx.sampler = sampler;
  await sampler.sampleOnce();
  if (sampler.available === false)
    progress.log('[bench] note: GET /api/bench/metrics answered 404: start the server with NEN_BENCH_METRICS=1 for memory figures');

  const startedAt = new Date().toISOString();
  const { stages, failedStage, failure } = await runStages(ctx, { options, environment, runDir, progress, current });
  await sampler.sampleOnce();
  sampler.stop();
  const out = writeOutputs({ ctx, sampler, stages, environment, options, budgets: run.budgets, outRoot, runDir, startedAt, failedStage, failure });
  progress.stop();
  redis?.close();
  await agent.close();
  await metricsAgent.close();
  console.log(formatSummaryTable(out.summary));
  console.log(`\nresults: ${runDir}\nreport:  ${path.join(out.latest, 'report.html')}${out.historyFile ? `\nhistory: ${out.historyFile}` : ''}`);
  if (failedStage) {
    console.error(`\n[bench] FAILED at stage ${failedStage}: ${failure}`);
    return 1;
  }
  if (out.budgetVerdict) {
    console.error(`\n[bench] FAILED the budgets against the baseline ${options.baseline}: ${out.budgetVerdict}`);
    return 1;
  }
  return 0;
}

/** The options and targets, or the exit code: 0 after --help, 2 on bad usage (with the help text). */
function parseCommandLine(argv) {
  try {
    const options = parseOptions(argv);
    if (options.help) {
      console.log(HELP);
      return { exitCode: 0 };
    }
    return { options, targets: parseTargets(options.target) };
  } catch (e) {
    console.error(String(e?.message ?? e));
    console.error(HELP);
    return { exitCode: 2 };
  }
}

/**
 * Everything a run needs before its first stage: agents, progress, budgets (and the baseline file
 * checked early), the targets probed, the client module and the Redis probe; null (after saying
 * why and closing the agents) when the target is unreachable or an input is bad.
 */
async function openRun(options, targets) {
  const agent = createAgent({ connections: Math.max(64, Math.max(...options.levels) + 32) });
  const metricsAgent = new Agent({ connections: 2, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const progress = createProgress();
  try {
    const budgets = loadBudgets(options.budgets ?? DEFAULT_BUDGETS_FILE);
    if (options.baseline) readBaselineFigures(options.baseline); // fail early on a bad file
    const { storeKind, pids: serverPids } = await probe(targets, metricsAgent);
    await loadClientModule();
    const redis = await createRedisProbe(options.redis);
    return { agent, metricsAgent, progress, budgets, storeKind, serverPids, redis };
  } catch (e) {
    progress.stop();
    console.error(String(e?.message ?? e));
    await agent.close();
    await metricsAgent.close();
    return null;
  }
}

/** The run's options as recorded in every result envelope's environment. */
function environmentOptions(options) {
  return {
    quick: options.quick,
    keepGoing: options.keepGoing,
    soakRequests: options.stages.includes('soak') ? options.soakRequests : null,
    levels: options.levels,
    durationSeconds: options.durationSeconds,
    sliceSeconds: options.sliceSeconds,
    stages: options.stages,
    kem: options.kem,
    sticky: options.sticky,
    cell: options.cell,
    ...(options.stages.includes('saturation')
      ? { budgetP99Ms: options.budgetP99Ms, ramp: options.ramp, windowSeconds: options.windowSeconds, payloads: options.payloads }
      : {}),
    redisNodes: options.redis,
    pin: options.pin,
  };
}

/** Each stage in order, its envelope written as it ends; stops at the first failure unless --keep-going. */
async function runStages(ctx, { options, environment, runDir, progress, current }) {
  const stages = {};
  let failedStage = null;
  let failure = null;
  for (const name of options.stages) {
    progress.stage(name);
    current.stage = name;
    progress.log(`[bench] stage ${name}`);
    const t0 = new Date().toISOString();
    let result;
    try {
      result = await STAGE_MODULES[name].run(ctx);
    } catch (e) {
      result = { ok: false, failure: `${name}: ${e?.stack ?? e}`, data: null };
    }
    const env = stageEnvelope({
      stage: name,
      ok: result.ok,
      startedAt: t0,
      finishedAt: new Date().toISOString(),
      environment,
      data: result.data,
      error: result.failure ?? undefined,
    });
    stages[name] = env;
    writeJson(runDir, `${name}.json`, env);
    if (!result.ok) {
      failedStage ??= name;
      failure ??= result.failure;
      if (!options.keepGoing) break;
      progress.log(`[bench] stage ${name} FAILED (${result.failure}); --keep-going: continuing`);
    }
  }
  return { stages, failedStage, failure };
}

/** memory.json, summary.json (with the budgets), the history line, report.html and the latest/ mirror. */
function writeOutputs({ ctx, sampler, stages, environment, options, budgets, outRoot, runDir, startedAt, failedStage, failure }) {
  const memory = stageEnvelope({
    stage: 'memory',
    ok: true,
    startedAt,
    finishedAt: new Date().toISOString(),
    environment,
    data: { available: sampler.available === true, intervalMs: 1000, requests: ctx.requests, summary: sampler.summary(), samples: sampler.samples },
  });
  stages.memory = memory;
  writeJson(runDir, 'memory.json', memory);
  // the dedicated by-mode attribution (bench/memory-attribution.js), shown in the report when present
  const attribution = readMemoryAttribution(path.join(outRoot, 'memory-attribution.json'));
  if (attribution) stages['memory-attribution'] = { data: attribution };
  const summary = buildSummary({ environment, stages, startedAt, finishedAt: new Date().toISOString(), failedStage, failure, runDir });
  const budgetVerdict = applyBudgets(summary, budgets, options.baseline);
  writeJson(runDir, 'summary.json', summary);
  const historyDir = path.join(outRoot, 'history');
  let historyFile = null;
  if (options.history) historyFile = writeHistory(historyDir, historyRecord({ summary, kind: historyKind(options) }));
  fs.writeFileSync(path.join(runDir, 'report.html'), renderReport({ environment, stages, summary, history: readHistory(historyDir) }));
  return { summary, budgetVerdict, historyFile, latest: mirrorLatest(runDir) };
}

/** The history line's kind: a grid cell, a --quick run, a partial (--only) run, or a full run. */
function historyKind(options) {
  if (options.cell) return 'cell';
  if (options.quick) return 'quick';
  return options.partial ? 'partial' : 'run';
}

/**
 * Limits of bench/budgets.json (always reported) and the baseline comparison (with --baseline);
 * returns why the run fails its budgets (only with --baseline), or null.
 */
export function applyBudgets(summary, budgets, baselineFile) {
  const limits = checkLimits(summary.figures, budgets);
  let baseline = null;
  if (baselineFile) {
    const base = readBaselineFigures(baselineFile);
    baseline = { file: baselineFile, commit: base.commit, date: base.date, comparison: compareBaseline(summary.figures, base.figures, budgets) };
  }
  summary.budgets = { limits, baseline };
  if (!baselineFile) return null;
  const bad = [
    ...limits.filter((l) => l.ok === false).map((l) => `${l.figure} ${l.value} outside its limit`),
    ...baseline.comparison.filter((c) => c.ok === false).map((c) => `${c.figure} ${c.baseline} → ${c.value}`),
  ];
  return bad.length ? bad.join('; ') : null;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invokedDirectly) {
  // The SDK unrefs its own timers (backoff, timeouts), as a library should; the bench holds the
  // event loop open until main() settles, so a run can never end silently half-way.
  const keepAlive = setInterval(() => {}, 1 << 30);
  let settled = false;
  process.on('exit', () => {
    if (!settled) {
      console.error('[bench] internal error: the run ended before it finished');
      process.exitCode = 1;
    }
  });
  main()
    .finally(() => {
      settled = true;
      clearInterval(keepAlive);
    })
    .then(
      (code) => {
        process.exitCode = code;
      },
      (e) => {
        console.error(e?.stack ?? e);
        process.exitCode = 1;
      },
    );
}
