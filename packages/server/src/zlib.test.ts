/** ./zlib.ts: the fflate path (Edge, Workers) agrees with node:zlib (@nen/core's) and keeps the same bounds and codes. */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESPONSE_DEFLATE_LEVEL } from '@nen/core';
import { deflateRaw, fflateZlib, inflateRaw, zlibImplementation } from './zlib.js';

describe('zlib', () => {
  it('uses node:zlib on Node (process.getBuiltinModule, no static node: import)', () => {
    expect(zlibImplementation).toBe('node:zlib');
  });

  it('fflate round-trips and interoperates with node:zlib both ways', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.boolean(), (data, repetitive) => {
        const body = repetitive ? new Uint8Array(data.length * 3).map((_, i) => data[i % Math.max(1, data.length)] ?? 0) : data;
        expect(inflateRawSync(fflateZlib.deflateRaw(body))).toEqual(Buffer.from(body));
        expect(fflateZlib.inflateRaw(deflateRawSync(body), body.length)).toEqual(new Uint8Array(body));
      }),
      { numRuns: 60 },
    );
  });

  it('on Node, responses are deflated by @nen/core at its response level; fflate inflates them', () => {
    const body = new TextEncoder().encode(JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, name: `n${i}`, ok: i % 3 === 0 }))));
    const c = deflateRaw(body);
    expect(Buffer.from(c)).toEqual(deflateRawSync(body, { level: RESPONSE_DEFLATE_LEVEL }));
    expect(fflateZlib.inflateRaw(c, body.length)).toEqual(new Uint8Array(body));
  });

  it('a bomb stops at the limit with NEN_TOO_LARGE (both paths); garbage is NEN_MALFORMED', () => {
    const bomb = deflateRawSync(new Uint8Array(64 << 20));
    expect(bomb.length).toBeLessThan(100_000);
    for (const f of [fflateZlib.inflateRaw, inflateRaw]) {
      expect(() => f(bomb, 1 << 20)).toThrow(expect.objectContaining({ code: 'NEN_TOO_LARGE' }));
      expect(() => f(new Uint8Array([0xff, 0xff, 0xff, 0x00, 0x12]), 1000)).toThrow(expect.objectContaining({ code: 'NEN_MALFORMED' }));
      expect(() => f(deflateRawSync(new Uint8Array(5000).fill(7)).subarray(0, 10), 10_000)).toThrow(expect.objectContaining({ code: 'NEN_MALFORMED' }));
    }
  });
});
