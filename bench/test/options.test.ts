/**
 * The bench's command line (lib/options.js) and target list (lib/transport.js): defaults, flags
 * over environment, --quick and --only, strict parsing (typos and bad values refused), the
 * history switch, comma-separated targets.
 * Pitfall: parseOptions takes the environment as an argument; tests pass {} so the caller's
 * TARGET_URL / BENCH_* variables never leak in.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../lib/options.js';
import { parseTargets } from '../lib/transport.js';

describe('options', () => {
  it('defaults to the full level list and all stages', () => {
    const o = parseOptions([], {});
    expect(o.levels).toEqual([1, 10, 25, 50, 100, 200]);
    expect(o.stages).toEqual(['regression', 'load', 'payload', 'scenarios', 'cold-browser', 'ohttp']);
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
    expect(parseOptions(['--soak', '5000'], {}).stages).toEqual(['regression', 'load', 'payload', 'scenarios', 'cold-browser', 'ohttp', 'soak']);
    expect(parseOptions(['--only', 'soak'], {}).soakRequests).toBe(100_000);
    expect(() => parseOptions(['--soak', '5'], {})).toThrow(/soak/);
  });
  it('rejects typos and bad values', () => {
    expect(() => parseOptions(['--levles', '1'], {})).toThrow(/unknown option/);
    expect(() => parseOptions(['--only', 'lod'], {})).toThrow(/unknown stage/);
    expect(() => parseOptions(['--levels', '0'], {})).toThrow(/bad level/);
    expect(() => parseOptions(['--duration=-1'], {})).toThrow(/bad duration/);
    expect(() => parseOptions(['--duration', '-1'], {})).toThrow(/bench:/); // parseArgs: ambiguous value
  });
  it('parses with node:util parseArgs: inline values, booleans, strict unknown flags and positionals', () => {
    const o = parseOptions(
      [
        '--kem=mlkem768',
        '--budget-p99',
        '50',
        '--ramp',
        '8,2,4,4',
        '--window',
        '1.5',
        '--payloads',
        '1024',
        '--sticky',
        '--cell',
        'store=redis,kem=xwing,instances=2',
        '--redis',
        '127.0.0.1:6379,localhost:7000',
        '--no-pin',
        '--baseline',
        'b.json',
      ],
      {},
    );
    expect(o.kem).toBe('mlkem768');
    expect(o.budgetP99Ms).toBe(50);
    expect(o.ramp).toEqual([2, 4, 8]); // sorted, deduplicated
    expect(o.windowSeconds).toBe(1.5);
    expect(o.payloads).toEqual([1024]);
    expect(o.sticky).toBe(true);
    expect(o.cell).toEqual({ store: 'redis', kem: 'xwing', instances: '2' });
    expect(o.redis).toEqual(['127.0.0.1:6379', 'localhost:7000']);
    expect(o.pin).toBe(false);
    expect(o.baseline).toBe('b.json');
    expect(() => parseOptions(['stray'], {})).toThrow(/unexpected argument/);
    expect(() => parseOptions(['--kem', 'rsa'], {})).toThrow(/bad kem/);
    expect(() => parseOptions(['--redis', 'nohost'], {})).toThrow(/host:port/);
    expect(() => parseOptions(['--cell', 'oops'], {})).toThrow(/--cell/);
    expect(() => parseOptions(['--quick=yes'], {})).toThrow(/bench:/);
    expect(() => parseOptions(['--levels'], {})).toThrow(/bench:/);
    expect(parseOptions(['--only', 'saturation'], {}).stages).toEqual(['saturation']);
  });
  it('history: on for full runs, off for --quick, flags and env override', () => {
    expect(parseOptions([], {}).history).toBe(true);
    expect(parseOptions(['--quick'], {}).history).toBe(false);
    expect(parseOptions(['--quick', '--history'], {}).history).toBe(true);
    expect(parseOptions(['--no-history'], {}).history).toBe(false);
    expect(parseOptions([], { BENCH_HISTORY: '0' }).history).toBe(false);
    // a partial run (an --only that leaves out a default stage) is not a line of the history
    expect(parseOptions(['--only', 'load,ai-stream'], {})).toMatchObject({ partial: true, history: false });
    expect(parseOptions([], { BENCH_ONLY: 'cold-browser' }).history).toBe(false);
    expect(parseOptions(['--only', 'ohttp', '--history'], {}).history).toBe(true);
    expect(parseOptions(['--only', 'regression,load,payload,scenarios,cold-browser,ohttp,soak'], {})).toMatchObject({ partial: false, history: true });
    expect(parseOptions([], { BENCH_KEM: 'mlkem768', BENCH_STICKY: '1' })).toMatchObject({ kem: 'mlkem768', sticky: true });
  });
  it('parses comma-separated targets', () => {
    expect(parseTargets('http://127.0.0.1:3000/, http://127.0.0.1:3001')).toEqual(['http://127.0.0.1:3000', 'http://127.0.0.1:3001']);
    expect(() => parseTargets('')).toThrow(/TARGET_URL/);
    expect(() => parseTargets('ftp://x')).toThrow(/http/);
  });
});
