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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OHTTP_KEM, encodeKeyConfigs, parseKeyConfigs } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driver, hex, unhex } from './driver.js';
import { type EchoGateway, startEchoGateway } from './echo-gateway.js';

const SRC = join(import.meta.dirname, '../../../../conformance/ohttp-go');
const dir = mkdtempSync(join(tmpdir(), 'nen-ohttp-go-'));
const BIN = join(dir, 'ohttp-go');
let gateway: EchoGateway | undefined;
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
  gateway = await startEchoGateway();
  url = gateway.url;
}, 300_000);

afterAll(async () => {
  await gateway?.close();
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
