// Vitest for @nen/server: unit tests next to the sources (src/), end-to-end, adapter, Redis and workerd suites in test/.
// Pitfall: the suites start real redis-server and workerd processes on loopback ports, hence the long hook timeout.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Two files at a time even on 2 cores (vitest's default there is one): most files wait on servers,
    // processes and browsers, so overlapping them cuts the package's time (packages/server 136 -> 79 s, Node 20).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
