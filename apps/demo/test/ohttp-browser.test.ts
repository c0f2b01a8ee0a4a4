/**
 * OHTTP mode in real Chromium (Debian's /usr/bin/chromium through playwright-core) against the
 * demo under `next build && next start`: the /oblivious page bundles @nen/client in OHTTP mode,
 * fetches the key config from /.well-known/ohttp-gateway, checks it against the `sha256:` pin the
 * server rendered (keys from the real `nen keygen --ohttp`), and sends a 1 KB POST and a streamed
 * (chunked OHTTP) request to the `withNen` echo, directly and through @nen/server's
 * createOhttpRelay.
 *
 * What must hold (each check fails when the property is broken):
 *  - both answers are the 1 KB body back; no handshake request; no plaintext on the wire;
 *  - through the relay, the browser's cookie, user agent, origin and referer reach the relay but
 *    only the media type (and `incremental`) is passed on to the gateway;
 *  - a substituted key config (one public-key byte changed by an interposer) fails the pin:
 *    NEN_OHTTP_KEY_MISMATCH, and nothing is posted to the gateway;
 *  - a chunked answer cut before its final chunk (by a test proxy) is NEN_OHTTP_TRUNCATED.
 *
 * Pitfalls:
 *  - The relay runs in this process behind page.route on the page's own origin (`/relay`): the
 *    browser cannot post cross-origin to a relay that sends no CORS headers. It builds the
 *    gateway request from the browser's real request (its cookies and user agent included), so
 *    the relay's header allowlist is exercised.
 *  - page.route buffers answers: truncation is proven on the whole answer, not timing.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import { createOhttpRelay } from '@nen/server/relay';
import { chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';
import { type LiveServer, repoRoot, startNext } from './live';

const GATEWAY = '/.well-known/ohttp-gateway';
let server: LiveServer;
let browser: Browser | undefined;

/** The page's 1 KB JSON body (ObliviousPanel's kilobyteNote). */
const head = '{"note":"';
const NOTE = head + 'oblivious '.repeat(102).slice(0, 1024 - head.length - 2) + '"}';

beforeAll(async () => {
  const out = execFileSync(process.execPath, [join(repoRoot, 'packages/server/bin/nen.js'), 'keygen', '--ohttp', '--key-id', '5'], { encoding: 'utf8' });
  const keys = /^NEN_OHTTP_KEYS=(.+)$/m.exec(out)?.[1];
  if (!keys) throw new Error(`nen keygen --ohttp printed no key:\n${out}`);
  server = await startNext({ env: { NEN_OHTTP_KEYS: keys } });
  browser = await chromium.launch(chromiumLaunchOptions());
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
});

interface Seen {
  method: string;
  path: string;
  body: Buffer | null;
}

/** Opens /oblivious (query `q`) on a fresh page, recording every request the page sends; closes it after `fn`. */
async function onPage(q: string, fn: (page: Page, seen: Seen[]) => Promise<void>): Promise<void> {
  const page = await browser!.newPage();
  page.setDefaultTimeout(15_000);
  const seen: Seen[] = [];
  page.on('request', (r) => seen.push({ method: r.method(), path: new URL(r.url()).pathname, body: r.postDataBuffer() }));
  try {
    await page.goto(`${server.url}/oblivious${q}`);
    await fn(page, seen);
  } finally {
    await page.close();
  }
}

/** Clicks a button and returns the panel's result once it is shown. */
async function press(page: Page, testId: 'ohttp-post' | 'ohttp-stream') {
  await page.getByTestId(testId).click();
  const out = page.getByTestId('ohttp-result');
  await out.waitFor();
  return {
    state: await out.getAttribute('data-state'),
    code: await out.getAttribute('data-code'),
    chunks: Number(await out.getAttribute('data-chunks')),
    text: await out.locator('pre').textContent(),
  };
}

/** A chunked OHTTP answer cut just before its final chunk: response_nonce (32 bytes), then varint(len) || ciphertext until len 0. */
function cutFinalChunk(body: Buffer): Buffer {
  let pos = 32;
  while (pos < body.length) {
    const n = 1 << ((body[pos] as number) >> 6);
    let len = (body[pos] as number) & 0x3f;
    for (let i = 1; i < n; i++) len = len * 256 + (body[pos + i] as number);
    if (len === 0) return body.subarray(0, pos);
    pos += n + len;
  }
  throw new Error('no final chunk in the answer');
}

