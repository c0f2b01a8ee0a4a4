/**
 * Notes collection, encrypted with Nen: GET lists or searches (`?q=`; with the client's
 * confidential query option the query travels inside the envelope), POST creates a note.
 *
 * Pitfall: without the client's `confidentialQuery`, the search term is in the URL, which every
 * intermediary and access log sees; Nen authenticates it but does not hide it.
 */
import { nen } from '../../../lib/nen';
import { notesRepo, notesErrorResponse, parseNoteInput, type NoteInput } from '../../../lib/notes';
import { count } from '../../../lib/metrics';

export const GET = nen.withNen(async (request) => {
  count('notes.list');
  const q = new URL(request.url).searchParams.get('q') ?? '';
  try {
    return { query: q, notes: await (await notesRepo()).list(q) };
  } catch (error) {
    return notesErrorResponse(error);
  }
});

export const POST = nen.withNen(async (_request, _context, body) => {
  count('notes.create');
  try {
    const note = await (await notesRepo()).create(parseNoteInput(body) as NoteInput);
    return Response.json({ note }, { status: 201 });
  } catch (error) {
    return notesErrorResponse(error);
  }
});
