'use client';
/**
 * The encrypted notes app: list + search, read, create, update, delete, and a streamed "ask your
 * notes" answer. Every call goes through the Nen client (lib/client.ts); nothing here touches
 * plaintext HTTP.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, describeError, streamTokens, type ErrorInfo } from '../lib/client';
import { WirePanel } from './WirePanel';
import { SessionBadge } from './SessionBadge';

interface Note {
  id: string;
  title: string;
  body: string;
  createdAt: number;
  updatedAt: number;
}

const EMPTY_DRAFT = { title: '', body: '' };

function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}

export function NotesApp({ serverKey }: { serverKey?: string }) {
  const [notes, setNotes] = useState<Note[]>([]);
  const [query, setQuery] = useState('');
  const [loaded, setLoaded] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [flash, setFlash] = useState<string | null>(null);
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [answering, setAnswering] = useState(false);
  const listSeq = useRef(0);
  const askAbort = useRef<AbortController | null>(null);

  useEffect(() => () => askAbort.current?.abort(), []); // stop a running stream when the page goes away

  const fail = useCallback((e: unknown) => setError(describeError(e)), []);

  const load = useCallback(
    async (q: string) => {
      const seq = ++listSeq.current;
      try {
        const path = q ? `/api/notes?q=${encodeURIComponent(q)}` : '/api/notes';
        const data = await api<{ notes: Note[] }>(serverKey, q ? 'Search notes' : 'List notes', path);
        if (seq === listSeq.current) {
          setNotes(data.notes);
          setLoaded(true);
          setError(null);
        }
      } catch (e) {
        if (seq === listSeq.current) fail(e);
      }
    },
    [serverKey, fail],
  );

  useEffect(() => {
    const t = setTimeout(() => void load(query.trim()), query ? 250 : 0);
    return () => clearTimeout(t);
  }, [query, load]);

  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => setFlash(null), 2500);
    return () => clearTimeout(t);
  }, [flash]);

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

  /** A note change with the busy flag set: on success the flash message and a reloaded list, on failure the error banner. */
  async function mutate(flash: string, change: () => Promise<void>) {
    setBusy(true);
    try {
      await change();
      setFlash(flash);
      setError(null);
      await load(query.trim());
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  async function ask() {
    askAbort.current?.abort();
    const abort = (askAbort.current = new AbortController());
    setAnswering(true);
    setAnswer('');
    try {
      await streamTokens(serverKey, 'Ask (stream)', '/api/stream?delay=35', { question }, (t) => setAnswer((a) => a + t), abort.signal);
      setError(null);
    } catch (e) {
      if (!abort.signal.aborted) fail(e);
    } finally {
      if (askAbort.current === abort) setAnswering(false);
    }
  }

  return (
    <div className="workspace">
      <aside className="pane list-pane">
        <div className="pane-head">
          <input
            className="search"
            type="search"
            placeholder="Search notes…"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="search-input"
            aria-label="Search notes"
          />
          <button
            className="btn primary"
            onClick={() => {
              setSelected(null);
              setDraft(EMPTY_DRAFT);
            }}
            data-testid="new-note"
          >
            New
          </button>
        </div>
        <ul className="note-list" data-testid="note-list" data-loaded={loaded ? 'true' : 'false'}>
          {notes.map((n) => (
            <li key={n.id}>
              <button className={`note-item${n.id === selected ? ' active' : ''}`} onClick={() => void open(n.id)} data-testid="note-item" data-id={n.id}>
                <span className="note-title">{n.title}</span>
                <span className="note-snippet">{n.body.slice(0, 80) || '—'}</span>
                <span className="note-time">{ago(n.updatedAt)}</span>
              </button>
            </li>
          ))}
          {loaded && notes.length === 0 && <li className="empty">{query ? `No note matches “${query}”.` : 'No notes yet.'}</li>}
        </ul>
        <SessionBadge serverKey={serverKey} />
      </aside>

      <section className="pane editor-pane">
        {error && (
          <div className="banner error" role="alert" data-testid="error-banner">
            <strong>{error.code}</strong> {error.message}
            <button className="banner-close" onClick={() => setError(null)} aria-label="Dismiss">
              ×
            </button>
          </div>
        )}
        <div className="editor">
          <div className="editor-head">
            <span className="editor-kind">{selected ? 'Editing note' : 'New note'}</span>
            {flash && (
              <span className="flash" data-testid="flash">
                {flash}
              </span>
            )}
          </div>
          <input
            className="title-input"
            placeholder="Title"
            value={draft.title}
            maxLength={200}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
            data-testid="note-title-input"
          />
          <textarea
            className="body-input"
            placeholder="Write something only you and the server should read…"
            value={draft.body}
            maxLength={20000}
            onChange={(e) => setDraft({ ...draft, body: e.target.value })}
            data-testid="note-body-input"
          />
          <div className="editor-actions">
            <button className="btn primary" onClick={() => void save()} disabled={busy} data-testid="save-note">
              {selected ? 'Save' : 'Create'}
            </button>
            {selected && (
              <button className="btn danger" onClick={() => void remove()} disabled={busy} data-testid="delete-note">
                Delete
              </button>
            )}
          </div>
        </div>

        <div className="ask">
          <div className="ask-head">
            <h2>Ask your notes</h2>
            <span className="hint">a streamed answer, one encrypted record per token</span>
          </div>
          <form
            className="ask-form"
            onSubmit={(e) => {
              e.preventDefault();
              void ask();
            }}
          >
            <input
              className="ask-input"
              placeholder="e.g. what do I need to buy?"
              value={question}
              onChange={(e) => setQuestion(e.target.value)}
              data-testid="ask-input"
            />
            <button className="btn" type="submit" disabled={answering} data-testid="ask-button">
              {answering ? 'Streaming…' : 'Ask'}
            </button>
          </form>
          <p className={`answer${answering ? ' live' : ''}`} data-testid="ask-output" data-done={!answering && answer ? 'true' : 'false'}>
            {answer || <span className="muted">The answer streams here.</span>}
          </p>
        </div>
      </section>

      <aside className="pane wire-pane">
        <WirePanel limit={4} compact />
      </aside>
    </div>
  );
}
