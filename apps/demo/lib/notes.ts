/**
 * Notes storage for the demo: a bounded in-memory map, kept on `globalThis` so that every route
 * bundle of the Next.js server (and `next dev` hot reloads) share one instance.
 *
 * This is application state, not Nen state: the Nen session store is configured separately in
 * lib/nen.ts (memory, or Redis when REDIS_URL is set).
 *
 * Pitfalls:
 *  - Bounded: at most MAX_NOTES notes; creating one more evicts the least recently updated note.
 *  - Input is untrusted even though it arrived encrypted (an authenticated client can still send
 *    nonsense): `parseNoteInput` validates types and lengths and reports a 400-style message.
 */
import { randomBytes } from 'node:crypto';

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
  for (const [field, max] of [['title', MAX_TITLE], ['body', MAX_BODY]] as const) {
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

export class NotesStore {
  /** Map order is update order: the first entry is the least recently updated. */
  readonly #notes = new Map<string, Note>();

  get size(): number {
    return this.#notes.size;
  }

  /** Notes whose title or body contains `query` (case-insensitive), most recently updated first. */
  list(query = '', limit = MAX_LIST): Note[] {
    const q = query.trim().toLowerCase();
    const out: Note[] = [];
    const all = [...this.#notes.values()];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      const note = all[i]!;
      if (q === '' || note.title.toLowerCase().includes(q) || note.body.toLowerCase().includes(q)) out.push(note);
    }
    return out;
  }

  get(id: string): Note | undefined {
    return this.#notes.get(id);
  }

  create(input: NoteInput, now = Date.now()): Note {
    while (this.#notes.size >= MAX_NOTES) {
      const oldest = this.#notes.keys().next();
      if (oldest.done) break;
      this.#notes.delete(oldest.value);
    }
    const note: Note = { id: randomBytes(9).toString('base64url'), title: input.title, body: input.body, createdAt: now, updatedAt: now };
    this.#notes.set(note.id, note);
    return note;
  }

  update(id: string, patch: Partial<NoteInput>, now = Date.now()): Note | undefined {
    const note = this.#notes.get(id);
    if (!note) return undefined;
    if (patch.title !== undefined) note.title = patch.title;
    if (patch.body !== undefined) note.body = patch.body;
    note.updatedAt = now;
    this.#notes.delete(id);
    this.#notes.set(id, note);
    return note;
  }

  delete(id: string): boolean {
    return this.#notes.delete(id);
  }
}

const KEY = Symbol.for('nen.demo.notes');
const holder = globalThis as typeof globalThis & { [KEY]?: NotesStore };

/** The process-wide notes store, seeded with two notes so a first visit is not empty. */
export const notes: NotesStore = (holder[KEY] ??= seed(new NotesStore()));

function seed(store: NotesStore): NotesStore {
  const t = Date.now();
  store.create({ title: 'Welcome to Nen', body: 'Every request and response body on this page is encrypted end to end with X-Wing (ML-KEM-768 + X25519) and ChaCha20-Poly1305. Open the wire panel to see what a proxy sees.' }, t - 2000);
  store.create({ title: 'Groceries', body: 'oat milk, lemons, dark chocolate, basil' }, t - 1000);
  return store;
}
