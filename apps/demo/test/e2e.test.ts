/**
 * End to end: `next build` into `.next-e2e` (skipped when it is newer than every source), `next start` on a free
 * 127.0.0.1 port with a pinned server key, Debian's chromium through playwright-core, and the real
 * @nen/client in Node for the bench routes.
 *
 * What must hold (each check fails when the property is broken):
 *  - notes can be created, edited, searched, read and deleted through the UI, all over Nen;
 *  - no byte leaving the browser (URL or body) and no response body contains a note's plaintext;
 *  - the stream shows tokens progressively;
 *  - the wire panel shows ciphertext on one side and the decrypted JSON on the other;
 *  - a response with one flipped ciphertext byte (injected by page.route) makes the UI show an
 *    error instead of data;
 *  - the bench routes answer as documented.
 * Two instances sharing one Redis: e2e-redis.test.ts; the processes: e2e-processes.ts.
 * Screenshots of the main pages go to test-results/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page, type Request as PwRequest } from 'playwright-core';
import { createNenClient } from '@nen/client';
import { chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';
import { DIST_DIR, type Instance, WEBPACK, startNext, stopAll } from './e2e-processes';
import { appDir, ensureBuilt, keygen } from './live';

const artifacts = join(appDir, 'test-results');
let browser: Browser | undefined;
let baseUrl = '';
let pin = '';

let keys: { env: string; pin: string };
let main: Instance;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  ensureBuilt({ distDir: DIST_DIR, webpack: WEBPACK });
  keys = keygen();
  pin = keys.pin;
  main = await startNext(keys, {});
  baseUrl = main.url;
  browser = await chromium.launch(chromiumLaunchOptions());
}, 300_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await stopAll();
});

/** Records every byte the page sends (URLs and bodies) and every API response body it receives. */
function recordTraffic(page: Page) {
  const sent: Array<{ url: string; body: Buffer | null }> = [];
  const received: Array<Promise<{ url: string; body: Buffer }>> = [];
  page.on('request', (r: PwRequest) => sent.push({ url: r.url(), body: r.postDataBuffer() }));
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) {
      received.push(
        r
          .body()
          .then((body) => ({ url: r.url(), body }))
          .catch(() => ({ url: r.url(), body: Buffer.alloc(0) })),
      );
    }
  });
  return {
    sent,
    async leaks(secrets: string[]): Promise<string[]> {
      const found: string[] = [];
      const bodies = await Promise.all(received);
      for (const s of secrets) {
        const needle = Buffer.from(s);
        const needleUrl = encodeURIComponent(s);
        for (const r of sent) {
          if (r.url.includes(s) || r.url.includes(needleUrl)) found.push(`${s} in URL ${r.url}`);
          if (r.body?.includes(needle)) found.push(`${s} in request body to ${r.url}`);
        }
        for (const r of bodies) if (r.body.includes(needle)) found.push(`${s} in response body from ${r.url}`);
      }
      return found;
    },
  };
}

async function openApp(path = '/'): Promise<{ page: Page; traffic: ReturnType<typeof recordTraffic> }> {
  const page = await browser!.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(20_000);
  const traffic = recordTraffic(page); // before navigation: the handshake may start during hydration
  await page.goto(`${baseUrl}${path}`);
  return { page, traffic };
}

/** Runs `fn` on a fresh page of the app at `path` (traffic recorded from before navigation); the page is closed afterwards. */
async function onPage(path: string, fn: (p: { page: Page; traffic: ReturnType<typeof recordTraffic> }) => Promise<void>): Promise<void> {
  const opened = await openApp(path);
  try {
    await fn(opened);
  } finally {
    await opened.page.close();
  }
}

describe('demo app in chromium', () => {
  notesFlow();

  streamsTamperAndInspector();
});

describe('bench routes over the real @nen/client in Node', () => {
  it('encrypted echo, GET echo, stream, plain twin and metrics', async () => {
    const client = createNenClient({ baseUrl, serverKey: pin });
    try {
      const payload = { hello: 'world', n: [1, 2, 3], s: 'x'.repeat(5000) };
      const res = await client.fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(payload);

      const get = await client.fetch('/api/echo?x=1&y=two', { method: 'GET' });
      expect(await get.json()).toEqual({ method: 'GET', path: '/api/echo', query: { x: '1', y: 'two' } });

      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of client.stream('/api/stream?n=5', { method: 'POST' })) text += decoder.decode(chunk, { stream: true });
      expect(text.match(/^data: /gm)?.length).toBe(6);
      expect(text).toContain('token-4');
      expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);

      const plain = await fetch(`${baseUrl}/api/plain/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(await plain.json()).toEqual(payload);

      // The encrypted route refuses a plaintext request: it never runs the handler on it.
      const bypass = await fetch(`${baseUrl}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
      expect(bypass.status).toBeGreaterThanOrEqual(400);
      expect(await bypass.text()).not.toContain('world');

      const metrics = (await (await fetch(`${baseUrl}/api/bench/metrics`)).json()) as Record<string, unknown>;
      expect(metrics.storeKind).toBe('memory');
      expect(typeof metrics.rss).toBe('number');
      expect(Number(metrics.sessions)).toBeGreaterThan(0);
      expect((metrics.counters as Record<string, number>)['echo.nen']).toBeGreaterThan(0);
    } finally {
      await client.terminate().catch(() => undefined);
    }
  });
});

