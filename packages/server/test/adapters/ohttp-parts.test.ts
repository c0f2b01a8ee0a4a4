/**
 * `@nen/server/node` writes the OHTTP gateway's outer answers from their parts (the gateway's
 * `fetch` / `POST` SEALED_PARTS entry, src/ohttp/outer.ts), not from a Response: over real HTTP on
 * 127.0.0.1, node:http and Express 5, every answer must be the same on the wire as the one the
 * same gateway gives through its Response (`toNodeHandler((r) => gateway.fetch(r))`: a plain
 * function has no parts entry): the raw status line and header block byte for byte (only the
 * Date value masked), and the body byte for byte where it is deterministic (problem answers,
 * with Node's chunked framing), else its length and what it opens to (message/ohttp-res: a fresh
 * response nonce per answer; chunked answers stay Responses on both paths). Early answers (415
 * before the body was read, 413 past maxRequestBytes) carry the same `connection: close` and
 * content-length. Raw sockets, not fetch: a dropped or reordered header, or framing, shows.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import {
  OHTTP_KEM,
  decodeBhttpResponse,
  encapsulateChunkedRequest,
  encapsulateRequest,
  encodeBhttpRequest,
  generateOhttpKey,
  parseKeyConfigs,
} from '@nen/core';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { createNen, memoryStore } from '../../src/index.js';
import type { SealedParts } from '../../src/sealed-parts.js';
import { type PartsRoute, SEALED_PARTS } from '../../src/wrap.js';
import { inner, openChunkedResponse } from '../ohttp-inner.js';

const KEYS = `${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`;
const PATH = '/.well-known/ohttp-gateway';
const nen = createNen({ store: memoryStore({ shared: false }), logger: () => {} });
const gateway = nen.ohttpGateway({
  keys: KEYS,
  maxRequestBytes: 4096,
  routes: {
    '/api/echo': { POST: nen.withNen(async (_r, _c, body) => ({ echo: body })) },
    '/api/stream': {
      POST: nen.withNenStream(async function* () {
        yield 'one ';
        yield 'two';
      }),
    },
  },
});
const servers: Server[] = [];
const ports: Record<string, number> = {};

async function listen(name: string, s: Server): Promise<void> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  ports[name] = (s.address() as AddressInfo).port;
}

beforeAll(async () => {
  const parts = toNodeHandler(gateway.fetch);
  const response = toNodeHandler((r) => gateway.fetch(r));
  await listen(
    'node-parts',
    createServer((req, res) => void parts(req, res)),
  );
  await listen(
    'node-response',
    createServer((req, res) => void response(req, res)),
  );
  const exParts = express();
  exParts.all(PATH, toNodeHandler(gateway.fetch));
  await listen('express-parts', createServer(exParts));
  const exResponse = express();
  exResponse.all(
    PATH,
    toNodeHandler((r) => gateway.fetch(r)),
  );
  await listen('express-response', createServer(exResponse));
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  await nen.close();
});

interface Raw {
  /** Status line and header block, the Date value masked. */
  head: string;
  /** The body as sent (chunked framing included). */
  wire: Buffer;
  /** The body without its chunked framing. */
  body: Buffer;
}

/** One raw HTTP/1.1 exchange on a fresh connection: `send` bytes of `body` go out (all by default). */
function exchange(port: number, method: string, type: string, body: Uint8Array, send = body.length, length = body.length): Promise<Raw> {
  const head = `${method} ${PATH} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: ${type}\r\ncontent-length: ${length}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => socket.destroy(new Error('no complete answer in 5 s')), 5000);
    let buf = Buffer.alloc(0);
    const done = (r: Raw) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const text = buf.subarray(0, end).toString('latin1');
      const wire = buf.subarray(end + 4);
      const masked = text.replace(/\r\nDate: [^\r]*/, '\r\nDate: -');
      const cl = /\r\ncontent-length: (\d+)/i.exec(text);
      if (cl) {
        if (wire.length >= Number(cl[1])) done({ head: masked, wire, body: wire });
      } else if (/\r\ntransfer-encoding: chunked/i.test(text)) {
        if (wire.subarray(-5).toString('latin1') === '0\r\n\r\n') done({ head: masked, wire, body: unchunk(wire) });
      }
    });
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body.subarray(0, send)]));
  });
}

/** HTTP/1.1 chunked framing removed (no trailers). */
function unchunk(wire: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = wire.indexOf('\r\n', i);
    const n = Number.parseInt(wire.subarray(i, eol).toString('latin1'), 16);
    if (n === 0) return Buffer.concat(out);
    out.push(wire.subarray(eol + 2, eol + 2 + n));
    i = eol + 2 + n + 2;
  }
}

async function config(index = 0) {
  const got = await fetch(`http://127.0.0.1:${ports['node-response']}${PATH}`);
  return parseKeyConfigs(new Uint8Array(await got.arrayBuffer()))[index]!;
}

const PAIRS = [
  ['node-parts', 'node-response'],
  ['express-parts', 'express-response'],
] as const;

