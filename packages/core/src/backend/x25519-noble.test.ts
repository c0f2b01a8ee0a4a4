/**
 * ./x25519-noble.ts (noble's Montgomery ladder with the curve25519 parameters, without the Edwards
 * fixed-base hook) against RFC 7748's test vectors (§5.2 scalar multiplication, including the
 * iterated test to 1,000 iterations; §6.1 Diffie-Hellman; values copied from RFC 7748, IRTF CFRG,
 * January 2016) and against @noble/curves' own x25519 on random inputs: the same bytes.
 */
import { x25519 as reference } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { randomBytes } from './random.js';
import { x25519 } from './x25519-noble.js';

const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const BASE = hex(`09${'00'.repeat(31)}`);

describe('x25519-noble', () => {
  it('RFC 7748 §5.2 scalar multiplication vectors', () => {
    const vectors = [
      [
        'a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4',
        'e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c',
        'c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552',
      ],
      [
        '4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d',
        'e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493',
        '95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957',
      ],
    ];
    for (const [k, u, out] of vectors) expect(x25519.scalarMult(hex(k as string), hex(u as string))).toEqual(hex(out as string));
  });

  it('RFC 7748 §5.2 iterated test: 1 and 1,000 iterations', () => {
    let k = BASE.slice();
    let u = BASE.slice();
    for (let i = 1; i <= 1000; i++) {
      const next = x25519.scalarMult(k, u);
      u = k;
      k = next;
      if (i === 1) expect(k).toEqual(hex('422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079'));
    }
    expect(k).toEqual(hex('684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51'));
  });

  it('RFC 7748 §6.1 Diffie-Hellman', () => {
    const a = hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
    const b = hex('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb');
    const pubA = hex('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
    const pubB = hex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
    const k = hex('4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742');
    expect(x25519.getPublicKey(a)).toEqual(pubA);
    expect(x25519.scalarMult(b, BASE)).toEqual(pubB);
    expect(x25519.getSharedSecret(a, pubB)).toEqual(k);
    expect(x25519.getSharedSecret(b, pubA)).toEqual(k);
  });

  it('equals @noble/curves x25519 on random scalars and points', () => {
    for (let i = 0; i < 64; i++) {
      const a = randomBytes(32);
      const b = randomBytes(32);
      const pubB = reference.getPublicKey(b);
      expect(x25519.getPublicKey(a)).toEqual(reference.getPublicKey(a));
      expect(x25519.getSharedSecret(a, pubB)).toEqual(reference.getSharedSecret(a, pubB));
      // any 32 bytes are a u-coordinate (RFC 7748 §5: the top bit masked, non-canonical values reduced)
      const u = randomBytes(32);
      if (i & 1) u[31] = (u[31] as number) | 0x80;
      expect(x25519.scalarMult(a, u)).toEqual(reference.scalarMult(a, u));
    }
  });

  it('refuses the low-order u-coordinates as @noble/curves does', () => {
    const p = 2n ** 255n - 19n;
    const le = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 255n));
    for (const u of [0n, 1n, p - 1n, p, p + 1n]) {
      const a = randomBytes(32);
      expect(() => x25519.scalarMult(a, le(u))).toThrow();
      expect(() => reference.scalarMult(a, le(u))).toThrow();
    }
  });
});