/** The notes app end to end: nothing in plaintext on the wire. */
function notesFlow(): void {
  it('creates, edits, searches, reads and deletes notes over Nen without leaking plaintext', async () => {
    await onPage('/', async ({ page, traffic }) => {
      await page.locator('[data-testid="note-list"][data-loaded="true"]').waitFor();
      expect(await page.getByTestId('pin-state').textContent()).toContain('pinned (');

      const tag = `zq${Date.now().toString(36)}`;
      const title = `Launch plan ${tag}`;
      const body = `The vault code is ${tag}-4471 and nobody else may read it`;
      const edited = `Moved the vault code to ${tag}-9902`;
      const flash = () =>
        page
          .getByTestId('flash')
          .textContent()
          .catch(() => '');

      await page.getByTestId('new-note').click();
      await page.getByTestId('note-title-input').fill(title);
      await page.getByTestId('note-body-input').fill(body);
      await page.getByTestId('save-note').click();
      await expect.poll(flash).toBe('Created');
      await page.getByTestId('note-item').filter({ hasText: title }).waitFor();

      await page.getByTestId('note-body-input').fill(edited);
      await page.getByTestId('save-note').click();
      await expect.poll(flash).toBe('Saved');

      // Search (confidential query: the term travels inside the envelope).
      await page.getByTestId('search-input').fill(tag);
      await expect.poll(() => page.getByTestId('note-item').count()).toBe(1);
      await page.getByTestId('search-input').fill(`${tag}-nothing-matches`);
      await expect.poll(() => page.getByTestId('note-item').count()).toBe(0);
      await page.getByTestId('search-input').fill('');
      await expect.poll(() => page.getByTestId('note-item').filter({ hasText: title }).count()).toBe(1);

      // Read: start a fresh draft, then open the note by id (an encrypted GET).
      await page.getByTestId('new-note').click();
      expect(await page.getByTestId('note-body-input').inputValue()).toBe('');
      await page.getByTestId('note-item').filter({ hasText: title }).click();
      await expect.poll(() => page.getByTestId('note-body-input').inputValue()).toBe(edited);
      await page.screenshot({ path: join(artifacts, 'notes.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(artifacts, 'notes-mobile.png'), fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });

      // The wire panel: ciphertext on the left, the decrypted JSON on the right.
      const latest = page.getByTestId('wire-entry').first();
      await expect
        .poll(() =>
          latest
            .getByTestId('wire-app-response')
            .textContent()
            .catch(() => ''),
        )
        .toContain(edited);
      const network = (await latest.getByTestId('wire-network').textContent()) ?? '';
      expect(network).toMatch(/GET \/api\/notes\/[A-Za-z0-9_-]{12}/);
      expect(network).not.toContain(tag);
      expect(await latest.getByTestId('wire-hex').count()).toBe(1);

      await page.getByTestId('delete-note').click();
      await expect.poll(flash).toBe('Deleted');
      await expect.poll(() => page.getByTestId('note-item').filter({ hasText: title }).count()).toBe(0);

      // The browser ran the default backend (WebCrypto / @noble, in the page's JS): it never fetched the .wasm.
      expect(traffic.sent.some((r) => /\.wasm(\?|$)/.test(new URL(r.url).pathname))).toBe(false);
      const apiRequests = traffic.sent.filter((r) => new URL(r.url).pathname.startsWith('/api/'));
      expect(apiRequests.some((r) => r.body && r.body.length > 0 && new URL(r.url).pathname === '/api/notes')).toBe(true);
      expect(await traffic.leaks([tag, 'vault code', 'Launch plan'])).toEqual([]);
    });
  });
}

/** Streaming, a flipped response byte, and the wire inspector page. */
function streamsTamperAndInspector(): void {
  it('streams the answer progressively and shows tokens as they arrive', async () => {
    await onPage('/', async ({ page, traffic }) => {
      await page.locator('[data-testid="note-list"][data-loaded="true"]').waitFor();
      await page.getByTestId('ask-input').fill('groceries');
      await page.getByTestId('ask-button').click();
      const lengths = new Set<number>();
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const done = await page.getByTestId('ask-output').getAttribute('data-done');
        const text = (await page.getByTestId('ask-output').textContent()) ?? '';
        if (!text.startsWith('The answer streams')) lengths.add(text.length);
        if (done === 'true') break;
        await sleep(40);
      }
      const text = (await page.getByTestId('ask-output').textContent()) ?? '';
      expect(text).toContain('Groceries');
      expect(text).toContain('encrypted records');
      expect(lengths.size, 'tokens should appear progressively, not all at once').toBeGreaterThanOrEqual(3);
      await expect.poll(() => page.locator('[data-testid="wire-entry"][data-kind="stream"][data-state="ok"]').count()).toBeGreaterThan(0);
      expect(await traffic.leaks(['oat milk', 'dark chocolate'])).toEqual([]);
      await page.screenshot({ path: join(artifacts, 'stream.png'), fullPage: true });
    });
  });

  it('shows an error, not data, when a response ciphertext byte is flipped in transit', async () => {
    await onPage('/', async ({ page }) => {
      await page.locator('[data-testid="note-list"][data-loaded="true"]').waitFor();
      const before = await page.getByTestId('note-item').count();
      expect(before).toBeGreaterThan(0);
      let tampered = 0;
      await page.route(
        (url) => url.pathname === '/api/notes',
        async (route) => {
          const response = await route.fetch();
          const body = Buffer.from(await response.body());
          if (body.length > 0) {
            body[Math.floor(body.length / 2)]! ^= 0x01;
            tampered++;
          }
          await route.fulfill({ response, body });
        },
      );
      await page.getByTestId('search-input').fill('Groceries');
      await page.getByTestId('error-banner').waitFor();
      expect(tampered).toBeGreaterThan(0);
      const banner = (await page.getByTestId('error-banner').textContent()) ?? '';
      expect(banner).toMatch(/NEN_[A-Z_]+/);
      // The list still shows the unfiltered notes from before: no tampered data reached the UI.
      expect(await page.getByTestId('note-item').count()).toBe(before);
      await page.screenshot({ path: join(artifacts, 'tampered.png'), fullPage: true });
      await page.unroute((url) => url.pathname === '/api/notes');
      await page.getByTestId('search-input').fill('Groceries ');
      await expect.poll(() => page.getByTestId('note-item').filter({ hasText: 'Groceries' }).count()).toBe(1);
    });
  });

  it('the wire inspector page compares both sides for sample requests', async () => {
    await onPage('/wire', async ({ page }) => {
      await page.getByTestId('lab-post').click();
      await expect.poll(() => page.locator('[data-testid="wire-entry"][data-kind="api"][data-state="ok"]').count()).toBe(1);
      await page.getByTestId('lab-get').click();
      await expect.poll(() => page.locator('[data-testid="wire-entry"][data-kind="api"][data-state="ok"]').count()).toBe(2);
      await page.getByTestId('lab-stream').click();
      await expect.poll(() => page.locator('[data-testid="wire-entry"][data-kind="stream"][data-state="ok"]').count()).toBe(1);
      const getEntry = page.locator('[data-testid="wire-entry"][data-kind="api"]').first();
      expect(await getEntry.getByTestId('wire-app-response').textContent()).toContain('alice');
      expect(await getEntry.getByTestId('wire-network').textContent()).not.toContain('alice');
      const postEntry = page.locator('[data-testid="wire-entry"][data-kind="api"]').nth(1);
      expect(await postEntry.getByTestId('wire-app-response').textContent()).toContain('4111 1111 1111 1111');
      const hex = (await postEntry.getByTestId('wire-hex').textContent()) ?? '';
      expect(hex).toMatch(/^[0-9a-f ]{16,}$/);
      // Session lifecycle: rotate (rekey, no KEM) and terminate are authenticated exchanges; requests keep working.
      await page.getByTestId('lab-rotate').click();
      await expect.poll(() => page.locator('[data-testid="wire-entry"][data-kind="session"]').filter({ hasText: 'Nen rotate' }).count()).toBe(1);
      await page.getByTestId('lab-terminate').click();
      await expect.poll(() => page.locator('[data-testid="wire-entry"][data-kind="session"]').filter({ hasText: 'Nen terminate' }).count()).toBe(1);
      await page.getByTestId('lab-post').click();
      await expect.poll(() => page.locator('[data-testid="wire-entry"][data-kind="api"][data-state="ok"]').count()).toBe(3);
      expect(await page.getByTestId('error-banner').count()).toBe(0);
      await page.screenshot({ path: join(artifacts, 'wire.png'), fullPage: true });
    });
  });
}
