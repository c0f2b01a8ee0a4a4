'use client';
/**
 * The wire inspector page: send sample encrypted requests and compare both sides of the wire.
 * Pitfall: its client runs with confidentialQuery on (lib/client.ts), so the queries shown inside
 * the envelope are a setting of this demo; a default client leaves them in the URL.
 */
import { useState } from 'react';
import { api, describeError, getClient, streamTokens, wireLog, type ErrorInfo } from '../lib/client';
import { WirePanel } from './WirePanel';
import { SessionBadge } from './SessionBadge';

export function WireLab({ serverKey }: { serverKey?: string }) {
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(fn: () => Promise<unknown>) {
    setBusy(true);
    try {
      await fn();
      setError(null);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="lab">
      <section className="lab-intro">
        <h1>What the network sees vs. what your app sees</h1>
        <p>
          Nen seals each body with a per-session key agreed through a post-quantum handshake. The path stays visible for routing; the query string
          (confidential-query mode, on here), the body and the response travel inside the envelope. Method, path, query and content type are authenticated, so a
          proxy cannot change them without the request failing.
        </p>
        <div className="lab-actions">
          <button
            type="button"
            className="btn primary"
            disabled={busy}
            data-testid="lab-post"
            onClick={() =>
              void run(() =>
                api(serverKey, 'Echo (POST)', '/api/echo', { method: 'POST', json: { card: '4111 1111 1111 1111', note: 'a secret for the server only' } }),
              )
            }
          >
            Encrypted POST
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            data-testid="lab-get"
            onClick={() => void run(() => api(serverKey, 'Echo (GET)', '/api/echo?account=alice&filter=unpaid'))}
          >
            Encrypted GET with query
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            data-testid="lab-stream"
            onClick={() => void run(() => streamTokens(serverKey, 'Token stream', '/api/stream?n=12&delay=20', {}, () => undefined))}
          >
            Token stream
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            data-testid="lab-rotate"
            title="Both sides move to fresh keys derived from the session secret; no new KEM"
            onClick={() => void run(() => getClient(serverKey).rotate())}
          >
            Rotate keys
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy}
            data-testid="lab-terminate"
            title="An authenticated request ends the session on the server; the next request handshakes again"
            onClick={() => void run(() => getClient(serverKey).terminate())}
          >
            End session
          </button>
          <button type="button" className="btn ghost" onClick={() => wireLog.clear()}>
            Clear
          </button>
        </div>
        {error && (
          <div className="banner error" role="alert" data-testid="error-banner">
            <strong>{error.code}</strong> {error.message}
          </div>
        )}
        <SessionBadge serverKey={serverKey} />
      </section>
      <WirePanel limit={10} />
    </div>
  );
}
