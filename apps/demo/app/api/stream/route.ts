/**
 * Encrypted server-sent token stream (like an LLM answer), through `withNenStream`: every SSE event
 * is sealed as its own record, the last one marked, so truncation or reordering is detected.
 *
 * POST /api/stream?n=32&delay=0         → `n` events `data: {"i":0,"token":"token-0 "}` then `data: [DONE]`
 * POST /api/stream?delay=40 {question}  → the demo assistant's answer about the notes, word by word
 *
 * Pitfall: bounded: n ≤ 10 000 tokens, delay ≤ 1 000 ms, and the loop stops when the client goes away.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { nen } from '../../../lib/nen';
import { notesRepo } from '../../../lib/notes';
import { answerTokens, intParam, MAX_TOKENS } from '../../../lib/assistant';
import { count } from '../../../lib/metrics';

export const POST = nen.withNenStream(async function* (request: Request, _context: unknown, body: unknown) {
  count('stream');
  const url = new URL(request.url);
  const n = intParam(url.searchParams.get('n'), 1, MAX_TOKENS, 32);
  const delay = intParam(url.searchParams.get('delay'), 0, 1000, 0);
  const question =
    typeof body === 'object' && body !== null && typeof (body as { question?: unknown }).question === 'string'
      ? (body as { question: string }).question.slice(0, 500)
      : undefined;
  const tokens =
    question !== undefined ? answerTokens(question, await (await notesRepo()).list('').catch(() => [])) : Array.from({ length: n }, (_, i) => `token-${i} `);
  for (let i = 0; i < tokens.length; i++) {
    if (request.signal.aborted) return;
    if (delay > 0) await sleep(delay, undefined, { ref: false });
    yield `data: ${JSON.stringify({ i, token: tokens[i] })}\n\n`;
  }
  yield 'data: [DONE]\n\n';
});
