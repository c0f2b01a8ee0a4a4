/**
 * Unencrypted twin of POST /api/echo: the same `echo` function, the body parsed the way `withNen`
 * parses it. The bench runs both in one pass to measure Nen's overhead.
 *
 * Pitfall: plaintext on purpose and never called by the page; it must parse and answer exactly as
 * the encrypted route's handler does (lib/echo.ts), or the overhead figure measures other work.
 */
import { echo, readBodyLikeNen } from '../../../../lib/echo';

export async function POST(request: Request): Promise<Response> {
  let body: unknown;
  try {
    body = await readBodyLikeNen(request);
  } catch {
    return Response.json({ error: 'malformed JSON body' }, { status: 400 });
  }
  return echo(request, body, 'plain');
}
