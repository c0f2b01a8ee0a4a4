#!/usr/bin/env node
/**
 * The conformance runner: `node conformance/runner/run.mjs [--client js,go] [--real] [--out file]`.
 * Starts the fault server (127.0.0.1), then for each registered driver (conformance/drivers.json):
 * builds it once, starts it, runs the `vectors` op (every vector name the reference checker
 * produces must be reported ok), every scenario, and with `--real` the real-traffic suite (the
 * demo under `next start`, the Hono target). Prints a pass/fail table per client with the reason
 * of each failure, writes JSON results (default conformance/.results/results.json) and exits 1
 * unless every selected client passes 100 %.
 *
 * Pitfalls: drivers run one at a time (2-core machine); a driver that hangs or dies is restarted
 * for the next scenario; every child and server is stopped before exit, also on failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as core from '@nen/core';
import { pins as loadPins } from '../server/keys.mjs';
import { SCENARIOS } from '../server/scenarios.mjs';
import { startFaultServer } from '../server/server.mjs';
import { checkVectors } from '../vectors/lib/check.mjs';
import { DriverProcess } from './driver-process.mjs';
import { runReal, startTargets } from './real.mjs';
import { printTable } from './report.mjs';
import { runScenario } from './scenario-run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const vectorsDir = join(root, 'conformance/vectors');
const { values } = parseArgs({
  options: { client: { type: 'string' }, real: { type: 'boolean' }, out: { type: 'string' }, only: { type: 'string' } },
  strict: true,
});

const registry = JSON.parse(readFileSync(join(root, 'conformance/drivers.json'), 'utf8')).drivers;
const wanted = values.client ? values.client.split(',') : registry.map((d) => d.name);
const unknown = wanted.filter((n) => !registry.some((d) => d.name === n));
if (unknown.length) {
  console.error(`unknown client(s): ${unknown.join(', ')} (registered: ${registry.map((d) => d.name).join(', ')})`);
  process.exit(2);
}
const scenarios = values.only ? SCENARIOS.filter((s) => values.only.split(',').includes(s.name)) : SCENARIOS;

/** The vector names a complete checker reports (the reference checker's, run in-process). */
const expectedVectors = (await checkVectors(core, await core.loadBackend('wasm'), vectorsDir)).map((r) => `${r.file}: ${r.name}`);

function vectorResults(answer) {
  if (!answer.ok) return expectedVectors.map((name) => ({ name, ok: false, detail: `vectors op failed: ${answer.code} ${answer.message ?? ''}` }));
  const got = new Map((answer.results ?? []).map((r) => [`${r.file}: ${r.name}`, r]));
  return expectedVectors.map((name) => {
    const r = got.get(name);
    if (!r) return { name, ok: false, detail: 'not reported' };
    return r.ok ? { name, ok: true } : { name, ok: false, detail: r.detail ?? 'failed' };
  });
}

async function runClient(spec, ctx) {
  const result = { client: spec.name, language: spec.language, vectors: [], scenarios: [], real: [] };
  if (spec.build) {
    const [cmd, ...args] = spec.build;
    const b = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 300_000 });
    if (b.status !== 0) {
      result.error = `build failed (${b.status ?? b.signal}): ${(b.stderr || b.stdout || '').slice(-600)}`;
      return result;
    }
  }
  let driver = new DriverProcess(spec, root);
  const hello = await driver.send({ op: 'hello' });
  if (!hello.ok) {
    result.error = `hello failed: ${hello.message}`;
    driver.kill();
    return result;
  }
  result.version = hello.version;
  result.features = hello.features ?? [];
  result.vectors = vectorResults(await driver.send({ op: 'vectors', dir: vectorsDir }, 60_000));
  for (const sc of scenarios) {
    const r = await runScenario(sc, driver, { ...ctx, features: result.features });
    result.scenarios.push({ name: sc.name, misbehaves: sc.misbehaves, ok: r.ok, ...(r.detail ? { detail: r.detail } : {}) });
    if (r.restart) {
      driver.kill();
      driver = new DriverProcess(spec, root);
      await driver.send({ op: 'hello' });
    }
  }
  if (ctx.targets) result.real = await runReal(driver, ctx.targets);
  if (ctx.targetError) result.real = [{ name: 'real-traffic targets', ok: false, detail: `could not start: ${ctx.targetError.message}` }];
  await driver.close();
  return result;
}

const server = await startFaultServer();
const results = [];
let targets = null;
try {
  let targetError = null;
  if (values.real) {
    try {
      targets = await startTargets(root);
    } catch (e) {
      targetError = e;
    }
  }
  const ctx = { url: server.url, pins: await loadPins(), targets, targetError };
  for (const name of wanted)
    results.push(
      await runClient(
        registry.find((d) => d.name === name),
        ctx,
      ),
    );
} finally {
  for (const t of targets ?? []) await t.stop();
  await server.close();
}
const out = values.out ?? join(root, 'conformance/.results/results.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), scenarios: scenarios.length, vectors: expectedVectors.length, results }, null, 2)}\n`);
const allPass = printTable(results);
console.log(`results: ${out}`);
process.exit(allPass ? 0 : 1);
