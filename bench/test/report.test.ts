/**
 * The bench report (lib/report.js and its sections) and summary (lib/summary.js) from fabricated
 * stage results: the results envelope validates (lib/results.js), the HTML is self-contained,
 * there is one chart spec per chart slot, target text is escaped, chart data is cleaned, and the
 * summary picks the headline figures.
 * Pitfall: the fixtures are built here, not read from bench/results, so the test never depends on
 * a previous run.
 */
import { describe, expect, it } from 'vitest';
import { renderReport, escapeHtml } from '../lib/report.js';
import { chart, scriptJson, heatColor } from '../lib/charts.js';
import { collectEnvironment } from '../lib/env.js';
import { stageEnvelope, validateStageResult, RESULT_SCHEMA_VERSION } from '../lib/results.js';
import { buildSummary, formatSummaryTable } from '../lib/summary.js';

const environment = collectEnvironment({ targets: ['http://127.0.0.1:3000'], storeKind: 'memory', options: { quick: true } });
const lat = (p: number) => ({ n: 100, min: p / 2, p50: p, p90: p * 1.5, p99: p * 2, max: p * 3, mean: p });
const mode = (rps: number, p: number) => ({
  requests: 1000,
  errors: 0,
  errorKinds: {},
  errorSamples: [],
  seconds: 1,
  rps,
  latencyMs: lat(p),
  client: { cpuMs: 1, cpuMsPerRequest: 0.1, cpuShareOfMachine: 0.3 },
});
const now = new Date().toISOString();
const stages = {
  regression: stageEnvelope({
    stage: 'regression',
    ok: true,
    startedAt: now,
    finishedAt: now,
    environment,
    data: {
      passed: 1,
      total: 2,
      checks: [
        { property: 5, name: 'tampered <body>', expected: '401', actual: '401 NEN_AUTH_FAILED', pass: true },
        { property: 7, name: 'replay', expected: '409', actual: '200', pass: false },
      ],
    },
  }),
  load: stageEnvelope({
    stage: 'load',
    ok: true,
    startedAt: now,
    finishedAt: now,
    environment,
    data: {
      levels: [1, 10, 50].map((c) => ({ concurrency: c, encrypted: mode(900 + c, 5), plain: mode(1000 + c, 4), ratio: { rps: 0.9, p50: 1.25, p99: 1.25 } })),
    },
  }),
  payload: stageEnvelope({
    stage: 'payload',
    ok: true,
    startedAt: now,
    finishedAt: now,
    environment,
    data: {
      cases: [1024, 102400].map((size) => ({
        kind: 'json',
        size,
        label: `${size / 1024} KB`,
        plaintextBytes: size,
        encrypted: { requestWireBytes: size + 16, responseWireBytes: size + 16, latencyMs: lat(2) },
        encryptedCompressed: { requestWireBytes: size / 4, responseWireBytes: size / 4, latencyMs: lat(2) },
        plain: { requestWireBytes: size, responseWireBytesGzip: size / 5, latencyMs: lat(1) },
        ratios: { encryptedVsPlaintext: 1.01, encryptedVsPlainGzip: 5, encryptedCompressedVsPlainGzip: 1.2 },
      })),
    },
  }),
  saturation: stageEnvelope({
    stage: 'saturation',
    ok: true,
    startedAt: now,
    finishedAt: now,
    environment,
    data: {
      budgetP99Ms: 100,
      routing: 'one instance',
      payloads: [
        {
          size: 1024,
          label: '1 KB',
          steps: [2, 8].map((c) => ({
            concurrency: c,
            encrypted: {
              rps: 100 * c,
              p50Ms: 1,
              p99Ms: c * 10,
              errors: 0,
              requests: 10,
              serverCpuMsPerRequest: 1,
              redisCommandsPerRequest: 4,
              redisEvalshaPerRequest: 1,
              redisCpuUsPerRequest: 12,
            },
            plain: { rps: 110 * c, p50Ms: 1, p99Ms: c * 9, errors: 0, requests: 10 },
            ratio: { rps: 0.9 },
          })),
          knee: {
            encrypted: { knee: { concurrency: 8, rps: 800, p99Ms: 80 }, peakInBudget: { rps: 800 }, brokeAt: null },
            plain: { knee: { concurrency: 8, rps: 880, p99Ms: 72 }, peakInBudget: { rps: 880 }, brokeAt: null },
          },
          atKnee: null,
        },
      ],
      handshakes: {
        concurrency: 8,
        handshakesPerSecond: 300,
        p50Ms: 5,
        p99Ms: 20,
        errors: 0,
        serverCpuMsPerHandshake: 1.5,
        redisCommandsPerHandshake: 6,
        redisEvalshaPerHandshake: 1,
        redisCpuUsPerHandshake: 30,
        redisBytesPerSession: 400,
      },
    },
  }),
  memory: stageEnvelope({
    stage: 'memory',
    ok: true,
    startedAt: now,
    finishedAt: now,
    environment,
    data: {
      samples: [0, 1, 2].map((t) => ({
        t,
        stage: t < 2 ? 'load' : 'payload',
        target: 'http://127.0.0.1:3000',
        requests: t * 100,
        rss: (100 + t) * 2 ** 20,
        heapUsed: 50 * 2 ** 20,
        sessions: 1,
      })),
      summary: {},
    },
  }),
};

