/**
 * What a call throws, for tests that check an error's code and HTTP status (the OHTTP codec's
 * NEN_OHTTP_* errors carry both).
 * Pitfall: a call that returns fails the test here, so a missing throw never passes as "no code".
 */

/** The error `f` throws, read for its `code` and `status`; throws when `f` returns. */
export function thrown(f: () => unknown): { code?: string; status?: number } {
  try {
    f();
  } catch (e) {
    return e as { code?: string; status?: number };
  }
  throw new Error('expected a throw');
}
