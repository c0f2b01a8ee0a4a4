/**
 * Sliding anti-replay window over 64-bit sequence numbers, RFC 4303 §3.4.3 style (THREAT_MODEL.md
 * property 7). One implementation shared by the in-memory store; the Redis store mirrors the
 * same algorithm in Lua (bit i of the bitmap = sequence number `highest - i` was seen).
 *
 * Pitfalls:
 *  - Check and update are separate on purpose: update only after the AEAD check succeeded,
 *    otherwise forged packets could advance the window and lock out the real client.
 *  - Sequence numbers start at 1; 0 is never valid (it marks "nothing seen yet").
 *  - Memory is O(1): WIDTH bits + the highest sequence number, whatever the traffic.
 */

export const REPLAY_WINDOW_WIDTH = 1024;
const WORDS = REPLAY_WINDOW_WIDTH / 32;

export type ReplayVerdict = 'ok' | 'replay' | 'too-old';

export class ReplayWindow {
  /** Highest accepted sequence number (0 = none). */
  highest = 0n;
  /** bit i (word i>>5, bit i&31) set = seq (highest - i) accepted. */
  readonly bits = new Uint32Array(WORDS);

  check(seq: bigint): ReplayVerdict {
    if (seq < 1n) return 'too-old';
    if (seq > this.highest) return 'ok';
    const diff = this.highest - seq;
    if (diff >= BigInt(REPLAY_WINDOW_WIDTH)) return 'too-old';
    const i = Number(diff);
    return (this.bits[i >>> 5]! >>> (i & 31)) & 1 ? 'replay' : 'ok';
  }

  /** Marks `seq` as seen; call only after `check(seq) === 'ok'` and a successful AEAD open. */
  accept(seq: bigint): void {
    if (seq > this.highest) {
      const shift = seq - this.highest;
      if (shift >= BigInt(REPLAY_WINDOW_WIDTH)) this.bits.fill(0);
      else this.#shiftLeft(Number(shift));
      this.highest = seq;
      this.bits[0] = this.bits[0]! | 1;
      return;
    }
    const i = Number(this.highest - seq);
    if (i < REPLAY_WINDOW_WIDTH) this.bits[i >>> 5] = this.bits[i >>> 5]! | (1 << (i & 31));
  }

  /** check + accept in one step (for callers that already verified the AEAD tag). */
  checkAndAccept(seq: bigint): ReplayVerdict {
    const v = this.check(seq);
    if (v === 'ok') this.accept(seq);
    return v;
  }

  /** Moves every bit from index i to i + n (older), dropping those past the window. */
  #shiftLeft(n: number): void {
    const wordShift = n >>> 5;
    const bitShift = n & 31;
    const b = this.bits;
    for (let w = WORDS - 1; w >= 0; w--) {
      const src = w - wordShift;
      let v = src >= 0 ? b[src]! << bitShift : 0;
      if (bitShift && src - 1 >= 0) v |= b[src - 1]! >>> (32 - bitShift);
      b[w] = v >>> 0;
    }
  }
}
