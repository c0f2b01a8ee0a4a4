/**
 * The memory attribution pieces: the smaps breakdown (a Wasm memory is the read-write head of a
 * ≥ 4 GiB reservation, a glibc arena a 64 MiB-aligned read-write + PROT_NONE pair, [heap] the
 * main arena) on a synthetic smaps text and on this process's own, and the report section with
 * its encrypted-vs-plain verdict.
 */
import { describe, expect, it } from 'vitest';
import { memoryAttributionSection, attributionVerdict } from '../lib/memoryreport.js';
import { breakdown, smapsBreakdown } from '../lib/smaps.js';
import { median, robustVerdict, windowRecord, windowStats } from '../lib/windowstats.js';

const map = (start: bigint, end: bigint, perm: string, name: string, rssKiB: number) =>
  `${start.toString(16)}-${end.toString(16)} ${perm} 00000000 00:00 0 ${name}\nSize: ${(end - start) / 1024n} kB\nRss: ${rssKiB} kB\n`;
const G = 2n ** 30n;
const M = 2n ** 20n;

describe('smaps breakdown', () => {
  it('tells Wasm memories, glibc arenas, files and other anonymous memory apart', () => {
    const base = 0x7f0000000000n;
    const text = [
      map(0x400000n, 0x500000n, 'r-xp', '/usr/bin/node', 1024),
      map(0x2000000n, 0x2100000n, 'rw-p', '[heap]', 512),
      map(base, base + 2n * G, '---p', '', 0), // the guard before a Wasm memory
      map(base + 2n * G, base + 2n * G + 2n * M, 'rw-p', '', 300), // 2 MiB committed Wasm memory
      map(base + 2n * G + 2n * M, base + 10n * G, '---p', '', 0),
      map(base + 16n * G, base + 16n * G + M, 'rw-p', '', 700), // a glibc thread arena …
      map(base + 16n * G + M, base + 16n * G + 64n * M, '---p', '', 0), // … 64 MiB in all
      map(base + 20n * G, base + 20n * G + 8n * M, 'rw-p', '', 4000), // V8 heap pages
    ].join('');
    expect(breakdown(text)).toEqual({
      rss: (1024 + 512 + 300 + 700 + 4000) * 1024,
      wasmRss: 300 * 1024,
      wasmCommitted: 2 * 2 ** 20,
      wasmMemories: 1,
      mallocArenas: (512 + 700) * 1024,
      files: 1024 * 1024,
      otherAnon: 4000 * 1024,
    });
  });

  it("reads this process's smaps: the parts add up to the RSS", async () => {
    const b = await smapsBreakdown(process.pid);
    if (b === null) return; // not Linux
    expect(b.rss).toBeGreaterThan(0);
    expect(b.wasmRss + b.mallocArenas + b.files + b.otherAnon).toBe(b.rss);
  });
});

describe('report section', () => {
  const mode = (requests: number, rss: number) => ({
    requests,
    seconds: 10,
    errors: 0,
    windows: 2,
    delta: { rss: rss * 2 ** 20, heapUsed: 0, mallocArenas: 0 },
  });
  const ma = {
    generatedAt: '2026-01-01T00:00:00Z',
    node: 'v20.0.0',
    seconds: 100,
    command: 'node bench/memory-attribution.js',
    runs: [
      { label: 'default', modes: { plain: mode(1000, 10), encrypted: mode(1000, 4), handshake: mode(100, 1) } },
      { label: 'MALLOC_ARENA_MAX=2', modes: { plain: mode(1000, 3), encrypted: mode(1000, 9) } },
    ],
  };
  it('gives the verdict per run: encrypted growth ≤ plain growth for as many requests', () => {
    expect(attributionVerdict(ma.runs[0] as never)?.ok).toBe(true);
    expect(attributionVerdict(ma.runs[1] as never)?.ok).toBe(false);
  });
  it('renders the table and the verdicts', () => {
    const html = memoryAttributionSection(ma);
    expect(html).toContain('id="memory-attribution"');
    expect(html).toContain('node bench/memory-attribution.js');
    expect(html).toContain('target met');
    expect(html).toContain('target missed');
    expect(html.match(/<tr>/g)?.length).toBeGreaterThanOrEqual(6);
  });
});

describe('window statistics', () => {
  const MiB = 2 ** 20;
  /** A mode's windows from the RSS levels (MiB) they start and end at, 1,000 requests each. */
  const windows = (pairs: [number, number][]) =>
    pairs.map(([b, a], i) => windowRecord({ rss: b * MiB, heapTotal: b * MiB }, { rss: a * MiB, heapTotal: a * MiB }, (i + 1) * 1000));
  it('median, spread and the trend of the levels (per 100,000 requests)', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
    const st = windowStats(
      windows([
        [100, 110],
        [120, 111],
        [115, 112],
        [113, 113],
      ]),
    ).rss;
    expect(st).toMatchObject({ windows: 4, minDelta: -9 * MiB, maxDelta: 10 * MiB, medianLevel: 111.5 * MiB });
    expect(st.medianDelta).toBe(-1.5 * MiB);
    expect((st.trendPer100k as number) / MiB).toBeCloseTo(100, 6); // +1 MiB per 1,000 requests
  });
  it('a working-set step is not growth: flat levels pass however large the step into the mode', () => {
    const run = (enc: [number, number][], plain: [number, number][]) => {
      const mode = (w: ReturnType<typeof windows>) => ({ requests: w.length * 1000, stats: windowStats(w) });
      return { modes: { encrypted: { ...mode(windows(enc)), seconds: 1, delta: {} }, plain: { ...mode(windows(plain)), seconds: 1, delta: {} } } };
    };
    // encrypted windows end 20 MiB above plain ones, but neither level moves: met
    const flat = robustVerdict(
      run(
        [
          [100, 120],
          [120, 120],
          [100, 120],
          [120, 120],
        ],
        [
          [120, 100],
          [100, 100],
          [120, 100],
          [100, 100],
        ],
      ) as never,
    );
    expect(flat?.ok).toBe(true);
    expect(flat?.stepMiB).toBe(20);
    // encrypted levels climb 5 MiB per window: missed
    const climbingRun = () =>
      run(
        [
          [100, 105],
          [105, 110],
          [110, 115],
          [115, 120],
        ],
        [
          [120, 100],
          [100, 100],
          [120, 100],
          [100, 100],
        ],
      );
    const climbing = robustVerdict(climbingRun() as never);
    expect(climbing?.ok).toBe(false);
    expect(climbing?.encryptedTrendMiB).toBeCloseTo(20, 6);
    const html = memoryAttributionSection({ generatedAt: 'x', node: 'v20', seconds: 1, command: 'c', runs: [{ label: 'default', ...climbingRun() }] });
    expect(html).toContain('RSS trend per 100k');
    expect(html).toContain('accumulation (robust to window noise)');
    expect(html).toContain('target missed');
  });
});
