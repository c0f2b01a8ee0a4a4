/**
 * The OHTTP gateway's outer body on node:http (`toNodeHandler(gateway.fetch)`, the body read by
 * http.ts readSealedBody from the IncomingMessage's chunks): over raw sockets on 127.0.0.1, every
 * limit and framing check holds and the application runs only for a whole, authentic request.
 * A declared length over maxRequestBytes is 413 before the body is read (connection: close); a
 * chunked body past the limit is 413; a body sent in several TCP writes is joined whole (the
 * answer opens); a body longer than declared is read to the declared length only (one byte short:
 * a 400, the handler not run; the bytes after it are the next request, answered); a client that stops mid-body is logged NEN_MALFORMED
 * (ohttp.read), the handler not run, the server still answering.
 * Pitfall: no sleep stands in for an event: the rest of a body is sent once the server's 'request'
 * event has fired (so it arrives in a later socket read), and each wait is for a socket event or
 * the log entry, bounded by a timer.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { OHTTP_KEM, decodeBhttpResponse, encapsulateRequest, encodeBhttpRequest, generateOhttpKey } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { createOhttpGateway } from '../../src/ohttp/gateway.js';
import { memoryStore } from '../../src/stores/memory.js';
import { inner } from '../ohttp-inner.js';

const PATH = '/.well-known/ohttp-gateway';
const MAX = 4096;
const events: { event: string; code: string }[] = [];
let runs = 0;
const gateway = createOhttpGateway({
  keys: generateOhttpKey(1, OHTTP_KEM.XWING),
  store: memoryStore({ shared: false }),
  maxRequestBytes: MAX,
  log: (e) => void events.push({ event: e.event, code: e.code }),
  dispatch: async (req) => {
    runs++;
    return new Response(await req.arrayBuffer(), { headers: { 'content-type': 'application/json' } });
  },
});
let server: Server;
let port = 0;

beforeAll(async () => {
  const handler = toNodeHandler(gateway.fetch);
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** Resolves at the server's next 'request' event (its head parsed, the handler called). */
function arrived(): Promise<void> {
  return within(new Promise((r) => server.once('request', () => r())), "the server's request event");
}

/** `p`, or a rejection naming `what` after 5 s. */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within 5 s`)), 5000);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Everything the server sends on `socket` until it closes it, or until `enough` says so. */
function answerOf(socket: Socket, enough: (b: Buffer) => boolean = () => false): Promise<Buffer> {
  return within(
    new Promise<Buffer>((resolve, reject) => {
      let buf = Buffer.alloc(0);
      socket.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        if (enough(buf)) resolve(buf);
      });
      socket.on('end', () => resolve(buf));
      socket.on('error', reject);
    }),
    'the answer',
  ).finally(() => socket.destroy());
}

/** An answer with a content-length, read to its end. */
const whole = (b: Buffer) => {
  const end = b.indexOf('\r\n\r\n');
  const cl = /\r\ncontent-length: (\d+)/i.exec(b.subarray(0, Math.max(end, 0)).toString('latin1'));
  return end >= 0 && cl !== null && b.length - end - 4 >= Number(cl[1]);
};

function head(length: number | 'chunked'): string {
  const framing = length === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${length}`;
  return `POST ${PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: message/ohttp-req\r\n${framing}\r\n\r\n`;
}

function open(): Promise<Socket> {
  const s = connect(port, '127.0.0.1');
  return within(new Promise((r, j) => s.once('connect', () => r(s)).once('error', j)), 'connect');
}

const config = () => gateway.keys.configs()[0]!;

