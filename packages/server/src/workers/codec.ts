/**
 * The JSON wire format between a Worker and its Nen session Durable Object (./store.ts ↔
 * ./session-object.ts): one POST per store call, `{ op, ...args }` in, `{ result }` out.
 *
 * Pitfalls: the secret travels base64url inside the Workers runtime only (a Durable Object stub is
 * not reachable from the internet); sequence numbers are decimal strings (JSON has no bigint).
 */
import { fromBase64Url, toBase64Url } from '@nen/core';
import type { SessionRecord } from '../stores/types.js';

export interface WireRecord {
  id: string;
  secret: string;
  meta: SessionRecord['meta'];
  epoch: number;
  createdAt: number;
  expiresAt: number;
  idleTimeoutMs: number;
  lastSeenAt: number;
  confirmBy?: number;
}

export type StoreOp =
  | { op: 'create'; session: WireRecord }
  | { op: 'get'; id: string; now: number }
  | { op: 'commit'; id: string; seq: string; now: number; epoch?: number }
  | { op: 'update'; id: string; patch: { secret?: string; meta?: SessionRecord['meta']; epoch?: number; expiresAt?: number } }
  | { op: 'delete'; id: string }
  | { op: 'consumeRetry'; id: string; seq: string; now: number }
  | { op: 'claimOnce'; key: string; ttlMs: number }
  | { op: 'size' };

export function encodeRecord(r: SessionRecord): WireRecord {
  const w: WireRecord = {
    id: r.id,
    secret: toBase64Url(r.secret),
    meta: r.meta,
    epoch: r.epoch,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    idleTimeoutMs: r.idleTimeoutMs,
    lastSeenAt: r.lastSeenAt,
  };
  if (r.confirmBy !== undefined) w.confirmBy = r.confirmBy;
  return w;
}

/** base64url → bytes; a malformed value (never produced by encodeRecord) is a TypeError. */
export function decodeSecret(s: string): Uint8Array {
  const b = typeof s === 'string' ? fromBase64Url(s) : null;
  if (!b) throw new TypeError('nen: malformed secret in a session store message');
  return b;
}

export function decodeRecord(w: WireRecord): SessionRecord {
  const r: SessionRecord = {
    id: w.id,
    secret: decodeSecret(w.secret),
    meta: w.meta,
    epoch: w.epoch,
    createdAt: w.createdAt,
    expiresAt: w.expiresAt,
    idleTimeoutMs: w.idleTimeoutMs,
    lastSeenAt: w.lastSeenAt,
  };
  return w.confirmBy === undefined ? r : { ...r, confirmBy: w.confirmBy };
}
