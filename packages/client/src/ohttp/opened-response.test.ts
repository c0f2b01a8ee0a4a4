/**
 * The OHTTP client's Response for an opened, non-chunked answer on Node (./opened-response.ts):
 * a fetch Response read straight from the opened bytes, its headers filled from the Binary HTTP
 * field lines once, on first read, each body read once (TypeError after), `body` / clone()
 * through a stream-backed twin.
 */
import type { FieldLine } from '@nen/core/ohttp/client';
import { describe, expect, it } from 'vitest';
import { OpenedResponse } from '../opened.js';
import { OhttpOpenedResponse } from './opened-response.js';

const enc = new TextEncoder();
const lines: FieldLine[] = [
  ['content-type', 'application/json'],
  ['x-app', 'a'],
  ['x-app', 'b'],
  ['bad name', 'dropped'],
];
const fill = (h: Headers) => {
  for (const [n, v] of lines) {
    try {
      h.append(n, v);
    } catch {
      // dropped, as ./client.ts does
    }
  }
};
const opened = (text = '{"a":1}', status = 200) => new OhttpOpenedResponse(enc.encode(text), status, fill);

describe('OhttpOpenedResponse', () => {
  it('is a Response with the inner status and the field lines as headers, filled once', async () => {
    const r = opened('{"a":1}', 201);
    expect(r).toBeInstanceOf(Response);
    expect(r).toBeInstanceOf(OpenedResponse);
    expect([r.status, r.ok, r.statusText]).toEqual([201, true, '']);
    expect(await r.json()).toEqual({ a: 1 });
    expect(r.headers).toBe(r.headers);
    const list: [string, string][] = [];
    r.headers.forEach((v, k) => list.push([k, v]));
    expect(list).toEqual([
      ['content-type', 'application/json'],
      ['x-app', 'a, b'],
    ]);
  });

  it('reads the body once (text, json, arrayBuffer; TypeError after) and streams it through `body` or clone()', async () => {
    const r = opened('héllo');
    expect(r.bodyUsed).toBe(false);
    expect(await r.text()).toBe('héllo');
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toBeInstanceOf(TypeError);
    expect(new Uint8Array(await opened('abc').arrayBuffer())).toEqual(enc.encode('abc'));
    const s = opened('streamed');
    expect(await new Response(s.body).text()).toBe('streamed');
    expect(s.bodyUsed).toBe(true);
    const c = opened('twice').clone();
    expect(c.headers.get('x-app')).toBe('a, b');
    expect(await c.text()).toBe('twice');
  });
});
