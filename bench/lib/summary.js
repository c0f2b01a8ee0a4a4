/**
 * summary.json and the console table: the headline figures of a run, each next to the target it
 * speaks to (README "Performance" and issue 11: throughput and p99 ratios at concurrency 50, wire
 * size ratios, handshakes vs plain req/s, memory growth), the load variants (payload ×
 * compression × shared / pinned cores), memory growth by mode, the saturation knees, and the
 * named key figures (`figures`, lib/budgets.js) that budgets, baselines and the history use.
 * Missing stages give nulls, never a crash.
 */
import { ratio } from './stats.js';
import { formatColumns, pad } from './table.js';
import { RESULT_SCHEMA_VERSION } from './results.js';
import { keyFigures, formatBudgetReport } from './budgets.js';

const cpuPerRequest = (x) => (x.encrypted.server ? { encrypted: x.encrypted.server.cpuMsPerRequest, plain: x.plain.server?.cpuMsPerRequest ?? null } : null);

/** One row of the load table per concurrency level. */
function loadRows(levels) {
  return levels.map((l) => ({
    concurrency: l.concurrency,
    encryptedRps: l.encrypted.rps,
    plainRps: l.plain.rps,
    rpsRatio: l.ratio.rps,
    encryptedP99Ms: l.encrypted.latencyMs.p99,
    plainP99Ms: l.plain.latencyMs.p99,
    p99Ratio: l.ratio.p99,
    errors: l.encrypted.errors + l.plain.errors,
    clientCpuShare: l.encrypted.client.cpuShareOfMachine,
    serverCpuMsPerRequest: cpuPerRequest(l),
    serverCpuRatio: l.ratio.serverCpuPerRequest ?? null,
  }));
}

/** The headline figures, each labelled with the target it speaks to. */
function targetFigures(stages) {
  const l50 = (stages.load?.data?.levels ?? []).find((l) => l.concurrency === 50) ?? null;
  const cases = stages.payload?.data?.cases ?? [];
  const pc = (kind, size) => cases.find((c) => c.kind === kind && c.size === size) ?? null;
  const hs50 = stages.scenarios?.data?.handshakes?.levels?.find((l) => l.concurrency === 50) ?? null;
  const oh = stages.ohttp?.data ?? null;
  const ohPinned = (stages.load?.data?.variants ?? []).find((v) => v.id === 'ohttp-1k-pinned' && !v.skipped) ?? null;
  return {
    'throughput ratio 1 KB c=50 (target >= 0.95)': l50?.ratio.rps ?? null,
    'p99 ratio 1 KB c=50 (target <= 1.15)': l50?.ratio.p99 ?? null,
    'server CPU per request encrypted / plain, 1 KB c=50': l50?.ratio.serverCpuPerRequest ?? null,
    'handshakes/s vs plain req/s at c=50 (target >= 0.8)': ratio(hs50?.handshakesPerSecond, l50?.plain.rps),
    'response wire bytes / plaintext, random 1 KB (target <= 1.02)': pc('random', 1024)?.ratios.encryptedVsPlaintext ?? null,
    'response wire bytes / plaintext, random 100 KB (target <= 1.001)': pc('random', 102400)?.ratios.encryptedVsPlaintext ?? null,
    'encrypted+compress vs plain gzip bytes, JSON 100 KB (target <= 1.1)': pc('json', 102400)?.ratios.encryptedCompressedVsPlainGzip ?? null,
    'encrypted (no compress) vs plain gzip bytes, JSON 100 KB': pc('json', 102400)?.ratios.encryptedVsPlainGzip ?? null,
    'p50 latency ratio, JSON 100 KB sequential': pc('json', 102400)?.ratios.p50EncryptedVsPlain ?? null,
    ...(oh
      ? {
          'OHTTP cold first request - plain, ms at +20 ms RTT (target <= 1)': oh.figures.ohttpColdOverPlainMs,
          "of it OHTTP's cryptography alone (floor - plain), ms": oh.figures.ohttpFloorColdOverPlainMs ?? null,
          'session cold - OHTTP cold, ms (target: one RTT, 20)': oh.figures.sessionColdOverOhttpMs,
          'OHTTP / plain req/s, 1 KB, bare node:http echo (lean-server floor)': oh.figures.ohttpRpsRatio1k,
        }
      : {}),
    ...(ohPinned ? { 'OHTTP / plain req/s, 1 KB, pinned demo c=50 (target >= 0.8)': ohPinned.ratio.rps ?? null } : {}),
  };
}

