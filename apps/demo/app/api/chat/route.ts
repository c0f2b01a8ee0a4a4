/**
 * The assistant's chat endpoint (AI SDK UI message stream) through Nen: `useChat` on the page posts
 * `{ messages }` with Nen's fetch; `withNenStream` opens the sealed body, the AI SDK's
 * `streamText(...).toUIMessageStreamResponse()` produces the answer (lib/chat.ts), and every chunk
 * of that response is sealed as its own record the moment it is produced (no buffering).
 *
 * POST /api/chat?delay=40[&tokens=N] { messages: UIMessage[] }
 */
import { BAD_CHAT, chatResponse } from '../../../lib/chat';
import { count } from '../../../lib/metrics';
import { nen } from '../../../lib/nen';

export const POST = nen.withNenStream(async function* (request: Request, _context: unknown, body: unknown) {
  count('chat');
  const res = await chatResponse(body, new URL(request.url), request.signal);
  if (!res?.body) {
    yield BAD_CHAT;
    return;
  }
  yield* res.body as unknown as AsyncIterable<Uint8Array>;
});
