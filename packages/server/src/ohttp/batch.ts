/**
 * Back-to-back batches of one synchronous step of the OHTTP gateway (the decapsulation) while
 * the gateway is busy: a request that arrives within `busyMs` of the one before (or of the end of
 * the last batch) waits for the end of this event-loop turn (`setImmediate`), and every request queued by then runs the step in one
 * loop, one after the other. Under load a server interleaves ~0.6 ms of framework work (Next's
 * router, streams) between two requests' crypto, which then runs on code and data evicted from
 * the CPU's caches (bench/README.md, OHTTP tenth and twelfth passes: the same X-Wing Decap costs
 * 1.5-3x in `next start` what it costs in a loop); run back to back, all but the first find them
 * warm. Each item still runs the whole step and gets its own result or error: nothing is shared
 * between requests but the instruction and key caches.
 *
 * Pitfalls:
 *  - A lone request (idle gateway, the cold first request) runs inline, without a turn's delay:
 *    only a request that follows another within `busyMs` is queued.
 *  - Bounded: at `max` queued items the batch runs at once (synchronously, in the call that
 *    filled it), so the queue never holds more than `max` requests.
 *  - Without `setImmediate` (Next's Edge runtime) and on Cloudflare Workers (a promise settled from
 *    another request's turn is refused there) every call runs inline.
 *  - The step must not await: a batch is one synchronous loop.
 */

type Settle<O> = { readonly resolve: (o: O) => void; readonly reject: (e: unknown) => void };

export interface Batcher<I, O> {
  /** `step(input)`: inline (a value, or the error thrown) or queued (a promise of it). */
  run(input: I): O | Promise<O>;
}

const g = globalThis as { setImmediate?: (f: () => void) => unknown; navigator?: { userAgent?: string } };
/** The end-of-turn hook, where one event loop serves every request (not workerd: promises stay per request). */
const schedule = g.navigator?.userAgent === 'Cloudflare-Workers' ? undefined : g.setImmediate;

export function createBatcher<I, O>(step: (input: I) => O, o: { busyMs?: number; max?: number; now?: () => number } = {}): Batcher<I, O> {
  const busyMs = o.busyMs ?? 2;
  const max = Math.max(1, o.max ?? 32);
  const now = o.now ?? (() => performance.now());
  let inputs: I[] = [];
  let settles: Settle<O>[] = [];
  let last = Number.NEGATIVE_INFINITY;
  const flush = () => {
    const xs = inputs;
    const ss = settles;
    inputs = [];
    settles = [];
    for (let i = 0; i < xs.length; i++) {
      const s = ss[i] as Settle<O>;
      let out: O;
      try {
        out = step(xs[i] as I);
      } catch (e) {
        s.reject(e);
        continue;
      }
      s.resolve(out);
    }
    last = now(); // a request right after a batch joins the next one
  };
  return {
    run(input) {
      const t = now();
      const busy = t - last < busyMs;
      last = t;
      if (!schedule || (!busy && inputs.length === 0)) return step(input);
      const p = new Promise<O>((resolve, reject) => {
        inputs.push(input);
        settles.push({ resolve, reject });
      });
      if (inputs.length === 1) schedule(flush);
      else if (inputs.length >= max) flush();
      return p;
    },
  };
}