describe('node adapter: the OHTTP gateway reads its outer body within its limits', () => {
  it('a declared length over maxRequestBytes: 413 before the body, connection: close, the handler not run', async () => {
    const before = runs;
    const s = await open();
    s.write(head(MAX + 1));
    s.write(Buffer.alloc(100)); // the rest never comes: the answer must not wait for it
    const got = (await answerOf(s, whole)).toString('latin1');
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got).toMatch(/\r\nconnection: close\r\n/i);
    expect(got).toContain('NEN_TOO_LARGE');
    expect(runs).toBe(before);
  });

  it('a chunked (no content-length) body past maxRequestBytes: 413, the handler not run', async () => {
    const before = runs;
    const s = await open();
    const piece = Buffer.alloc(1024, 7);
    let body = '';
    for (let i = 0; i < 5; i++) body += `400\r\n${piece.toString('latin1')}\r\n`;
    s.write(head('chunked') + body + '0\r\n\r\n', 'latin1');
    const got = (await answerOf(s, (b) => b.includes('NEN_TOO_LARGE'))).toString('latin1');
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(runs).toBe(before);
  });

  it('a body sent in several writes is read whole: the answer opens to the echo', async () => {
    const c = encapsulateRequest(config(), encodeBhttpRequest(inner('/api/echo', { n: 'x'.repeat(1500) })));
    const wire = Buffer.from(c.encapsulatedRequest);
    const s = await open();
    const at = arrived();
    s.write(head(wire.length) + wire.subarray(0, 700).toString('latin1'), 'latin1');
    await at; // the rest in later socket reads: the body reaches the gateway in more than one chunk
    s.write(wire.subarray(700, 1900));
    s.write(wire.subarray(1900));
    const got = await answerOf(s, whole);
    const end = got.indexOf('\r\n\r\n');
    expect(got.subarray(0, end).toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    const answer = decodeBhttpResponse(c.openResponse(new Uint8Array(got.subarray(end + 4))));
    expect(JSON.parse(new TextDecoder().decode(answer.content))).toEqual({ n: 'x'.repeat(1500) });
  });

  it('a body longer than its declared length: the gateway takes the declared bytes only, the rest is the next request', async () => {
    const before = runs;
    const next = `GET ${PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`;
    const c = encapsulateRequest(config(), encodeBhttpRequest(inner('/api/echo', { a: 1 })));
    const wire = Buffer.from(c.encapsulatedRequest);
    // declared and sent one byte short (a truncated encapsulation: 400, not run), the GET right behind it
    let s = await open();
    s.write(Buffer.concat([Buffer.from(head(wire.length - 1), 'latin1'), wire.subarray(0, -1), Buffer.from(next, 'latin1')]));
    let got = (await answerOf(s)).toString('latin1');
    expect(got).toMatch(/^HTTP\/1\.1 400 /);
    expect(got).toContain('NEN_OHTTP_DECRYPT');
    expect(got).toMatch(/\r\n\r\n[\s\S]*HTTP\/1\.1 200 [\s\S]*content-type: application\/ohttp-keys/);
    expect(runs).toBe(before);
    // declared exactly, the GET right behind it: both answered, the first opens
    s = await open();
    s.write(Buffer.concat([Buffer.from(head(wire.length), 'latin1'), wire, Buffer.from(next, 'latin1')]));
    got = (await answerOf(s)).toString('latin1');
    expect(got).toMatch(/^HTTP\/1\.1 200 [\s\S]*content-type: message\/ohttp-res[\s\S]*HTTP\/1\.1 200 [\s\S]*application\/ohttp-keys/);
    expect(runs).toBe(before + 1);
  });

  it('a client that stops mid-body: NEN_MALFORMED logged (ohttp.read), the handler not run, the server still answers', async () => {
    const before = runs;
    const logged = events.length;
    const wire = Buffer.from(encapsulateRequest(config(), encodeBhttpRequest(inner('/api/echo', { b: 2 }))).encapsulatedRequest);
    const s = await open();
    const at = arrived();
    s.write(Buffer.concat([Buffer.from(head(wire.length), 'latin1'), wire.subarray(0, 100)]));
    await at;
    s.destroy();
    await within(
      (async () => {
        while (!events.slice(logged).some((e) => e.event === 'ohttp.read')) await new Promise((r) => setTimeout(r, 5));
      })(),
      'the read failure logged',
    );
    expect(events.slice(logged)).toContainEqual({ event: 'ohttp.read', code: 'NEN_MALFORMED' });
    expect(runs).toBe(before);
    const ok = await fetch(`http://127.0.0.1:${port}${PATH}`);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
  });
});
