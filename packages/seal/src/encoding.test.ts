/**
 * Bech32 (BIP 173 without length limit, as age uses it): our encoder/decoder against
 * @scure/base's `bech32` (the implementation it replaced) on random keys of age sizes, and on
 * mutated and truncated strings: the same strings decode, the same ones are refused. Base64 and
 * the byte-level header writer: bodies around the 48-byte / 64-column line boundary round-trip
 * through the strict parser and the MAC verifies.
 */
import { randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { loadBackend } from '@nen/core';
import { decodeBase64, decodeBech32, encodeBase64, encodeBech32 } from './encoding.js';
import { parseHeader, serializeHeader, verifyHeaderMac } from './header.js';

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

describe('base64 and the header writer', () => {
  it('encodes like Buffer (unpadded and padded) and header bodies of every line shape round-trip', async () => {
    for (let n = 0; n < 200; n++) {
      const bytes = randomBytes(n);
      expect(encodeBase64(bytes, true)).toBe(bytes.toString('base64'));
      expect(encodeBase64(bytes)).toBe(bytes.toString('base64').replace(/=+$/, ''));
      expect(Buffer.from(decodeBase64(encodeBase64(bytes)) as Uint8Array).equals(bytes)).toBe(true);
    }
    const b = await loadBackend('auto');
    const fileKey = b.randomBytes(16);
    const stanzas = [0, 1, 2, 3, 47, 48, 49, 95, 96, 97, 1120].map((n) => ({ type: 't', args: ['t', `a${n}`], body: new Uint8Array(randomBytes(n)) }));
    const header = serializeHeader(b, fileKey, stanzas);
    const h = parseHeader(header);
    expect(h.length).toBe(header.length);
    expect(h.stanzas.map((s) => [s.args, Buffer.from(s.body).toString('hex')])).toEqual(stanzas.map((s) => [s.args, Buffer.from(s.body).toString('hex')]));
    verifyHeaderMac(b, fileKey, h);
  });
});
