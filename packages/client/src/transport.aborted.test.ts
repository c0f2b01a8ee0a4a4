/**
 * NEN_ABORTED: a caller's signal that fires without a reason of its own (an AbortSignal from a
 * polyfill that predates `reason`, as older fetch polyfills ship) rejects with NEN_ABORTED; a
 * standard signal's own reason is thrown as it is, as with `fetch`.
 */
import { describe, expect, it } from 'vitest';
import { untilAborted } from './transport.js';

/** A signal-like object without `reason` (the pre-2021 AbortSignal shape). */
function reasonlessSignal(): { signal: AbortSignal; fire: () => void } {
  const listeners: (() => void)[] = [];
  const s = {
    aborted: false,
    addEventListener: (_: string, f: () => void) => void listeners.push(f),
    removeEventListener: () => undefined,
  };
  return {
    signal: s as unknown as AbortSignal,
    fire: () => {
      s.aborted = true;
      for (const f of listeners) f();
    },
  };
}

describe('NEN_ABORTED', () => {
  it('a signal without a reason rejects with NEN_ABORTED, already aborted or aborted while waiting', async () => {
    const never = new Promise<never>(() => undefined);
    const a = reasonlessSignal();
    a.fire();
    await expect(untilAborted(never, a.signal)).rejects.toMatchObject({ code: 'NEN_ABORTED' });
    const b = reasonlessSignal();
    const waiting = untilAborted(never, b.signal);
    b.fire();
    await expect(waiting).rejects.toMatchObject({ code: 'NEN_ABORTED' });
  });

  it("a standard signal's own reason is thrown unchanged", async () => {
    const ac = new AbortController();
    const reason = new Error('user left');
    ac.abort(reason);
    await expect(untilAborted(Promise.resolve(1), ac.signal)).rejects.toBe(reason);
  });
});
