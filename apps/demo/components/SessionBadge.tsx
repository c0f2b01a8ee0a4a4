'use client';
/**
 * Shows the live Nen session (id, key id, expiry) and whether the server key is pinned.
 * Pitfalls: while the server renders there is no client and no session ("no session yet"); the
 * badge re-renders from the wire log's subscription in the browser. "Pinned" says a pin was handed
 * to the page; the handshake is what checks the server against it.
 */
import { useSyncExternalStore } from 'react';
import { getClient, wireLog } from '../lib/client';

export function SessionBadge({ serverKey }: { serverKey?: string }) {
  useSyncExternalStore(wireLog.subscribe, wireLog.getSnapshot, wireLog.getServerSnapshot);
  const session = typeof window === 'undefined' ? null : getClient(serverKey).session;
  return (
    <div className="session" data-testid="session-badge">
      <div className="session-row">
        <span className={`dot ${session ? 'on' : 'off'}`} />
        {session ? (
          <span>
            session <code>{session.id.slice(0, 10)}…</code>
          </span>
        ) : (
          <span>no session yet</span>
        )}
      </div>
      <div className="session-row small">
        {serverKey ? (
          <span className="pin ok" data-testid="pin-state">
            server key pinned ({serverKey.split(':')[0]})
          </span>
        ) : (
          <span className="pin warn" data-testid="pin-state">
            server key not pinned
          </span>
        )}
      </div>
      {session && <div className="session-row small muted">expires {new Date(session.expiresAt).toLocaleTimeString()}</div>}
    </div>
  );
}
