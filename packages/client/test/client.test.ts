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
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as api from '../src/index.js';
import { createNenClient } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('browser safety', () => {
  it('imports nothing Node-only', () => {
    const src = join(here, '../src');
    for (const f of readdirSync(src).filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts'))) {
      const text = readFileSync(join(src, f), 'utf8');
      const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const i of imports) expect(i, `${f} imports ${i}`).toMatch(/^(\.\/|@nen\/core$)/);
      // The exceptions: the default pin, read as the literal expression Next.js inlines (guarded by
      // try/catch), and response.ts asking whether it runs on Node (to load opened.ts; optional chaining).
      const code = text
        .replace(/`process\.env\.NEXT_PUBLIC_NEN_SERVER_KEY`/g, '')
        .replace(/^\s*const v = process\.env\.NEXT_PUBLIC_NEN_SERVER_KEY;$/m, '')
        .replace(/^if \(globalThis\.process\?\.versions\?\.node\) \{$/m, '');
      expect(code).not.toMatch(/\bprocess\??\.|\bBuffer\b|require\(/);
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
    expect(() => createNenClient({ sessionLifetimeSeconds: -1, unpinned: true })).toThrow(expect.objectContaining({ code: 'NEN_BAD_INPUT' }));
    const c = createNenClient({ backend: 'noble', unpinned: true });
    await expect(c.fetch('/relative')).rejects.toMatchObject({ code: 'NEN_BAD_INPUT' });
    const d = createNenClient({ backend: 'noble', baseUrl: 'http://127.0.0.1:9', unpinned: true });
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
    await expect(createNenClient({ baseUrl: url, backend: 'noble', unpinned: true }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
    mode = 'wrong-type';
    await expect(createNenClient({ baseUrl: url, backend: 'noble', unpinned: true }).handshake()).rejects.toMatchObject({ code: 'NEN_HANDSHAKE_FAILED' });
  });

  it('error hints become typed errors; statuses that do not match the catalog are not trusted', async () => {
    mode = 'rate';
    await expect(createNenClient({ baseUrl: url, backend: 'noble', unpinned: true }).fetch('/api/x')).rejects.toMatchObject({
      code: 'NEN_RATE_LIMITED',
      status: 429,
    });
    mode = 'mismatched-code';
    await expect(createNenClient({ baseUrl: url, backend: 'noble', unpinned: true }).handshake()).rejects.toMatchObject({
      code: 'NEN_RESPONSE_UNAUTHENTICATED',
    });
    mode = 'proxy-error';
    await expect(createNenClient({ baseUrl: url, backend: 'noble', unpinned: true }).handshake()).rejects.toMatchObject({
      code: 'NEN_RESPONSE_UNAUTHENTICATED',
    });
  });
});

describe('secure defaults (issue 9 item 4)', () => {
  it('exports at most 6 runtime names', () => {
    expect(Object.keys(api).sort()).toEqual(['NenProtocolError', 'createNenClient', 'defaultNenClient', 'handshake', 'nenFetch', 'nenStream']);
  });

  it('in Node, a relative URL without baseUrl is NEN_BAD_INPUT naming createNenClient({ baseUrl })', async () => {
    const c = createNenClient({ backend: 'noble', unpinned: true });
    await expect(c.fetch('/api/notes')).rejects.toMatchObject({ code: 'NEN_BAD_INPUT', message: expect.stringContaining('createNenClient({ baseUrl') });
    await expect(c.handshake()).rejects.toMatchObject({ code: 'NEN_BAD_INPUT', message: expect.stringContaining('createNenClient({ baseUrl') });
  });

  it('running unpinned logs exactly one warning, however many clients and requests', async () => {
    vi.resetModules();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const fresh = await import('../src/index.js');
      fresh.createNenClient({ unpinned: true, backend: 'noble' });
      fresh.createNenClient({ unpinned: true, backend: 'noble' });
      // Without a pin, `unpinned: true` is required (issue 9's secure default, client side).
      expect(() => fresh.createNenClient({ backend: 'noble' })).toThrow(expect.objectContaining({ code: 'NEN_BAD_SERVER_KEY' }));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/without a pinned server key/);
      const pinned = `k1:${'A'.repeat(1622)}`;
      vi.resetModules();
      warn.mockClear();
      (await import('../src/index.js')).createNenClient({ serverKey: pinned, backend: 'noble' });
      expect(warn).not.toHaveBeenCalled();
      expect(() => fresh.createNenClient({ serverKey: pinned, unpinned: true })).toThrow(expect.objectContaining({ code: 'NEN_BAD_INPUT' }));
    } finally {
      warn.mockRestore();
    }
  });

  it('the default client pins NEXT_PUBLIC_NEN_SERVER_KEY with no code, and refuses to run unpinned unless told', async () => {
    const saved = process.env.NEXT_PUBLIC_NEN_SERVER_KEY;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      delete process.env.NEXT_PUBLIC_NEN_SERVER_KEY;
      vi.resetModules();
      let m = await import('../src/index.js');
      await expect(m.nenFetch('http://127.0.0.1:9/x')).rejects.toMatchObject({
        code: 'NEN_BAD_SERVER_KEY',
        message: expect.stringContaining('NEXT_PUBLIC_NEN_SERVER_KEY'),
      });
      await expect(m.handshake()).rejects.toMatchObject({ code: 'NEN_BAD_SERVER_KEY' });
      expect(warn).not.toHaveBeenCalled();
      // Explicitly unpinned: runs (and warns once).
      expect(m.defaultNenClient({ unpinned: true, backend: 'noble', baseUrl: 'http://127.0.0.1:9' }).session).toBeNull();
      expect(warn).toHaveBeenCalledTimes(1);
      // A malformed pin in the variable is a typed error, not a silent unpinned client.
      process.env.NEXT_PUBLIC_NEN_SERVER_KEY = 'k1:AAAA';
      vi.resetModules();
      m = await import('../src/index.js');
      await expect(m.nenFetch('http://127.0.0.1:9/x')).rejects.toMatchObject({ code: 'NEN_BAD_SERVER_KEY' });
    } finally {
      if (saved === undefined) delete process.env.NEXT_PUBLIC_NEN_SERVER_KEY;
      else process.env.NEXT_PUBLIC_NEN_SERVER_KEY = saved;
      warn.mockRestore();
    }
  });
});
