// Vitest for @nen/seal: unit tests next to the sources, interop / CLI / browser suites in test/.
// Pitfall: the interop suites run the real `age` binary and Chromium, hence the long timeouts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
