/**
 * Step 7's verdict (PROTOCOL.md "Server processing"): the answer of `store.commit` turned into
 * the committed session or a wire error, for the pipeline (./pipeline.ts) and streamed uploads
 * (./stream.ts, which commit after their first record).
 *
 * Pitfalls:
 *  - Synchronous, so a request awaits the store once; a refusal for a dead session or epoch also
 *    evicts that session's cached keys (the cache would otherwise keep answering for it).
 *  - A commit under the previous epoch is accepted only within its grace (`meta.prevUntil`), and
 *    an epoch the store has moved past is NEN_SESSION_UNKNOWN, never a replay.
 */
import { type RequestHead, wireError } from '@nen/core';
import type { ServerContext } from './pipeline.js';
import type { CommitResult, SessionRecord } from './stores/types.js';

function epochAcceptable(rec: SessionRecord, epoch: number, now: number): boolean {
  if (rec.epoch === epoch) return true;
  return epoch + 1 === rec.epoch && typeof rec.meta.prevUntil === 'number' && now < rec.meta.prevUntil;
}

/** The verdict of store.commit (step 7) as the session or a wire error; synchronous, so a request awaits the store once. */
export function committed(ctx: ServerContext, r: CommitResult, head: RequestHead, now: number): SessionRecord {
  const { sid } = head;
  const { epoch, seq } = head.meta;
  if (!r.ok) {
    if (r.reason === 'unknown' || r.reason === 'expired' || r.reason === 'epoch') {
      ctx.cache.evictSession(sid, epoch);
      throw wireError(r.reason === 'expired' ? 'NEN_SESSION_EXPIRED' : 'NEN_SESSION_UNKNOWN', `commit: ${r.reason}`);
    }
    throw wireError('NEN_REPLAY', `commit: ${r.reason} (seq ${seq})`);
  }
  if (!epochAcceptable(r.session, epoch, now)) {
    ctx.cache.evictSession(sid, epoch);
    throw wireError('NEN_SESSION_UNKNOWN', `epoch ${epoch} superseded by ${r.session.epoch}`);
  }
  return r.session;
}
