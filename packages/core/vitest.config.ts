// Vitest for @nen/core: unit tests next to the sources (src/), vectors, loading proofs and browser suites in test/.
// Pitfall: test/ builds a Next.js app and drives Chromium (next-fixture, *.browser), hence the long timeouts; they need the built dist/ and wasm/.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Two files at a time even on 2 cores (vitest's default there is one): most files wait on servers,
    // processes and browsers, so overlapping them cuts the package's time (packages/core 108 -> 75 s, Node 20).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
