/**
 * Latency and server CPU of the load variants by mode and size (payload × compression × cores),
 * encrypted next to plain, for the run report's chart gallery (lib/report.js): the absolute
 * figures behind the ratios chart. Variants without a figure (e.g. server CPU of a remote target)
 * chart as gaps.
 */
import { chart } from './charts.js';

export function variantCharts(vs, cs) {
  const x = vs.map((v) => v.id);
  const by = (mode, f) => vs.map((v) => f(v[mode]) ?? null);
  return [
    cs.add(
      chart({
        title: 'Latency per variant: p50 and p99, encrypted vs plain',
        xLabel: 'variant',
        yLabel: 'ms',
        categorical: true,
        kind: 'bar',
        x,
        series: [
          { name: 'encrypted p50', values: by('encrypted', (m) => m?.latencyMs?.p50) },
          { name: 'plain p50', values: by('plain', (m) => m?.latencyMs?.p50) },
          { name: 'encrypted p99', values: by('encrypted', (m) => m?.latencyMs?.p99) },
          { name: 'plain p99', values: by('plain', (m) => m?.latencyMs?.p99) },
        ],
      }),
    ),
    cs.add(
      chart({
        title: 'Server CPU per request per variant, encrypted vs plain',
        xLabel: 'variant',
        yLabel: 'ms CPU / request',
        categorical: true,
        kind: 'bar',
        x,
        series: [
          { name: 'encrypted', values: by('encrypted', (m) => m?.server?.cpuMsPerRequest) },
          { name: 'plain', values: by('plain', (m) => m?.server?.cpuMsPerRequest) },
        ],
      }),
    ),
  ].join('\n');
}
