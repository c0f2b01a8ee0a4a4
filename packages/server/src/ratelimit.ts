/**
 * Handshake rate limit per client address (THREAT_MODEL.md property 12): a fixed one-minute window counter
 * per address in a bounded map.
 *
 * Pitfalls:
 *  - Memory is bounded by `maxEntries`: when full, expired windows are swept; if it is still full
 *    the oldest entry is dropped (an attacker rotating addresses can at worst reset others' counts,
 *    never grow memory).
 *  - The address comes from `x-forwarded-for` / `x-real-ip` by default, which only a trusted proxy
 *    makes meaningful; configure `clientAddress` for your deployment.
 */
export class HandshakeRateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  constructor(
    readonly perMinute: number,
    readonly maxEntries = 10_000,
  ) {}

  /** True when allowed (and counted); false when over the limit. perMinute <= 0 disables. */
  take(address: string, now: number): boolean {
    if (this.perMinute <= 0) return true;
    const w = this.#windows.get(address);
    if (w && now - w.start < 60_000) {
      if (w.count >= this.perMinute) return false;
      w.count++;
      return true;
    }
    if (w) this.#windows.delete(address);
    if (this.#windows.size >= this.maxEntries) this.#evict(now);
    this.#windows.set(address, { start: now, count: 1 });
    return true;
  }

  /** Seconds until the address's window resets. */
  retryAfter(address: string, now: number): number {
    const w = this.#windows.get(address);
    return w ? Math.max(1, Math.ceil((60_000 - (now - w.start)) / 1000)) : 1;
  }

  get size(): number {
    return this.#windows.size;
  }

  #evict(now: number): void {
    for (const [k, w] of this.#windows) if (now - w.start >= 60_000) this.#windows.delete(k);
    while (this.#windows.size >= this.maxEntries) {
      const first = this.#windows.keys().next();
      if (first.done) break;
      this.#windows.delete(first.value);
    }
  }
}

export function defaultClientAddress(request: Request): string {
  const xff = request.headers.get('x-forwarded-for');
  if (xff) return xff.split(',')[0]!.trim().slice(0, 64) || 'unknown';
  const real = request.headers.get('x-real-ip');
  return real ? real.trim().slice(0, 64) : 'unknown';
}
