/**
 * The in-process session key cache: an LRU of SessionKeys per (session id, epoch), reference
 * counted, so steady state costs one store round trip per request (the commit) and no key
 * derivation.
 *
 * Pitfalls:
 *  - Cached keys hold Wasm memory: an entry is disposed when it is evicted AND no request or stream
 *    still holds it (`refs`), never while one does.
 *  - Bounded by `max` entries (least recently used evicted first, to within a quarter of `max`: an
 *    entry is moved to the back only when it has fallen that far behind): memory stays flat
 *    whatever the number of sessions.
 */
import type { SessionKeys } from '@nen/core';

export interface CacheEntry {
  keys: SessionKeys;
  refs: number;
  evicted: boolean;
  /** #tick when last moved to the back (least-recently-used order, approximately). */
  stamp: number;
}

export class KeyCache {
  readonly #map = new Map<string, CacheEntry>();
  /** Counts insertions and moves to the back. */
  #tick = 0;
  constructor(readonly max: number) {}

  acquire(sid: string, epoch: number): CacheEntry | undefined {
    const k = `${sid}.${epoch}`;
    const e = this.#map.get(k);
    if (!e) return undefined;
    // Moved to the back only when a quarter of the cache was (re)inserted since it last was: an
    // entry in use stays far from the front anyway, and a re-insert on every request costs the
    // Map a delete and an insert (and, in time, a rehash).
    if (this.#tick - e.stamp > this.max >>> 2) {
      this.#map.delete(k);
      this.#map.set(k, e);
      e.stamp = ++this.#tick;
    }
    e.refs++;
    return e;
  }

  /** Inserts (replacing any entry) and returns it acquired once. */
  put(sid: string, epoch: number, keys: SessionKeys): CacheEntry {
    const k = `${sid}.${epoch}`;
    const old = this.#map.get(k);
    if (old) this.#evict(k, old);
    while (this.#map.size >= this.max) {
      const first = this.#map.entries().next();
      if (first.done) break;
      this.#evict(first.value[0], first.value[1]);
    }
    const e: CacheEntry = { keys, refs: 1, evicted: false, stamp: ++this.#tick };
    this.#map.set(k, e);
    return e;
  }

  release(e: CacheEntry): void {
    e.refs--;
    if (e.refs <= 0 && e.evicted) e.keys.dispose();
  }

  evictSession(sid: string, epoch: number): void {
    for (const ep of [epoch - 1, epoch, epoch + 1]) {
      const k = `${sid}.${ep}`;
      const e = this.#map.get(k);
      if (e) this.#evict(k, e);
    }
  }

  clear(): void {
    for (const [k, e] of this.#map) this.#evict(k, e);
  }

  get size(): number {
    return this.#map.size;
  }

  #evict(k: string, e: CacheEntry): void {
    this.#map.delete(k);
    e.evicted = true;
    if (e.refs <= 0) e.keys.dispose();
  }
}
