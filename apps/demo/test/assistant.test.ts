/**
 * The assistant page end to end: `next build` (shared with the e2e suite's build directory),
 * `next start` on a free 127.0.0.1 port with a pinned key, Debian's chromium via playwright-core.
 *
 * What must hold (each check fails when the property is broken):
 *  - `useChat` (@ai-sdk/react) with Nen's fetch as the transport's `fetch` shows the answer growing
 *    token by token: several distinct partial texts, each a prefix of the next;
 *  - nothing readable crosses the wire: neither the question nor the answer (which quotes a note's
 *    secret) appears in any request or response byte the browser exchanged;
 *  - the wire panel shows the stream's ciphertext records;
 *  - from Node, the same route answers the AI SDK transport over Nen, and a body that is not a chat
 *    request gets an AI SDK error chunk (200), not a 5xx.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient, type NenClient } from '@nen/client';
import { chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';
import { appDir, type LiveServer, startNext, stopAll, suiteDistDir } from './live';

const DIST_DIR = suiteDistDir('.next-e2e');
const TAG = `zq${Date.now().toString(36)}`;
const SECRET = `vault-${TAG}-4471`;

let server: LiveServer;
let browser: Browser | undefined;
let node: NenClient;

beforeAll(async () => {
  server = await startNext({ distDir: DIST_DIR });
  node = createNenClient({ baseUrl: server.url, serverKey: server.pin });
  const res = await node.fetch('/api/notes', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Plan ${TAG}`, body: `The code is ${SECRET} and nobody else may read it` }),
  });
  expect(res.status).toBe(201);
  browser = await chromium.launch(chromiumLaunchOptions());
}, 300_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  await stopAll();
});

describe('assistant page in chromium', () => {
  it('tokens arrive incrementally through useChat over Nen, nothing readable on the wire', async () => {
    const page = await browser!.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(20_000);
    const sent: Buffer[] = [];
    const received: Promise<Buffer>[] = [];
    page.on('request', (r) => {
      const b = r.postDataBuffer();
      if (b) sent.push(b);
      sent.push(Buffer.from(r.url()));
    });
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) received.push(r.body().catch(() => Buffer.alloc(0)));
    });
    try {
      await page.goto(`${server.url}/assistant`);
      await page.getByTestId('assistant-status').filter({ hasText: 'ready' }).waitFor();
      const question = `what is in my ${TAG} plan`;
      await page.getByTestId('assistant-input').fill(question);
      await page.getByTestId('assistant-send').click();

      // Sample the visible answer while it streams (bounded: 30 s).
      const states: string[] = [];
      const deadline = Date.now() + 30_000;
      const answer = page.getByTestId('assistant-msg-assistant');
      while (Date.now() < deadline) {
        const text = (await answer.count()) > 0 ? ((await answer.first().textContent()) ?? '') : '';
        if (text && states.at(-1) !== text) states.push(text);
        if ((await page.getByTestId('assistant-status').textContent()) === 'ready' && text.includes('sealed with its own nonce.')) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const final = states.at(-1) ?? '';
      expect(final).toContain(SECRET);
      expect(final).toContain('sealed with its own nonce.');
      expect(states.length).toBeGreaterThanOrEqual(4);
      for (let i = 1; i < states.length; i++) expect(states[i]!.startsWith(states[i - 1]!)).toBe(true);
      expect(await page.getByTestId('assistant-error').count()).toBe(0);

      // The wire panel: the chat exchange's stream as ciphertext records.
      const chat = page.locator('[data-testid="assistant-wire-entry"][data-path="/api/chat"]').first();
      expect(Number(/(\d+) chunks/.exec((await chat.getByTestId('assistant-wire-count').textContent()) ?? '')?.[1])).toBeGreaterThan(3);
      const hex = await chat.getByTestId('assistant-wire-hex').allTextContents();
      expect(hex.length).toBeGreaterThan(0);
      for (const h of hex) expect(h).toMatch(/^\d+ B [0-9a-f ]+$/);

      // Nothing readable crossed the wire, either way.
      const bodies = [...sent, ...(await Promise.all(received))];
      for (const s of [SECRET, TAG, 'sealed with its own nonce', 'text-delta']) {
        expect(bodies.filter((b) => b.includes(Buffer.from(s))).length, `"${s}" on the wire`).toBe(0);
      }
      mkdirSync(join(appDir, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(appDir, 'test-results', 'assistant.png') });
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe('/api/chat from Node', () => {
  it('DefaultChatTransport with Nen fetch gets the UI message stream', async () => {
    const transport = new DefaultChatTransport<UIMessage>({ api: `${server.url}/api/chat?delay=0`, fetch: node.fetch });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'c',
      messageId: undefined,
      abortSignal: undefined,
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: `${TAG} plan` }] }],
    });
    const chunks: UIMessageChunk[] = [];
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const text = chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
    expect(text).toContain(SECRET);
    expect(chunks.at(-1)?.type).toBe('finish');
  });

  it('a body that is not a chat request → an AI SDK error chunk, not a 5xx', async () => {
    const res = await node.fetch('/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: 'nope' }) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"type":"error"');
  });
});
