/**
 * `createNenClient(options)` (PROTOCOL.md; THREAT_MODEL.md properties 1-10): composes the client's
 * modules into `{ fetch, handshake, stream, rotate, terminate, status, session }`. Runs in browsers
 * and in Node >= 20 (no Node-only imports: only fetch, URL, Web Streams, CompressionStream).
 *
 *   options.ts  validation, pins, URL resolution     session.ts   handshake, live session, rekey
 *   transport.ts request normalisation, deadlines     exchange.ts  seal → send → verify (one attempt)
 *   sequence.ts  sequence numbers + flow control      errors.ts    typed errors, recovery table
 *   retry.ts     one request: send, and the 1.1 retry after an unauthenticated 401-class error
 *   ohttp/       the Oblivious HTTP mode (`mode: 'ohttp'`), loaded on first use
 *
 * Pitfalls:
 *  - Unauthenticated protocol errors are hints only, never proof that the handler did not run (an
 *    intermediary can forge them after the handler ran). On "session unknown/expired/timestamp"
 *    (and "authentication failed", after a backoff) the client re-handshakes and re-sends ONCE as a
 *    protocol 1.1 retry naming the original (session, epoch, seq, timestamp) inside the new
 *    authenticated request; the server runs it only if the original can never commit and did not
 *    (PROTOCOL.md "Retries"). Outcomes: success; NEN_RETRY_COMMITTED (sealed: the original ran);
 *    NEN_OUTCOME_UNKNOWN (anything else: the application decides). Streamed request bodies are
 *    never retried (NEN_OUTCOME_UNKNOWN), nor an original older than RETRY_HORIZON_MS.
 */
import { clientError } from './errors.js';
import { send } from './exchange.js';
import { type NenClientOptions, type WireExchange, resolveConfig } from './options.js';
import { type NenSessionInfo, type SessionState, Sessions } from './session.js';
import { sendWithRetry } from './retry.js';
import { bodyChunks, prepare } from './transport.js';
import { obliviousClient } from './ohttp/mode.js';

export type { NenClientOptions, WireExchange } from './options.js';
export type { NenSessionInfo } from './session.js';

export interface NenClient {
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  handshake(): Promise<NenSessionInfo>;
  /** The decrypted response body as an async iterable of chunks (for encrypted streams). */
  stream(input: RequestInfo | URL, init?: RequestInit): AsyncIterable<Uint8Array>;
  /** Rekey: both sides move to the next epoch keys (no KEM). */
  rotate(): Promise<NenSessionInfo>;
  /** Ends the session on the server (authenticated) and forgets it. */
  terminate(): Promise<void>;
  /** Server-side view of the session (authenticated). */
  status(): Promise<Record<string, unknown>>;
  readonly session: NenSessionInfo | null;
}

export function createNenClient(options: NenClientOptions = {}): NenClient {
  const cfg = resolveConfig(options);
  if (options.mode === 'ohttp') return obliviousClient(cfg);
  const sessions = new Sessions(cfg);
  const backoff = { ms: 0 };

  // Not async: a request whose arguments need no reading goes to sendWithRetry in this turn.
  function request(input: RequestInfo | URL, init: RequestInit | undefined, kind: WireExchange['kind'], retry: boolean): Promise<Response> {
    try {
      const p = prepare(cfg.resolveUrl, input, init);
      if (p instanceof Promise) return p.then((q) => sendWithRetry(cfg, sessions, backoff, q, kind, retry));
      return sendWithRetry(cfg, sessions, backoff, p, kind, retry);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async function sessionCall(action: 'rotate' | 'terminate' | 'status'): Promise<{ s: SessionState; value: Record<string, unknown> }> {
    const s = sessions.current;
    if (!s) throw clientError('NEN_BAD_INPUT', `no session to ${action}`);
    s.acquire();
    try {
      const p = await prepare(cfg.resolveUrl, cfg.resolveUrl(`${cfg.sessionPath}/${action}`), { method: 'POST' });
      const res = await send(cfg, s, p, 'session');
      const value = (await res.json()) as Record<string, unknown>;
      return { s, value };
    } finally {
      s.release();
    }
  }

  return {
    fetch: (input, init) => request(input, init, 'request', true),
    async handshake() {
      return (await sessions.handshake()).info;
    },
    stream(input, init) {
      return bodyChunks(() => request(input, init, 'request', true));
    },
    async rotate() {
      const { s, value } = await sessionCall('rotate');
      if (value.epoch !== s.epoch + 1) throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'rotate answered with an unexpected epoch');
      const ns = s.next(await sessions.backend());
      if (sessions.current === s) sessions.install(ns);
      else ns.retire();
      return ns.info;
    },
    async terminate() {
      const s = sessions.current;
      if (!s) return;
      try {
        await sessionCall('terminate');
      } finally {
        sessions.invalidate(s);
      }
    },
    async status() {
      return (await sessionCall('status')).value;
    },
    get session() {
      return sessions.current?.info ?? null;
    },
  };
}
