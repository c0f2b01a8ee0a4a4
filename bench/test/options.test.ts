import { describe, expect, it } from 'vitest';
import { parseOptions } from '../lib/options.js';
import { parseTargets } from '../lib/transport.js';

describe('options', () => {
  it('defaults to the full level list and all stages', () => {
    const o = parseOptions([], {});
    expect(o.levels).toEqual([1, 10, 25, 50, 100, 200]);
    expect(o.stages).toEqual(['regression', 'load', 'payload', 'scenarios']);
    expect(o.quick).toBe(false);
  });
  it('flags win over env, --quick shortens, --only filters in fixed order', () => {
    const o = parseOptions(['--quick', '--only', 'payload,regression', '--levels=2,4'], { BENCH_LEVELS: '9' });
    expect(o.quick).toBe(true);
    expect(o.levels).toEqual([2, 4]);
    expect(o.stages).toEqual(['regression', 'payload']);
    expect(o.durationSeconds).toBe(1);
    expect(o.keepGoing).toBe(false);
    expect(parseOptions(['--keep-going'], {}).keepGoing).toBe(true);
    expect(parseOptions(['--soak', '5000'], {}).stages).toEqual(['regression', 'load', 'payload', 'scenarios', 'soak']);
    expect(parseOptions(['--only', 'soak'], {}).soakRequests).toBe(100_000);
    expect(() => parseOptions(['--soak', '5'], {})).toThrow(/soak/);
  });
  it('rejects typos and bad values', () => {
    expect(() => parseOptions(['--levles', '1'], {})).toThrow(/unknown option/);
    expect(() => parseOptions(['--only', 'lod'], {})).toThrow(/unknown stage/);
    expect(() => parseOptions(['--levels', '0'], {})).toThrow(/bad level/);
    expect(() => parseOptions(['--duration', '-1'], {})).toThrow(/bad duration/);
  });
  it('parses comma-separated targets', () => {
    expect(parseTargets('http://127.0.0.1:3000/, http://127.0.0.1:3001')).toEqual(['http://127.0.0.1:3000', 'http://127.0.0.1:3001']);
    expect(() => parseTargets('')).toThrow(/TARGET_URL/);
    expect(() => parseTargets('ftp://x')).toThrow(/http/);
  });
});
