'use client';
/**
 * The assistant's wire panel: each exchange as an intermediary sees it, the chat stream record by
 * record (ciphertext).
 * Pitfall: it shows lib/assistant-wire.ts's bounded log (the last MAX_EXCHANGES exchanges, the
 * last MAX_CHUNKS chunks of each): older ones are dropped on purpose, not lost by the wire.
 */
import { useSyncExternalStore } from 'react';
import { rawWire } from '../lib/assistant-wire';

export function AssistantWire() {
  const exchanges = useSyncExternalStore(rawWire.subscribe, rawWire.getSnapshot, rawWire.getServerSnapshot);
  return (
    <div className="wire-panel" data-testid="assistant-wire">
      <div className="wire-title">
        <h3>On the wire</h3>
        <span className="hint">what a proxy, CDN or log sees</span>
      </div>
      {exchanges.length === 0 && <p className="muted">Nothing sent yet.</p>}
      {[...exchanges].reverse().map((e) => (
        <article
          key={e.id}
          className={`wire-entry ${e.status !== null && e.status >= 400 ? 'error' : 'ok'}`}
          data-testid="assistant-wire-entry"
          data-path={e.path}
        >
          <header>
            <span className="label">
              {e.method} {e.path}
            </span>
            <span className={`status s${String(e.status ?? '').slice(0, 1)}`}>{e.status ?? '…'}</span>
          </header>
          <div className="cipher">
            <span className="meta">→ {e.requestBytes} B</span>
            <code className="hex">{e.requestHex || '(no body)'}</code>
          </div>
          <div className="cipher">
            <span className="meta" data-testid="assistant-wire-count">
              ← {e.chunkCount} chunks, {e.responseBytes} B{e.done ? '' : ' …'}
            </span>
            <div>
              {e.chunks.map((c) => (
                <code key={c.seq} className="hex" data-testid="assistant-wire-hex" style={{ display: 'block' }}>
                  {c.bytes} B {c.hex}
                </code>
              ))}
            </div>
          </div>
        </article>
      ))}
    </div>
  );
}
