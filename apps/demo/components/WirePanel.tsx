'use client';
/**
 * The wire panel: for the last few requests, what an intermediary sees (method, URL, Nen headers,
 * ciphertext size and first bytes) next to what the application sees (the decrypted JSON).
 *
 * Pitfall: it shows lib/client.ts's bounded log (the last MAX_ENTRIES exchanges), truncated for
 * display (headers at 48 characters, bodies at 280 / 1200): what is cut is the panel's, not the wire's.
 */
import { useSyncExternalStore } from 'react';
import { wireLog, type WireEntry } from '../lib/client';

const SHOWN_HEADERS = /^(x-)?nen|^content-type$|^content-length$|^content-encoding$|^server-timing$/i;

function pretty(value: unknown, max: number): string {
  if (value === undefined) return '';
  const s = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function bytes(n: number | null): string {
  if (n === null) return 'stream';
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

function HeaderList({ pairs }: { pairs: Array<[string, string]> }) {
  const shown = pairs.filter(([k]) => SHOWN_HEADERS.test(k));
  if (shown.length === 0) return null;
  return (
    <dl className="headers">
      {shown.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd title={v}>{v.length > 48 ? `${v.slice(0, 48)}…` : v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Entry({ entry, compact }: { entry: WireEntry; compact: boolean }) {
  const w = entry.wire;
  const max = compact ? 280 : 1200;
  return (
    <article className={`wire-entry ${entry.state}`} data-testid="wire-entry" data-kind={entry.kind} data-state={entry.state}>
      <header>
        <span className="label">{entry.label}</span>
        <span className={`status s${String(w?.status ?? entry.app.status ?? '').slice(0, 1)}`}>
          {w?.status ?? entry.app.status ?? (entry.state === 'pending' ? '…' : '—')}
        </span>
      </header>
      <div className="sides">
        <div className="side network" data-testid="wire-network">
          <h4>On the wire</h4>
          {w ? (
            <>
              <code className="req-line">
                {w.method} {w.url.replace(/^https?:\/\/[^/]+/, '')}
              </code>
              {!compact && <HeaderList pairs={w.requestHeaders} />}
              <div className="cipher">
                <span className="meta">→ {bytes(w.requestBytes)}</span>
                <code className="hex" data-testid="wire-hex">
                  {w.requestHex || '(no body)'}
                </code>
              </div>
              <div className="cipher">
                <span className="meta">← {bytes(w.responseBytes)}</span>
                <code className="hex">{w.responseHex || (w.responseBytes === null ? '(encrypted records)' : '(no body)')}</code>
              </div>
              {!compact && <HeaderList pairs={w.responseHeaders} />}
            </>
          ) : (
            <span className="muted">{entry.state === 'pending' ? 'sending…' : 'no exchange recorded'}</span>
          )}
        </div>
        <div className="side app" data-testid="wire-app">
          <h4>In the app</h4>
          {entry.app.request !== undefined && <pre className="json req">{pretty(entry.app.request, max)}</pre>}
          {entry.app.error ? (
            <pre className="json err">
              {entry.app.error.code}: {entry.app.error.message}
            </pre>
          ) : entry.app.response !== undefined ? (
            <pre className="json res" data-testid="wire-app-response">
              {pretty(entry.app.response, max)}
            </pre>
          ) : (
            entry.app.request === undefined && <span className="muted">{entry.state === 'pending' ? 'waiting…' : '(no body)'}</span>
          )}
        </div>
      </div>
    </article>
  );
}

export function WirePanel({ limit, compact = false }: { limit: number; compact?: boolean }) {
  const entries = useSyncExternalStore(wireLog.subscribe, wireLog.getSnapshot, wireLog.getServerSnapshot);
  const shown = entries.slice(-limit).reverse();
  return (
    <div className={`wire-panel${compact ? ' compact' : ''}`} data-testid="wire-panel">
      <div className="wire-title">
        <h2>Wire</h2>
        <span className="hint">left: what a proxy, CDN or log sees · right: what your code sees</span>
      </div>
      {shown.length === 0 ? (
        <p className="muted">Requests appear here as you use the app.</p>
      ) : (
        shown.map((e) => <Entry key={e.id} entry={e} compact={compact} />)
      )}
    </div>
  );
}
