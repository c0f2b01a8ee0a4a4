/**
 * The stream record framing (u32 big-endian length prefix) that the regression stage's
 * truncation and reordering checks split responses with (stages/regression.js splitRecords).
 */
import { describe, expect, it } from 'vitest';
import { splitRecords } from '../stages/regression.js';

const frame = (n: number, fill: number) => {
  const b = new Uint8Array(4 + n).fill(fill);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};

describe('stream record framing used by the truncation / reordering checks', () => {
  it('splits u32 big-endian length-prefixed records and reports stray bytes', () => {
    const a = frame(16, 1);
    const b = frame(300, 2);
    const all = new Uint8Array([...a, ...b, 0, 0]);
    const { records, rest } = splitRecords(all);
    expect(records.map((r: Uint8Array) => r.length)).toEqual([20, 304]);
    expect(records[1]![4]).toBe(2);
    expect(rest).toBe(2);
    expect(splitRecords(all.subarray(0, 100)).records).toHaveLength(1);
    expect(splitRecords(new Uint8Array(0))).toEqual({ records: [], rest: 0 });
  });
});