/** One row per load variant (payload × compression × cores). */
function variantRows(variants) {
  return variants.map((v) => ({
    id: v.id,
    size: v.size,
    concurrency: v.concurrency,
    compression: v.compression,
    cores: v.cores,
    encryptedRps: v.encrypted.rps,
    plainRps: v.plain.rps,
    rpsRatio: v.ratio.rps,
    p99Ratio: v.ratio.p99,
    serverCpuMsPerRequest: cpuPerRequest(v),
    serverCpuRatio: v.ratio.serverCpuPerRequest ?? null,
    serverCpuMsOverPlain: v.serverCpuMsOverPlain ?? null,
    bytes: v.bytes ?? null,
    errors: v.encrypted.errors + v.plain.errors,
    note: v.note ?? null,
  }));
}

/** The knees per payload and the handshake saturation, or null without the stage. */
function saturationSummary(data) {
  if (!data) return null;
  return {
    budgetP99Ms: data.budgetP99Ms,
    routing: data.routing,
    payloads: data.payloads.map((p) => ({ size: p.size, label: p.label, encrypted: p.knee.encrypted, plain: p.knee.plain, atKnee: p.atKnee })),
    handshakes: data.handshakes,
  };
}

/** Requests, rate, errors and memory change after warm-up per target, or null without the stage. */
function soakSummary(data) {
  if (!data) return null;
  const memory = Object.entries(data.memory).map(([t, m]) => [
    t,
    { rssChangeAfterWarmupMiB: m.rssChangeAfterWarmupMiB ?? null, heapChangeAfterWarmupMiB: m.heapChangeAfterWarmupMiB ?? null },
  ]);
  return { requests: data.requests, rps: data.result.rps, errors: data.result.errors, memory: Object.fromEntries(memory) };
}

export function buildSummary({ environment, stages, startedAt, finishedAt, failedStage, failure, runDir }) {
  const reg = stages.regression?.data;
  const oh = stages.ohttp?.data ?? null;
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
    load: loadRows(stages.load?.data?.levels ?? []),
    targets: targetFigures(stages),
    figures: keyFigures(stages),
    variants: variantRows(stages.load?.data?.variants ?? []),
    memoryAttribution: stages.load?.data?.memoryAttribution ?? null,
    saturation: saturationSummary(stages.saturation?.data),
    ohttp: oh ? { rttMs: oh.rttMs, coldMs: oh.coldMs, throughput: oh.throughput, figures: oh.figures } : null,
    memory: stages.memory?.data?.summary ?? {},
    soak: soakSummary(stages.soak?.data),
  };
}

const LOAD_COLUMNS = [
  ['conc', 6, (l) => l.concurrency],
  ['enc req/s', 11, (l) => l.encryptedRps],
  ['plain req/s', 12, (l) => l.plainRps],
  ['ratio', 7, (l) => l.rpsRatio],
  ['enc p99', 9, (l) => l.encryptedP99Ms],
  ['plain p99', 10, (l) => l.plainP99Ms],
  ['p99 ratio', 10, (l) => l.p99Ratio],
  ['errors', 7, (l) => l.errors],
  ['client CPU', 11, (l) => l.clientCpuShare],
  [
    'server CPU ms/req enc/plain',
    0,
    (l) => (l.serverCpuMsPerRequest ? `${l.serverCpuMsPerRequest.encrypted} / ${l.serverCpuMsPerRequest.plain} (${l.serverCpuRatio})` : '–'),
  ],
];

const VARIANT_COLUMNS = [
  ['variant', 22, (v) => v.id],
  ['enc req/s', 10, (v) => v.encryptedRps],
  ['plain req/s', 12, (v) => v.plainRps],
  ['ratio', 7, (v) => v.rpsRatio],
  ['p99 ratio', 10, (v) => v.p99Ratio],
  [
    'srv CPU ms/req enc/plain',
    25,
    (v) => (v.serverCpuMsPerRequest ? `${v.serverCpuMsPerRequest.encrypted} / ${v.serverCpuMsPerRequest.plain} (${v.serverCpuRatio})` : '–'),
  ],
  ['resp bytes enc/plain', 21, (v) => (v.bytes ? `${v.bytes.encryptedResponse} / ${v.bytes.plainResponse}` : '–')],
  ['bytes ratio', 0, (v) => v.bytes?.responseRatio ?? '–'],
];

