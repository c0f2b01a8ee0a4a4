// Vitest for @nen/seal: unit tests next to the sources, interop / CLI / browser suites in test/.
// Pitfall: the interop suites run the real `age` binary and Chromium, hence the long timeouts.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Two files at a time even on 2 cores (vitest's default there is one): most files wait on servers,
    // processes and browsers, so overlapping them cuts the package's time (packages/seal 29 -> 20 s, Node 20).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
