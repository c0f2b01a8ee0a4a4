/**
 * The browser-like transport of the realistic load variants: Accept-Encoding sent unless the
 * caller set one, the response decoded like fetch does (gzip, deflate, br), wire bytes counted
 * before decoding, an unknown coding an error. Against a local node:http server that compresses.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createFetch, decodeContentEncoding, BROWSER_ACCEPT_ENCODING } from '../lib/transport.js';

const BODY = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: 'Ada Lovelace', tags: ['a', 'b'] })) });
let server: http.Server;
let base = '';
const agent = createAgent({ connections: 4 });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const ae = String(req.headers['accept-encoding'] ?? '');
    res.setHeader('x-seen-accept-encoding', ae);
    const want = req.url?.slice(1) ?? '';
    if (want === 'weird') {
      res.writeHead(200, { 'content-encoding': 'compress' }).end('x');
      return;
    }
    const coding = want && ae.includes(want) ? want : '';
    const body =
      coding === 'gzip'
        ? zlib.gzipSync(BODY)
        : coding === 'deflate'
          ? zlib.deflateSync(BODY)
          : coding === 'br'
            ? zlib.brotliCompressSync(BODY)
            : Buffer.from(BODY);
    res.writeHead(200, { 'content-type': 'application/json', ...(coding ? { 'content-encoding': coding } : {}) }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.close();
  await new Promise((r) => server.close(r));
});

describe('browser-like Accept-Encoding', () => {
  it('decodes gzip, deflate and br and counts the encoded bytes on the wire', async () => {
    for (const coding of ['gzip', 'deflate', 'br']) {
      const wire: { resBytes: number; contentEncoding: string | null }[] = [];
      const f = createFetch({
        agent,
        acceptEncoding: BROWSER_ACCEPT_ENCODING,
        onWire: (e: { resBytes: number; contentEncoding: string | null }) => wire.push(e),
      });
      const res = await f(`${base}/${coding}`);
      expect(res.headers.get('x-seen-accept-encoding')).toBe(BROWSER_ACCEPT_ENCODING);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.text()).toBe(BODY);
      expect(wire[0]!.contentEncoding).toBe(coding);
      expect(wire[0]!.resBytes).toBeLessThan(BODY.length / 3);
    }
  });
  it('leaves a caller-set Accept-Encoding alone, and without the option sends none and decodes nothing', async () => {
    const f = createFetch({ agent, acceptEncoding: BROWSER_ACCEPT_ENCODING });
    const res = await f(`${base}/gzip`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.headers.get('x-seen-accept-encoding')).toBe('identity');
    expect(await res.text()).toBe(BODY);
    const raw = await createFetch({ agent })(`${base}/gzip`);
    expect(raw.headers.get('x-seen-accept-encoding')).toBe('');
  });
  it('an unknown content coding is an error, never silently passed on', async () => {
    const f = createFetch({ agent, acceptEncoding: BROWSER_ACCEPT_ENCODING });
    await expect(f(`${base}/weird`)).rejects.toThrow(/unsupported content-encoding compress/);
    expect(decodeContentEncoding(new Uint8Array([1]), 'identity')).toEqual(new Uint8Array([1]));
  });
});