describe('result schema', () => {
  it('every stage envelope validates and carries the environment and scope note', () => {
    for (const s of Object.values(stages)) {
      expect(validateStageResult(JSON.parse(JSON.stringify(s)))).toBeTruthy();
      expect(s.schemaVersion).toBe(RESULT_SCHEMA_VERSION);
      expect(s.scope).toMatch(/same machine|share one machine/);
    }
    expect(environment.cores).toBeGreaterThan(0);
    expect(environment.git).toHaveProperty('commit');
    expect(environment.versions.node).toBe(process.versions.node);
  });
  it('rejects envelopes missing required fields', () => {
    const bad = JSON.parse(JSON.stringify(stages.load));
    delete bad.environment.targets;
    expect(() => validateStageResult(bad)).toThrow(/environment.targets/);
    expect(() => validateStageResult({ ...stages.load, ok: 'yes' })).toThrow(/ok/);
    expect(() => validateStageResult(null)).toThrow();
  });
});

describe('report', () => {
  const summary = buildSummary({ environment, stages, startedAt: now, finishedAt: now, failedStage: null, failure: null, runDir: '/tmp/x' });
  const history = [{ schema: 1, kind: 'run', date: '2026-01-01T00:00:00Z', commit: 'abc', figures: { rpsRatio1k: 0.9, encryptedRps1k: 900 } }];
  const html = renderReport({ environment, stages, summary, history });
  const specs = () => JSON.parse(html.match(/<script type="application\/json" id="nen-charts">([\s\S]*?)<\/script>/)![1]!);

  it('is a self-contained HTML document: uPlot inlined from node_modules, no external reference', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('</html>');
    expect(html).not.toMatch(/<script[^>]+src=|<link|<img/);
    expect(html).toMatch(/uPlot 1\.6\.\d+ \(MIT\), inlined/);
    expect(html).toContain('.uplot'); // its stylesheet
  });

  it('holds one chart spec per chart, each with a slot: load, wire bytes, memory, history', () => {
    const charts = specs();
    const titles = charts.map((c: { title: string }) => c.title);
    for (const t of [
      'Throughput vs concurrency, 1 KB',
      'p99 vs concurrency, 1 KB',
      'Throughput vs concurrency',
      'p99 latency vs concurrency',
      'Overhead ratio encrypted / plain',
      'Response bytes on the wire (json)',
      'Server RSS over time',
      'Server heap used over time',
      'Ratios over runs',
    ])
      expect(titles).toContain(t);
    expect((html.match(/data-chart="/g) ?? []).length).toBe(charts.length);
    const thr = charts.find((c: { title: string }) => c.title === 'Throughput vs concurrency');
    expect(thr.x).toEqual(['1', '10', '50']);
    expect(thr.series.map((x: { name: string; values: number[] }) => [x.name, x.values])).toEqual([
      ['encrypted', [901, 910, 950]],
      ['plain', [1001, 1010, 1050]],
    ]);
    const rss = charts.find((c: { title: string }) => c.title === 'Server RSS over time');
    expect(rss.x).toEqual([0, 1, 2]);
    expect(rss.series[0].values).toEqual([100, 101, 102]);
    const p99 = charts.find((c: { title: string }) => c.title === 'p99 vs concurrency, 1 KB');
    expect(p99.refLine).toBe(100); // the budget
    expect(html).toContain('not reached (ramp ended)');
    expect(html).toContain('<td>6 (1)</td>'); // Redis commands (EVALSHA) per handshake
    const wire = charts.find((c: { title: string }) => c.title === 'Response bytes on the wire (json)');
    expect(wire).toMatchObject({ kind: 'bar', logY: true, categorical: true });
  });

  it('escapes text from the target, in tables and inside the chart JSON', () => {
    expect(html).toContain('tampered &lt;body&gt;');
    expect(html).not.toContain('tampered <body>');
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
    expect(scriptJson({ t: '</script><b>' })).toBe('{"t":"\\u003c/script>\\u003cb>"}');
  });

  it('chart specs clean non-finite values and keep categories as labels', () => {
    const c = chart({ title: 't', xLabel: 'x', yLabel: 'y', categorical: true, x: [1, 10], series: [{ name: 's', values: [NaN, 3] }], refLine: 1 });
    expect(c.x).toEqual(['1', '10']);
    expect(c.series[0]!.values).toEqual([null, 3]);
    expect(c.refLine).toBe(1);
    expect(heatColor(null, 0, 1)).toBe('#e5e7eb');
    expect(heatColor(0, 0, 10)).toBe('hsl(0 70% 78%)');
    expect(heatColor(10, 0, 10)).toBe('hsl(120 70% 78%)');
  });

  it('summary picks the headline figures and prints a table', () => {
    expect(summary.ok).toBe(true);
    expect(summary.targets['throughput ratio 1 KB c=50 (target >= 0.95)']).toBe(0.9);
    expect(summary.regression).toEqual({ passed: 1, total: 2, failed: ['replay'] });
    const table = formatSummaryTable(summary);
    expect(table).toContain('enc req/s');
    expect(table.split('\n').some((l) => l.startsWith('50 '))).toBe(true);
  });
});
