/**
 * OHTTP interop with Go's own crypto/hpke (Go 1.26: X-Wing 0x647a and DHKEM(X25519) 0x0020), an
 * implementation we did not write: conformance/ohttp-go (built here with `go build`) encapsulates
 * requests to our gateway over real HTTP (node:http on 127.0.0.1) and opens our answers
 * (RFC 9458 §4.3-4.4, its own Export + HKDF for the response key). The Go driver uses only the
 * standard library, whose public API has no ChaCha20-Poly1305: it is handed our config offering
 * AES-128-GCM (which the gateway accepts) for the response AEAD.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OHTTP_KEM, encodeKeyConfigs, generateOhttpKey, parseKeyConfigs } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { createNen, memoryStore } from '../../src/index.js';
import { driver, hex, unhex } from './driver.js';

const SRC = join(import.meta.dirname, '../../../../conformance/ohttp-go');
const dir = mkdtempSync(join(tmpdir(), 'nen-ohttp-go-'));
const BIN = join(dir, 'ohttp-go');
const nen = createNen({ store: memoryStore(), logger: () => {} });
const keys = `${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`;
const echo = nen.withNen(async (req, _ctx, body) => ({ path: new URL(req.url).pathname, body }));
const gateway = nen.ohttpGateway({ keys, routes: { '/api/echo': { POST: echo } } });
let server: Server;
let url = '';

beforeAll(async () => {
  const go = ['/usr/local/go/bin/go', 'go'].find((g) => {
    try {
      execFileSync(g, ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!go) throw new Error('Go is not installed (the suite machine has Go 1.26 in /usr/local/go/bin)');
  execFileSync(go, ['build', '-o', BIN, '.'], { cwd: SRC, stdio: 'inherit', env: { ...process.env, GOFLAGS: '-mod=mod' } });
  server = createServer(toNodeHandler(gateway.fetch));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/ohttp-gateway`;
}, 300_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await nen.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Go crypto/hpke client -> our gateway', () => {
  for (const [index, name, kem] of [
    [0, 'X-Wing', OHTTP_KEM.XWING],
    [1, 'X25519', OHTTP_KEM.X25519],
  ] as const) {
    it(`${name}: Go encapsulates, the withNen handler runs, Go opens the answer`, async () => {
      const all = parseKeyConfigs(new Uint8Array(await (await fetch(url)).arrayBuffer()));
      const config = all[index]!;
      expect(config.kemId).toBe(kem);
      const d = driver(BIN, ['client', '--path', '/api/echo', '--date', new Date().toUTCString(), '--body', `{"go":${index}}`]);
      d.send(hex(encodeKeyConfigs([{ ...config, suites: [{ kdfId: 1, aeadId: 1 }] }])));
      const enc = await d.line();
      expect(enc).not.toMatch(/^error/);
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'message/ohttp-req' }, body: unhex(enc) });
      expect(res.status).toBe(200);
      d.send(hex(new Uint8Array(await res.arrayBuffer())));
      expect(await d.line()).toBe('status 200');
      const got = JSON.parse(Buffer.from((await d.line()).replace(/^body /, ''), 'hex').toString('utf8'));
      expect(got).toEqual({ path: '/api/echo', body: { go: index } });
    });
  }
});
