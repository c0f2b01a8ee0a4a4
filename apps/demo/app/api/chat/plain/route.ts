/**
 * The same chat endpoint without Nen (plaintext), for the bench's encrypted-vs-plain AI stream
 * comparison (bench/stages/ai-stream.js). Not used by the page.
 *
 * POST /api/chat/plain?delay=0&tokens=N { messages: UIMessage[] }
 *
 * Pitfall: a comparison, so it must do the encrypted route's work minus Nen: the same lib/chat.ts
 * answer, and a body it cannot use answers the same BAD_CHAT event stream (status 200) as there.
 */
import { BAD_CHAT, chatResponse } from '../../../../lib/chat';
import { count } from '../../../../lib/metrics';

export async function POST(request: Request): Promise<Response> {
  count('chat.plain');
  const body: unknown = await request.json().catch(() => null);
  const res = await chatResponse(body, new URL(request.url), request.signal);
  return res ?? new Response(BAD_CHAT, { headers: { 'content-type': 'text/event-stream' } });
}
