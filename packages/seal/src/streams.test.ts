/**
 * Web Streams: round trip in odd pieces, constant memory on a large stream, and the STREAM
 * attacks (truncation, reordering, duplication, trailing data, dropped final chunk): each is
 * detected, and only chunks that authenticated — in order, before the damage — are released.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NenSealError, openStream, parseHeader, seal, sealStream } from './index.js';
import { drain, pqKeyPair, sourceOf } from '../test/helpers.js';

const CH = 65536;
const ENC = CH + 16;

async function sealed(n: number) {
  const k = await pqKeyPair();
  const pt = new Uint8Array(randomBytes(n));
  const ct = await seal(pt, k.recipient);
  const start = parseHeader(ct).length + 16;
  const chunks: Uint8Array[] = [];
  for (let o = start; o < ct.length; o += ENC) chunks.push(ct.subarray(o, o + ENC));
  return { k, pt, prefix: ct.subarray(0, start), chunks };
}

async function openParts(id: string, parts: Uint8Array[]) {
  return drain(openStream(sourceOf(Buffer.concat(parts), 5000), id));
}

const codeOf = (e: unknown) => (e instanceof NenSealError ? e.code : e);

describe('streams', () => {
  it('round-trips through sealStream / openStream in odd-sized pieces, armored too', async () => {
    const k = await pqKeyPair();
    const pt = new Uint8Array(randomBytes(5 * CH + 123));
    for (const armor of [false, true]) {
      const ct = await drain(sealStream(sourceOf(pt, 7777), k.recipient, { armor }));
      expect(ct.error).toBeNull();
      const back = await drain(openStream(sourceOf(ct.bytes, 3333), k.identity));
      expect(back.error).toBeNull();
      expect(Buffer.compare(back.bytes, Buffer.from(pt))).toBe(0);
      // Plaintext comes out one verified 64 KiB chunk at a time.
      expect(back.chunks.every((c) => c.length <= CH)).toBe(true);
    }
  });

  it('a large header (300 recipients) fed in 97-byte pieces opens; maxHeaderBytes bounds it', async () => {
    const keys = await Promise.all(Array.from({ length: 300 }, () => pqKeyPair()));
    const ct = await seal(
      'many',
      keys.map((k) => k.recipient),
    );
    const r = await drain(openStream(sourceOf(ct, 97), (keys[299] as { identity: string }).identity));
    expect(r.error).toBeNull();
    expect(r.bytes.toString()).toBe('many');
    const small = await drain(openStream(sourceOf(ct, 97), (keys[0] as { identity: string }).identity, { maxHeaderBytes: 100_000 }));
    expect(codeOf(small.error)).toBe('NEN_SEAL_LIMIT');
  });

  it('constant memory: 256 MiB through seal and open piped, heap growth bounded', async () => {
    const k = await pqKeyPair();
    const block = new Uint8Array(randomBytes(1 << 20));
    let left = 256;
    const src = new ReadableStream<Uint8Array>({
      pull(c) {
        if (left-- === 0) return c.close();
        c.enqueue(block);
      },
    });
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let total = 0;
    let peak = 0;
    const r = openStream(sealStream(src, k.recipient), k.identity).getReader();
    for (;;) {
      const { done, value } = await r.read();
      if (done) break;
      total += value.length;
      if ((total & 0xffffff) < CH) peak = Math.max(peak, process.memoryUsage().rss - before);
    }
    expect(total).toBe(256 << 20);
    expect(peak).toBeLessThan(160 << 20); // holding the stream would be ≥ 256 MiB
  });

  it('truncation: dropping the final chunk releases the verified prefix, then fails', async () => {
    const s = await sealed(3 * CH + 10);
    const r = await openParts(s.k.identity, [s.prefix, ...s.chunks.slice(0, 3)]);
    expect(codeOf(r.error)).toBe('NEN_SEAL_PAYLOAD');
    expect(Buffer.compare(r.bytes, Buffer.from(s.pt.subarray(0, 3 * CH)))).toBe(0);
  });

  it('truncation inside a chunk and at a chunk boundary after a full final chunk', async () => {
    const s = await sealed(3 * CH + 10);
    const cut = await openParts(s.k.identity, [s.prefix, ...s.chunks.slice(0, 3), (s.chunks[3] as Uint8Array).subarray(0, 20)]);
    expect(codeOf(cut.error)).toBe('NEN_SEAL_PAYLOAD');
    expect(cut.bytes.length).toBe(3 * CH);
    const full = await sealed(2 * CH);
    const r = await openParts(full.k.identity, [full.prefix, ...full.chunks.slice(0, 1)]);
    expect(codeOf(r.error)).toBe('NEN_SEAL_PAYLOAD');
    expect(r.bytes.length).toBe(CH);
  });

  it('reordering: swapped chunks fail at the first swapped one, nothing from it is released', async () => {
    const s = await sealed(4 * CH + 1);
    const [a, b, c, d, e] = s.chunks as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    const r = await openParts(s.k.identity, [s.prefix, a, c, b, d, e]);
    expect(codeOf(r.error)).toBe('NEN_SEAL_PAYLOAD');
    expect(Buffer.compare(r.bytes, Buffer.from(s.pt.subarray(0, CH)))).toBe(0);
  });

  it('duplication: a repeated chunk fails; trailing data after the final chunk fails', async () => {
    const s = await sealed(2 * CH + 1);
    const [a, b, c] = s.chunks as [Uint8Array, Uint8Array, Uint8Array];
    const dup = await openParts(s.k.identity, [s.prefix, a, a, b, c]);
    expect(codeOf(dup.error)).toBe('NEN_SEAL_PAYLOAD');
    expect(dup.bytes.length).toBe(CH);
    const dupLast = await openParts(s.k.identity, [s.prefix, a, b, c, c]);
    expect(codeOf(dupLast.error)).toBe('NEN_SEAL_PAYLOAD');
    const trailing = await openParts(s.k.identity, [s.prefix, a, b, c, new Uint8Array([0])]);
    expect(codeOf(trailing.error)).toBe('NEN_SEAL_PAYLOAD');
  });

  it('a chunk from another file (same key, other nonce) fails', async () => {
    const s = await sealed(2 * CH + 1);
    const other = await seal(new Uint8Array(2 * CH + 1), s.k.recipient);
    const o1 = other.subarray(parseHeader(other).length + 16 + ENC, parseHeader(other).length + 16 + 2 * ENC);
    const r = await openParts(s.k.identity, [s.prefix, s.chunks[0] as Uint8Array, o1, s.chunks[2] as Uint8Array]);
    expect(codeOf(r.error)).toBe('NEN_SEAL_PAYLOAD');
    expect(r.bytes.length).toBe(CH);
  });
});
