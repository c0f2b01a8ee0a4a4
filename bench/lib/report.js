/**
 * The run report (report.html): self-contained HTML whose charts uPlot draws (inlined by
 * lib/charts.js): throughput and p99 vs concurrency per mode, the encrypted/plain ratios, the
 * load variants (1 KB / 100 KB, compression off / realistic, shared / pinned cores) with their
 * bytes, wire bytes per payload size, handshakes, the saturation ramp with its knee, server memory
 * over time, the browser weight and cold first response (lib/browserreport.js), and the run
 * history; plus the key figures against bench/budgets.json, the regression table and the
 * environment. The page opens with all its charts (lib/charts.js gallery); the tables follow.
 * Every figure charted is also in a table.
 */
import { escapeHtml, table, page, createChartSet, stripEmpty } from './charts.js';
import { browserSection } from './browserreport.js';
import { ohttpSection } from './ohttpreport.js';
import { memoryAttributionSection } from './memoryreport.js';
import { loadSection } from './reportload.js';
import { budgetSection, payloadSection, scenarioSection, memorySection } from './reportsections.js';
import { saturationSection } from './reportsaturation.js';
import { historySection, environmentTable } from './reporthistory.js';

export { escapeHtml } from './charts.js';
export { saturationSection } from './reportsaturation.js';
export { historySection, environmentTable } from './reporthistory.js';

/**
 * Build the report from the stage results (any may be missing).
 * @param {{ environment: object, stages: Record<string, any>, summary: object, history?: object[] }} run
 */
export function renderReport({ environment, stages, summary, history = [] }) {
  // the report opens with its charts (grouped, in this order); the tables follow
  const cs = createChartSet({ gallery: true, order: ['load', 'payload', 'memory', 'browser', 'ohttp', 'scenarios', 'saturation', 'history'] });
  const sections = [budgetSection(summary)];
  const reg = stages.regression?.data;
  if (reg?.checks) {
    sections.push(`<h2 id="regression">Regression suite: ${reg.passed}/${reg.checks.length} passed</h2>`);
    sections.push(
      table(
        ['property', 'check', 'expected', 'actual', 'result'],
        reg.checks.map((c) => [c.property, c.name, c.expected, c.actual, c.pass ? 'PASS' : 'FAIL']),
      ),
    );
  }
  const add = (anchor, title, html) => {
    cs.group(title, anchor);
    sections.push(html());
  };
  if (stages.load?.data) add('load', 'Throughput, latency and server CPU: encrypted vs plain', () => loadSection(stages.load.data, cs));
  if (stages.payload?.data?.cases?.length) add('payload', 'Payload sizes', () => payloadSection(stages.payload.data, cs));
  if (stages.scenarios?.data) add('scenarios', 'Scenarios', () => scenarioSection(stages.scenarios.data, cs));
  if (stages['cold-browser']?.data?.modes) add('browser', 'Browser weight and cold first response', () => browserSection(stages['cold-browser'].data, cs));
  if (stages.ohttp?.data?.coldMs)
    add('ohttp', 'Oblivious HTTP: cold first request, throughput, server CPU', () => ohttpSection(stages.ohttp.data, cs, stages.load?.data?.variants));
  if (stages.saturation?.data) add('saturation', 'Saturation', () => saturationSection(stages.saturation.data, cs));
  if (stages.memory?.data?.samples?.length) add('memory', 'Server memory over time', () => memorySection(stages.memory.data, cs));
  if (stages['memory-attribution']?.data?.runs) sections.push(memoryAttributionSection(stages['memory-attribution'].data));
  add('history', 'History', () => historySection(history, cs));
  const body = `<p><strong>Overall: ${summary.ok ? 'all stages passed' : `stopped at stage ${escapeHtml(summary.failedStage ?? '?')}`}</strong> — ${escapeHtml(summary.startedAt)} … ${escapeHtml(summary.finishedAt)}</p>
${cs.gallery()}
${environmentTable(environment)}
${stripEmpty(sections.filter(Boolean).join('\n'))}`;
  return page({ title: 'Nen bench report', note: environment.scope, body, charts: cs.charts });
}
