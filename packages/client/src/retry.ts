/**
 * One request of the client with its recovery (PROTOCOL.md §7, §7.1; THREAT_MODEL.md property 13):
 * send once; after an unauthenticated 401-class answer to a request that was sent, re-handshake
 * and send ONE protocol 1.1 retry naming the original (session, epoch, seq, timestamp) in its AAD.
 *
 * Pitfalls:
 *  - An unauthenticated error never proves the handler did not run: only the server's sealed
 *    answer to the retry decides (run, NEN_RETRY_COMMITTED, NEN_RETRY_UNKNOWN).
 *  - Outcomes for the application: not sent (errors before the first send, as they are); sent,
 *    outcome unknown (NEN_OUTCOME_UNKNOWN, the underlying error as `cause`); refused
 *    (NEN_RETRY_COMMITTED: the original ran once).
 *  - Streamed bodies are never retried; nor an original older than RETRY_HORIZON_MS.
 */
import { NenProtocolError, clientError, recoveryOf } from './errors.js';
import { type Attempt, send } from './exchange.js';
import type { ClientConfig, WireExchange } from './options.js';
import type { Sessions } from './session.js';
import { type PreparedRequest, sleep } from './transport.js';

/** A retry is only sent this soon after the original (the server's horizon is longer: PROTOCOL.md "Retries"). */
export const RETRY_HORIZON_MS = 60_000;

function outcomeUnknown(e: unknown): NenProtocolError {
  const code = e instanceof NenProtocolError ? e.code : e instanceof Error ? e.name : 'error';
  return clientError('NEN_OUTCOME_UNKNOWN', `no authenticated answer (${code})`, e);
}

/** A sealed 409 answering a retry: NEN_RETRY_COMMITTED / NEN_RETRY_UNKNOWN (authenticated), else the response itself. */
async function refusedRetry(res: Response): Promise<NenProtocolError | null> {
  if (res.status !== 409) return null;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: { code?: unknown } } | null;
  const code = body?.error?.code;
  if (code === 'NEN_RETRY_COMMITTED')
    return new NenProtocolError(code, 'nen: the original request already ran (committed); the retry did not run', { status: 409 });
  if (code === 'NEN_RETRY_UNKNOWN')
    return outcomeUnknown(new NenProtocolError(code, 'nen: the server cannot prove the original request did not run; the retry did not run', { status: 409 }));
  return null;
}

export async function sendWithRetry(
  cfg: ClientConfig,
  sessions: Sessions,
  backoff: { ms: number },
  p: PreparedRequest,
  kind: WireExchange['kind'],
  retry: boolean,
): Promise<Response> {
  const first: Attempt = { ref: null, sentAt: 0 };
  const live = sessions.ensure(p.signal); // the live session (no await: one microtask hop less per request) or the handshake
  const s = (live instanceof Promise ? await live : live).acquire(); // fails: not sent
  let action: ReturnType<typeof recoveryOf>;
  try {
    const res = await send(cfg, s, p, kind, first);
    backoff.ms = 0;
    return res;
  } catch (e) {
    action = recoveryOf(e);
    if (action === 'fail' || first.ref === null) throw e;
    sessions.invalidate(s);
    // An unauthenticated 401-class answer to a request that was sent: the handler may have run.
    if (!retry || p.body instanceof ReadableStream || Date.now() - first.sentAt > RETRY_HORIZON_MS) throw outcomeUnknown(e);
  } finally {
    s.release();
  }
  try {
    if (action === 'rehandshake-once') {
      backoff.ms = Math.min(Math.max(backoff.ms * 2, 250), 10_000);
      await sleep(backoff.ms, p.signal);
    }
    return await resend(cfg, sessions, backoff, p, kind, first.ref);
  } catch (e) {
    if (e instanceof NenProtocolError && (e.code === 'NEN_RETRY_COMMITTED' || e.code === 'NEN_OUTCOME_UNKNOWN')) throw e;
    throw outcomeUnknown(e);
  }
}

/** The retry: a new session, the same request, naming the original (bound in its AAD). */
async function resend(
  cfg: ClientConfig,
  sessions: Sessions,
  backoff: { ms: number },
  p: PreparedRequest,
  kind: WireExchange['kind'],
  original: NonNullable<Attempt['ref']>,
): Promise<Response> {
  const s = (await sessions.ensure(p.signal)).acquire();
  try {
    const res = await send(cfg, s, p, kind, undefined, original);
    const refused = await refusedRetry(res);
    if (refused) throw refused;
    backoff.ms = 0;
    return res;
  } catch (e) {
    if (recoveryOf(e) !== 'fail') sessions.invalidate(s);
    throw e;
  } finally {
    s.release();
  }
}