describe('node adapter: the OHTTP gateway answers written from their parts', () => {
  it('fetch and POST have the parts entry: parts for message/ohttp-res and problems, a Response for chunked', async () => {
    const entry = (gateway.fetch as { [SEALED_PARTS]?: PartsRoute<unknown> })[SEALED_PARTS];
    expect(typeof entry).toBe('function');
    expect(typeof (gateway.POST as { [SEALED_PARTS]?: PartsRoute<unknown> })[SEALED_PARTS]).toBe('function');
    const c = encapsulateRequest(await config(), encodeBhttpRequest(inner('/api/echo', { a: 1 })));
    const post = (body: Uint8Array, type: string) =>
      entry!(new Request(`http://x${PATH}`, { method: 'POST', headers: { 'content-type': type }, body: body as Uint8Array<ArrayBuffer> }), {});
    const sealed = (await post(c.encapsulatedRequest, 'message/ohttp-req')) as SealedParts;
    expect(sealed).not.toBeInstanceOf(Response);
    expect(JSON.parse(new TextDecoder().decode(decodeBhttpResponse(c.openResponse(sealed.body![0]!)).content))).toEqual({ echo: { a: 1 } });
    expect(await post(new Uint8Array(10), 'text/plain')).not.toBeInstanceOf(Response);
    const cc = encapsulateChunkedRequest(await config());
    const chunked = new Uint8Array([...cc.header, ...cc.sealChunk(encodeBhttpRequest(inner('/api/stream', {}), { indeterminate: true }), true)]);
    expect(await post(chunked, 'message/ohttp-chunked-req')).toBeInstanceOf(Response);
  });

  for (const [parts, response] of PAIRS) {
    it(`${parts}: message/ohttp-res (X-Wing and X25519) has the Response path's head, length and content`, async () => {
      for (const index of [0, 1]) {
        const cfg = await config(index);
        const opened: string[] = [];
        const raws: Raw[] = [];
        for (const name of [parts, response]) {
          const c = encapsulateRequest(cfg, encodeBhttpRequest(inner('/api/echo', { k: index })));
          const raw = await exchange(ports[name]!, 'POST', 'message/ohttp-req', c.encapsulatedRequest);
          raws.push(raw);
          const r = decodeBhttpResponse(c.openResponse(raw.body));
          opened.push(`${r.status} ${JSON.stringify(r.headers)} ${new TextDecoder().decode(r.content)}`);
        }
        expect(raws[0]!.head).toBe(raws[1]!.head);
        expect(raws[0]!.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        expect(raws[0]!.head).toContain('\r\ncontent-type: message/ohttp-res');
        expect(raws[0]!.wire.length).toBe(raws[1]!.wire.length);
        expect(opened[0]).toBe(opened[1]);
        expect(opened[0]).toContain('{"echo":{"k":');
      }
    });

    it(`${parts}: a chunked answer stays a stream, the same head and content`, async () => {
      const out: { head: string; text: string }[] = [];
      for (const name of [parts, response]) {
        const c = encapsulateChunkedRequest(await config());
        const body = new Uint8Array([...c.header, ...c.sealChunk(encodeBhttpRequest(inner('/api/stream', {}), { indeterminate: true }), true)]);
        const raw = await exchange(ports[name]!, 'POST', 'message/ohttp-chunked-req', body);
        const opened = await openChunkedResponse(new Response(new Uint8Array(raw.body)), c.responseOpener());
        out.push({ head: raw.head, text: new TextDecoder().decode(opened.content) });
      }
      expect(out[0]).toEqual(out[1]);
      expect(out[0]!.head).toMatch(/\r\ntransfer-encoding: chunked/i);
      expect(out[0]!.text).toBe('one two');
    });

    /** A valid X-Wing encapsulation, `edit`ed. */
    const encapsulated = async (edit: (b: Uint8Array) => Uint8Array) =>
      edit(encapsulateRequest(await config(), encodeBhttpRequest(inner('/api/echo', {}))).encapsulatedRequest.slice());
    const early = /\r\nconnection: close\r\n(.*\r\n)*content-length: \d+\r\n/;
    const cases: [string, () => Promise<[string, string, Uint8Array, number?, number?]>, RegExp[]][] = [
      [
        'an unknown key id (400 ohttp-key problem)',
        async () => ['POST', 'message/ohttp-req', new Uint8Array(200).fill(9)],
        [/^HTTP\/1\.1 400 /, /NEN_OHTTP_KEY_UNKNOWN/],
      ],
      ['a truncated encapsulation (400)', async () => ['POST', 'message/ohttp-req', await encapsulated((b) => b.subarray(0, 40))], [/^HTTP\/1\.1 400 /]],
      [
        'a tampered encapsulation (400)',
        async () => ['POST', 'message/ohttp-req', await encapsulated((b) => b.map((x, i) => (i === b.length - 1 ? x ^ 1 : x)))],
        [/^HTTP\/1\.1 400 /],
      ],
      ['a wrong media type, the body read (415)', async () => ['POST', 'text/plain', new Uint8Array(10)], [/^HTTP\/1\.1 415 /, /chunked/i]],
      ['a wrong media type, answered early (415)', async () => ['POST', 'text/plain', new Uint8Array(10), 10, 100_000], [/^HTTP\/1\.1 415 /, early]],
      [
        'a body past maxRequestBytes, answered early (413)',
        async () => ['POST', 'message/ohttp-req', new Uint8Array(8192), 8192, 100_000],
        [/^HTTP\/1\.1 413 /, early],
      ],
      [
        'a method other than GET / POST (405, allow)',
        async () => ['PUT', 'message/ohttp-req', new Uint8Array(4)],
        [/^HTTP\/1\.1 405 /, /\r\nallow: GET, POST/],
      ],
    ];
    for (const [what, make, expected] of cases) {
      it(`${parts}: ${what}: byte for byte the Response path's answer`, async () => {
        const [method, type, body, send, length] = await make();
        const a = await exchange(ports[parts]!, method, type, body, send, length);
        const b = await exchange(ports[response]!, method, type, body, send, length);
        expect(a.head).toBe(b.head);
        expect(a.wire.equals(b.wire)).toBe(true);
        for (const e of expected) expect(a.head).toMatch(e);
        expect(a.head).toContain('\r\nnen-error: NEN_');
        expect(JSON.parse(a.body.toString('utf8')).code).toMatch(/^NEN_/);
      });
    }
  }
});
