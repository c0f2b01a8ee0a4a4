/**
 * The assistant page's language model: the AI SDK's own mock (`MockLanguageModelV4` from
 * `ai/test`), so the demo runs offline and deterministically. It streams the demo assistant's
 * answer (lib/assistant.ts: words about the matching notes) as text deltas, one word every
 * `delayMs`, exactly as a provider model would hand them to `streamText`.
 *
 * `syntheticModel(n)` streams n short tokens instead (the bench's AI-shaped stream).
 *
 * Pitfalls: bounded (answerTokens caps the words, n ≤ 10 000; the delay is clamped); a real
 * deployment swaps this for a provider model (`openai('gpt-…')`) and nothing else changes.
 */
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { answerTokens } from './assistant';
import type { Note } from './notes';

type StreamPart = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/** The stream parts of one answer: start, one text delta per word, end, finish. */
export function answerParts(question: string, notes: readonly Note[]): StreamPart[] {
  return wordsParts(answerTokens(question, notes), question.length);
}

function wordsParts(words: readonly string[], inputTokens: number): StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'answer' },
    ...words.map((delta): StreamPart => ({ type: 'text-delta', id: 'answer', delta })),
    { type: 'text-end', id: 'answer' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: words.length, text: words.length, reasoning: undefined },
      },
    },
  ];
}

/**
 * How parts follow each other at delay 0: `none`, all in one run of promise jobs (Node then writes
 * the response in 16 KB bursts, see docs/ai-streaming.md); `turn`, each on its own turn of the event
 * loop (setImmediate: no timer clamp), as a provider's tokens arrive, one network read each.
 */
export type Pace = 'none' | 'turn';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function mockModel(modelId: string, parts: () => StreamPart[], delayMs: number, pace: Pace = 'none'): MockLanguageModelV4 {
  const delay = Math.min(1000, Math.max(0, Math.floor(delayMs) || 0));
  const turn = delay === 0 && pace === 'turn';
  return new MockLanguageModelV4({
    provider: 'nen-demo',
    modelId,
    // 0 → null: no timer at all between parts (a 0 ms timer still waits ~1 ms in Node); with
    // pace 'turn' the SDK's own delay hook waits one event-loop turn instead of a timer
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: parts(),
        initialDelayInMs: turn ? 0 : delay || null,
        chunkDelayInMs: turn ? 0 : delay || null,
        ...(turn ? { _internal: { delay: nextTurn } } : {}),
      }),
    }),
  });
}

/** A mock model answering `question` about `notes`, one word every `delayMs` (0-1000). */
export function assistantModel(question: string, notes: readonly Note[], delayMs: number): MockLanguageModelV4 {
  return mockModel('notes-assistant', () => answerParts(question, notes), delayMs);
}

/** A mock model streaming `n` (1-10 000) short tokens "t0 ", "t1 ", ... one every `delayMs`. */
export function syntheticModel(n: number, delayMs: number, pace: Pace = 'none'): MockLanguageModelV4 {
  const count = Math.min(10_000, Math.max(1, Math.floor(n) || 1));
  return mockModel(
    'synthetic',
    () =>
      wordsParts(
        Array.from({ length: count }, (_, i) => `t${i} `),
        1,
      ),
    delayMs,
    pace,
  );
}
