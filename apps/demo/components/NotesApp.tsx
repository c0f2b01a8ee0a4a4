'use client';
/**
 * The encrypted notes app: list + search, read, create, update, delete, and a streamed "ask your
 * notes" answer. Every call goes through the Nen client (lib/client.ts); nothing here touches
 * plaintext HTTP. The state and the calls are hooks (NotesApp.hooks.ts); this module renders them.
 *
 * Pitfall: the note ids travel in URL paths (/api/notes/<id>), visible to intermediaries by
 * design; titles, bodies and search terms stay in the envelope.
 */
import type { ErrorInfo } from '../lib/client';
import { useAsk, useNotes } from './NotesApp.hooks';
import { WirePanel } from './WirePanel';
import { SessionBadge } from './SessionBadge';

type Notes = ReturnType<typeof useNotes>;
type Ask = ReturnType<typeof useAsk>;

function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}

function NoteList({ n: { notes, query, setQuery, loaded, selected, open, startNew }, serverKey }: { n: Notes; serverKey?: string }) {
  return (
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
        <button type="button" className="btn primary" onClick={startNew} data-testid="new-note">
          New
        </button>
      </div>
      <ul className="note-list" data-testid="note-list" data-loaded={loaded ? 'true' : 'false'}>
        {notes.map((n) => (
          <li key={n.id}>
            <button
              type="button"
              className={`note-item${n.id === selected ? ' active' : ''}`}
              onClick={() => void open(n.id)}
              data-testid="note-item"
              data-id={n.id}
            >
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
  );
}

function ErrorBanner({ error, onDismiss }: { error: ErrorInfo | null; onDismiss: () => void }) {
  if (!error) return null;
  return (
    <div className="banner error" role="alert" data-testid="error-banner">
      <strong>{error.code}</strong> {error.message}
      <button type="button" className="banner-close" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

function NoteEditor({ n: { selected, flash, draft, setDraft, busy, save, remove } }: { n: Notes }) {
  return (
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
        <button type="button" className="btn primary" onClick={() => void save()} disabled={busy} data-testid="save-note">
          {selected ? 'Save' : 'Create'}
        </button>
        {selected && (
          <button type="button" className="btn danger" onClick={() => void remove()} disabled={busy} data-testid="delete-note">
            Delete
          </button>
        )}
      </div>
    </div>
  );
}

function AskPanel({ a: { question, setQuestion, answer, answering, ask } }: { a: Ask }) {
  return (
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
  );
}

export function NotesApp({ serverKey }: { serverKey?: string }) {
  const n = useNotes(serverKey);
  const a = useAsk(serverKey, n.fail, n.clearError);
  return (
    <div className="workspace">
      <NoteList n={n} serverKey={serverKey} />
      <section className="pane editor-pane">
        <ErrorBanner error={n.error} onDismiss={n.clearError} />
        <NoteEditor n={n} />
        <AskPanel a={a} />
      </section>
      <aside className="pane wire-pane">
        <WirePanel limit={4} compact />
      </aside>
    </div>
  );
}
