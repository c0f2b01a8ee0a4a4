/** The node:crypto and @noble X25519 paths compute the same function and both refuse low-order shares. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LowOrderError, X25519, X25519_NOBLE } from './x25519.js';

describe('X25519 providers', () => {
  it('the runtime path is node:crypto here, and it matches noble byte for byte', () => {
    expect(X25519.name).toBe(typeof process.getBuiltinModule === 'function' ? 'node' : 'noble');
    for (let i = 0; i < 20; i++) {
      const a = new Uint8Array(randomBytes(32));
      const b = new Uint8Array(randomBytes(32));
      const pa = X25519.publicKey(a);
      expect(Buffer.from(pa).equals(Buffer.from(X25519_NOBLE.publicKey(a)))).toBe(true);
      const pb = X25519_NOBLE.publicKey(b);
      expect(Buffer.from(X25519.shared(a, pb)).equals(Buffer.from(X25519_NOBLE.shared(b, pa)))).toBe(true);
      expect(Buffer.from(X25519.bind(a)(pb)).equals(Buffer.from(X25519_NOBLE.bind(b)(pa)))).toBe(true);
      const e = X25519.ephemeral(pb);
      expect(Buffer.from(e.shared).equals(Buffer.from(X25519_NOBLE.shared(b, e.share)))).toBe(true);
    }
  });

  it('both refuse the all-zero result (identity and low-order points)', () => {
    const sk = new Uint8Array(randomBytes(32));
    const lowOrder = [
      new Uint8Array(32),
      Uint8Array.from([1, ...new Array(31).fill(0)]),
      Buffer.from('e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800', 'hex'),
    ];
    for (const impl of [X25519, X25519_NOBLE]) for (const p of lowOrder) expect(() => impl.shared(sk, new Uint8Array(p))).toThrow(LowOrderError);
  });
});
