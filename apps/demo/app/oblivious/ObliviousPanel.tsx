'use client';
/**
 * The OHTTP panel: a 1 KB POST and a streamed (chunked OHTTP) answer from the demo's `withNen`
 * echo, encapsulated by @nen/client's OHTTP mode: no handshake, no session, the key config pinned
 * by the digest the server rendered. The page picks OHTTP, so it imports `@nen/client/ohttp`: the
 * OHTTP code comes with the page's chunk, and the first request waits for no lazy chunk (issue 23).
 *
 * Pitfalls:
 *  - `?relay=/path` posts through a relay on this origin (a browser cannot post cross-origin to a
 *    relay that sends no CORS headers); any other value is ignored and the gateway is used directly.
 *  - Errors are shown with their stable code (ERROR_CODES.md), e.g. NEN_OHTTP_KEY_MISMATCH when the
 *    served config is not the pinned one, NEN_OHTTP_TRUNCATED when a chunked answer is cut.
 */
import type { NenClient } from '@nen/client';
import { createOhttpClient } from '@nen/client/ohttp';
import { useRef, useState } from 'react';

const GATEWAY = '/.well-known/ohttp-gateway';

/** The 1 KB JSON body both buttons send (1024 bytes exactly). */
function kilobyteNote(): string {
  const head = '{"note":"';
  const tail = '"}';
  return head + 'oblivious '.repeat(102).slice(0, 1024 - head.length - tail.length) + tail;
}

interface Result {
  state: 'ok' | 'error';
  code?: string;
  text: string;
  chunks?: number;
}

function relayFromLocation(): string {
  const r = new URLSearchParams(window.location.search).get('relay');
  return r?.startsWith('/') && !r.startsWith('//') ? r : GATEWAY;
}

export function ObliviousPanel({ pin }: { pin: string }) {
  const client = useRef<NenClient | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);

  const nen = () => {
    client.current ??= createOhttpClient({ relay: relayFromLocation(), keyConfig: [pin], keyConfigUrl: GATEWAY });
    return client.current;
  };

  async function run(fn: () => Promise<Result>) {
    setBusy(true);
    setResult(null);
    try {
      setResult(await fn());
    } catch (e) {
      const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : 'UNKNOWN';
      setResult({ state: 'error', code, text: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }

  const post = () =>
    run(async () => {
      const res = await nen().fetch('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: kilobyteNote() });
      return { state: 'ok', code: String(res.status), text: await res.text() };
    });

  const stream = () =>
    run(async () => {
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: kilobyteNote() };
      const decoder = new TextDecoder();
      let text = '';
      let chunks = 0;
      for await (const piece of nen().stream('/api/echo', init)) {
        chunks++;
        text += decoder.decode(piece, { stream: true });
      }
      return { state: 'ok', text: text + decoder.decode(), chunks };
    });

  return (
    <div className="lab">
      <section className="lab-intro">
        <h1>Oblivious HTTP: no handshake, nobody learns who asked</h1>
        <p>
          Each request is encapsulated to the gateway&apos;s published X-Wing key (RFC 9458) and posted to a relay or the gateway itself. The key config is
          fetched from <code>{GATEWAY}</code> and used only if its digest matches the pin this page was served with.
        </p>
        <p>
          Pinned key config: <code data-testid="ohttp-pin">{pin}</code>
        </p>
        <div className="lab-actions">
          <button type="button" className="btn primary" disabled={busy} data-testid="ohttp-post" onClick={() => void post()}>
            1 KB POST (OHTTP)
          </button>
          <button type="button" className="btn" disabled={busy} data-testid="ohttp-stream" onClick={() => void stream()}>
            Streamed answer (chunked OHTTP)
          </button>
        </div>
      </section>
      {result && (
        <output data-testid="ohttp-result" data-state={result.state} data-code={result.code ?? ''} data-chunks={result.chunks ?? 0}>
          <pre>{result.text}</pre>
        </output>
      )}
    </div>
  );
}
