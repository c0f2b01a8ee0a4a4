/**
 * Small helpers of the Redis store (./redis.ts): the per-operation deadline, argument checks
 * (NEN_BAD_INPUT: a bug above the store, never wire input), and field decoding.
 *
 * Pitfall: the deadline timer is unref'd (never keeps a process alive) and always cleared.
 */
import { NenError } from '@nen/core';
import { StoreUnavailableError } from './types.js';

export const SESSION_ID = /^[A-Za-z0-9_-]{1,256}$/;

export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`session store ${what} did not complete within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Invalid arguments from the caller (a bug above the store, never wire input): NEN_BAD_INPUT. */
export function badInput(message: string): NenError {
  return new NenError('NEN_BAD_INPUT', message);
}

export function checkId(id: string): void {
  if (typeof id !== 'string' || !SESSION_ID.test(id)) throw badInput('nen: session id must be 1-256 base64url characters');
}

export function checkCount(v: number, name: string): void {
  if (!Number.isSafeInteger(v) || v < 0) throw badInput(`nen: ${name} must be a non-negative safe integer`);
}

export function num(b: Buffer): number {
  const n = Number(b.toString('latin1'));
  return Number.isFinite(n) ? n : Number.NaN;
}

/** Hash fields k (first 64 bytes) and j (the rest): keeps values listpack-sized (redis-scripts.ts). */
export function splitWrapped(u: Uint8Array): [Buffer, Buffer] {
  const b = Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return [b.subarray(0, 64), b.subarray(64)];
}

export function isBuf(v: unknown): v is Buffer {
  return Buffer.isBuffer(v);
}

export function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
