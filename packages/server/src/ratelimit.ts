/**
 * Handshake rate limit per client address (THREAT_MODEL.md property 12): a fixed one-minute window counter
 * per address in a bounded map.
 *
 * Pitfalls:
 *  - Memory is bounded by `maxEntries`: when full, expired windows are swept; if it is still full
 *    the oldest entry is dropped (an attacker rotating addresses can at worst reset others' counts,
 *    never grow memory).
 *  - The address comes from `x-forwarded-for` only with an explicit trusted-proxy hop count
 *    (`trustProxy`): a client can write anything into that header, so by default it is ignored and
 *    no per-address limit applies. `HandshakeCeiling` bounds handshakes per instance regardless.
 */
export class HandshakeRateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  /** The per-instance ceiling (handshakes per second, any address). */
  readonly ceiling: HandshakeCeiling;
  constructor(
    readonly perMinute: number,
    readonly maxEntries = 10_000,
    perSecond = 0,
  ) {
    this.ceiling = new HandshakeCeiling(perSecond);
  }

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

/**
 * The client address behind `hops` trusted proxies: the hops-th `x-forwarded-for` entry from the
 * right (each trusted proxy appends the address it saw; entries left of it are the client's own
 * claims). hops 0: null (headers are not trusted, no per-address limit).
 */
export function trustedProxyAddress(hops: number): (request: Request) => string | null {
  if (!(hops >= 1)) return () => null;
  const n = Math.floor(hops);
  return (request) => {
    const xff = request.headers.get('x-forwarded-for');
    if (!xff) return null;
    const list = xff.split(',').map((x) => x.trim());
    const addr = list[Math.max(0, list.length - n)] ?? '';
    return addr.slice(0, 64) || null;
  };
}

/** Per-instance ceiling: a token bucket of `perSecond` handshakes (burst one second's worth). */
export class HandshakeCeiling {
  #tokens: number;
  #at = 0;
  constructor(readonly perSecond: number) {
    this.#tokens = perSecond;
  }

  /** True when allowed (and counted). perSecond <= 0 disables. */
  take(now: number): boolean {
    if (this.perSecond <= 0) return true;
    const elapsed = Math.max(0, now - this.#at);
    this.#at = now;
    this.#tokens = Math.min(this.perSecond, this.#tokens + (elapsed * this.perSecond) / 1000);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
