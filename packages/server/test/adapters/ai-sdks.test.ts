/**
 * Encrypted AI streaming with the standard SDKs, over real HTTP on 127.0.0.1, offline:
 *  - Vercel AI SDK (`ai` 7): `streamText(...).toUIMessageStreamResponse()` behind Hono's
 *    `nenStreamMiddleware` and behind `withNenStream` (node:http adapter), read by
 *    `DefaultChatTransport({ fetch: <Nen fetch> })` (what `useChat` uses). The model is the SDK's
 *    own mock (`MockLanguageModelV4` from `ai/test`), gated: it emits token i+1 only once the
 *    client has decoded token i, so a server that buffered (or sealed late) would deadlock.
 *  - OpenAI SDK: `new OpenAI({ fetch: <Nen fetch>, baseURL })`, streamed chat completions through a
 *    Nen-wrapped route that proxies to a local OpenAI-compatible upstream on 127.0.0.1.
 *  - Anthropic SDK (the "any SDK that accepts a fetch" case): streamed messages, same pattern.
 * Every test also taps the raw wire: no prompt and no token appears in it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { serve as honoServe } from '@hono/node-server';
import { convertToModelMessages, DefaultChatTransport, streamText, type UIMessage, type UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Hono } from 'hono';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient, type NenClient } from '@nen/client';
import { toBase64Url } from '@nen/core';
import { createNen, memoryStore, type Nen } from '../../src/index.js';
import { nenSessionRoutes, nenStreamMiddleware } from '../../src/adapters/hono.js';
import { nodeSessionRoutes, toNodeHandler } from '../../src/adapters/node-http.js';
import { closeServer as close, listenLoopback as listen } from '../http-harness.js';

type StreamPart = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const WORDS = ['Post', '-quantum', ' secrets', ' stay', ' sealed', ' end', ' to', ' end', '.'];
const PROMPT = 'tell me something confidential';

/** Lets the model emit token i only after the client decoded token i-1. */
class Gate {
  #waiters: (() => void)[] = [];
  #opened = 0;
  open(): void {
    this.#opened++;
    this.#waiters.shift()?.();
  }
  async wait(i: number): Promise<void> {
    if (i <= this.#opened) return;
    await new Promise<void>((r) => this.#waiters.push(r));
  }
}

/** The AI SDK's own mock model, emitting WORDS as text deltas behind `gate`. */
function gatedModel(gate: Gate): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => {
      let i = -2;
      const stream = new ReadableStream<StreamPart>({
        async pull(c) {
          if (i === -2) c.enqueue({ type: 'stream-start', warnings: [] });
          else if (i === -1) c.enqueue({ type: 'text-start', id: 't0' });
          else if (i < WORDS.length) {
            await gate.wait(i);
            c.enqueue({ type: 'text-delta', id: 't0', delta: WORDS[i]! });
          } else {
            c.enqueue({ type: 'text-end', id: 't0' });
            c.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
                outputTokens: { total: WORDS.length, text: WORDS.length, reasoning: undefined },
              },
            });
            c.close();
          }
          i++;
        },
      });
      return { stream };
    },
  });
}

/** A transport fetch that keeps every raw byte sent and received (what an intermediary sees). */
function tap() {
  const chunks: Uint8Array[] = [];
  const fetchTap: typeof fetch = async (input, init) => {
    if (init?.body instanceof Uint8Array) chunks.push(init.body);
    const res = await fetch(input, init);
    if (!res.body) return res;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(c, ctl) {
          chunks.push(c.slice());
          ctl.enqueue(c);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: fetchTap, text: () => Buffer.concat(chunks).toString('latin1') };
}

let nen: Nen;
let pin: string;
const servers: Server[] = [];
let gate = new Gate();
let honoUrl: string;
let nodeUrl: string;
let upstreamUrl: string;
const upstreamSaw: unknown[] = [];

/** A local OpenAI- and Anthropic-compatible upstream (the LLM that cannot exist offline). */
function upstream(): Server {
  return createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', async () => {
      upstreamSaw.push(JSON.parse(raw));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      const send = (event: string | null, data: unknown) =>
        res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      if (req.url === '/v1/chat/completions') {
        for (const w of WORDS) {
          send(null, {
            id: 'chatcmpl-1',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'mock-gpt',
            choices: [{ index: 0, delta: { role: 'assistant', content: w }, finish_reason: null }],
          });
          await new Promise((r) => setTimeout(r, 2));
        }
        send(null, {
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'mock-gpt',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        });
        send(null, '[DONE]');
      } else {
        send('message_start', {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'mock-claude',
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 5, output_tokens: 1 },
          },
        });
        send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
        for (const w of WORDS) send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: w } });
        send('content_block_stop', { type: 'content_block_stop', index: 0 });
        send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: WORDS.length } });
        send('message_stop', { type: 'message_stop' });
      }
      res.end();
    });
  });
}

