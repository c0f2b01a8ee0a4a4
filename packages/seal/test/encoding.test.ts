/**
 * Bech32 (BIP 173 without length limit, as age uses it): our encoder/decoder against
 * @scure/base's `bech32` (the implementation it replaced) on random keys of age sizes, and on
 * mutated and truncated strings: the same strings decode, the same ones are refused.
 */
import { randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { decodeBech32, encodeBech32 } from '../src/encoding.js';

const scureDecode = (s: string): string | null => {
  try {
    const r = bech32.decode(s as `${string}1${string}`, false);
    return `${r.prefix}:${Buffer.from(bech32.fromWords(r.words)).toString('hex')}`;
  } catch {
    return null;
  }
};
const oursDecode = (s: string): string | null => {
  const d = decodeBech32(s);
  return d ? `${d.hrp}:${Buffer.from(d.bytes).toString('hex')}` : null;
};

describe('Bech32', () => {
  it('agrees with @scure/base on encodings, mutations and truncations', () => {
    const chars = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l1bio!A';
    for (let t = 0; t < 1500; t++) {
      const bytes = randomBytes(t % 50 === 0 ? 1216 : t % 70);
      const hrp = ['age', 'age1pq', 'AGE-SECRET-KEY-PQ-', 'x'][t % 4] as string;
      const s = encodeBech32(hrp, bytes);
      expect(s).toBe(bech32.encode(hrp.toLowerCase(), bech32.toWords(bytes), false));
      expect(oursDecode(s)).toBe(scureDecode(s));
      expect(oursDecode(s.toUpperCase())).toBe(scureDecode(s.toUpperCase()));
      const i = t % s.length;
      const mutated = s.slice(0, i) + chars[t % chars.length] + s.slice(i + 1);
      expect(oursDecode(mutated), mutated).toBe(scureDecode(mutated));
      const truncated = s.slice(0, s.length - 1 - (t % 3));
      expect(oursDecode(truncated)).toBe(scureDecode(truncated));
    }
    for (const bad of ['', '1', 'a1qqqqqq', 'A1qqqqqq', 'aB1qqqqqqqq', '1qqqqqqqqqq', 'age1\u00e9qqqqqqq']) {
      expect(oursDecode(bad), bad).toBe(scureDecode(bad));
    }
  });
});
