/**
 * Tests of random.ts (`randomBytes`, the backends' CSPRNG with its 4 KiB buffer for small draws):
 * lengths and NEN_CRYPTO_LENGTH for bad ones, no repeated or aliased draws across refills, one
 * `getRandomValues` call per buffer fill with every handed-out byte wiped in the buffer, large
 * draws bypassing it in 64 KiB calls, and bit-level balance.
 *
 * Pitfalls: the buffer is module state shared by every test in this file, so the refill test
 * first draws until a refill happens; `getRandomValues` spies are restored after each test.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NenCryptoError } from '../errors.js';
import { randomBytes } from './random.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('randomBytes (backend CSPRNG, pooled for small draws)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the lengths asked for and refuses bad lengths with NEN_CRYPTO_LENGTH', () => {
    for (const n of [0, 1, 16, 32, 64, 65, 4096, 65537, 1 << 20]) expect(randomBytes(n).length).toBe(n);
    for (const n of [-1, 1.5, Number.NaN, (1 << 20) + 1]) {
      expect(() => randomBytes(n)).toThrow(NenCryptoError);
      try {
        randomBytes(n);
      } catch (e) {
        expect((e as NenCryptoError).code).toBe('NEN_CRYPTO_LENGTH');
      }
    }
  });

  it('never repeats a draw and never aliases: 20,000 session-id-sized draws across many refills', () => {
    const seen = new Set<string>();
    const first = randomBytes(32);
    const copy = hex(first);
    for (let i = 0; i < 20_000; i++) seen.add(hex(randomBytes(16)));
    expect(seen.size).toBe(20_000);
    first.fill(0xff); // the caller owns its bytes: changing them changes nothing else
    expect(hex(first)).not.toBe(copy);
    expect(hex(randomBytes(32))).not.toBe('ff'.repeat(32));
  });

  it('fills the buffer with one getRandomValues call per 4 KiB and wipes each byte it hands out', () => {
    const buffers: Uint8Array[] = [];
    const real = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(a: T): T => {
      if (a instanceof Uint8Array) buffers.push(a);
      return real(a as Uint8Array<ArrayBuffer>) as unknown as T;
    });
    // draw until a refill happens: then the buffer is fresh and its first 32 bytes were just handed out
    const draws: Uint8Array[] = [];
    for (let i = 0; spy.mock.calls.length === 0 && i < 200; i++) randomBytes(32);
    expect(spy.mock.calls.length).toBe(1);
    for (let i = 0; i < 127; i++) draws.push(randomBytes(32)); // exactly the rest of the 4 KiB
    expect(spy.mock.calls.length).toBe(1);
    const pool = buffers[0] as Uint8Array;
    expect(pool.length).toBe(4096);
    expect(pool.every((b) => b === 0)).toBe(true); // every byte handed out is wiped in the buffer
    expect(draws.every((d) => d.some((b) => b !== 0))).toBe(true);
    randomBytes(1);
    expect(spy.mock.calls.length).toBe(2); // the next draw refills
  });

  it('large draws bypass the buffer (one call per 64 KiB)', () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    randomBytes(200_000);
    expect(spy.mock.calls.length).toBe(4);
  });

  it('is unbiased at the bit level (1 MiB of 32-byte draws: each bit position ~50 %)', () => {
    const counts = new Array<number>(8).fill(0);
    const n = 32768;
    for (let i = 0; i < n; i++) for (const b of randomBytes(32)) for (let k = 0; k < 8; k++) counts[k]! += (b >> k) & 1;
    for (const c of counts) expect(Math.abs(c / (n * 32) - 0.5)).toBeLessThan(0.01);
  });
});
