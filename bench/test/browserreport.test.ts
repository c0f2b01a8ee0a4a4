/**
 * The report opens with its charts (the gallery comes before the first table) and shows the
 * browser section of the cold-browser stage: weight and cold-response charts, target verdict,
 * per-mode and per-file tables.
 */
import { describe, expect, it } from 'vitest';
import { collectEnvironment } from '../lib/env.js';
import { renderReport } from '../lib/report.js';
import { stageEnvelope } from '../lib/results.js';
import { buildSummary } from '../lib/summary.js';

const environment = collectEnvironment({ targets: ['http://127.0.0.1:3000'], storeKind: 'memory', options: { quick: true } });
const now = new Date().toISOString();
const mode = (ms: number, script: number, wasm: number) => ({
  loads: 2,
  medianMs: ms,
  minMs: ms - 5,
  maxMs: ms + 5,
  evaluatedMs: 200,
  scriptBytes: script,
  wasmBytes: wasm,
  totalBytes: script + wasm + 2000,
  samplesMs: [ms - 5, ms + 5],
  timelines: [],
  phases: {
    scriptsLoaded: 150,
    evaluated: 200,
    wasmLoaded: null,
    handshakeSent: 300,
    handshakeAnswered: 355,
    requestSent: 400,
    requestAnswered: 455,
    done: 470,
  },
});
const data = {
  conditions: { cpuThrottling: 4, addedRttMs: 50, rounds: 2 },
  modes: { plain: mode(350, 471, 0), nen: mode(700, 38_400, 0), 'nen-wasm': mode(800, 43_400, 153_900) },
  extraMs: { nen: 350, 'nen-wasm': 450 },
  target: { rule: 'nen <= plain + 50 ms (1 RTT) + 15 ms', targetMs: 415, met: false },
  weight: {
    method: 'esbuild',
    defaultInitial: { bytes: 101_000, gzip: 37_800 },
    defaultLazy: { bytes: 478_000, gzip: 158_300 },
    wasmBackendInitial: { bytes: 579_000, gzip: 196_100 },
    files: [
      { name: 'entry.js', bytes: 99_000, gzip: 36_500, initial: true },
      { name: 'nen_core_bg.wasm', bytes: 460_000, gzip: 153_700, initial: false },
    ],
  },
  stream: {
    noble: {
      tokens: 1000,
      iterations: 2,
      plain: { ttftMs: 20, tokensPerSecond: 3000 },
      nen: { ttftMs: 21, tokensPerSecond: 2400 },
      tokensPerSecondRatio: 0.8,
      ttftOverPlainMs: 1,
    },
  },
  errors: [],
};

describe('report: charts first, browser section', () => {
  it('opens with the chart gallery, then the tables; the browser section has its charts and tables', () => {
    const stages = { 'cold-browser': stageEnvelope({ stage: 'cold-browser', ok: true, startedAt: now, finishedAt: now, environment, data }) };
    const summary = buildSummary({ environment, stages, startedAt: now, finishedAt: now, failedStage: null, failure: null, runDir: '/tmp/x' });
    const html = renderReport({ environment, stages, summary });
    const firstChart = html.indexOf('data-chart="0"');
    expect(firstChart).toBeGreaterThan(0);
    expect(firstChart).toBeLessThan(html.indexOf('<table'));
    expect(html).toContain('id="browser"');
    expect(html).toContain('Browser weight before the first encrypted response (gzip)');
    expect(html).toContain('Cold first response in Chromium');
    expect(html).toMatch(/class="bad">not met/);
    expect(html).toContain('nen_core_bg.wasm');
    expect(html).toContain('AI stream through the browser client');
    expect(html).toContain('Where the cold time goes');
    expect(html).not.toMatch(/<div class="charts">\s*<\/div>/);
  });
});