/**
 * Serves `/relay` on the page's origin with createOhttpRelay (forwarding to the demo's gateway);
 * `cut` truncates chunked answers. `received` / `sent`: header names the relay got from the
 * browser and passed to the gateway.
 */
async function routeRelay(page: Page, cut = false): Promise<{ forwarded: number; received: string[][]; sent: string[][] }> {
  const stats = { forwarded: 0, received: [] as string[][], sent: [] as string[][] };
  const relay = createOhttpRelay({
    gateway: `${server.url}${GATEWAY}`,
    timeoutMs: 10_000,
    fetch: (input, init) => {
      stats.sent.push([...new Headers(init?.headers).keys()]);
      return fetch(input, init);
    },
  });
  await page.route('**/relay', async (route: Route) => {
    const r = route.request();
    const headers = Object.fromEntries(Object.entries(await r.allHeaders()).filter(([k]) => !k.startsWith(':')));
    stats.received.push(Object.keys(headers));
    const sent = r.postDataBuffer();
    const res = await relay(new Request(r.url(), { method: r.method(), headers, body: sent ? new Uint8Array(sent) : null }));
    stats.forwarded++;
    let body: Buffer = Buffer.from(await res.arrayBuffer());
    if (cut && res.headers.get('content-type') === 'message/ohttp-chunked-res') body = cutFinalChunk(body);
    await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body });
  });
  return stats;
}

describe('demo /oblivious in chromium: @nen/client OHTTP mode', () => {
  it('1 KB POST and a streamed answer through the gateway: echoed, no handshake, no plaintext on the wire', async () => {
    await onPage('', async (page, seen) => {
      expect(await page.getByTestId('ohttp-pin').textContent()).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/);
      const post = await press(page, 'ohttp-post');
      expect(post).toMatchObject({ state: 'ok', code: '200', text: NOTE });
      const streamed = await press(page, 'ohttp-stream');
      expect(streamed).toMatchObject({ state: 'ok', text: NOTE });
      expect(streamed.chunks).toBeGreaterThanOrEqual(1);
      const posts = seen.filter((s) => s.method === 'POST');
      expect(posts.map((s) => s.path)).toEqual([GATEWAY, GATEWAY]);
      expect(seen.filter((s) => s.path.startsWith('/api/'))).toEqual([]);
      for (const s of posts) expect(s.body?.includes('oblivious oblivious')).toBe(false);
    });
  });

  it("through createOhttpRelay: the same answers, every POST went to the relay, none of the browser's identifying headers reached the gateway", async () => {
    await onPage('?relay=/relay', async (page, seen) => {
      await page.context().addCookies([{ name: 'who', value: 'alice', url: server.url }]);
      const stats = await routeRelay(page);
      expect(await press(page, 'ohttp-post')).toMatchObject({ state: 'ok', code: '200', text: NOTE });
      expect(await press(page, 'ohttp-stream')).toMatchObject({ state: 'ok', text: NOTE });
      expect(stats.forwarded).toBe(2);
      // the browser sent its cookie, user agent, origin and referer to the relay; none reaches the gateway
      for (const h of ['cookie', 'user-agent', 'origin', 'referer'])
        expect(
          stats.received.every((names) => names.includes(h)),
          h,
        ).toBe(true);
      for (const names of stats.sent) expect(names.filter((h) => !['content-type', 'incremental'].includes(h))).toEqual([]);
      expect(seen.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual(['/relay', '/relay']);
    });
  });

  it('a substituted key config fails the pin (NEN_OHTTP_KEY_MISMATCH) and nothing is posted', async () => {
    await onPage('', async (page, seen) => {
      await page.route(`**${GATEWAY}`, async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const real = await route.fetch();
        const list = Buffer.from(await real.body());
        list.writeUInt8((list.readUInt8(105) ^ 0x01) & 0xff, 105); // 2 + 3 + 100: a byte of the X-Wing public key of the first config
        await route.fulfill({ response: real, body: list });
      });
      expect(await press(page, 'ohttp-post')).toMatchObject({ state: 'error', code: 'NEN_OHTTP_KEY_MISMATCH' });
      expect(seen.filter((s) => s.method === 'POST')).toEqual([]);
    });
  });

  it('a chunked answer cut before its final chunk is NEN_OHTTP_TRUNCATED', async () => {
    await onPage('?relay=/relay', async (page) => {
      await routeRelay(page, true);
      expect(await press(page, 'ohttp-stream')).toMatchObject({ state: 'error', code: 'NEN_OHTTP_TRUNCATED' });
    });
  });
});