beforeAll(async () => {
  nen = createNen({
    serverKeys: `k1:${toBase64Url(new Uint8Array(32).fill(9))}`,
    store: memoryStore({ shared: false }),
    handshakeRateLimit: 0,
    logger: () => undefined,
  });
  pin = (await nen.publicKeys())[0]!.pin;

  // Hono: the AI SDK route as written for any Hono app, behind the stream middleware.
  const app = new Hono();
  app.all('/api/nen/:action', nenSessionRoutes(nen));
  app.use('/api/chat', nenStreamMiddleware(nen));
  app.post('/api/chat', async (c) => {
    const { messages } = await c.req.json<{ messages: UIMessage[] }>();
    return streamText({ model: gatedModel(gate), messages: await convertToModelMessages(messages) }).toUIMessageStreamResponse();
  });
  const h = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((r) => (h.listening ? r() : h.once('listening', () => r())));
  servers.push(h);
  honoUrl = `http://127.0.0.1:${(h.address() as AddressInfo).port}`;

  // node:http: withNenStream routes (what a Next.js route handler exports), through the adapter.
  const up = upstream();
  servers.push(up);
  upstreamUrl = await listen(up);
  const proxy = (path: string) =>
    // the documented forms (docs/ai-streaming.md): the handler returns the upstream's body stream
    nen.withNenStream(async (req, _c, body) => {
      const r = await fetch(upstreamUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: req.signal,
      });
      return r.body as ReadableStream<Uint8Array>;
    });
  const chat = nen.withNenStream(async (_req, _c, body) => {
    const { messages } = body as { messages: UIMessage[] };
    const res = streamText({ model: gatedModel(gate), messages: await convertToModelMessages(messages) }).toUIMessageStreamResponse();
    return res.body as ReadableStream<Uint8Array>;
  });
  const table: Record<string, ReturnType<typeof toNodeHandler>> = {
    '/api/chat': toNodeHandler(chat),
    '/v1/chat/completions': toNodeHandler(proxy('/v1/chat/completions')),
    '/v1/messages': toNodeHandler(proxy('/v1/messages')),
  };
  const sessions = nodeSessionRoutes(nen);
  const n = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const handler = path.startsWith('/api/nen/') ? sessions : table[path];
    if (handler) void handler(req, res);
    else res.writeHead(404).end();
  });
  servers.push(n);
  nodeUrl = await listen(n);
});

afterAll(async () => {
  await Promise.all(servers.map(close));
  await nen?.close();
});

function nenClient(base: string, f: typeof fetch): NenClient {
  return createNenClient({ baseUrl: base, serverKey: pin, fetch: f });
}

describe.each([
  ['Hono middleware', () => honoUrl],
  ['withNenStream on node:http', () => nodeUrl],
] as const)('Vercel AI SDK through %s', (_name, base) => {
  it('DefaultChatTransport with Nen fetch: tokens arrive one by one, nothing readable on the wire', async () => {
    gate = new Gate();
    const wire = tap();
    const client = nenClient(base(), wire.fetch);
    const transport = new DefaultChatTransport<UIMessage>({ api: `${base()}/api/chat`, fetch: client.fetch });
    const messages: UIMessage[] = [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: PROMPT }] }];
    const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'c1', messageId: undefined, messages, abortSignal: undefined });
    const seen: UIMessageChunk[] = [];
    let text = '';
    const reader = stream.getReader();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      seen.push(r.value);
      if (r.value.type === 'text-delta') {
        text += r.value.delta;
        gate.open(); // only now may the model produce the next token
      }
    }
    expect(text).toBe(WORDS.join(''));
    expect(seen.filter((c) => c.type === 'text-delta')).toHaveLength(WORDS.length);
    expect(seen.map((c) => c.type)).toEqual(expect.arrayContaining(['start', 'text-start', 'text-end', 'finish']));
    const raw = wire.text();
    expect(raw.length).toBeGreaterThan(0);
    for (const s of [PROMPT, 'secrets', 'sealed', 'text-delta']) expect(raw).not.toContain(s);
  }, 20_000);
});

describe('OpenAI SDK with Nen fetch', () => {
  it('streamed chat completions through a Nen-wrapped route', async () => {
    upstreamSaw.length = 0;
    const wire = tap();
    const client = nenClient(nodeUrl, wire.fetch);
    const openai = new OpenAI({ apiKey: 'not-a-real-key', baseURL: `${nodeUrl}/v1`, fetch: client.fetch, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'mock-gpt', stream: true, messages: [{ role: 'user', content: PROMPT }] });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(WORDS.join(''));
    expect(finish).toBe('stop');
    expect(upstreamSaw[0]).toMatchObject({ model: 'mock-gpt', stream: true, messages: [{ role: 'user', content: PROMPT }] });
    const raw = wire.text();
    for (const s of [PROMPT, 'secrets', 'chat.completion.chunk', 'mock-gpt']) expect(raw).not.toContain(s);
  });
});

describe('Anthropic SDK with Nen fetch (any SDK that accepts a fetch)', () => {
  it('streamed messages through a Nen-wrapped route', async () => {
    upstreamSaw.length = 0;
    const wire = tap();
    const client = nenClient(nodeUrl, wire.fetch);
    const anthropic = new Anthropic({ apiKey: 'not-a-real-key', baseURL: nodeUrl, fetch: client.fetch, maxRetries: 0 });
    const stream = await anthropic.messages.create({ model: 'mock-claude', max_tokens: 64, stream: true, messages: [{ role: 'user', content: PROMPT }] });
    let text = '';
    const types: string[] = [];
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text;
    }
    expect(text).toBe(WORDS.join(''));
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(upstreamSaw[0]).toMatchObject({ model: 'mock-claude', stream: true, messages: [{ role: 'user', content: PROMPT }] });
    const raw = wire.text();
    for (const s of [PROMPT, 'secrets', 'content_block_delta', 'mock-claude']) expect(raw).not.toContain(s);
  });
});
