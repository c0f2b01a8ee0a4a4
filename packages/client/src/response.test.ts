/**
 * The application's Response for an opened body on Node (response.ts → opened.ts): it answers from
 * the opened bytes without a body stream, yet behaves as a fetch Response does: each body read once
 * (TypeError after), bodyUsed, `body` as a stream, clone(), blob(), the wire headers without Nen's,
 * and never a view into someone else's buffer from arrayBuffer().
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { OpenedResponse } from './opened.js';
import { appResponse } from './response.js';

// response.ts loads opened.ts in the background on Node: wait for that load to have landed.
beforeAll(async () => {
  await new Promise((r) => setTimeout(r, 0));
});

const enc = new TextEncoder();
const wire = () =>
  new Response(new Uint8Array(1), {
    status: 201,
    statusText: 'Created',
    headers: { 'content-type': 'application/nen', nen: 'x', 'nen-type': 'application/json', 'content-length': '1', 'x-app': 'kept', 'set-cookie': 'a=1' },
  });
const opened = (text = '{"a":1}') => appResponse(enc.encode(text), wire(), 'application/json');

describe('appResponse (an opened body)', () => {
  it('is a Response with the wire status and the plaintext headers', () => {
    const r = opened();
    expect(r).toBeInstanceOf(Response);
    expect(r).toBeInstanceOf(OpenedResponse);
    expect([r.status, r.statusText, r.ok]).toEqual([201, 'Created', true]);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('x-app')).toBe('kept');
    for (const h of ['nen', 'nen-type', 'content-length']) expect(r.headers.has(h)).toBe(false);
  });

  it('fills its headers once, on first read, also after the body was read', async () => {
    const r = opened();
    expect(await r.text()).toBe('{"a":1}');
    expect(r.headers).toBe(r.headers);
    expect(r.headers.get('x-app')).toBe('kept'); // not appended twice
    expect(r.headers.get('content-type')).toBe('application/json');
    const list: string[] = [];
    r.headers.forEach((_v, k) => list.push(k));
    expect(list).toEqual(['content-type', 'set-cookie', 'x-app']);
    expect(opened().clone().headers.get('x-app')).toBe('kept');
  });

  it('reads the body once: text, json, arrayBuffer, bytes; TypeError after', async () => {
    const r = opened();
    expect(r.bodyUsed).toBe(false);
    expect(await r.json()).toEqual({ a: 1 });
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toBeInstanceOf(TypeError);
    await expect(r.arrayBuffer()).rejects.toBeInstanceOf(TypeError);
    expect(() => r.clone()).toThrow(TypeError);
    expect(await opened('héllo').text()).toBe('héllo');
    expect(new Uint8Array(await opened('abc').arrayBuffer())).toEqual(enc.encode('abc'));
    // bytes() where the runtime's Response has it (Node >= 22, current browsers; not Node 20)
    if (typeof Response.prototype.bytes === 'function') expect(await opened('abc').bytes()).toEqual(enc.encode('abc'));
    await expect(opened('{').json()).rejects.toBeInstanceOf(SyntaxError);
  });

  it('arrayBuffer() never hands out a buffer the bytes only view', async () => {
    const shared = new Uint8Array(64).fill(7);
    const view = shared.subarray(8, 12);
    const ab = await appResponse(view, wire(), '').arrayBuffer();
    expect(ab.byteLength).toBe(4);
    expect(ab).not.toBe(shared.buffer);
    new Uint8Array(ab).fill(0);
    expect(shared[8]).toBe(7);
  });

  it('arrayBuffer() copies a Buffer view too (Buffer#slice is a view, not a copy; node:zlib answers with one)', async () => {
    const { Buffer } = await import('node:buffer');
    const pooled = Buffer.alloc(16384, 7).subarray(0, 1000);
    const ab = await appResponse(pooled, wire(), '').arrayBuffer();
    expect(ab.byteLength).toBe(1000);
    expect(ab).not.toBe(pooled.buffer);
  });

  it('body is a stream of the bytes, and reads after it go through that stream', async () => {
    const r = opened('streamed');
    const body = r.body;
    expect(body).toBeInstanceOf(ReadableStream);
    expect(r.body).toBe(body);
    expect(r.bodyUsed).toBe(false);
    expect(await r.text()).toBe('streamed');
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toBeInstanceOf(TypeError);
    const empty = appResponse(new Uint8Array(0), wire(), '');
    expect(empty.body).not.toBeNull();
    expect(await empty.text()).toBe('');
  });

  it('clone() gives two readable copies; blob() carries the plaintext type', async () => {
    const r = opened();
    const c = r.clone();
    expect(await c.json()).toEqual({ a: 1 });
    expect(await r.json()).toEqual({ a: 1 });
    const b = await opened('xyz').blob();
    expect([b.type, await b.text()]).toEqual(['application/json', 'xyz']);
  });

  it('null and streamed bodies are plain Responses', async () => {
    expect(appResponse(null, wire(), '').body).toBeNull();
    const s = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode('s'));
        c.close();
      },
    });
    expect(await appResponse(s, wire(), 'text/plain').text()).toBe('s');
  });
});
