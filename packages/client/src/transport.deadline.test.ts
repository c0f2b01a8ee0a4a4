/**
 * The per-call deadline a request's fetch follows (src/transport.ts `callDeadline`): the timeout
 * aborts with NEN_TIMEOUT, the caller's signal with its own reason, `done()` disarms the timer (a
 * streamed body read after the head is not cut at the timeout), and without a timeout the fetch
 * follows the caller's own signal, or none: no AbortController made when nothing can end the call.
 */
import { describe, expect, it } from 'vitest';
import { callDeadline } from './transport.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('callDeadline', () => {
  it('a timeout aborts the signal; map() gives NEN_TIMEOUT with the fetch error as cause', async () => {
    const t = callDeadline(null, 20);
    expect(t.signal?.aborted).toBe(false);
    await sleep(60);
    expect(t.signal?.aborted).toBe(true);
    const e = t.map(new Error('fetch failed')) as Error & { code: string; cause: unknown };
    expect(e.code).toBe('NEN_TIMEOUT');
    expect((e.cause as Error).message).toBe('fetch failed');
    t.done();
  });

  it('done() disarms the timer: no abort after the timeout elapses', async () => {
    const t = callDeadline(null, 20);
    t.done();
    await sleep(60);
    expect(t.signal?.aborted).toBe(false);
    const e = new Error('x');
    expect(t.map(e)).toBe(e);
  });

  it("with a timeout, the caller's abort reaches the combined signal with its own reason", () => {
    const ac = new AbortController();
    const t = callDeadline(ac.signal, 10_000);
    expect(t.signal).not.toBe(ac.signal);
    const reason = new Error('user left');
    ac.abort(reason);
    expect(t.signal?.aborted).toBe(true);
    expect(t.map(new Error('fetch failed'))).toBe(reason);
    t.done();
  });

  it("without a timeout: the caller's own signal, its reason on abort; none when there is no signal", () => {
    const ac = new AbortController();
    const t = callDeadline(ac.signal, 0);
    expect(t.signal).toBe(ac.signal);
    const e = new Error('fetch failed');
    expect(t.map(e)).toBe(e);
    const reason = new Error('stop');
    ac.abort(reason);
    expect(t.map(e)).toBe(reason);
    const none = callDeadline(null, 0);
    expect(none.signal).toBeNull();
    expect(none.map(e)).toBe(e);
    none.done();
  });
});
