/**
 * summary.json and the console table: the headline figures of a run, each next to the DESIGN.md
 * target it speaks to (throughput and p99 ratios at concurrency 50, wire size ratios, handshakes
 * vs plain req/s, memory growth). Missing stages give nulls, never a crash.
 */
import { ratio } from './stats.js';
import { RESULT_SCHEMA_VERSION } from './results.js';

export function buildSummary({ environment, stages, startedAt, finishedAt, failedStage, failure, runDir }) {
  const reg = stages.regression?.data;
  const levels = stages.load?.data?.levels ?? [];
  const at = (c) => levels.find((l) => l.concurrency === c) ?? null;
  const l50 = at(50);
  const cases = stages.payload?.data?.cases ?? [];
  const pc = (kind, size) => cases.find((c) => c.kind === kind && c.size === size) ?? null;
  const sc = stages.scenarios?.data ?? {};
  const hs50 = sc.handshakes?.levels?.find((l) => l.concurrency === 50) ?? null;
  const mem = stages.memory?.data?.summary ?? {};
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    ok: failedStage === null,
    failedStage,
    failure,
    startedAt,
    finishedAt,
    resultsDir: runDir,
    environment,
    stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, { ok: v.ok, durationSeconds: v.durationSeconds }])),
    regression: reg ? { passed: reg.passed, total: reg.total, failed: reg.checks.filter((c) => !c.pass).map((c) => c.name) } : null,
    load: levels.map((l) => ({
      concurrency: l.concurrency,
      encryptedRps: l.encrypted.rps,
      plainRps: l.plain.rps,
      rpsRatio: l.ratio.rps,
      encryptedP99Ms: l.encrypted.latencyMs.p99,
      plainP99Ms: l.plain.latencyMs.p99,
      p99Ratio: l.ratio.p99,
      errors: l.encrypted.errors + l.plain.errors,
      clientCpuShare: l.encrypted.client.cpuShareOfMachine,
      serverCpuMsPerRequest: l.encrypted.server ? { encrypted: l.encrypted.server.cpuMsPerRequest, plain: l.plain.server?.cpuMsPerRequest ?? null } : null,
      serverCpuRatio: l.ratio.serverCpuPerRequest ?? null,
    })),
    targets: {
      'throughput ratio 1 KB c=50 (target >= 0.95)': l50?.ratio.rps ?? null,
      'p99 ratio 1 KB c=50 (target <= 1.15)': l50?.ratio.p99 ?? null,
      'server CPU per request encrypted / plain, 1 KB c=50': l50?.ratio.serverCpuPerRequest ?? null,
      'handshakes/s vs plain req/s at c=50 (target >= 0.8)': ratio(hs50?.handshakesPerSecond, l50?.plain.rps),
      'response wire bytes / plaintext, random 1 KB (target <= 1.02)': pc('random', 1024)?.ratios.encryptedVsPlaintext ?? null,
      'response wire bytes / plaintext, random 100 KB (target <= 1.001)': pc('random', 102400)?.ratios.encryptedVsPlaintext ?? null,
      'encrypted+compress vs plain gzip bytes, JSON 100 KB (target <= 1.1)': pc('json', 102400)?.ratios.encryptedCompressedVsPlainGzip ?? null,
      'encrypted (no compress) vs plain gzip bytes, JSON 100 KB': pc('json', 102400)?.ratios.encryptedVsPlainGzip ?? null,
      'p50 latency ratio, JSON 100 KB sequential': pc('json', 102400)?.ratios.p50EncryptedVsPlain ?? null,
    },
    memory: mem,
    soak: stages.soak?.data ? { requests: stages.soak.data.requests, rps: stages.soak.data.result.rps, errors: stages.soak.data.result.errors, memory: Object.fromEntries(Object.entries(stages.soak.data.memory).map(([t, m]) => [t, { rssChangeAfterWarmupMiB: m.rssChangeAfterWarmupMiB ?? null, heapChangeAfterWarmupMiB: m.heapChangeAfterWarmupMiB ?? null }])) } : null,
  };
}

function pad(s, n) {
  s = String(s ?? '–');
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function formatSummaryTable(summary) {
  const lines = [];
  lines.push(`\nNen bench ${summary.ok ? 'PASSED' : `FAILED at ${summary.failedStage}`}  (${summary.environment.cpuModel} × ${summary.environment.cores}, Node ${summary.environment.node}, load avg ${(summary.environment.loadAverageAtStart ?? []).join('/')}, store ${summary.environment.storeKind ?? '?'}, targets ${summary.environment.targets.join(',')})`);
  if (summary.regression) lines.push(`regression: ${summary.regression.passed}/${summary.regression.total} checks passed${summary.regression.failed.length ? ' — failed: ' + summary.regression.failed.join('; ') : ''}`);
  if (summary.load.length) {
    lines.push('');
    lines.push([pad('conc', 6), pad('enc req/s', 11), pad('plain req/s', 12), pad('ratio', 7), pad('enc p99', 9), pad('plain p99', 10), pad('p99 ratio', 10), pad('errors', 7), pad('client CPU', 11), 'server CPU ms/req enc/plain'].join(' '));
    for (const l of summary.load) lines.push([pad(l.concurrency, 6), pad(l.encryptedRps, 11), pad(l.plainRps, 12), pad(l.rpsRatio, 7), pad(l.encryptedP99Ms, 9), pad(l.plainP99Ms, 10), pad(l.p99Ratio, 10), pad(l.errors, 7), pad(l.clientCpuShare, 11), l.serverCpuMsPerRequest ? `${l.serverCpuMsPerRequest.encrypted} / ${l.serverCpuMsPerRequest.plain} (${l.serverCpuRatio})` : '–'].join(' '));
  }
  lines.push('');
  for (const [k, v] of Object.entries(summary.targets)) lines.push(`${pad(k, 72)} ${v ?? '–'}`);
  for (const [t, m] of Object.entries(summary.memory ?? {})) {
    if (m.samples) {
      lines.push(`memory ${t}: rss ${m.rssFirstMiB} → ${m.rssLastMiB} MiB (max ${m.rssMaxMiB}), growth ${m.rssGrowthKiBPer1000Requests ?? '–'} KiB / 1000 requests over ${m.requestsCovered} requests, sessions ${m.sessionsLast}`);
      for (const [st, x] of Object.entries(m.byStage ?? {})) {
        if (x?.samples) lines.push(`  during ${st}: rss ${x.rssFirstMiB} → ${x.rssLastMiB} MiB, heap growth ${x.heapGrowthKiBPer1000Requests ?? '–'} KiB / 1000 requests over ${x.requestsCovered} requests, sessions ${x.sessionsLast}`);
      }
    }
  }
  if (summary.soak) {
    for (const [t, m] of Object.entries(summary.soak.memory)) lines.push(`soak ${t}: ${summary.soak.requests} requests at ${summary.soak.rps} req/s, errors ${summary.soak.errors}, RSS change after warm-up ${m.rssChangeAfterWarmupMiB} MiB, heap ${m.heapChangeAfterWarmupMiB} MiB (target: flat, <= +20 MB)`);
  }
  return lines.join('\n');
}
