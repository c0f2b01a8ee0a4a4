/**
 * @nen/seal in a real browser: test/browser/entry.ts is bundled with Vite (the `browser` export
 * condition of @nen/core: 'auto' = the pure-JS @noble backend, no .wasm download), served from
 * 127.0.0.1 and run in Debian's Chromium (/usr/bin/chromium via playwright-core, never
 * downloaded). It opens a file sealed in Node, seals one that Node opens, and round-trips a
 * stream; the backend must be the browser default, @noble.
 */
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64, open, seal } from '../src/index.js';
import { pqKeyPair } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
let out = '';
let server: Server | undefined;
let browser: Browser | undefined;
let origin = '';

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/setup.sh installs Debian's chromium`);
  out = mkdtempSync(join(tmpdir(), 'nen-seal-browser-'));
  await build({ root: join(import.meta.dirname, 'browser'), logLevel: 'error', build: { outDir: out, emptyOutDir: true, target: 'es2022' } });
  server = createServer((req, res) => {
    const path = normalize(join(out, new URL(req.url ?? '/', 'http://x').pathname));
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    if (!file.startsWith(out) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  origin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('@nen/seal in Chromium', () => {
  it("opens Node-sealed files, seals files Node opens, streams; on the browser's default backend (@noble)", async () => {
    const k = await pqKeyPair();
    const sealedInNode = encodeBase64(await seal('sealed in Node', k.recipient));
    const page = await (browser as Browser).newPage();
    const input = encodeURIComponent(JSON.stringify({ recipient: k.recipient, identity: k.identity, sealedInNode }));
    await page.goto(`${origin}/#${input}`);
    await page.waitForFunction(() => (window as unknown as { __nenSeal?: unknown }).__nenSeal !== undefined, undefined, { timeout: 60_000 });
    const r = (await page.evaluate(() => (window as unknown as { __nenSeal: Record<string, unknown> }).__nenSeal)) as Record<string, string | number>;
    await page.close();
    expect(r.error).toBeUndefined();
    expect(r.backend).toBe('noble');
    expect(r.fromNode).toBe('sealed in Node');
    expect(new TextDecoder().decode(await open(decodeBase64(r.sealedHere as string) as Uint8Array, k.identity))).toBe('sealed in Chromium');
    expect(r.streamBytes).toBe(2 * 65536 + 1000);
  });
});
