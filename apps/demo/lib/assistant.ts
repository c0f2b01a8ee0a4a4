/**
 * A tiny deterministic "assistant" for the streaming demo: it answers a question about the notes
 * token by token, the way an LLM endpoint streams server-sent events. No model, no randomness:
 * the tokens are words of a summary built from the matching notes, so tests can check them.
 *
 * Pitfall: bounded output (MAX_TOKENS) whatever the question or the notes contain.
 */
import type { Note } from './notes';

export const MAX_TOKENS = 10_000;

const STOP = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'is',
  'are',
  'my',
  'me',
  'about',
  'what',
  'which',
  'do',
  'i',
  'have',
  'notes',
  'note',
  'with',
  'for',
  'any',
]);

/** Words of the answer to `question`, each with its trailing space, at most MAX_TOKENS. */
export function answerTokens(question: string, notes: readonly Note[]): string[] {
  const terms = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP.has(w));
  const matching =
    terms.length === 0 ? [...notes] : notes.filter((n) => terms.some((t) => n.title.toLowerCase().includes(t) || n.body.toLowerCase().includes(t)));
  const parts: string[] = [];
  if (notes.length === 0) {
    parts.push('You have no notes yet. Write one and ask me again.');
  } else if (matching.length === 0) {
    parts.push(`I read all ${notes.length} of your notes and none of them mention ${terms.join(', ')}.`);
  } else {
    parts.push(
      terms.length
        ? `I found ${matching.length} ${matching.length === 1 ? 'note that matches' : 'notes that match'}.`
        : `You have ${matching.length} ${matching.length === 1 ? 'note' : 'notes'}.`,
    );
    for (const note of matching.slice(0, 5)) {
      const excerpt = note.body.length > 160 ? `${note.body.slice(0, 160)}…` : note.body;
      const text = excerpt || '(empty)';
      parts.push(`“${note.title}”: ${/[.!?…]$/.test(text) ? text : `${text}.`}`);
    }
    if (matching.length > 5) parts.push(`…and ${matching.length - 5} more.`);
  }
  parts.push('This answer was streamed to you as encrypted records, each sealed with its own nonce.');
  const words = parts.join(' ').split(/\s+/).filter(Boolean);
  return words.slice(0, MAX_TOKENS).map((w, i, all) => (i === all.length - 1 ? w : `${w} `));
}

/** Integer query parameter clamped to [min, max], `fallback` when absent or malformed. */
export function intParam(value: string | null, min: number, max: number, fallback: number): number {
  if (value === null || !/^\d{1,9}$/.test(value)) return fallback;
  return Math.min(max, Math.max(min, Number(value)));
}
