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
 * Screenshots of the main pages go to test-results/ (gitignored).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page, type Request as PwRequest } from 'playwright-core';
import { createNenClient } from '@nen/client';
import { chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';
import { appDir, ensureBuilt, freePort, keygen } from './live';

const artifacts = join(appDir, 'test-results');
const nextBin = join(appDir, 'node_modules/next/dist/bin/next');
/**
 * Build directory. Locally the suite keeps its own (`.next-e2e`), so it never collides with a
 * `.next` that another process builds or serves in the same checkout; under CI (one job at a time)
 * it reuses `.next`, which the build stage has just produced, instead of building twice.
 */
const WEBPACK = process.env.DEMO_E2E_WEBPACK === '1'; // `next build --webpack` instead of Turbopack
const DIST_DIR = WEBPACK ? '.next-e2e-webpack' : process.env.CI ? '.next' : '.next-e2e';

/** A process this suite started (its own process group), stopped in afterAll. */
interface Instance {
  readonly url: string;
  readonly child: ChildProcess;
  log: string;
}
const instances: Instance[] = [];
let browser: Browser | undefined;
let baseUrl = '';
let pin = '';

async function waitForServer(inst: Instance, path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (inst.child.exitCode !== null) throw new Error(`next start exited early:\n${inst.log}`);
    try {
      const res = await fetch(inst.url + path, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`next start did not answer within ${timeoutMs} ms:\n${inst.log}`);
}

/** Spawns a process in its own group (`next start` forks a `next-server` child that outlives a SIGTERM to the CLI alone). */
function launch(cmd: string, args: string[], env: NodeJS.ProcessEnv, url: string): Instance {
  const child = spawn(cmd, args, { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const inst: Instance = { url, child, log: '' };
  const keep = (chunk: Buffer) => {
    inst.log = (inst.log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  instances.push(inst);
  return inst;
}

/** `next start` of the e2e build on a free loopback port, with a pinned key and the given extra env. */
async function startNext(extra: NodeJS.ProcessEnv): Promise<Instance> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DIST_DIR: DIST_DIR,
    NEN_SERVER_KEYS: keys.env,
    NEN_SERVER_PIN: keys.pin,
    NEN_BENCH_METRICS: '1',
  };
  delete env.REDIS_URL;
  const inst = launch(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], { ...env, ...extra }, `http://127.0.0.1:${port}`);
  await waitForServer(inst, '/api/bench/metrics', 60_000);
  return inst;
}

function signalGroup(inst: Instance, signal: NodeJS.Signals): void {
  if (inst.child.pid === undefined) return;
  try {
    process.kill(-inst.child.pid, signal);
  } catch {
    // the group is gone already
  }
}

/** SIGTERM to the group, SIGKILL after 5 s, then waits (bounded) until the leader has exited. */
async function stop(inst: Instance): Promise<void> {
  const i = instances.indexOf(inst);
  if (i >= 0) instances.splice(i, 1);
  signalGroup(inst, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  let killed = false;
  while (Date.now() < deadline && inst.child.exitCode === null && inst.child.signalCode === null) {
    if (!killed && Date.now() > deadline - 5_000) {
      signalGroup(inst, 'SIGKILL');
      killed = true;
    }
    await sleep(100);
  }
  signalGroup(inst, 'SIGKILL'); // whatever is left of the group (the forked next-server)
}

let keys: { env: string; pin: string };
let main: Instance;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  ensureBuilt({ distDir: DIST_DIR, webpack: WEBPACK });
  keys = keygen();
  pin = keys.pin;
  main = await startNext({});
  baseUrl = main.url;
  browser = await chromium.launch(chromiumLaunchOptions());
}, 300_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  for (const inst of [...instances]) await stop(inst);
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

describe('demo app in chromium', () => {
  it('creates, edits, searches, reads and deletes notes over Nen without leaking plaintext', async () => {
    const { page, traffic } = await openApp('/');
    try {
      await page.locator('[data-testid="note-list"][data-loaded="true"]').waitFor();
      expect(await page.getByTestId('pin-state').textContent()).toContain('pinned (');

      const tag = `zq${Date.now().toString(36)}`;
      const title = `Launch plan ${tag}`;
      const body = `The vault code is ${tag}-4471 and nobody else may read it`;
      const edited = `Moved the vault code to ${tag}-9902`;

      await page.getByTestId('new-note').click();
      await page.getByTestId('note-title-input').fill(title);
      await page.getByTestId('note-body-input').fill(body);
      await page.getByTestId('save-note').click();
      await expect
        .poll(() =>
          page
            .getByTestId('flash')
            .textContent()
            .catch(() => ''),
        )
        .toBe('Created');
      await page.getByTestId('note-item').filter({ hasText: title }).waitFor();

      await page.getByTestId('note-body-input').fill(edited);
      await page.getByTestId('save-note').click();
      await expect
        .poll(() =>
          page
            .getByTestId('flash')
            .textContent()
            .catch(() => ''),
        )
        .toBe('Saved');

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
      await expect
        .poll(() =>
          page
            .getByTestId('flash')
            .textContent()
            .catch(() => ''),
        )
        .toBe('Deleted');
      await expect.poll(() => page.getByTestId('note-item').filter({ hasText: title }).count()).toBe(0);

      // The browser ran the default backend (@noble, in the page's JS): it never fetched the .wasm.
      expect(traffic.sent.some((r) => /\.wasm(\?|$)/.test(new URL(r.url).pathname))).toBe(false);
      const apiRequests = traffic.sent.filter((r) => new URL(r.url).pathname.startsWith('/api/'));
      expect(apiRequests.some((r) => r.body && r.body.length > 0 && new URL(r.url).pathname === '/api/notes')).toBe(true);
      expect(await traffic.leaks([tag, 'vault code', 'Launch plan'])).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('streams the answer progressively and shows tokens as they arrive', async () => {
    const { page, traffic } = await openApp('/');
    try {
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
    } finally {
      await page.close();
    }
  });

  it('shows an error, not data, when a response ciphertext byte is flipped in transit', async () => {
    const { page } = await openApp('/');
    try {
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
    } finally {
      await page.close();
    }
  });

  it('the wire inspector page compares both sides for sample requests', async () => {
    const { page } = await openApp('/wire');
    try {
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
    } finally {
      await page.close();
    }
  });
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

describe('two instances sharing one Redis (REDIS_URL)', () => {
  it('a session and a note made on one instance work on the other; Redis down fails closed with 503', async () => {
    const redisPort = await freePort();
    const redis = launch(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      process.env,
      `redis://127.0.0.1:${redisPort}`,
    );
    const redisUrl = redis.url;
    try {
      const ready = Date.now() + 10_000;
      while (!/Ready to accept connections/i.test(redis.log)) {
        if (Date.now() > ready || redis.child.exitCode !== null) throw new Error(`redis-server did not start:\n${redis.log}`);
        await sleep(50);
      }
      const [a, b] = await Promise.all([startNext({ REDIS_URL: redisUrl }), startNext({ REDIS_URL: redisUrl })]);
      // Round-robin transport: consecutive requests of one session alternate between the instances.
      let turn = 0;
      const roundRobin: typeof fetch = (input, init) => {
        const target = turn++ % 2 === 0 ? a! : b!;
        const url = new URL(input instanceof Request ? input.url : String(input));
        const rewritten = target.url + url.pathname + url.search;
        return input instanceof Request ? fetch(new Request(rewritten, input), init) : fetch(rewritten, init);
      };
      const client = createNenClient({ baseUrl: a!.url, serverKey: pin, fetch: roundRobin });
      const json = { 'content-type': 'application/json' };
      const created = await client.fetch('/api/notes', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 'shared', body: 'seen by both instances' }),
      });
      expect(created.status).toBe(201);
      const { note } = (await created.json()) as { note: { id: string } };
      for (let i = 0; i < 4; i++) {
        const read = await client.fetch(`/api/notes/${note.id}`);
        expect(read.status, `read ${i} (instance ${turn % 2 === 0 ? 'b' : 'a'})`).toBe(200);
        expect(((await read.json()) as { note: { body: string } }).note.body).toBe('seen by both instances');
      }
      expect((await client.fetch(`/api/notes/${note.id}`, { method: 'DELETE' })).status).toBe(200);
      expect((await client.fetch(`/api/notes/${note.id}`)).status).toBe(404);
      for (const inst of [a!, b!]) {
        const m = (await (await fetch(`${inst.url}/api/bench/metrics`)).json()) as Record<string, unknown>;
        expect(m.storeKind).toBe('redis');
        expect(m.notesKind).toBe('redis');
      }

      await stop(redis);
      const started = Date.now();
      const outcome = await client.fetch('/api/notes').then(
        (res) => `status ${res.status}`,
        (error: unknown) => `error ${(error as { code?: string }).code}`,
      );
      expect(outcome).toMatch(/status 503|NEN_STORE_UNAVAILABLE/);
      expect(Date.now() - started).toBeLessThan(15_000);
      await Promise.all([stop(a!), stop(b!)]);
    } finally {
      await stop(redis);
    }
  }, 120_000);
});
