/**
 * The grid assembly (bench/grid.js, lib/grid.js, lib/gridreport.js) from a fabricated grid
 * directory: run cells, a failed cell and not-run cells all appear, scaling is relative to one
 * instance, the heat map colours the run cells and greys the others, and the grid's history line
 * is written.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assemble } from '../grid.js';
import { parseLabel, formatGridTable, gridFigures } from '../lib/grid.js';

const root = mkdtempSync(join(tmpdir(), 'nen-bench-grid-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function sat(rps: number, ok = true) {
  const step = (c: number, f: number, p99: number) => ({
    concurrency: c,
    encrypted: { rps: rps * f, p50Ms: p99 / 3, p99Ms: p99, errors: 0, requests: 100, serverCpuMsPerRequest: 1.2, redisCommandsPerRequest: 2 },
    plain: { rps: rps * f * 1.1, p50Ms: 1, p99Ms: p99, errors: 0, requests: 100 },
    ratio: { rps: 0.91 },
  });
  const payload = (size: number, k: number) => ({
    size,
    label: `${size / 1024} KB`,
    steps: [step(2, 0.5 * k, 10), step(8, k, 50), step(32, k, 150)],
    knee: {
      encrypted: { knee: { concurrency: 8, rps: rps * k, p99Ms: 50 }, brokeAt: { concurrency: 32, reason: 'p99 150 ms > 100 ms' } },
      plain: { knee: { concurrency: 8, rps: rps * k * 1.1, p99Ms: 50 } },
    },
    atKnee: step(8, k, 50),
  });
  return {
    ok,
    error: ok ? undefined : 'saturation: boom',
    environment: { git: { commit: 'c0ffee' }, cpuModel: 'cpu', cores: 2, node: 'v20' },
    data: {
      routing: 'round-robin',
      budgetP99Ms: 100,
      payloads: [payload(1024, 1), payload(102400, 0.1)],
      handshakes: { handshakesPerSecond: 500, serverCpuMsPerHandshake: 1.7, redisCommandsPerHandshake: 3, redisBytesPerSession: 400 },
      memory: { end: { rssMiB: 300, heapUsedMiB: 80 } },
    },
  };
}

function cell(label: string, body: object | null, notRun?: string) {
  const d = join(root, 'cells', label);
  mkdirSync(d, { recursive: true });
  if (notRun) {
    writeFileSync(join(d, 'not-run.json'), JSON.stringify({ reason: notRun }));
    return;
  }
  mkdirSync(join(d, '2026-01-01T00-00-00-000Z'));
  writeFileSync(join(d, '2026-01-01T00-00-00-000Z', 'saturation.json'), JSON.stringify(body));
  writeFileSync(join(d, 'exit-code'), '0\n');
}

cell('store=memory,kem=xwing,instances=1', sat(1000));
cell('store=memory,kem=xwing,instances=2', sat(1800));
cell('store=redis,kem=xwing,instances=2', sat(1500, false));
cell('store=cluster,kem=mlkem768,instances=4', null, 'store cluster did not start');
mkdirSync(join(root, 'cells', 'store=redis,kem=xwing,instances=1'), { recursive: true }); // started, but wrote nothing
writeFileSync(
  join(root, 'cells', 'store=redis,kem=xwing,instances=1', 'bench-stderr.log'),
  '[bench 0s] x\nbench: target http://127.0.0.1:1 is not reachable (ECONNREFUSED); is the app running?\n',
);

describe('grid assembly', () => {
  const history = join(root, 'history');
  const { rows, cells } = assemble(root, { historyDir: history });

  it('keeps every position: run, failed, not run with the reason', () => {
    expect(cells).toHaveLength(5);
    expect(cells.map((c) => `${c.store}/${c.kem}/${c.instances}:${c.status}`)).toEqual([
      'memory/xwing/1:ok',
      'memory/xwing/2:ok',
      'redis/xwing/1:not run',
      'redis/xwing/2:failed',
      'cluster/mlkem768/4:not run',
    ]);
    expect(rows).toHaveLength(10); // x 2 payloads
    const nr = rows.find((r) => r.store === 'cluster');
    expect(nr).toMatchObject({ status: 'not run', reason: 'store cluster did not start', rps: null });
    expect(rows.find((r) => r.store === 'redis' && r.instances === 1)?.reason).toMatch(
      /no saturation result \(exit code \?\): bench: target .* is not reachable/,
    );
  });

  it('derives knee figures and scaling vs one instance', () => {
    const m2 = rows.find((r) => r.store === 'memory' && r.instances === 2 && r.payload === 1024)!;
    expect(m2).toMatchObject({
      kneeConcurrency: 8,
      rps: 1800,
      p99Ms: 50,
      encPlainRatio: 0.91,
      serverCpuMsPerRequest: 1.2,
      handshakesPerSecond: 500,
      speedupVs1: 1.8,
    });
    expect(rows.find((r) => r.store === 'redis' && r.instances === 2 && r.payload === 1024)).toMatchObject({
      redisCommandsPerRequest: 2,
      redisBytesPerSession: 400,
      vsMemoryStore: 0.833,
    });
    expect(formatGridTable(rows)).toMatch(/not run: store cluster did not start/);
    expect(gridFigures(rows)).toMatchObject({ kneeRps_memory_xwing_2_1k: 1800, cellsRun: 3, cellsNotRun: 2 });
  });

  it('writes grid.json, a heat-map report and one history line', () => {
    const g = JSON.parse(readFileSync(join(root, 'grid.json'), 'utf8'));
    expect(g.rows).toHaveLength(10);
    const html = readFileSync(join(root, 'report.html'), 'utf8');
    expect(html).toContain('class="heat"');
    expect(html).toMatch(/hsl\(\d+ 70% 78%\)/);
    expect(html).toContain('store cluster did not start');
    expect(html).toContain('Knee req/s vs instances, 1 KB');
    const h = readdirSync(history);
    expect(h).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(history, h[0]!), 'utf8'))).toMatchObject({ kind: 'grid', commit: 'c0ffee', ok: false });
  });

  it('rows cover the payloads that were measured', async () => {
    const { gridPayloads } = await import('../lib/grid.js');
    expect(gridPayloads(cells)).toEqual([1024, 102400]);
    expect(gridPayloads([{ payloads: [{ size: 1024 }] }] as never)).toEqual([1024]);
    expect(gridPayloads([])).toEqual([1024, 102400]);
  });

  it('parses cell labels', () => {
    expect(parseLabel('store=redis,kem=mlkem768,instances=4')).toEqual({ store: 'redis', kem: 'mlkem768', instances: 4 });
  });
});
