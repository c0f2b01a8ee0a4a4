/**
 * http.ts readBody: a hard byte limit on every path, and the whole-body read an adapter asks for
 * (`preferWholeBodyRead`: `arrayBuffer()` when Content-Length is known) taking exactly that many
 * bytes; anything else is a typed client error, never an internal one. readSealedBody: the chunks
 * a request offers (the node:http adapter's), under the same checks; `contiguous` joins them in a
 * reused, bounded buffer.
 */
import { describe, expect, it } from 'vitest';
import { WHOLE_BODY_CHUNKS, contiguous, isScratch, preferWholeBodyRead, readAll, readBody, readSealedBody } from './http.js';

const bytes = (n: number) => new Uint8Array(n).map((_, i) => i & 0xff);

/** A POST whose `body` getter throws: only `arrayBuffer()` may be used to read it. */
function noStream(body: Uint8Array | (() => Promise<ArrayBuffer>), headers: Record<string, string>): Request {
  const real = new Request('http://127.0.0.1/x', { method: 'POST', headers, ...(body instanceof Uint8Array ? { body: body as Uint8Array<ArrayBuffer> } : {}) });
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'body') throw new Error('test: body stream touched');
      if (prop === 'arrayBuffer' && typeof body === 'function') return body;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** A POST whose body is a stream of the given chunks (no Content-Length, as a chunked upload). */
function chunked(chunks: Uint8Array[], headers: Record<string, string> = {}): Request {
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(x);
      c.close();
    },
  });
  return new Request('http://127.0.0.1/x', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
}

describe('readBody', () => {
  it('a marked request with a Content-Length is read whole through arrayBuffer(), never its body stream', async () => {
    const req = noStream(bytes(1000), { 'content-length': '1000' });
    preferWholeBodyRead(req);
    expect(await readBody(req, 4096)).toEqual(bytes(1000));
  });

  it('a marked request: Content-Length over the limit is 413 before anything is read', async () => {
    let read = false;
    const req = noStream(
      async () => {
        read = true;
        return new ArrayBuffer(0);
      },
      { 'content-length': '5000' },
    );
    preferWholeBodyRead(req);
    await expect(readBody(req, 4096)).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
    expect(read).toBe(false);
  });

  it('a marked request whose body is not its Content-Length, or breaks off, is NEN_MALFORMED', async () => {
    const short = noStream(async () => new ArrayBuffer(10), { 'content-length': '20' });
    preferWholeBodyRead(short);
    await expect(readBody(short, 4096)).rejects.toMatchObject({ code: 'NEN_MALFORMED' });
    const aborted = noStream(() => Promise.reject(new Error('Client connection prematurely closed.')), { 'content-length': '20' });
    preferWholeBodyRead(aborted);
    await expect(readBody(aborted, 4096)).rejects.toMatchObject({ code: 'NEN_MALFORMED' });
  });

  it('a marked request without Content-Length (chunked) is read as a stream, bounded by the limit', async () => {
    const ok = chunked([bytes(100), bytes(100)]);
    preferWholeBodyRead(ok);
    expect(await readBody(ok, 4096)).toEqual(new Uint8Array([...bytes(100), ...bytes(100)]));
    const big = chunked([bytes(3000), bytes(3000)]);
    preferWholeBodyRead(big);
    await expect(readBody(big, 4096)).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
  });

  it('an unmarked request is read as a stream (arrayBuffer() unused) with the same checks', async () => {
    expect(await readBody(new Request('http://127.0.0.1/x', { method: 'POST', body: bytes(300) }), 4096)).toEqual(bytes(300));
    await expect(readBody(chunked([bytes(5000)]), 4096)).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
    await expect(readBody(chunked([bytes(1)], { 'content-length': 'x' }), 4096)).rejects.toMatchObject({ code: 'NEN_MALFORMED' });
  });

  it('stops at Content-Length (no final read for `done`), in one chunk or several; reads on past a short one', async () => {
    // streams that never close: only the Content-Length can end these reads
    const open = (chunks: Uint8Array[], cl: number) =>
      new Request('http://127.0.0.1/x', {
        method: 'POST',
        headers: { 'content-length': String(cl) },
        body: new ReadableStream<Uint8Array>({ start: (c) => chunks.forEach((x) => c.enqueue(x)) }),
        duplex: 'half',
      } as RequestInit);
    expect(await readBody(open([bytes(300)], 300), 4096)).toEqual(bytes(300));
    expect(await readBody(open([bytes(100), bytes(200)], 300), 4096)).toEqual(new Uint8Array([...bytes(100), ...bytes(200)]));
    // a body longer than its Content-Length (only possible in-process) is still read to its end, bounded
    expect(await readBody(chunked([bytes(100), bytes(100)], { 'content-length': '50' }), 4096)).toEqual(new Uint8Array([...bytes(100), ...bytes(100)]));
    await expect(readBody(chunked([bytes(3000), bytes(3000)], { 'content-length': '50' }), 4096)).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
    // a stream error on the first read is the client's fault
    const broken = new Request('http://127.0.0.1/x', {
      method: 'POST',
      body: new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error('socket closed')) }),
      duplex: 'half',
    } as RequestInit);
    await expect(readBody(broken, 4096)).rejects.toMatchObject({ code: 'NEN_MALFORMED' });
  });

  it('past the limit on one branch of a tee() (Next Edge clones the request) is 413 at once, the other branch never cancelled', async () => {
    // A tee branch's cancel settles only once both branches are cancelled: awaiting it hung the 413.
    let pulled = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const [mine, kept] = source.tee();
    const req = new Request('http://127.0.0.1/x', { method: 'POST', body: mine, duplex: 'half' } as RequestInit);
    const outcome = await Promise.race([
      readBody(req, 64 * 1024).then(
        () => 'read',
        (e: { code?: string }) => e.code,
      ),
      new Promise((r) => setTimeout(r, 1000, 'hang')),
    ]);
    expect(outcome).toBe('NEN_TOO_LARGE');
    expect(pulled).toBeLessThan(16); // stopped at the limit, not read on
    await kept.cancel();
  });
});

