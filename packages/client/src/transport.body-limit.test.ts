/**
 * The client's bound on a response body (transport.ts readBodyLimited): an answer larger than
 * maxResponseBytes (+ the 16-byte tag) is refused without being read whole, whether it declares
 * its length or streams without one. Found by the conformance kit's oversized-answer scenarios
 * (conformance/server/scenarios.mjs), which check the same over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { readBodyLimited } from './transport.js';

const tooLarge = () => Object.assign(new Error('too large'), { code: 'NEN_RESPONSE_UNAUTHENTICATED' });

/** A body of `chunks` 64 KiB chunks that counts how many were pulled. */
function counted(chunks: number) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (seen.pulled >= chunks) return c.close();
      seen.pulled += 1;
      c.enqueue(new Uint8Array(65536));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

describe('readBodyLimited', () => {
  it('returns a body within the limit, with or without content-length', async () => {
    expect((await readBodyLimited(new Response(new Uint8Array(100)), 100, tooLarge)).length).toBe(100);
    const { body } = counted(3);
    expect((await readBodyLimited(new Response(body), 3 * 65536, tooLarge)).length).toBe(3 * 65536);
    expect((await readBodyLimited(new Response(null), 10, tooLarge)).length).toBe(0);
  });

  it('joins a body of several chunks in order; a declared length within the limit does not lift it', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const x of [1, 2, 3]) c.enqueue(new Uint8Array(4).fill(x));
        c.close();
      },
    });
    expect(Array.from(await readBodyLimited(new Response(body), 12, tooLarge))).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    const { body: more, seen } = counted(64); // declares 1 byte, streams 4 MiB
    const res = new Response(more, { headers: { 'content-length': '1' } });
    await expect(readBodyLimited(res, 1 << 20, tooLarge)).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
    expect(seen.cancelled).toBe(true);
  });

  it('stops reading a streamed body at the limit and cancels it', async () => {
    const { body, seen } = counted(1024); // 64 MiB offered
    await expect(readBodyLimited(new Response(body), 1 << 20, tooLarge)).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
    expect(seen.pulled).toBeLessThanOrEqual(18);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses a declared content-length above the limit without reading', async () => {
    const { body, seen } = counted(1024);
    const res = new Response(body, { headers: { 'content-length': String(1024 * 65536) } });
    await expect(readBodyLimited(res, 1 << 20, tooLarge)).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
    expect(seen.pulled).toBeLessThanOrEqual(1);
  });
});
