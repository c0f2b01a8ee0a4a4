// Vitest for @nen/server: unit tests next to the sources (src/), end-to-end, adapter, Redis and workerd suites in test/.
// Pitfall: the suites start real redis-server and workerd processes on loopback ports, hence the long hook timeout.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
