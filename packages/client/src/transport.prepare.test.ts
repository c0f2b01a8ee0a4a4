/**
 * `prepare()` (src/transport.ts): the application's arguments as one request. The envelope's own
 * headers are removed from the application's, whatever form the headers come in (a record, with
 * any case, inherited keys, a list, a Headers, a Request's); the plaintext content type is kept
 * apart; bodies that need no reading are prepared without a promise. `withUtf8`: a string body's
 * bytes in the reused buffer are exactly TextEncoder's and are wiped once sealed (or on a throw).
 */
import { describe, expect, it } from 'vitest';
import { type PreparedRequest, prepare, withUtf8 } from './transport.js';

const resolve = (u: string | URL) => new URL(u, 'http://127.0.0.1/');
const names = (p: PreparedRequest) => {
  const out: string[] = [];
  p.headers.forEach((_v, k) => out.push(k));
  return out;
};
const ENVELOPE = { 'Content-Type': 'application/json', 'content-length': '9', NEN: 'x', 'nen-type': 'y', 'Nen-Body': 'z' };

describe('prepare', () => {
  it('removes the envelope headers from a record (any case) and keeps the content type apart', () => {
    const p = prepare(resolve, '/a', { method: 'post', headers: { ...ENVELOPE, 'x-app': '1' }, body: '{"a":1}' }) as PreparedRequest;
    expect(p).not.toBeInstanceOf(Promise);
    expect(names(p)).toEqual(['x-app']);
    expect(p.contentType).toBe('application/json');
    expect(p.method).toBe('POST');
    expect(new TextDecoder().decode(p.body as Uint8Array)).toBe('{"a":1}');
  });

  it('a record without envelope names keeps every header; inherited keys are read as the Headers reads them', () => {
    const p = prepare(resolve, '/a', { headers: { accept: 'text/plain', 'x-b': '2' } }) as PreparedRequest;
    expect(names(p)).toEqual(['accept', 'x-b']);
    const proto = { nen: 'inherited' };
    const rec = Object.assign(Object.create(proto) as Record<string, string>, { 'x-c': '3' });
    expect(names(prepare(resolve, '/a', { headers: rec }) as PreparedRequest)).toEqual(['x-c']);
  });

  it('removes them from a list, a Headers and a Request', async () => {
    const list: [string, string][] = [...Object.entries(ENVELOPE), ['x-app', '1']];
    expect(names(prepare(resolve, '/a', { headers: list }) as PreparedRequest)).toEqual(['x-app']);
    expect(names(prepare(resolve, '/a', { headers: new Headers(list) }) as PreparedRequest)).toEqual(['x-app']);
    const req = new Request('http://127.0.0.1/r', { method: 'POST', headers: list, body: 'hi' });
    const p = await prepare(resolve, req);
    expect(names(p)).toEqual(['x-app']);
    expect(p.contentType).toBe('application/json');
    expect(new TextDecoder().decode(p.body as Uint8Array)).toBe('hi');
  });

  it('a string body without a content type is text/plain; a Blob body is read (a promise)', async () => {
    expect((prepare(resolve, '/a', { method: 'POST', body: 'x' }) as PreparedRequest).contentType).toBe('text/plain;charset=UTF-8');
    const pending = prepare(resolve, '/a', { method: 'POST', body: new Blob(['ab'], { type: 'text/csv' }) });
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).contentType).toBe('text/csv');
  });

  it('a body on GET is NEN_BAD_INPUT', () => {
    expect(() => prepare(resolve, '/a', { body: 'x' })).toThrow(expect.objectContaining({ code: 'NEN_BAD_INPUT' }));
  });
});

describe('withUtf8', () => {
  const enc = new TextEncoder();
  it("hands over TextEncoder's bytes (non-ASCII, a lone surrogate) and wipes them after use", () => {
    for (const text of ['{"a":1}', 'é€😀 x', 'a\ud800b', '']) {
      let seen: Uint8Array | undefined;
      const copy = withUtf8(text, (b) => {
        seen = b;
        return b.slice();
      });
      expect(copy).toEqual(enc.encode(text));
      expect(seen!.every((x) => x === 0)).toBe(true); // the reused buffer keeps no plaintext
    }
  });

  it('wipes when the consumer throws; a string over the cap gets its own array', () => {
    let seen: Uint8Array | undefined;
    expect(() =>
      withUtf8('secret', (b) => {
        seen = b;
        throw new Error('seal failed');
      }),
    ).toThrow('seal failed');
    expect(seen!.every((x) => x === 0)).toBe(true);
    const long = 'y'.repeat(400_000); // 3 x 400,000 > 1 MiB
    expect(withUtf8(long, (b) => b.length === long.length && b.buffer.byteLength === long.length)).toBe(true);
  });

  it('a prepared string body keeps its text; its bytes are encoded on first read', () => {
    const p = prepare(resolve, '/a', { method: 'POST', body: 'é' }) as PreparedRequest;
    expect(p.text).toBe('é');
    expect(p.body).toEqual(enc.encode('é'));
    expect(p.body).toBe(p.body);
  });
});
