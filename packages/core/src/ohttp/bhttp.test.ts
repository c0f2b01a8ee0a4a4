/**
 * Binary HTTP (RFC 9292): the RFC's §5 examples decode, known- and indeterminate-length round
 * trips, truncation where §3.8 allows it (and nowhere else), padding, invalid fields, and every
 * bound refused with a typed error before allocating.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../test/thrown.js';
import { concatBytes, fromHex, utf8 } from '../protocol/bytes.js';
import {
  type BhttpRequest,
  decodeBhttpRequest,
  decodeBhttpResponse,
  encodeBhttpContentChunk,
  encodeBhttpRequest,
  encodeBhttpResponse,
  encodeBhttpResponseHead,
  encodeBhttpResponseTail,
} from './bhttp.js';

const vectors: unknown = JSON.parse(readFileSync(new URL('./bhttp.rfc9292.vectors.json', import.meta.url), 'utf8'));

const req: BhttpRequest = {
  method: 'POST',
  scheme: 'https',
  authority: 'api.example',
  path: '/api/notes?x=1',
  headers: [
    ['content-type', 'application/json'],
    ['x-a', 'b'],
  ],
  content: utf8('{"a":1}'),
  trailers: [['x-t', '1']],
};

describe('Binary HTTP', () => {
  it('RFC 9292 §5 examples: both request encodings, the informational response, the chunked-origin response', () => {
    const v = (vectors as { vectors: Record<string, string> }).vectors;
    for (const k of ['known_request', 'indeterminate_request']) {
      const r = decodeBhttpRequest(fromHex(v[k] as string));
      expect(r).toMatchObject({ method: 'GET', scheme: 'https', authority: '', path: '/hello.txt', content: new Uint8Array(0), trailers: [] });
      expect(r.headers).toEqual([
        ['user-agent', 'curl/7.16.3 libcurl/7.16.3 OpenSSL/0.9.7l zlib/1.2.3'],
        ['host', 'www.example.com'],
        ['accept-language', 'en, mi'],
      ]);
    }
    const res = decodeBhttpResponse(fromHex(v.indeterminate_response as string));
    expect(res.informational.map((i) => i.status)).toEqual([102, 103]);
    expect(res.status).toBe(200);
    expect(res.headers.length).toBe(8);
    expect(new TextDecoder().decode(res.content)).toBe('Hello World! My content includes a trailing CRLF.\r\n');
    const chunked = decodeBhttpResponse(fromHex(v.known_chunked_response as string));
    expect(chunked).toMatchObject({ status: 200, headers: [], trailers: [['trailer', 'text']] });
    expect(new TextDecoder().decode(chunked.content)).toBe('This content contains CRLF.\r\n');
  });

  for (const indeterminate of [false, true]) {
    it(`${indeterminate ? 'indeterminate' : 'known'}-length request and response round trip`, () => {
      const b = encodeBhttpRequest(req, { indeterminate });
      expect(decodeBhttpRequest(b)).toEqual(req);
      expect(decodeBhttpRequest(concatBytes(b, new Uint8Array(10)))).toEqual(req);
      const res = {
        informational: [{ status: 103, headers: [['link', '</a>'] as const] }],
        status: 201,
        headers: [['x', 'y'] as const],
        content: utf8('ok'),
        trailers: [],
      };
      expect(decodeBhttpResponse(encodeBhttpResponse(res, { indeterminate }))).toEqual(res);
    });
  }

  it('the streaming pieces form a valid indeterminate-length response', () => {
    const b = concatBytes(
      encodeBhttpResponseHead(200, [['content-type', 'text/plain']]),
      encodeBhttpContentChunk(utf8('a')),
      encodeBhttpContentChunk(new Uint8Array(0)),
      encodeBhttpContentChunk(utf8('bc')),
      encodeBhttpResponseTail(),
    );
    expect(decodeBhttpResponse(b)).toMatchObject({ status: 200, content: utf8('abc'), trailers: [] });
  });

  it('truncation inside a field, non-zero padding, bad framing, pseudo-fields, bad values: NEN_OHTTP_BHTTP', () => {
    const b = encodeBhttpRequest(req);
    for (const n of [1, 3, 10, 30, 40, b.length - 3]) {
      expect(thrown(() => decodeBhttpRequest(b.subarray(0, n)))).toMatchObject({ code: 'NEN_OHTTP_BHTTP', status: 400 });
    }
    expect(thrown(() => decodeBhttpRequest(concatBytes(b, Uint8Array.of(0, 1))))).toMatchObject({ code: 'NEN_OHTTP_BHTTP', status: 400 });
    expect(thrown(() => decodeBhttpRequest(Uint8Array.of(1)))).toMatchObject({ code: 'NEN_OHTTP_BHTTP', status: 400 });
    expect(thrown(() => decodeBhttpResponse(Uint8Array.of(0)))).toMatchObject({ code: 'NEN_OHTTP_BHTTP', status: 400 });
    expect(thrown(() => decodeBhttpResponse(Uint8Array.of(1, 0x40, 99)))).toMatchObject({ code: 'NEN_OHTTP_BHTTP', status: 400 });
    for (const h of [
      [':path', '/x'],
      ['bad name', 'v'],
      ['x', 'a\r\nb'],
      ['x', ' lead'],
      ['', 'v'],
    ] as const) {
      const bad = encodeBhttpRequest({ ...req, headers: [] });
      const line = concatBytes(Uint8Array.of(h[0].length), utf8(h[0]), Uint8Array.of(h[1].length), utf8(h[1]));
      const withLine = concatBytes(bad.subarray(0, bad.indexOf(0x0e) + 14), Uint8Array.of(line.length), line);
      expect(thrown(() => decodeBhttpRequest(withLine))).toMatchObject({ code: 'NEN_OHTTP_BHTTP', status: 400 });
    }
    expect(thrown(() => encodeBhttpRequest({ ...req, path: '/a b' }))).toMatchObject({ code: 'NEN_OHTTP_BHTTP' });
    expect(thrown(() => decodeBhttpRequest(encodeBhttpRequest({ ...req, path: 'relative' })))).toMatchObject({ code: 'NEN_OHTTP_BHTTP' });
  });

  it('bounds: field count, field bytes, content, declared lengths past the input', () => {
    const many = { ...req, headers: Array.from({ length: 300 }, (_, i) => [`h${i}`, 'v'] as const) };
    for (const indeterminate of [false, true]) {
      expect(thrown(() => decodeBhttpRequest(encodeBhttpRequest(many, { indeterminate })))).toMatchObject({ code: 'NEN_TOO_LARGE', status: 413 });
      const big = { ...req, content: new Uint8Array(2000) };
      expect(thrown(() => decodeBhttpRequest(encodeBhttpRequest(big, { indeterminate }), { maxContent: 1000 }))).toMatchObject({
        code: 'NEN_TOO_LARGE',
        status: 413,
      });
      const longValue = { ...req, headers: [['x', 'v'.repeat(5000)] as const] };
      expect(thrown(() => decodeBhttpRequest(encodeBhttpRequest(longValue, { indeterminate }), { maxFieldBytes: 4096 }))).toMatchObject({
        code: 'NEN_TOO_LARGE',
        status: 413,
      });
    }
    // content length 2^62-ish declared, 3 bytes present
    const head = encodeBhttpRequest({ ...req, headers: [], content: new Uint8Array(0), trailers: [] });
    const lie = concatBytes(head.subarray(0, head.length - 2), Uint8Array.of(0xc0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3));
    expect(thrown(() => decodeBhttpRequest(lie))).toMatchObject({ code: 'NEN_TOO_LARGE', status: 413 });
    const lie2 = concatBytes(head.subarray(0, head.length - 2), Uint8Array.of(0x44, 0, 1, 2, 3));
    expect(thrown(() => decodeBhttpRequest(lie2))).toMatchObject({ code: 'NEN_OHTTP_BHTTP', status: 400 });
  });

  it('field values are latin1 (0x80..0xff are not windows-1252), short and long; above U+00FF is refused', () => {
    const high = Array.from({ length: 0x60 }, (_, i) => String.fromCharCode(0xa0 + (i % 0x60))).join('');
    const c1 = '\x80\x81\x9f'; // windows-1252 would decode 0x80 as U+20AC
    for (const value of [`a${c1}b`, `a${c1}${high}${'v'.repeat(20_000)}b`]) {
      for (const indeterminate of [false, true]) {
        const r = { ...req, headers: [['x-bytes', value] as const], trailers: [['x-t', 'A\xffB'] as const] };
        const back = decodeBhttpRequest(encodeBhttpRequest(r, { indeterminate }));
        expect(back.headers).toEqual([['x-bytes', value]]);
        expect(back.trailers).toEqual([['x-t', 'A\xffB']]);
        expect(back.content).toEqual(req.content);
      }
    }
    expect(thrown(() => encodeBhttpRequest({ ...req, headers: [['x', 'a\u0100']] }))).toMatchObject({ code: 'NEN_OHTTP_BHTTP' });
    expect(thrown(() => encodeBhttpRequest({ ...req, path: '/\u20ac' }))).toMatchObject({ code: 'NEN_OHTTP_BHTTP' });
  });
});
