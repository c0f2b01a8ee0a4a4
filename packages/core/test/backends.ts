/**
 * The backends under test. Every backend the runtime supports must load here: a missing Wasm
 * build makes the suite fail (it is not skipped), so the vectors always run through the Wasm.
 */
import { loadBackend, type Backend } from '../src/index.js';

export const BACKEND_KINDS = ['noble', 'wasm', 'node'] as const;

export async function loadAll(): Promise<Backend[]> {
  return Promise.all(BACKEND_KINDS.map((k) => loadBackend(k)));
}
