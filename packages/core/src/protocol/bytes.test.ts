/**
 * The byte-array joiner of the packages (bytes.ts concatBytes / joinChunks, imported by @nen/client,
 * @nen/server and @nen/seal): same bytes in order, always a new array, a list of any length.
 * Pitfall: the many-chunks case is what a spread (`concatBytes(...list)`) would fail on; keep it.
 */
import { describe, expect, it } from 'vitest';
import { concatBytes, joinChunks, joinedOrOnly } from './bytes.js';

describe('joinChunks / concatBytes', () => {
  it('joins the parts in order, empty parts and an empty list included', () => {
    const parts = [Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3), Uint8Array.of(4, 5, 6)];
    expect(joinChunks(parts)).toEqual(Uint8Array.of(1, 2, 3, 4, 5, 6));
    expect(concatBytes(...parts)).toEqual(joinChunks(parts));
    expect(joinChunks([])).toEqual(new Uint8Array(0));
    expect(concatBytes()).toEqual(new Uint8Array(0));
  });

  it('always returns a new array, even for one chunk', () => {
    const one = Uint8Array.of(7, 8, 9);
    const out = joinChunks([one]);
    expect(out).toEqual(one);
    expect(out).not.toBe(one);
    expect(out.buffer).not.toBe(one.buffer);
  });

  it('takes the total counted by the caller; a short total throws rather than truncating', () => {
    const parts = [Uint8Array.of(1), Uint8Array.of(2, 3)];
    expect(joinChunks(parts, 3)).toEqual(Uint8Array.of(1, 2, 3));
    expect(() => joinChunks(parts, 2)).toThrow(RangeError);
  });

  it('joins a list of 200,000 chunks (one argument, no spread)', () => {
    const chunks = Array.from({ length: 200_000 }, (_, i) => Uint8Array.of(i & 0xff));
    const out = joinChunks(chunks);
    expect(out.length).toBe(200_000);
    expect(out[199_999]).toBe(199_999 & 0xff);
  });
});

describe('joinedOrOnly', () => {
  it('hands a lone chunk back as it is, and joins several into a new array', () => {
    const one = Uint8Array.of(7, 8, 9);
    expect(joinedOrOnly([one])).toBe(one);
    const parts = [Uint8Array.of(1), Uint8Array.of(2, 3)];
    const out = joinedOrOnly(parts, 3);
    expect(out).toEqual(Uint8Array.of(1, 2, 3));
    expect(out.buffer).not.toBe(parts[0]?.buffer);
    expect(joinedOrOnly([])).toEqual(new Uint8Array(0));
  });
});
