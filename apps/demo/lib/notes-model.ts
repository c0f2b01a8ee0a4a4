/**
 * The demo's notes model, shared by both repositories (./notes.ts: memory, ./notes-redis.ts:
 * Redis): the note and input types, the limits, input validation, the note id format, the
 * repository interface and its two errors.
 *
 * Pitfalls:
 *  - Input is untrusted even though it arrived encrypted (an authenticated client can still send
 *    nonsense): `parseNoteInput` validates types and lengths and reports a 400-style message.
 *  - Kept free of either repository so that ./notes-redis.ts (loaded on demand by ./notes.ts) does
 *    not import ./notes.ts back.
 */

export const MAX_NOTES = 1000;
export const MAX_TITLE = 200;
export const MAX_BODY = 20_000;
export const MAX_LIST = 200;

export interface Note {
  readonly id: string;
  title: string;
  body: string;
  readonly createdAt: number;
  updatedAt: number;
}

export interface NoteInput {
  title: string;
  body: string;
}

/** Thrown for invalid client input; routes map it to a 400 JSON error (encrypted like any reply). */
export class NoteInputError extends Error {
  readonly code = 'DEMO_BAD_NOTE';
  constructor(message: string) {
    super(message);
    this.name = 'NoteInputError';
  }
}

/** Validates a decrypted request body as a note. `partial` allows either field to be missing. */
export function parseNoteInput(body: unknown, partial = false): Partial<NoteInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new NoteInputError('expected a JSON object { title, body }');
  }
  const record = body as Record<string, unknown>;
  const out: Partial<NoteInput> = {};
  for (const [field, max] of [
    ['title', MAX_TITLE],
    ['body', MAX_BODY],
  ] as const) {
    const value = record[field];
    if (value === undefined && partial) continue;
    if (typeof value !== 'string') throw new NoteInputError(`${field} must be a string`);
    if (value.length > max) throw new NoteInputError(`${field} is longer than ${max} characters`);
    out[field] = value;
  }
  if (!partial && out.title?.trim() === '') throw new NoteInputError('title must not be empty');
  if (partial && out.title !== undefined && out.title.trim() === '') throw new NoteInputError('title must not be empty');
  return out;
}

/** The note ids this store hands out: 12 base64url characters (72 random bits). */
export function isNoteId(id: string): boolean {
  return /^[A-Za-z0-9_-]{12}$/.test(id);
}

/** The async repository the routes use; memory or Redis. */
export interface NotesRepo {
  readonly kind: 'memory' | 'redis';
  size(): Promise<number>;
  list(query?: string, limit?: number): Promise<Note[]>;
  get(id: string): Promise<Note | undefined>;
  create(input: NoteInput, now?: number): Promise<Note>;
  update(id: string, patch: Partial<NoteInput>, now?: number): Promise<Note | undefined>;
  delete(id: string): Promise<boolean>;
}

/** The backing store failed (Redis down); routes answer 503. */
export class NotesUnavailableError extends Error {
  readonly code = 'DEMO_NOTES_UNAVAILABLE';
  constructor(options?: { cause?: unknown }) {
    super('the notes store is unavailable, try again shortly', options);
    this.name = 'NotesUnavailableError';
  }
}
