/**
 * The assistant's chat handler, shared by the encrypted route (/api/chat, through `withNenStream`)
 * and its plain twin (/api/chat/plain, for the bench's encrypted-vs-plain comparison): the AI
 * SDK's `streamText` on the mock model, answered as `toUIMessageStreamResponse()`.
 *
 *   ?delay=40    ms between tokens (0-1000)
 *   ?tokens=N    answer with N synthetic tokens instead of the notes answer (1-10 000; bench)
 *   ?pace=turn   with delay=0: each token on its own turn of the event loop (setImmediate, no
 *                timer), as tokens from a provider arrive, one network read each (bench)
 *
 * Pitfalls: bounded input (at most 50 messages, the question cut at 500 characters); a body that is
 * not a chat request is answered with an AI SDK `error` chunk (200), never a 5xx.
 */
import { convertToModelMessages, streamText, type UIMessage } from 'ai';
import { assistantModel, syntheticModel } from './assistant-model';
import { intParam, MAX_TOKENS } from './assistant';
import { notesRepo } from './notes';

const MAX_MESSAGES = 50;

/** The chat's messages, or null when the body is not a chat request. */
export function chatMessages(body: unknown): UIMessage[] | null {
  const messages = typeof body === 'object' && body !== null ? (body as { messages?: unknown }).messages : undefined;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_MESSAGES) return null;
  return messages.every((m) => typeof m === 'object' && m !== null && Array.isArray((m as UIMessage).parts)) ? (messages as UIMessage[]) : null;
}

/** The text of the last user message, at most 500 characters. */
function lastQuestion(messages: UIMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const text = last?.parts.map((p) => (p.type === 'text' ? p.text : '')).join(' ') ?? '';
  return text.slice(0, 500);
}

/** The UI-message-stream error chunk for a body that is not a chat request. */
export const BAD_CHAT = `data: ${JSON.stringify({ type: 'error', errorText: 'expected { messages: UIMessage[] } (1-50 messages)' })}\n\n`;

/** The AI SDK's streamed answer to a chat request (`body` already parsed), or null for a bad body. */
export async function chatResponse(body: unknown, url: URL, signal: AbortSignal): Promise<Response | null> {
  const messages = chatMessages(body);
  if (!messages) return null;
  const delay = intParam(url.searchParams.get('delay'), 0, 1000, 40);
  const tokens = url.searchParams.has('tokens') ? intParam(url.searchParams.get('tokens'), 1, MAX_TOKENS, 100) : 0;
  const pace = delay === 0 && url.searchParams.get('pace') === 'turn' ? 'turn' : 'none';
  const model =
    tokens > 0 ? syntheticModel(tokens, delay, pace) : assistantModel(lastQuestion(messages), await (await notesRepo()).list('').catch(() => []), delay);
  const result = streamText({ model, messages: await convertToModelMessages(messages), abortSignal: signal });
  return result.toUIMessageStreamResponse();
}
