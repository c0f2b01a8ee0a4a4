/**
 * The assistant's chat endpoint (AI SDK UI message stream) through Nen: `useChat` on the page posts
 * `{ messages }` with Nen's fetch; `withNenStream` opens the sealed body, the AI SDK's
 * `streamText(...).toUIMessageStreamResponse()` produces the answer (lib/chat.ts), and every chunk
 * of that response is sealed as its own record the moment it is produced (no buffering).
 *
 * POST /api/chat?delay=40[&tokens=N] { messages: UIMessage[] }
 *
 * Pitfall: return the AI SDK's body stream itself: a generator or TransformStream in between adds a
 * step per chunk that is not Nen's, and the bench's encrypted-vs-plain stream figure would count it.
 */
import { BAD_CHAT, chatResponse } from '../../../lib/chat';
import { count } from '../../../lib/metrics';
import { nen } from '../../../lib/nen';

export const POST = nen.withNenStream(async (request: Request, _context: unknown, body: unknown) => {
  count('chat');
  const res = await chatResponse(body, new URL(request.url), request.signal);
  // The AI SDK's body stream itself: Nen reads it chunk by chunk and seals each (no generator in between).
  return res?.body ?? [BAD_CHAT];
});
