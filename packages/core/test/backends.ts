/**
 * The backends under test. Every backend the runtime supports must load here: a missing Wasm
 * build makes the suite fail (it is not skipped), so the vectors always run through the Wasm.
 */
import { expect } from 'vitest';
import { NenCryptoError, loadBackend, type Backend } from '../src/index.js';

export const BACKEND_KINDS = ['noble', 'wasm', 'node'] as const;

export async function loadAll(): Promise<Backend[]> {
  return Promise.all(BACKEND_KINDS.map((k) => loadBackend(k)));
}

/** The stable code of the NenCryptoError `fn` throws (fails the test on any other error), or undefined if it returns. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(NenCryptoError);
    return (e as NenCryptoError).code;
  }
  return undefined;
}
