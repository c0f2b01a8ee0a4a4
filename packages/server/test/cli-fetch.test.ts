/**
 * `nen fetch` (src/cli-fetch.ts, run as the real bin over real HTTP on 127.0.0.1): prints the
 * decrypted status, headers and body; `-d text` / `-d @file`; `-o` writes the body only once it is
 * complete; `-v` shows the handshake (kid, KEM, pin check), the session and the wire versus
 * plaintext size of each record, streams included; the exit codes follow the error classes
 * (0 authenticated, 2 usage, 3 not sent, 4 outcome unknown, 5 refused), as `--help` documents.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatServerKeyPin, loadBackend, toBase64Url } from '@nen/core';
import { createNen, memoryStore } from '../src/index.js';
import { runNenFetch } from './cli-run.js';
import { serve, type TestServer } from './http-harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'nen-fetch-'));
const seed = (b: number) => new Uint8Array(32).fill(b);
let server: TestServer;
let pin = '';
let wrongPin = '';
let runs = 0;
const nen = createNen({ serverKeys: `k1:${toBase64Url(seed(0x11))}`, store: memoryStore({ shared: false }), logger: () => {} });

const run = (args: string[], env: Record<string, string> = {}) => runNenFetch(tmp, args, env);

beforeAll(async () => {
  const backend = await loadBackend('wasm');
  const pub = (b: number) => {
    const k = backend.createRecipientKey(0x647a, seed(b));
    const p = k.publicKey;
    k.dispose();
    return p;
  };
  pin = formatServerKeyPin('k1', pub(0x11));
  wrongPin = formatServerKeyPin('k1', pub(0x22));
  let forged = 0;
  const echo = nen.withNen(async (req) => {
    runs++;
    return new Response(req.method === 'GET' ? `query ${new URL(req.url).search}` : await req.text(), { headers: { 'content-type': 'text/plain' } });
  });
  server = await serve({
    '/api/nen/*': { GET: (r, c) => nen.routes.GET(r, c), POST: (r, c) => nen.routes.POST(r, c) },
    '/api/echo': { GET: echo, POST: echo },
    '/api/stream': {
      POST: nen.withNenStream(async function* () {
        yield 'data: 1\n\n';
        yield 'data: 2\n\n';
      }),
    },
    '/api/plain': { GET: async () => Response.json({ plain: true }) },
    '/api/forged-once': {
      POST: async (r, c) => {
        const res = await echo(r, c);
        if (forged++ > 0) return res;
        await res.arrayBuffer();
        return Response.json(
          { error: { code: 'NEN_SESSION_UNKNOWN', message: 'nen: unknown session' } },
          { status: 401, headers: { 'nen-error': 'NEN_SESSION_UNKNOWN' } },
        );
      },
    },
  });
});

afterAll(async () => {
  await server?.close();
  await nen.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('nen fetch', () => {
  it('prints the decrypted status, headers and body (GET with a query; POST -d text)', async () => {
    const g = await run([`${server.url}/api/echo?a=1`, '--pin', pin]);
    expect(g.status).toBe(0);
    expect(g.stdout).toMatch(/^HTTP 200/);
    expect(g.stdout).toContain('content-type: text/plain');
    expect(g.stdout.endsWith('\n\nquery ?a=1')).toBe(true);
    const p = await run([`${server.url}/api/echo`, '--pin', pin, '-d', 'hello', '-H', 'content-type: text/plain']);
    expect(p.status).toBe(0);
    expect(p.stdout.endsWith('\n\nhello')).toBe(true);
  });

  it('reads -d @file and writes -o only when complete', async () => {
    writeFileSync(join(tmp, 'in.bin'), 'from a file');
    const r = await run([`${server.url}/api/echo`, '--pin', pin, '-d', '@in.bin', '-o', 'out.bin']);
    expect(r.status).toBe(0);
    expect(readFileSync(join(tmp, 'out.bin'), 'utf8')).toBe('from a file');
    expect((await run([`${server.url}/api/echo`, '--pin', pin, '-d', '@missing.bin'])).status).toBe(2);
  });

  it('-v shows kid, KEM, the pin check, the session and wire vs plaintext sizes, stream records too', async () => {
    const r = await run([`${server.url}/api/echo`, '--pin', pin, '-d', 'twelve bytes', '-v']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/handshake: KEM X-Wing \(0x647a\), kid k1: pin check passed/);
    expect(r.stderr).toMatch(/\* session [A-Za-z0-9_-]{22}, epoch 0, expires /);
    expect(r.stderr).toContain('> sealed record in the body: wire 28 B, plaintext 12 B');
    expect(r.stderr).toMatch(/< sealed record in the body: wire 28 B, plaintext 12 B/);
    const s = await run([`${server.url}/api/stream`, '--pin', pin, '-X', 'POST', '-v']);
    expect(s.status).toBe(0);
    expect(s.stdout.endsWith('\n\ndata: 1\n\ndata: 2\n\n')).toBe(true);
    expect(s.stderr).toContain('< stream record 0: wire 29 B (4 B length + 25 B sealed), plaintext 9 B');
    expect(s.stderr).toMatch(/< stream record 2: wire 20 B .*plaintext 0 B/);
    const u = await run([`${server.url}/api/echo`, '-v']);
    expect(u.status).toBe(0);
    expect(u.stderr).toContain('UNPINNED');
  });

  it('exit codes follow the error classes', async () => {
    const help = await run(['--help']);
    expect(help.status).toBe(0);
    for (const n of ['0', '1', '2', '3', '4', '5']) expect(help.stdout).toMatch(new RegExp(`^  ${n}  `, 'm'));
    expect((await run([])).status).toBe(2);
    expect((await run([`${server.url}/api/echo`, '--bogus'])).status).toBe(2);
    const wrong = await run([`${server.url}/api/echo`, '--pin', wrongPin]);
    expect([wrong.status, wrong.stderr]).toEqual([3, expect.stringContaining('[NEN_HANDSHAKE_FAILED]')]);
    const unknownKid = await run([`${server.url}/api/echo`, '--pin', pin.replace(/^k1:/, 'k9:')]);
    expect([unknownKid.status, unknownKid.stderr]).toEqual([3, expect.stringContaining('[NEN_UNKNOWN_KEY_ID]')]);
    const plain = await run([`${server.url}/api/plain`, '--pin', pin, '-o', 'never.json']);
    expect([plain.status, plain.stderr]).toEqual([4, expect.stringContaining('[NEN_RESPONSE_UNAUTHENTICATED]')]);
    expect(existsSync(join(tmp, 'never.json'))).toBe(false);
    const before = runs;
    const forged = await run([`${server.url}/api/forged-once`, '--pin', pin, '-d', 'x']);
    expect([forged.status, forged.stderr]).toEqual([5, expect.stringContaining('[NEN_RETRY_COMMITTED]')]);
    expect(runs - before).toBe(1);
    expect(readdirSync(tmp).filter((f) => f.includes('.nen-'))).toEqual([]);
  });
});
