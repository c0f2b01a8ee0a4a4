/**
 * `prepare()` (src/transport.ts): the application's arguments as one request. The envelope's own
 * headers are removed from the application's, whatever form the headers come in (a record, with
 * any case, inherited keys, a list, a Headers, a Request's); the plaintext content type is kept
 * apart; bodies that need no reading are prepared without a promise.
 */
import { describe, expect, it } from 'vitest';
import { type PreparedRequest, prepare } from './transport.js';

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
