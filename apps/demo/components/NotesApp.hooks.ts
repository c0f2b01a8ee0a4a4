'use client';
/**
 * The notes app's state and calls, as hooks (NotesApp.tsx renders them): `useNotes` (the list with
 * a debounced search, the selected note and its draft, create / update / delete, the busy flag,
 * the flash message and the error banner) and `useAsk` (the streamed "ask your notes" answer).
 * Every call goes through the Nen client (lib/client.ts).
 *
 * Pitfalls: list responses can arrive out of order (a slow search after a faster one), so only
 * the latest request's answer is applied (`listSeq`); a running answer stream is aborted when a
 * new question is asked or the page goes away, and an aborted stream is not an error.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, describeError, streamTokens, type ErrorInfo } from '../lib/client';

export interface Note {
  id: string;
  title: string;
  body: string;
  createdAt: number;
  updatedAt: number;
}

export interface Draft {
  title: string;
  body: string;
}

const EMPTY_DRAFT: Draft = { title: '', body: '' };

/** The list of notes (search debounced by 250 ms), the latest answer wins. */
function useNoteList(serverKey: string | undefined, fail: (e: unknown) => void, clearError: () => void) {
  const [notes, setNotes] = useState<Note[]>([]);
  const [query, setQuery] = useState('');
  const [loaded, setLoaded] = useState(false);
  const listSeq = useRef(0);

  const load = useCallback(
    async (q: string) => {
      const seq = ++listSeq.current;
      try {
        const path = q ? `/api/notes?q=${encodeURIComponent(q)}` : '/api/notes';
        const data = await api<{ notes: Note[] }>(serverKey, q ? 'Search notes' : 'List notes', path);
        if (seq === listSeq.current) {
          setNotes(data.notes);
          setLoaded(true);
          clearError();
        }
      } catch (e) {
        if (seq === listSeq.current) fail(e);
      }
    },
    [serverKey, fail, clearError],
  );

  useEffect(() => {
    const t = setTimeout(() => void load(query.trim()), query ? 250 : 0);
    return () => clearTimeout(t);
  }, [query, load]);

  return { notes, query, setQuery, loaded, reload: () => load(query.trim()) };
}

/** A message shown for 2.5 s. */
function useFlash() {
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => setFlash(null), 2500);
    return () => clearTimeout(t);
  }, [flash]);
  return [flash, setFlash] as const;
}

/** The notes: list, selected note + draft, and the calls that change them. */
export function useNotes(serverKey: string | undefined) {
  const [error, setError] = useState<ErrorInfo | null>(null);
  const fail = useCallback((e: unknown) => setError(describeError(e)), []);
  const clearError = useCallback(() => setError(null), []);
  const list = useNoteList(serverKey, fail, clearError);
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const [busy, setBusy] = useState(false);
  const [flash, setFlash] = useFlash();

  async function open(id: string) {
    setBusy(true);
    try {
      const { note } = await api<{ note: Note }>(serverKey, 'Read note', `/api/notes/${encodeURIComponent(id)}`);
      setSelected(note.id);
      setDraft({ title: note.title, body: note.body });
      setError(null);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  /** A note change with the busy flag set: on success the flash message and a reloaded list, on failure the error banner. */
  async function mutate(message: string, change: () => Promise<void>) {
    setBusy(true);
    try {
      await change();
      setFlash(message);
      setError(null);
      await list.reload();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  async function save() {
    if (!draft.title.trim()) {
      setError({ code: 'DEMO_BAD_NOTE', message: 'Give the note a title first.' });
      return;
    }
    await mutate(selected ? 'Saved' : 'Created', async () => {
      const { note } = selected
        ? await api<{ note: Note }>(serverKey, 'Update note', `/api/notes/${encodeURIComponent(selected)}`, { method: 'PUT', json: draft })
        : await api<{ note: Note }>(serverKey, 'Create note', '/api/notes', { method: 'POST', json: draft });
      setSelected(note.id);
    });
  }

  async function remove() {
    if (!selected) return;
    await mutate('Deleted', async () => {
      await api(serverKey, 'Delete note', `/api/notes/${encodeURIComponent(selected)}`, { method: 'DELETE' });
      setSelected(null);
      setDraft(EMPTY_DRAFT);
    });
  }

  function startNew() {
    setSelected(null);
    setDraft(EMPTY_DRAFT);
  }

  return { ...list, selected, draft, setDraft, busy, flash, error, fail, clearError, open, save, remove, startNew };
}

/** The streamed answer to a question; errors go to `fail`, a success clears the banner. */
export function useAsk(serverKey: string | undefined, fail: (e: unknown) => void, clearError: () => void) {
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [answering, setAnswering] = useState(false);
  const askAbort = useRef<AbortController | null>(null);

  useEffect(() => () => askAbort.current?.abort(), []); // stop a running stream when the page goes away

  async function ask() {
    askAbort.current?.abort();
    const abort = (askAbort.current = new AbortController());
    setAnswering(true);
    setAnswer('');
    try {
      await streamTokens(serverKey, 'Ask (stream)', '/api/stream?delay=35', { question }, (t) => setAnswer((a) => a + t), abort.signal);
      clearError();
    } catch (e) {
      if (!abort.signal.aborted) fail(e);
    } finally {
      if (askAbort.current === abort) setAnswering(false);
    }
  }

  return { question, setQuestion, answer, answering, ask };
}