export function formatSummaryTable(summary) {
  const lines = [];
  lines.push(
    `\nNen bench ${summary.ok ? 'PASSED' : `FAILED at ${summary.failedStage}`}  (${summary.environment.cpuModel} × ${summary.environment.cores}, Node ${summary.environment.node}, load avg ${(summary.environment.loadAverageAtStart ?? []).join('/')}, store ${summary.environment.storeKind ?? '?'}, targets ${summary.environment.targets.join(',')})`,
  );
  if (summary.regression)
    lines.push(
      `regression: ${summary.regression.passed}/${summary.regression.total} checks passed${summary.regression.failed.length ? ' — failed: ' + summary.regression.failed.join('; ') : ''}`,
    );
  if (summary.load.length) lines.push('', ...formatColumns(LOAD_COLUMNS, summary.load));
  if (summary.variants?.length) {
    const [head, ...rows] = formatColumns(VARIANT_COLUMNS, summary.variants);
    lines.push('', head, ...rows.map((row, i) => row + (summary.variants[i].note ? `  (${summary.variants[i].note})` : '')));
  }
  if (summary.memoryAttribution?.windows?.length) {
    for (const w of summary.memoryAttribution.windows)
      lines.push(
        `memory, ${w.mode}-only window: ${w.requests} requests, RSS ${w.rssStartMiB} → ${w.rssEndMiB} MiB (${w.rssGrowthKiBPer1000Requests ?? '–'} KiB / 1000 req), heap ${w.heapStartMiB} → ${w.heapEndMiB} MiB (${w.heapGrowthKiBPer1000Requests ?? '–'} KiB / 1000 req)`,
      );
  }
  if (summary.saturation) {
    for (const p of summary.saturation.payloads) {
      const k = p.encrypted;
      lines.push(
        `saturation ${p.label} (p99 budget ${summary.saturation.budgetP99Ms} ms): knee ${k.knee ? `c=${k.knee.concurrency} ${k.knee.rps} req/s p99 ${k.knee.p99Ms} ms` : 'none'}${k.brokeAt ? `, broke at c=${k.brokeAt.concurrency} (${k.brokeAt.reason})` : ', ramp ended inside the budget'}; plain knee ${p.plain.knee ? `c=${p.plain.knee.concurrency} ${p.plain.knee.rps} req/s` : 'none'}`,
      );
    }
    const h = summary.saturation.handshakes;
    if (h)
      lines.push(
        `saturation handshakes c=${h.concurrency}: ${h.handshakesPerSecond}/s, server CPU ${h.serverCpuMsPerHandshake ?? '–'} ms/handshake, Redis ${h.redisCommandsPerHandshake ?? '–'} cmds and ${h.redisBytesPerSession ?? '–'} B per session`,
      );
  }
  if (summary.ohttp) {
    const { coldMs: c, figures: f } = summary.ohttp;
    lines.push(
      `ohttp: cold first request at +${summary.ohttp.rttMs} ms RTT plain ${c.plain} / OHTTP ${c.ohttp} / via relay ${c['ohttp-relay']} / session ${c.session} ms; OHTTP / plain req/s 1 KB ${f.ohttpRpsRatio1k}, 100 KB ${f.ohttpRpsRatio100k}; server CPU per 1 KB request plain / session / OHTTP ${f.plainServerCpuUs1k} / ${f.sessionServerCpuUs1k} / ${f.ohttpServerCpuUs1k} µs`,
    );
  }
  lines.push('');
  for (const [k, v] of Object.entries(summary.targets)) lines.push(`${pad(k, 72)} ${v ?? '–'}`);
  for (const [t, m] of Object.entries(summary.memory ?? {})) {
    if (m.samples) {
      lines.push(
        `memory ${t}: rss ${m.rssFirstMiB} → ${m.rssLastMiB} MiB (max ${m.rssMaxMiB}), growth ${m.rssGrowthKiBPer1000Requests ?? '–'} KiB / 1000 requests over ${m.requestsCovered} requests, sessions ${m.sessionsLast}`,
      );
      for (const [st, x] of Object.entries(m.byStage ?? {})) {
        if (x?.samples)
          lines.push(
            `  during ${st}: rss ${x.rssFirstMiB} → ${x.rssLastMiB} MiB, heap growth ${x.heapGrowthKiBPer1000Requests ?? '–'} KiB / 1000 requests over ${x.requestsCovered} requests, sessions ${x.sessionsLast}`,
          );
      }
    }
  }
  if (summary.soak) {
    for (const [t, m] of Object.entries(summary.soak.memory))
      lines.push(
        `soak ${t}: ${summary.soak.requests} requests at ${summary.soak.rps} req/s, errors ${summary.soak.errors}, RSS change after warm-up ${m.rssChangeAfterWarmupMiB} MiB, heap ${m.heapChangeAfterWarmupMiB} MiB (target: flat, <= +20 MB)`,
      );
  }
  if (summary.budgets) {
    lines.push('');
    lines.push(formatBudgetReport(summary.budgets));
  }
  return lines.join('\n');
}
