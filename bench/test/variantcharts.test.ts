/** The load variants' latency and server CPU charts: encrypted next to plain, gaps where a figure is missing. */
import { describe, expect, it } from 'vitest';
import { createChartSet } from '../lib/charts.js';
import { variantCharts } from '../lib/variantcharts.js';

const mode = (p50: number, p99: number, cpu: number | null) => ({ latencyMs: { p50, p99 }, server: cpu === null ? null : { cpuMsPerRequest: cpu } });

describe('variantCharts', () => {
  it('charts p50/p99 and server CPU per request by variant, encrypted vs plain', () => {
    const cs = createChartSet();
    const html = variantCharts(
      [
        { id: '1k-off-shared', encrypted: mode(2, 5, 0.3), plain: mode(1.5, 4, 0.25) },
        { id: '100k-off-pinned', encrypted: mode(9, 20, null), plain: mode(8, 18, null) },
      ],
      cs,
    );
    expect(html.match(/data-chart=/g)).toHaveLength(2);
    const [lat, cpu] = cs.charts;
    expect(lat.x).toEqual(['1k-off-shared', '100k-off-pinned']);
    expect(lat.series.map((s: { name: string }) => s.name)).toEqual(['encrypted p50', 'plain p50', 'encrypted p99', 'plain p99']);
    expect(lat.series[2].values).toEqual([5, 20]);
    expect(cpu.series[0].values).toEqual([0.3, null]);
    expect(cpu.series[1].values).toEqual([0.25, null]);
  });
});