describe('readAll', () => {
  it('joins chunks; a non-byte chunk is a TypeError', async () => {
    expect(await readAll(new Response(bytes(10)).body!)).toEqual(bytes(10));
    const two = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes(3));
        c.enqueue(bytes(4));
        c.close();
      },
    });
    expect(await readAll(two)).toEqual(new Uint8Array([0, 1, 2, 0, 1, 2, 3]));
    const bad = new ReadableStream<unknown>({
      start(c) {
        c.enqueue('text');
        c.close();
      },
    }) as ReadableStream<Uint8Array>;
    await expect(readAll(bad)).rejects.toBeInstanceOf(TypeError);
  });
});

/** A POST offering its body as chunks (as the node:http adapter's lazy Request does). */
function offering(read: () => Promise<Uint8Array[]> | null, headers: Record<string, string>): Request {
  const r = noStream(new Uint8Array(0), headers);
  return new Proxy(r, {
    get(target, prop) {
      if (prop === WHOLE_BODY_CHUNKS) return read;
      return Reflect.get(target, prop);
    },
  });
}

describe('readSealedBody and contiguous', () => {
  it('takes the offered chunks unjoined, exactly Content-Length bytes, within the limit', async () => {
    const parts = [bytes(100), bytes(200)];
    expect(
      await readSealedBody(
        offering(async () => parts, { 'content-length': '300' }),
        4096,
      ),
    ).toBe(parts);
    await expect(
      readSealedBody(
        offering(async () => parts, { 'content-length': '301' }),
        4096,
      ),
    ).rejects.toMatchObject({ code: 'NEN_MALFORMED' });
    let called = false;
    const big = offering(
      async () => {
        called = true;
        return parts;
      },
      { 'content-length': '5000' },
    );
    await expect(readSealedBody(big, 4096)).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
    expect(called).toBe(false);
    await expect(
      readSealedBody(
        offering(() => Promise.reject(new Error('reset')), { 'content-length': '3' }),
        4096,
      ),
    ).rejects.toMatchObject({ code: 'NEN_MALFORMED' });
  });

  it('falls back to readBody when the request has no chunks to offer, or no Content-Length', async () => {
    expect(contiguous(await readSealedBody(new Request('http://127.0.0.1/x', { method: 'POST', body: bytes(300) }), 4096))).toEqual(bytes(300));
    const none = new Request('http://127.0.0.1/x', { method: 'POST', body: bytes(10), headers: { 'content-length': '10' } });
    const gone = new Proxy(none, { get: (t, p) => (p === WHOLE_BODY_CHUNKS ? () => null : Reflect.get(t, p)) });
    expect(contiguous(await readSealedBody(gone, 4096))).toEqual(bytes(10));
  });

  it('a stream body in several chunks (undici, as under next start) comes back unjoined, under the same limit', async () => {
    const parts = [bytes(100), bytes(200)];
    const got = await readSealedBody(chunked(parts, { 'content-length': '300' }), 4096);
    expect(Array.isArray(got)).toBe(true);
    expect(contiguous(got)).toEqual(new Uint8Array([...parts[0]!, ...parts[1]!]));
    expect(contiguous(await readSealedBody(chunked(parts), 4096))).toEqual(new Uint8Array([...parts[0]!, ...parts[1]!]));
    await expect(readSealedBody(chunked([bytes(3000), bytes(3000)], { 'content-length': '50' }), 4096)).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
    await expect(readSealedBody(chunked([bytes(3000), bytes(3000)]), 4096)).rejects.toMatchObject({ code: 'NEN_TOO_LARGE' });
    // readBody itself still joins
    expect(await readBody(chunked(parts, { 'content-length': '300' }), 4096)).toEqual(new Uint8Array([...parts[0]!, ...parts[1]!]));
  });

  it('contiguous: one chunk as is, several joined in one reused buffer, past 1 MiB in its own', () => {
    const one = bytes(10);
    expect(contiguous(one)).toBe(one);
    expect(contiguous([one])).toBe(one);
    const a = contiguous([bytes(3), bytes(5)]);
    expect(a).toEqual(new Uint8Array([0, 1, 2, 0, 1, 2, 3, 4]));
    expect(isScratch(a)).toBe(true);
    const b = contiguous([bytes(70_000), bytes(50_000)]);
    expect(b.length).toBe(120_000);
    expect(b[70_000]).toBe(0);
    expect(b[119_999]).toBe(49_999 & 0xff);
    expect(isScratch(b)).toBe(true);
    expect(isScratch(one)).toBe(false);
    const huge = contiguous([bytes(600_000), bytes(600_000)]);
    expect(huge.length).toBe(1_200_000);
    expect(isScratch(huge)).toBe(false);
    expect(contiguous([]).length).toBe(0);
  });
});
