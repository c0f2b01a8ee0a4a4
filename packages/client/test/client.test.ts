/**
 * @nen/client on its own: browser-safe imports, argument validation, and its behaviour against
 * servers that do not speak Nen correctly (a real node:http server on 127.0.0.1 returning bad
 * handshakes, plaintext, error hints). The full protocol against the real @nen/server is tested
 * in packages/server/test/e2e.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('browser safety', () => {
  it('imports nothing Node-only', () => {
    const src = join(here, '../src');
    for (const f of readdirSync(src).filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts'))) {
      const text = readFileSync(join(src, f), 'utf8');
      const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const i of imports) expect(i, `${f} imports ${i}`).toMatch(/^(\.\/|@nen\/core$)/);
      expect(text).not.toMatch(/\bprocess\.|\bBuffer\b|require\(/);
    }
  });
});

describe('argument validation', () => {
  it('rejects bad pins, bodies on GET and unresolvable URLs with typed errors', async () => {
    expect(() => createNenClient({ serverKey: 'nope' })).toThrow(expect.objectContaining({ code: 'NEN_BAD_SERVER_KEY' }));
    expect(() => createNenClient({ serverKey: 'k1:AAAA' })).toThrow(expect.objectContaining({ code: 'NEN_BAD_SERVER_KEY' }));
    expect(() => createNenClient({ serverKey: [] })).toThrow(expect.objectContaining({ code: 'NEN_BAD_SERVER_KEY' }));
    expect(() => createNenClient({ serverKey: ['k1:AAAA'] })).toThrow(expect.objectContaining({ code: 'NEN_BAD_SERVER_KEY' }));
    const xwingPk = `k1:${'A'.repeat(1622)}`; // 1216 bytes of base64url
    expect(() => createNenClient({ serverKey: [xwingPk, xwingPk] })).toThrow(expect.objectContaining({ code: 'NEN_BAD_SERVER_KEY' }));
    expect(() => createNenClient({ serverKey: [xwingPk, xwingPk.replace('k1:', 'k2:')] })).not.toThrow();
    expect(() => createNenClient({ sessionLifetimeSeconds: -1 })).toThrow(expect.objectContaining({ code: 'NEN_BAD_INPUT' }));
    const c = createNenClient({ backend: 'noble' });
    await expect(c.fetch('/relative')).rejects.toMatchObject({ code: 'NEN_BAD_INPUT' });
    const d = createNenClient({ backend: 'noble', baseUrl: 'http://127.0.0.1:9' });
    await expect(d.fetch('/x', { method: 'GET', body: 'x' })).rejects.toMatchObject({ code: 'NEN_BAD_INPUT' });
    expect(d.session).toBeNull();
  });
});

describe('against a misbehaving server', () => {
  let mode = 'garbage';
  let url = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (mode === 'garbage') res.writeHead(200, { 'content-type': 'application/nen-handshake' }).end(Buffer.alloc(1188, 7));
      else if (mode === 'wrong-type') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      else if (mode === 'rate') res.writeHead(429, { 'nen-error': 'NEN_RATE_LIMITED', 'content-type': 'application/json' }).end('{}');
      else if (mode === 'mismatched-code') res.writeHead(500, { 'nen-error': 'NEN_RATE_LIMITED' }).end('{}');
      else if (mode === 'proxy-error') res.writeHead(502, { 'content-type': 'text/html' }).end('Bad gateway');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a ServerHello that fails key confirmation is rejected', async () => {
    mode = 'garbage';
    await expect(createNenClient({ baseUrl: url, backend: 'noble' }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
    mode = 'wrong-type';
    await expect(createNenClient({ baseUrl: url, backend: 'noble' }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
  });

  it('error hints become typed errors; statuses that do not match the catalog are not trusted', async () => {
    mode = 'rate';
    await expect(createNenClient({ baseUrl: url, backend: 'noble' }).fetch('/api/x')).rejects.toMatchObject({ code: 'NEN_RATE_LIMITED', status: 429 });
    mode = 'mismatched-code';
    await expect(createNenClient({ baseUrl: url, backend: 'noble' }).handshake()).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
    mode = 'proxy-error';
    await expect(createNenClient({ baseUrl: url, backend: 'noble' }).handshake()).rejects.toMatchObject({ code: 'NEN_RESPONSE_UNAUTHENTICATED' });
  });
});
