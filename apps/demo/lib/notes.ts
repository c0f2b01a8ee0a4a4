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
 *  - The model (types, limits, `parseNoteInput`, errors) is ./notes-model.ts, re-exported here.
 */
import { randomBytes } from 'node:crypto';
import { MAX_LIST, MAX_NOTES, type Note, type NoteInput, NoteInputError, type NotesRepo, NotesUnavailableError } from './notes-model';

export {
  MAX_BODY,
  MAX_LIST,
  MAX_NOTES,
  MAX_TITLE,
  type Note,
  type NoteInput,
  NoteInputError,
  type NotesRepo,
  NotesUnavailableError,
  isNoteId,
  parseNoteInput,
} from './notes-model';

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
