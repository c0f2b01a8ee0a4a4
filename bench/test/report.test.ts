import { describe, expect, it } from 'vitest';
import { renderReport, lineChart, barChart, escapeHtml } from '../lib/report.js';
import { collectEnvironment } from '../lib/env.js';
import { stageEnvelope, validateStageResult, RESULT_SCHEMA_VERSION } from '../lib/results.js';
import { buildSummary, formatSummaryTable } from '../lib/summary.js';

const environment = collectEnvironment({ targets: ['http://127.0.0.1:3000'], storeKind: 'memory', options: { quick: true } });
const lat = (p: number) => ({ n: 100, min: p / 2, p50: p, p90: p * 1.5, p99: p * 2, max: p * 3, mean: p });
const mode = (rps: number, p: number) => ({ requests: 1000, errors: 0, errorKinds: {}, errorSamples: [], seconds: 1, rps, latencyMs: lat(p), client: { cpuMs: 1, cpuMsPerRequest: 0.1, cpuShareOfMachine: 0.3 } });
const now = new Date().toISOString();
const stages = {
  regression: stageEnvelope({ stage: 'regression', ok: true, startedAt: now, finishedAt: now, environment, data: { passed: 1, total: 2, checks: [
    { property: 5, name: 'tampered <body>', expected: '401', actual: '401 NEN_AUTH_FAILED', pass: true },
    { property: 7, name: 'replay', expected: '409', actual: '200', pass: false },
  ] } }),
  load: stageEnvelope({ stage: 'load', ok: true, startedAt: now, finishedAt: now, environment, data: { levels: [1, 10, 50].map((c) => ({ concurrency: c, encrypted: mode(900 + c, 5), plain: mode(1000 + c, 4), ratio: { rps: 0.9, p50: 1.25, p99: 1.25 } })) } }),
  payload: stageEnvelope({ stage: 'payload', ok: true, startedAt: now, finishedAt: now, environment, data: { cases: [1024, 102400].map((size) => ({
    kind: 'json', size, label: `${size / 1024} KB`, plaintextBytes: size,
    encrypted: { requestWireBytes: size + 16, responseWireBytes: size + 16, latencyMs: lat(2) },
    encryptedCompressed: { requestWireBytes: size / 4, responseWireBytes: size / 4, latencyMs: lat(2) },
    plain: { requestWireBytes: size, responseWireBytesGzip: size / 5, latencyMs: lat(1) },
    ratios: { encryptedVsPlaintext: 1.01, encryptedVsPlainGzip: 5, encryptedCompressedVsPlainGzip: 1.2 },
  })) } }),
  memory: stageEnvelope({ stage: 'memory', ok: true, startedAt: now, finishedAt: now, environment, data: { samples: [0, 1, 2].map((t) => ({ t, stage: t < 2 ? 'load' : 'payload', target: 'http://127.0.0.1:3000', requests: t * 100, rss: (100 + t) * 2 ** 20, heapUsed: 50 * 2 ** 20, sessions: 1 })), summary: {} } }),
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
  const html = renderReport({ environment, stages, summary });

  it('is a self-contained HTML document with inline SVG charts', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('</html>');
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\/(?!www\.w3\.org\/2000\/svg)(?!127\.0\.0\.1)/);
    const svgs = html.match(/<svg /g) ?? [];
    // throughput, p99, ratio, wire size (json), rss, heap
    expect(svgs.length).toBe(6);
    for (const title of ['Throughput vs concurrency', 'p99 latency vs concurrency', 'Overhead ratio encrypted / plain', 'Response bytes on the wire (json)', 'Server RSS over time']) expect(html).toContain(title);
    expect((html.match(/<polyline class="series"/g) ?? []).length).toBeGreaterThanOrEqual(6);
    expect((html.match(/<rect class="bar"/g) ?? []).length).toBe(8);
    // stage boundaries on both memory charts
    expect((html.match(/<line class="marker"/g) ?? []).length).toBe(4);
  });

  it('escapes text from the target', () => {
    expect(html).toContain('tampered &lt;body&gt;');
    expect(html).not.toContain('tampered <body>');
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
  });

  it('charts place points inside the plot area', () => {
    const svg = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', categorical: true, series: [{ name: 's', points: [[1, 10], [10, 20], [50, 0]] }] });
    const pts = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(pts).toHaveLength(3);
    for (const [x, y] of pts) {
      expect(x).toBeGreaterThanOrEqual(60);
      expect(x).toBeLessThanOrEqual(620);
      expect(y).toBeGreaterThanOrEqual(34);
      expect(y).toBeLessThanOrEqual(274);
    }
    expect(pts[0]![1]).toBeGreaterThan(pts[1]![1]); // larger value drawn higher
    const bars = barChart({ title: 'b', yLabel: 'B', categories: ['a'], series: [{ name: 's', values: [100] }], log: true });
    expect(bars).toContain('<rect class="bar"');
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
