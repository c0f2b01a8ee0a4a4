/**
 * Unit tests of the assistant's server side (no build, no browser): chat request validation, the
 * mock models (notes answer and synthetic tokens) through the real `streamText`, and the plain
 * twin route answering a bad body with an AI SDK error chunk (200), never a 5xx.
 */
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answerTokens } from '../lib/assistant';
import { answerParts, assistantModel, syntheticModel } from '../lib/assistant-model';
import { chatMessages } from '../lib/chat';

const user = (text: string) => ({ id: 'u', role: 'user', parts: [{ type: 'text', text }] });

describe('chat request validation', () => {
  it('accepts 1-50 messages with parts, refuses anything else', () => {
    expect(chatMessages({ messages: [user('hi')] })).toHaveLength(1);
    for (const bad of [
      null,
      'x',
      {},
      { messages: [] },
      { messages: 'x' },
      { messages: [{ role: 'user' }] },
      { messages: Array.from({ length: 51 }, () => user('x')) },
    ]) {
      expect(chatMessages(bad)).toBeNull();
    }
  });
});

describe('mock models through streamText', () => {
  it('the notes answer streams word by word, as answerTokens says', async () => {
    const notes = [{ id: 'n1', title: 'Plan', body: 'the code is 4471', createdAt: 0, updatedAt: 0 }];
    const words = answerTokens('plan', notes as never);
    expect(answerParts('plan', notes as never).filter((p) => p.type === 'text-delta')).toHaveLength(words.length);
    const deltas: string[] = [];
    for await (const t of streamText({ model: assistantModel('plan', notes as never, 0), prompt: 'plan' }).textStream) deltas.push(t);
    expect(deltas.join('')).toBe(words.join(''));
    expect(deltas.join('')).toContain('4471');
  });

  it('the synthetic model streams exactly n tokens, bounded to 10 000', async () => {
    let text = '';
    for await (const t of streamText({ model: syntheticModel(50, 0), prompt: 'x' }).textStream) text += t;
    expect(text).toBe(Array.from({ length: 50 }, (_, i) => `t${i} `).join(''));
    const big = syntheticModel(1e9, 0);
    let n = 0;
    for await (const _ of streamText({ model: big, prompt: 'x' }).textStream) n++;
    expect(n).toBe(10_000);
  });

  it("pace 'turn' emits each token on its own event-loop turn, same tokens", async () => {
    const turns: number[] = [];
    let turn = 0;
    let live = true;
    const tick = () => {
      turn++;
      if (live) setImmediate(tick);
    };
    setImmediate(tick);
    let text = '';
    for await (const t of streamText({ model: syntheticModel(20, 0, 'turn'), prompt: 'x' }).textStream) {
      text += t;
      turns.push(turn);
    }
    live = false;
    expect(text).toBe(Array.from({ length: 20 }, (_, i) => `t${i} `).join(''));
    // without the pace every token arrives in the same turn; with it, each in a later one
    for (let i = 1; i < turns.length; i++) expect(turns[i]).toBeGreaterThan(turns[i - 1] as number);
  });
});

describe('/api/chat/plain (the bench twin)', () => {
  it('streams the UI message stream; a bad body is an error chunk, not a 5xx', async () => {
    const { POST } = await import('../app/api/chat/plain/route');
    const ok = await POST(
      new Request('http://127.0.0.1/api/chat/plain?delay=0&tokens=5', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [user('x')] }),
      }),
    );
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text.match(/"type":"text-delta"/g)).toHaveLength(5);
    for (const body of ['{nope', '{"messages":3}']) {
      const bad = await POST(new Request('http://127.0.0.1/api/chat/plain', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
      expect(bad.status).toBe(200);
      expect(await bad.text()).toContain('"type":"error"');
    }
  });
});
