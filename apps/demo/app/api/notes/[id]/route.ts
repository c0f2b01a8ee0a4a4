/**
 * One note, encrypted with Nen: GET reads, PUT updates (title and/or body), DELETE removes. The id
 * is in the path, which an intermediary sees by design; the note's content never leaves the
 * envelope. Bodyless GET and DELETE are authenticated by Nen like any other request.
 *
 * Pitfall: `DEMO_NOT_FOUND` and the other `DEMO_*` codes are the application's, inside the sealed
 * answer; they are not Nen codes (ERROR_CODES.md) and no client library maps them.
 */
import { nen } from '../../../../lib/nen';
import { notesRepo, notesErrorResponse, isNoteId, parseNoteInput } from '../../../../lib/notes';
import { count } from '../../../../lib/metrics';

interface Context {
  params: Promise<{ id: string }>;
}

function notFound(id: string): Response {
  return Response.json({ error: `no note with id ${JSON.stringify(id.slice(0, 40))}`, code: 'DEMO_NOT_FOUND' }, { status: 404 });
}

export const GET = nen.withNen(async (_request: Request, context: Context) => {
  count('notes.read');
  const { id } = await context.params;
  try {
    const note = isNoteId(id) ? await (await notesRepo()).get(id) : undefined;
    return note ? { note } : notFound(id);
  } catch (error) {
    return notesErrorResponse(error);
  }
});

export const PUT = nen.withNen(async (_request: Request, context: Context, body: unknown) => {
  count('notes.update');
  const { id } = await context.params;
  try {
    const patch = parseNoteInput(body, true);
    const note = isNoteId(id) ? await (await notesRepo()).update(id, patch) : undefined;
    return note ? { note } : notFound(id);
  } catch (error) {
    return notesErrorResponse(error);
  }
});

export const DELETE = nen.withNen(async (_request: Request, context: Context) => {
  count('notes.delete');
  const { id } = await context.params;
  try {
    return isNoteId(id) && (await (await notesRepo()).delete(id)) ? { deleted: id } : notFound(id);
  } catch (error) {
    return notesErrorResponse(error);
  }
});
