/** The load variants' window per mode (stages/load-variants.js variantSeconds). */
import { describe, expect, it } from 'vitest';
import { VARIANTS, variantSeconds } from '../stages/load-variants.js';

describe('variantSeconds', () => {
  it('gives the pinned off variants (the headline ratios) twice the window, the others min(--duration, 5)', () => {
    const by = Object.fromEntries(VARIANTS.map((v) => [v.id, variantSeconds(v, { durationSeconds: 6, quick: false })]));
    expect(by['1k-off-pinned']).toBe(10);
    expect(by['100k-off-pinned']).toBe(10);
    expect(by['1k-off-shared']).toBe(5);
    expect(by['1k-realistic-pinned']).toBe(5);
    expect(by['100k-realistic-shared']).toBe(5);
    expect(variantSeconds(VARIANTS[0], { durationSeconds: 2, quick: false })).toBe(2);
    for (const v of VARIANTS) expect(variantSeconds(v, { durationSeconds: 6, quick: true })).toBe(0.5);
  });
});
