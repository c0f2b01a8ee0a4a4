/**
 * Notes storage for the demo: a bounded in-memory map by default, Redis (lib/notes-redis.ts) when
 * REDIS_URL is set so several instances share the notes. The repository lives on `globalThis` so
 * that every route bundle of the Next.js server (and `next dev` hot reloads) share one instance.
 *
 * This is application state, not Nen state: the Nen session store is configured by @nen/server
 * (memory, or Redis when REDIS_URL is set).
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

/** Maps a failure of a notes route to its JSON reply (encrypted by withNen like any other). */
export function notesErrorResponse(error: unknown): Response {
  if (error instanceof NoteInputError) return Response.json({ error: error.message, code: error.code }, { status: 400 });
  if (error instanceof NotesUnavailableError) return Response.json({ error: error.message, code: error.code }, { status: 503 });
  throw error;
}

/** Bounded in-memory notes (synchronous core, used by MemoryNotes and the unit tests). */
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

class MemoryNotes implements NotesRepo {
  readonly kind = 'memory';
  constructor(readonly store: NotesStore) {}
  async size() {
    return this.store.size;
  }
  async list(query?: string, limit?: number) {
    return this.store.list(query, limit);
  }
  async get(id: string) {
    return this.store.get(id);
  }
  async create(input: NoteInput, now?: number) {
    return this.store.create(input, now);
  }
  async update(id: string, patch: Partial<NoteInput>, now?: number) {
    return this.store.update(id, patch, now);
  }
  async delete(id: string) {
    return this.store.delete(id);
  }
}

/** Wraps a repository so that any backend failure surfaces as NotesUnavailableError. */
function guarded(repo: NotesRepo): NotesRepo {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (cause) {
        throw new NotesUnavailableError({ cause });
      }
    };
  return {
    kind: repo.kind,
    size: wrap(() => repo.size()),
    list: wrap((q?: string, l?: number) => repo.list(q, l)),
    get: wrap((id: string) => repo.get(id)),
    create: wrap((input: NoteInput, now?: number) => repo.create(input, now)),
    update: wrap((id: string, patch: Partial<NoteInput>, now?: number) => repo.update(id, patch, now)),
    delete: wrap((id: string) => repo.delete(id)),
  };
}

const KEY = Symbol.for('nen.demo.notes');
const holder = globalThis as typeof globalThis & { [KEY]?: NotesRepo };

async function createRepo(): Promise<NotesRepo> {
  const url = process.env.REDIS_URL;
  if (url) {
    const { RedisNotes } = await import('./notes-redis');
    return guarded(new RedisNotes(url));
  }
  return new MemoryNotes(seed(new NotesStore()));
}

let pending: Promise<NotesRepo> | undefined;

/** The process-wide notes repository (memory, seeded with two notes; or Redis when REDIS_URL is set). */
export async function notesRepo(): Promise<NotesRepo> {
  const existing = holder[KEY];
  if (existing) return existing;
  pending ??= createRepo().then((repo) => (holder[KEY] ??= repo));
  return pending;
}

function seed(store: NotesStore): NotesStore {
  const t = Date.now();
  store.create(
    {
      title: 'Welcome to Nen',
      body: 'Every request and response body on this page is encrypted end to end with X-Wing (ML-KEM-768 + X25519) and ChaCha20-Poly1305. Open the wire panel to see what a proxy sees.',
    },
    t - 2000,
  );
  store.create({ title: 'Groceries', body: 'oat milk, lemons, dark chocolate, basil' }, t - 1000);
  return store;
}
