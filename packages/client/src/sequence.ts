/**
 * Sequence numbers for one session, with flow control against the server's replay window
 * (PROTOCOL.md, replay protection; RFC 4303 §3.4.3 style sliding window of REPLAY_WINDOW_WIDTH).
 *
 * The server rejects a sequence number more than REPLAY_WINDOW_WIDTH behind the highest one it has
 * accepted ("too old", 409). With many requests in flight on one session, a single stalled request
 * can be overtaken by a whole window of later ones and then be rejected although it was never
 * seen: a lost request. So a new number is handed out only while it stays less than
 * REPLAY_WINDOW_WIDTH - MARGIN ahead of the oldest number still awaiting its response head (by
 * then the server has committed or rejected it); otherwise the caller waits for that one.
 *
 * Pitfalls: numbers are released when the response head arrives or the fetch fails, never later
 * (a long stream would otherwise block the session); memory is bounded by the numbers in flight,
 * which the window bounds too; a waiting caller honours its AbortSignal.
 */
import { REPLAY_WINDOW_WIDTH } from '@nen/core';

/** Head room kept inside the window for numbers handed out while older ones are still in flight. */
const MARGIN = 64;
const SPAN = BigInt(REPLAY_WINDOW_WIDTH - MARGIN);

export class SequenceCounter {
  #next: bigint;
  /** Numbers handed out and not yet released, in order (released ones are dropped from the front). */
  readonly #inFlight: bigint[] = [];
  #head = 0;
  readonly #released = new Set<bigint>();
  readonly #waiters: Array<() => void> = [];

  constructor(first: bigint = 1n) {
    this.#next = first;
  }

  /** The next number, at once when the window allows it, else after older numbers are released. */
  acquire(signal?: AbortSignal | null): bigint | Promise<bigint> {
    if (this.#waiters.length === 0 && this.#fits()) return this.#take();
    return new Promise<bigint>((resolve, reject) => {
      const onAbort = () => {
        const i = this.#waiters.indexOf(wake);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal?.reason); // always set where this runs (Node >= 17.2, browsers since 2022)
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.#take());
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(wake);
    });
  }

  /** Marks a number as answered (or failed); wakes waiters the window now allows, in order. */
  release(seq: bigint): void {
    const oldest = this.#inFlight[this.#head];
    if (oldest === undefined || seq < oldest || seq >= this.#next) return; // not in flight (double release)
    // The oldest number answered first (the common case): moved past without touching the set.
    if (seq === oldest) this.#head++;
    else this.#released.add(seq);
    while (this.#released.size > 0 && this.#head < this.#inFlight.length && this.#released.delete(this.#inFlight[this.#head]!)) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#inFlight.length) {
      this.#inFlight.splice(0, this.#head);
      this.#head = 0;
    }
    while (this.#waiters.length > 0 && this.#fits()) this.#waiters.shift()!();
  }

  /** Numbers handed out and not yet released. */
  get inFlight(): number {
    return this.#inFlight.length - this.#head - this.#released.size;
  }

  #fits(): boolean {
    const oldest = this.#inFlight[this.#head];
    return oldest === undefined || this.#next - oldest < SPAN;
  }

  #take(): bigint {
    const seq = this.#next++;
    this.#inFlight.push(seq);
    return seq;
  }
}
